"""Context files and skills are the prompt plugin's decision, not the kernel's: the kernel
builds the options and joins sections; the ``prompt_sections`` plugin reads ``AGENTS.md`` and
``SKILL.md`` files (once per prompt) and reports what it cannot read."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from tether.builtin_plugins import prompt as prompt_sections
from tether.core.agent.prompt import assemble_system_prompt, build_prompt_options
from tether.core.host.manager import create_plugin_manager
from tether.hookspecs import hookimpl

NOW = datetime.fromisoformat("2025-01-01T00:00:00+00:00")
CORE = Path(__file__).resolve().parent.parent / "tether" / "core"


def _project(tmp_path: Path) -> tuple[Path, Path]:
    home, project = tmp_path / "home", tmp_path / "project"
    (project / ".tether" / "skills" / "lint").mkdir(parents=True)
    home.mkdir()
    (project / "AGENTS.md").write_bytes(b"Project rules \xff\xfe not UTF-8.")
    (project / "CLAUDE.md").write_text("Readable rules.")
    (project / ".tether" / "skills" / "lint" / "SKILL.md").write_text(
        "---\nname: lint\ndescription: Run the linter\n---\nRun ruff.\n"
    )
    return home, project


class Plain:
    @hookimpl
    def system_prompt_sections(self) -> str:
        return "Only this."


def test_the_kernel_reads_no_context_file_or_skill(tmp_path: Path) -> None:
    home, project = _project(tmp_path)
    options = build_prompt_options(project, [], home=home, now=NOW)
    assert options.warnings == [] and options.extra == {}  # nothing read yet
    pm = create_plugin_manager(load_entry_points=False, plugins=[("plain", Plain())])
    text, _ = assemble_system_prompt(pm, options)
    assert text == "Only this." and options.warnings == [] and options.extra == {}


def test_the_prompt_plugin_loads_them_once_and_reports_problems(tmp_path: Path) -> None:
    home, project = _project(tmp_path)
    warnings: list[str] = []
    options = build_prompt_options(project, [], home=home, now=NOW, warnings=warnings)
    pm = create_plugin_manager(
        load_entry_points=False, plugins=[("prompt_sections", prompt_sections)]
    )
    text, _ = assemble_system_prompt(pm, options)
    assert "Readable rules." in text  # AGENTS.md unreadable: the next name is used
    assert len(warnings) == 1
    assert warnings[0].startswith(f"{project / 'AGENTS.md'}: cannot read context file: ")
    loaded = options.extra[prompt_sections.CONTEXT_FILES]
    assert [f.path for f in loaded][-1] == str(project / "CLAUDE.md")
    assert [s.name for s in options.extra[prompt_sections.SKILLS]] == ["lint"]
    assemble_system_prompt(pm, options)  # kept in the options: not read (nor warned) again
    assert len(warnings) == 1


def test_a_run_shows_the_plugins_warning_once(tmp_path: Path) -> None:
    home, project = _project(tmp_path)
    env = {**os.environ, "TETHER_HOME": str(home), "HOME": str(home)}
    env.pop("TETHER_LOAD_PLUGINS", None)
    done = subprocess.run(
        [sys.executable, "-m", "tether", "run", "--no-session", "--provider", "faux", "hi"],
        cwd=project, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == "You said: hi\n"
    lines = [line for line in done.stderr.splitlines() if "cannot read context file" in line]
    assert len(lines) == 1 and str(project / "AGENTS.md") in lines[0], done.stderr


def _code_strings(path: Path) -> list[str]:
    """String constants of a module, docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings: set[int] = set()
    for node in ast.walk(tree):
        body: Any = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            docstrings.add(id(body[0].value))
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        if id(node) not in docstrings
    ]


def test_the_kernel_holds_no_feature_decision() -> None:
    found = []
    for path in sorted(CORE.glob("*.py")):
        for text in _code_strings(path):
            for word in ("AGENTS.md", "CLAUDE.md", "SKILL.md", "skills", "://"):
                if word in text:
                    found.append((path.name, text))
    assert found == []
    assert not (CORE / "skills.py").exists() and not (CORE / "context_files.py").exists()
