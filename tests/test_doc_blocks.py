"""Every code block in docs/ runs, and the plugin of docs/plugins.md installs and works.

A block is run (python exec'd, json parsed, bash lines that are ``tether …`` commands run as
subprocesses in a temporary ``TETHER_HOME``), or is a file of the example plugin, or is a
``text`` diagram, or carries ``<!-- not run: why -->`` right above it; nothing is skipped
silently. The example plugin is assembled only from docs/plugins.md's blocks, installed with
pip into a temporary folder, and driven through the real ``tether`` command and its own tests.
"""

from __future__ import annotations

import gzip
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.doc_blocks import DOCS, Block, all_doc_blocks, doc_blocks, shell_commands
from tests.pip_target import pip_install

PLUGIN_DOC = DOCS / "plugins.md"
RUN_LANGS = {"python", "json", "bash", "toml"}

#: What the prose of docs/plugins.md says each command shows (every runnable command has one).
PLUGIN_COMMANDS: dict[str, list[str]] = {
    "tether plugins": ["tether-notes 0.1.0", "one-line (notes)"],
    "tether hooks before_agent_start": ["notes"],
    "tether --disable-plugin notes plugins": ["blocked"],
    "tether run --provider faux": ["Three words."],
    'tether run --provider faux "hi"': ["before_agent_start(event, session) -> [notes]"],
}


#: The store plugin of docs/plugins.md ("Writing a store plugin"): its project folder, and what
#: the prose says each of its commands shows.
STORE_PROJECT = "tether-gzstore/"
STORE_COMMANDS: dict[str, list[str]] = {
    "tether run --session ./demo.jsonl.gz": ["You said: hello"],
    "tether session context demo.jsonl.gz": ["hello", "You said: hello"],
    "tether session show --validate demo.jsonl.gz": ["problems:  none", "format v3 on disk"],
}


def _in_store_guide(block: Block) -> bool:
    """Is ``block`` in the section "Writing a store plugin" of docs/plugins.md?"""
    lines = PLUGIN_DOC.read_text(encoding="utf-8").splitlines()
    start = lines.index("## Writing a store plugin") + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("## ")) + 1
    return block.doc == PLUGIN_DOC.name and start < block.line < end


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TETHER_", "PYTEST_"))}
    return {**env, **extra}


def _argv(command: str) -> tuple[dict[str, str], list[str]]:
    """``VAR=value … tether ARGS`` → (the variables, the argv to run)."""
    words = shlex.split(command)
    assignments: dict[str, str] = {}
    while words and "=" in words[0] and not words[0].startswith("-"):
        name, value = words.pop(0).split("=", 1)
        assignments[name] = value
    assert words and words[0] == "tether", f"not a tether command: {command}"
    return assignments, [sys.executable, "-m", "tether", *words[1:]]


def _is_tether_command(command: str) -> bool:
    try:
        _argv(command)
    except (AssertionError, ValueError):
        return False
    return True


def _run_command(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    assignments, argv = _argv(command)
    return subprocess.run(
        argv, cwd=cwd, env={**env, **assignments}, capture_output=True, text=True, timeout=120
    )


def _problem(block: Block) -> str | None:
    """Why this block would not be run by the suite (``None``: it is run or marked)."""
    if block.lang == "text" or block.file is not None:
        return None
    if block.not_run is not None:
        return None if block.not_run else "a 'not run:' comment without a reason"
    if block.lang not in RUN_LANGS or block.lang == "toml":
        return f"a {block.lang or 'plain'} block that nothing runs (mark it not run, or a file)"
    if block.lang == "bash":
        bad = [line for line in shell_commands(block) if not _is_tether_command(line)]
        if bad:
            return f"bash lines that are not tether commands: {bad}"
    return None


def test_every_block_is_run_or_marked_not_run() -> None:
    blocks = all_doc_blocks()
    assert len(blocks) >= 10
    assert [f"{b.where}: {_problem(b)}" for b in blocks if _problem(b)] == []


def test_file_blocks_exist_only_in_the_plugin_guide() -> None:
    assert [b.where for b in all_doc_blocks() if b.file and b.doc != PLUGIN_DOC.name] == []


def test_blocks_of_the_other_docs_run(tmp_path: Path) -> None:
    """Blocks outside the plugin guide: python exec'd with tether, json parsed, tether run."""
    env = _clean_env(TETHER_HOME=str(tmp_path / "home"), TETHER_LOAD_PLUGINS="")
    for block in all_doc_blocks():
        if block.doc == PLUGIN_DOC.name or block.not_run is not None or block.lang == "text":
            continue
        if block.lang == "python":
            exec(compile(block.body, block.where, "exec"), {"__name__": "doc_block"})  # noqa: S102
        elif block.lang == "json":
            json.loads(block.body)
        elif block.lang == "bash":
            for command in shell_commands(block):
                done = _run_command(command, tmp_path, env)
                assert done.returncode == 0, f"{block.where}: {command}: {done.stderr}"


# -- the plugin of docs/plugins.md -------------------------------------------------------------


@pytest.fixture(scope="module")
def notes_plugin(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The example project written from the guide's file blocks and pip-installed."""
    root = tmp_path_factory.mktemp("notes")
    project, site, home = root / "tether-notes", root / "site", root / "home"
    home.mkdir()
    for block in doc_blocks(PLUGIN_DOC):
        if block.file is None or block.file.startswith(STORE_PROJECT):
            continue
        target = project / block.file
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(block.body, encoding="utf-8")
    installed = pip_install(site, ".", cwd=project)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert (site / "tether_notes" / "plugin.py").is_file()
    env = _clean_env(TETHER_HOME=str(home), PYTHONPATH=str(site), TETHER_LOAD_PLUGINS="notes")
    return project, env


def test_the_guide_names_every_file_of_the_plugin() -> None:
    files = {b.file for b in doc_blocks(PLUGIN_DOC) if b.file}
    assert {"pyproject.toml", "tether_notes/plugin.py", "tests/test_notes.py"} <= files


def test_the_guides_commands_show_what_it_says(notes_plugin: tuple[Path, dict[str, str]]) -> None:
    project, env = notes_plugin
    commands = [
        line
        for block in doc_blocks(PLUGIN_DOC)
        if block.lang == "bash" and block.not_run is None and not _in_store_guide(block)
        for line in shell_commands(block)
    ]
    assert len(commands) >= 4
    for command in commands:
        done = _run_command(command, project, env)
        assert done.returncode == 0, f"{command}: {done.stderr}"
        key = max((k for k in PLUGIN_COMMANDS if k in command), key=len, default=None)
        assert key is not None, f"no expectation for the guide's command {command!r}"
        for expected in PLUGIN_COMMANDS[key]:
            assert expected in done.stdout + done.stderr, f"{command}: {expected!r} not shown"


def test_the_guides_own_tests_pass(notes_plugin: tuple[Path, dict[str, str]]) -> None:
    project, env = notes_plugin
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_notes.py"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout


def test_the_guides_python_snippets_run(notes_plugin: tuple[Path, dict[str, str]]) -> None:
    project, env = notes_plugin
    snippets = [
        b for b in doc_blocks(PLUGIN_DOC) if b.lang == "python" and b.file is None and not b.not_run
    ]
    assert snippets
    for block in snippets:
        done = subprocess.run(
            [sys.executable, "-c", block.body],
            cwd=project.parent,  # the installed plugin, not the project's source folder
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, f"{block.where}: {done.stderr}"


def test_the_guides_settings_reach_the_plugin(notes_plugin: tuple[Path, dict[str, str]]) -> None:
    """The settings block is the project's .tether/settings.json: its rule is injected."""
    project, env = notes_plugin
    (settings,) = [b for b in doc_blocks(PLUGIN_DOC) if b.file == ".tether/settings.json"]
    rule = json.loads(settings.body)["plugins"]["notes"]["rule"]
    done = _run_command("tether run --no-session --json --provider faux hello", project, env)
    assert done.returncode == 0, done.stderr
    assert f"House rule: {rule}" in done.stdout


# -- the store plugin of docs/plugins.md -------------------------------------------------------


def test_the_store_plugin_of_the_guide_passes_its_checks_and_serves_the_commands(
    tmp_path: Path,
) -> None:
    """The guide's ``tether-gzstore`` blocks, pip-installed: its own test (``check_store``)
    passes, and the section's commands run on a ``.jsonl.gz`` session and show what it says."""
    project, site, home = tmp_path / "tether-gzstore", tmp_path / "site", tmp_path / "home"
    home.mkdir()
    blocks = [b for b in doc_blocks(PLUGIN_DOC) if _in_store_guide(b)]
    files = [b for b in blocks if b.file]
    assert files and all(b.file and b.file.startswith(STORE_PROJECT) for b in files)
    for block in files:
        assert block.file is not None
        target = tmp_path / block.file
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(block.body, encoding="utf-8")
    installed = pip_install(site, ".", cwd=project)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    env = _clean_env(TETHER_HOME=str(home), PYTHONPATH=str(site), TETHER_LOAD_PLUGINS="gzstore")
    tested = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert tested.returncode == 0 and "1 passed" in tested.stdout, tested.stdout + tested.stderr
    commands = [
        line for b in blocks if b.lang == "bash" and not b.not_run for line in shell_commands(b)
    ]
    assert len(commands) == len(STORE_COMMANDS)
    for command in commands:
        done = _run_command(command, project, env)
        assert done.returncode == 0, f"{command}: {done.stderr}"
        key = next(k for k in STORE_COMMANDS if command.startswith(k))
        for expected in STORE_COMMANDS[key]:
            assert expected in done.stdout, f"{command}: {expected!r} not shown"
    with gzip.open(project / "demo.jsonl.gz", "rt", encoding="utf-8") as stored:
        assert json.loads(stored.readline())["type"] == "session"  # compressed, by the plugin
