"""The layered system prompt: pi's structure (``golden/sysprompt.json.gz``), per-section
provenance, plugins adding sections and replacing tools, context files, skills, the CLI."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from tether.builtin_plugins import prompt as ours
from tether.builtin_plugins.prompt.context_file_loader import ContextFile, load_context_files
from tether.builtin_plugins.prompt.skill_loader import Skill, expand_skill_command, load_skills
from tether.core.agent.prompt import assemble_system_prompt, build_prompt_options
from tether.core.agent.tools import collect_tools, order_tools
from tether.core.base.errors import TetherError
from tether.core.host.manager import create_plugin_manager
from tether.hookspecs import hookimpl
from tether.hookspecs.prompt import PromptOptions, Section
from tether.hookspecs.tools import FunctionTool, ToolResult

GOLDEN = Path(__file__).parent / "fixtures" / "pi" / "golden" / "sysprompt.json.gz"
CASES = json.loads(gzip.decompress(GOLDEN.read_bytes()).decode("utf-8"))
NOW = datetime.fromisoformat("2025-01-01T00:00:00+00:00")


def _tool(name: str, snippet: str | None = None, guidelines: list[str] | None = None) -> Any:
    def run(call_id: str, args: dict, ctx: Any) -> ToolResult:
        return ToolResult.text(name)

    return FunctionTool(name, "", {"type": "object"}, run, name, snippet, guidelines or [])


@pytest.fixture(scope="module")
def pm() -> Any:
    return create_plugin_manager()


# --- pi's structure -------------------------------------------------------------------------
# tether writes its own wording for the fixed prose (intro, "other tools" line, general
# guidelines, context and skills preambles) and has no pi documentation block. To compare the
# structure with pi's goldens, the test maps tether's sentences onto pi's (taken from the
# goldens themselves) and removes pi's documentation block; everything else must be equal.


def _pi_vocabulary() -> dict[str, str]:
    plain = CASES[0]["response"]["prompt"].split("\n\n")
    bullets = plain[3].split("\n")[1:]
    prefer = CASES[2]["response"]["prompt"].split("Guidelines:\n- ", 1)[1].split("\n", 1)[0]
    rich = CASES[7]["response"]["prompt"]
    context_intro = rich.split("# Project Context\n\n", 1)[1].split("\n", 1)[0]
    preamble = rich.split("\n\n\n\n", 1)[1].split("\n\n<available_skills>", 1)[0].split("\n")
    mapping = {
        ours.INTRO: plain[0],
        ours.OTHER_TOOLS: plain[2],
        f"- {ours.GUIDELINE_BASH_ONLY}\n": f"{bullets[0]}\n",
        f"- {ours.GUIDELINE_PREFER_TOOLS}\n": f"- {prefer}\n",
        f"- {ours.GUIDELINE_CONCISE}\n": f"{bullets[1]}\n",
        f"- {ours.GUIDELINE_PATHS}\n": f"{bullets[2]}\n",
        ours.CONTEXT_INTRO: context_intro,
    }
    mapping.update(zip(ours.SKILLS_PREAMBLE, preamble, strict=True))
    return mapping


def _dedupe_guidelines(text: str) -> str:
    """pi drops exact duplicate bullets; after mapping our general bullets onto pi's words a
    tool guideline written in pi's words can repeat one of them (the case pi de-duplicates)."""
    head, sep, rest = text.partition("Guidelines:\n")
    if not sep:
        return text
    block, tail_sep, tail = rest.partition("\n\n")
    lines = block.split("\n")
    unique = [line for i, line in enumerate(lines) if line not in lines[:i]]
    return head + sep + "\n".join(unique) + tail_sep + tail


def _options_from_golden(case: dict) -> PromptOptions:
    opts = case["response"]["options"]
    names = opts.get("selectedTools", ["read", "bash", "edit", "write"])
    snippets = opts.get("toolSnippets", {})
    tools = [_tool(n, snippets.get(n)) for n in names]
    if tools:  # pi passes the active tools' guidelines as one flat list
        tools[0].prompt_guidelines = list(opts.get("promptGuidelines", []))
    return PromptOptions(
        cwd=opts["cwd"],
        tools=tools,
        custom_prompt=opts.get("customPrompt"),
        append_system_prompt=opts.get("appendSystemPrompt"),
        now=datetime.fromisoformat(case["response"]["now"].replace("Z", "+00:00")),
        extra={  # the context files and skills pi was given, instead of loading them from disk
            ours.CONTEXT_FILES: [
                ContextFile(f["path"], f["content"]) for f in opts.get("contextFiles", [])
            ],
            ours.SKILLS: [
                Skill(
                    s["name"],
                    s["description"],
                    s["filePath"],
                    s["baseDir"],
                    s.get("disableModelInvocation", False),
                )
                for s in opts.get("skills", [])
            ],
        },
    )


@pytest.mark.parametrize("case", CASES, ids=[f"sysprompt-{i}" for i in range(len(CASES))])
def test_structure_matches_pi(pm: Any, case: dict) -> None:
    text, _ = assemble_system_prompt(pm, _options_from_golden(case))
    for mine, pis in _pi_vocabulary().items():
        text = text.replace(mine, pis)
    expected = re.sub(r"\n\nPi documentation [^\n]*(?:\n- [^\n]*)+", "", case["response"]["prompt"])
    assert _dedupe_guidelines(text) == expected


def test_own_wording_differs_from_pi(pm: Any) -> None:
    text, _ = assemble_system_prompt(pm, _options_from_golden(CASES[1]))
    golden = CASES[1]["response"]["prompt"]
    assert text.split("\n\n")[0] != golden.split("\n\n")[0]
    assert "pi" not in text.split("\n\n")[0].split()


# --- provenance and third-party plugins -------------------------------------------------------


class HouseRules:
    """A third plugin: one extra section and its own ``read`` tool."""

    @hookimpl
    def system_prompt_sections(self, options: PromptOptions) -> Section:
        return Section("house-rules", 450, f"Always run the tests ({len(options.tools)} tools).")

    @hookimpl
    def register_tools(self, register: Any) -> None:
        register(_tool("read", "Read through the house cache"))
        register(_tool("deploy", "Ship it", ["Deploy only from main."]))


def _project(tmp_path: Path) -> tuple[Path, Path]:
    home, project = tmp_path / "home", tmp_path / "work" / "project"
    (project / ".tether" / "skills" / "lint").mkdir(parents=True)
    home.mkdir()
    (home / "AGENTS.md").write_text("Global rules.")
    (tmp_path / "work" / "CLAUDE.md").write_text("Workspace rules.")
    (project / "AGENTS.md").write_text("Project rules.")
    (project / "CLAUDE.md").write_text("Shadowed: AGENTS.md wins in this directory.")
    (project / ".tether" / "skills" / "lint" / "SKILL.md").write_text(
        "---\nname: lint\ndescription: Run <the> linter & fix\n---\nRun ruff.\n"
    )
    return home, project


def test_sections_in_order_with_their_plugins(pm: Any, tmp_path: Path) -> None:
    home, project = _project(tmp_path)
    tools = order_tools(collect_tools(pm))
    options = build_prompt_options(project, tools, home=home, now=NOW)
    text, sections = assemble_system_prompt(pm, options)
    assert [(p, s.name, s.order) for p, s in sections] == [
        ("prompt_sections", "intro", 100),
        ("prompt_sections", "tools", 200),
        ("prompt_sections", "guidelines", 300),
        ("prompt_sections", "context-files", 500),
        ("prompt_sections", "skills", 600),
        ("prompt_sections", "environment", 900),
    ]
    assert [t.name for t in tools] == [
        "read",
        "bash",
        "edit",
        "write",
        "grep",
        "find",
        "ls",
        "recall",
    ]
    assert "\n- grep: " in text and "\n- ls: " in text
    positions = [text.index(s) for s in ("Global rules.", "Workspace rules.", "Project rules.")]
    assert positions == sorted(positions) and "Shadowed" not in text
    assert f"## {project / 'AGENTS.md'}\n\nProject rules.\n\n" in text
    assert "<description>Run &lt;the&gt; linter &amp; fix</description>" in text
    assert text.endswith(f"\nCurrent date: 2025-01-01\nCurrent working directory: {project}")


def test_a_third_plugin_adds_a_section_and_replaces_a_tool(tmp_path: Path) -> None:
    home, project = _project(tmp_path)
    pm = create_plugin_manager(plugins=[("house", HouseRules())])
    origins: dict[str, str] = {}
    tools = order_tools(collect_tools(pm, origins=origins))
    assert origins["read"] == "house" and origins["bash"] == "tool_bash"
    assert [t.name for t in tools][:1] == ["read"] and tools[-1].name == "deploy"
    options = build_prompt_options(project, tools, home=home, now=NOW)
    text, sections = assemble_system_prompt(pm, options)
    names = [(p, s.name) for p, s in sections]
    assert (
        names.index(("house", "house-rules")) == names.index(("prompt_sections", "guidelines")) + 1
    )
    assert "\n- read: Read through the house cache\n" in text
    assert "\n- deploy: Ship it\n" in text and "\n- Deploy only from main.\n" in text
    assert "Always run the tests (9 tools).\n\n# Project Context" in text


def test_failing_or_odd_plugins(tmp_path: Path) -> None:
    class Broken:
        @hookimpl
        def system_prompt_sections(self, options: PromptOptions) -> None:
            raise ValueError("boom")

    class Plain:
        @hookimpl
        def system_prompt_sections(self) -> str:
            return "Plain text section."

    options = PromptOptions(cwd=str(tmp_path), now=NOW)
    with pytest.raises(TetherError, match="plugin 'broken' failed in system_prompt_sections"):
        assemble_system_prompt(create_plugin_manager(plugins=[("broken", Broken())]), options)
    text, sections = assemble_system_prompt(
        create_plugin_manager(plugins=[("plain", Plain())]), options
    )
    assert ("plain", "plain", 700) in [(p, s.name, s.order) for p, s in sections]
    assert "\n\nPlain text section.\nCurrent date: 2025-01-01" in text


def test_custom_and_appended_prompts_from_files(pm: Any, tmp_path: Path) -> None:
    home, project = _project(tmp_path)
    (project / ".tether" / "SYSTEM.md").write_text("You are the release bot.")
    (home / "APPEND_SYSTEM.md").write_text("Sign every answer.")
    tools = [_tool("bash", "Run")]  # no read tool: the skills index is left out
    options = build_prompt_options(
        project, tools, home=home, now=NOW, extra={ours.CONTEXT_FILES: []}
    )
    text, sections = assemble_system_prompt(pm, options)
    assert text == (
        "You are the release bot.\n\nSign every answer.\n"
        f"Current date: 2025-01-01\nCurrent working directory: {project}"
    )
    assert [s.name for _, s in sections] == ["intro", "append", "environment"]
    explicit = build_prompt_options(
        project, tools, home=home, custom_prompt="Inline.", append_system_prompt=["A", "B"]
    )
    assert explicit.custom_prompt == "Inline." and explicit.append_system_prompt == "A\n\nB"


# --- context files and skills ------------------------------------------------------------------


def test_context_files_order_and_names(tmp_path: Path) -> None:
    home, project = _project(tmp_path)
    files = load_context_files(project, home)
    mine = [f for f in files if f.path.startswith(str(tmp_path))]
    assert [(Path(f.path).relative_to(tmp_path).as_posix(), f.content) for f in mine] == [
        ("home/AGENTS.md", "Global rules."),
        ("work/CLAUDE.md", "Workspace rules."),
        ("work/project/AGENTS.md", "Project rules."),
    ]
    assert files[0].path == str(home / "AGENTS.md")
    inside = load_context_files(project, project)  # home inside the chain: listed once
    assert [f.path for f in inside].count(str(project / "AGENTS.md")) == 1


def test_skills_discovery_rules(tmp_path: Path) -> None:
    home, project = _project(tmp_path)
    user = home / "skills"
    (user / "group" / "pdf").mkdir(parents=True)
    (user / "group" / "pdf" / "SKILL.md").write_text(
        "---\ndescription: 'Work with PDFs'\ndisable-model-invocation: true\n---\nUse pdftotext.\n"
    )
    (user / "lint").mkdir()
    (user / "lint" / "SKILL.md").write_text("---\ndescription: user lint\n---\n")
    (user / "loose.md").write_text("---\nname: loose\ndescription: A loose file\n---\n")
    (user / "nodesc").mkdir()
    (user / "nodesc" / "SKILL.md").write_text("---\nname: nodesc\n---\n")
    (user / ".hidden").mkdir()
    (user / ".hidden" / "SKILL.md").write_text("---\ndescription: hidden dir\n---\n")
    warnings: list[str] = []
    skills = {s.name: s for s in load_skills(project, home, warnings=warnings)}
    assert sorted(skills) == ["lint", "loose", "pdf"]
    assert skills["lint"].source == "project"  # the project's skill wins the name
    assert skills["pdf"].disable_model_invocation and skills["pdf"].name == "pdf"
    assert any("description is required" in w for w in warnings)
    assert any("collides" in w for w in warnings)
    assert any('does not match parent directory "skills"' in w for w in warnings)
    expanded = expand_skill_command("/skill:pdf extract page 2", list(skills.values()))
    assert expanded == (
        f'<skill name="pdf" location="{user / "group" / "pdf" / "SKILL.md"}">\n'
        f"References are relative to {user / 'group' / 'pdf'}.\n\nUse pdftotext.\n</skill>"
        "\n\nextract page 2"
    )
    assert expand_skill_command("/skill:unknown x", list(skills.values())) == "/skill:unknown x"


# --- the command line -----------------------------------------------------------------------


def test_tether_prompt_command(tmp_path: Path) -> None:
    home, project = _project(tmp_path)
    env = {**os.environ, "TETHER_HOME": str(home)}

    def run(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "tether", "prompt", *args],
            cwd=project, env=env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        return done.stdout

    plain = run()
    assert plain.startswith(ours.INTRO) and "Project rules." in plain
    assert plain.rstrip("\n").endswith(f"Current working directory: {project}")
    explain = run("--explain").splitlines()
    assert [line.split()[:3] for line in explain] == [
        ["100", "prompt_sections", "intro"],
        ["200", "prompt_sections", "tools"],
        ["300", "prompt_sections", "guidelines"],
        ["500", "prompt_sections", "context-files"],
        ["600", "prompt_sections", "skills"],
        ["900", "prompt_sections", "environment"],
    ]
    assert explain[1].endswith("Available tools:")
    data = json.loads(run("--json"))
    assert data["prompt"] == plain.rstrip("\n")
    assert [t["name"] for t in data["tools"]][:4] == ["read", "bash", "edit", "write"]
    assert data["tools"][0]["plugin"] == "tool_read"
    assert str(project / "AGENTS.md") in data["contextFiles"]
    assert [s["name"] for s in data["sections"]][-1] == "environment"
