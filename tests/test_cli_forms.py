"""pi's top-level forms (``tether -p``, ``tether -c``, ``tether "prompt"``, ``-V``) and the
prompt/tool/session-folder options of chat and run, as real processes against the loopback
OpenAI-compatible server (a few repeats of a path already shown run in process)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_in_process import run_in_process
from tests.harness_helpers import chat_requests, read_entries, run_tether, session_files, write_home
from tether import __version__

MODEL = ["-m", "loop/test-model"]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    return project


def _user_texts(file: Path) -> list[str]:
    return [
        block["text"]
        for entry in read_entries(file)
        if entry.get("type") == "message" and entry["message"]["role"] == "user"
        for block in entry["message"]["content"]
    ]


def test_print_flag_is_run_and_short_model_flag_works(openai_server, tmp_path, project):
    home = write_home(tmp_path / "home", openai_server)
    openai_server.text("printed answer")
    done = run_tether("-p", *MODEL, "say something", home=home, cwd=project)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "printed answer\n"
    [file] = session_files(home)
    assert _user_texts(file) == ["say something"]
    assert chat_requests(openai_server)[-1]["model"] == "test-model"


def test_a_bare_prompt_starts_the_chat_and_dash_c_continues_it(openai_server, tmp_path, project):
    home = write_home(tmp_path / "home", openai_server)
    openai_server.text("first answer")
    first = run_tether(*MODEL, "first question", home=home, cwd=project, stdin_text="/quit\n")
    assert first.returncode == 0, first.stderr
    assert "first answer" in first.stdout and "tether chat" in first.stderr
    [file] = session_files(home)
    openai_server.text("second answer")
    again = run_tether("-c", *MODEL, home=home, cwd=project, stdin_text="second question\n")
    assert again.returncode == 0, again.stderr
    assert session_files(home) == [file]
    assert _user_texts(file) == ["first question", "second question"]


def test_resume_without_a_terminal_takes_the_most_recent_and_says_so(
    openai_server, tmp_path, project
):
    home = write_home(tmp_path / "home", openai_server)
    openai_server.text("one")
    assert run_tether("-p", *MODEL, "q1", home=home, cwd=project).returncode == 0
    [file] = session_files(home)
    openai_server.text("two")
    done = run_tether("-r", *MODEL, home=home, cwd=project, stdin_text="q2\n")
    assert done.returncode == 0, done.stderr
    notes = [line for line in done.stderr.splitlines() if "--resume" in line]
    assert len(notes) == 1 and "not a terminal" in notes[0] and str(file) in notes[0]
    assert _user_texts(file) == ["q1", "q2"]  # the list's number was not read from stdin


def test_system_prompt_append_tools_and_session_dir(openai_server, tmp_path, project):
    home = write_home(tmp_path / "home", openai_server)
    folder = tmp_path / "elsewhere"
    openai_server.text("arr")
    done = run_tether(
        "-p",
        *MODEL,
        "--system-prompt",
        "You are a pirate.",
        "--append-system-prompt",
        "Always end with ARR.",
        "--tools",
        "read,ls",
        "--session-dir",
        str(folder),
        "hello",
        home=home,
        cwd=project,
    )
    assert done.returncode == 0, done.stderr
    body = chat_requests(openai_server)[-1]
    system = body["messages"][0]
    assert system["role"] == "system" and system["content"].startswith("You are a pirate.")
    assert "Always end with ARR." in system["content"]
    assert [t["function"]["name"] for t in body["tools"]] == ["read", "ls"]
    assert session_files(home) == []
    [file] = sorted(folder.glob("*.jsonl"))
    assert _user_texts(file) == ["hello"]
    again = run_in_process("-p", *MODEL, "--tools", "read,nosuch", "x", home=home, cwd=project)
    assert again.returncode == 2 and again.stderr.count("\n") == 1
    assert "unknown tool nosuch" in again.stderr and "available: read, bash" in again.stderr


def test_run_session_with_a_new_path_creates_that_file(openai_server, tmp_path, project):
    home = write_home(tmp_path / "home", openai_server)
    target = tmp_path / "new" / "mine.jsonl"
    openai_server.text("hello back")
    done = run_tether("run", *MODEL, "--session", str(target), "hello", home=home, cwd=project)
    assert done.returncode == 0, done.stderr
    assert json.loads(target.read_text().splitlines()[0])["type"] == "session"
    assert _user_texts(target) == ["hello"] and session_files(home) == []


def test_version_help_and_typos(tmp_path, project):
    home = tmp_path / "home"
    for flag, run in (("-V", run_tether), ("-v", run_in_process), ("--version", run_in_process)):
        shown = run(flag, home=home, cwd=project)
        assert shown.returncode == 0 and shown.stdout == f"tether {__version__}\n"
    usage = run_tether("run", "--help", home=home, cwd=project).stdout
    assert "tether run [OPTIONS] [@FILE]... [PROMPT]..." in usage and "{prompt" not in usage
    assert "-m, --model" in usage and "--system-prompt" in usage
    root = run_tether("--help", home=home, cwd=project).stdout
    assert "tether -p [OPTIONS] PROMPT" in root
    typo = run_in_process("sesions", home=home, cwd=project)
    assert typo.returncode == 2 and "did you mean 'sessions'" in typo.stderr
    assert not (home / "sessions").exists()  # nothing was sent, no session made


def test_an_unknown_mode_is_one_line_naming_the_modes(tmp_path: Path) -> None:
    done = run_tether("--mode", "nosuch", "--provider", "faux", home=tmp_path / "h", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == "tether: error: --mode nosuch: expected text, json or rpc\n"
    text = run_tether(
        "--mode", "text", "-p", "--provider", "faux", "--no-session", "hello",
        home=tmp_path / "h", cwd=tmp_path,
    )  # fmt: skip
    assert text.returncode == 0 and text.stdout == "You said: hello\n", text.stderr


def test_usage_lines_name_required_arguments_as_click_does(tmp_path: Path) -> None:
    """The built-in ``usage_lines`` writes ``FILE``; without it the usage line is typer's."""
    home, project = write_home(tmp_path / "home"), tmp_path / "project"
    project.mkdir()
    plain = run_in_process("session", "show", "--help", home=home, cwd=project).stdout
    assert "tether session show [OPTIONS] FILE" in plain
    typer_own = run_tether(
        "--disable-plugin", "usage_lines", "session", "show", "--help", home=home, cwd=project
    )
    assert "tether session show [OPTIONS] {FILE}" in typer_own.stdout, typer_own.stderr


def test_a_bare_line_is_chat_through_pi_forms_alone(tmp_path: Path) -> None:
    """Which command a line naming none runs is the ``pi_forms`` plugin's (``chat``, as pi);
    without it the kernel names none: the root help."""
    from tether.core.host.manager import create_plugin_manager

    home, project = write_home(tmp_path / "home"), tmp_path / "project"
    project.mkdir()
    pm = create_plugin_manager(environ={"TETHER_LOAD_PLUGINS": ""}, disabled=["pi_forms"])
    bare = run_in_process(home=home, cwd=project, pm=pm)
    assert bare.returncode == 0 and bare.stdout.startswith("Usage: tether [OPTIONS] COMMAND")
    assert not (home / "sessions").exists()  # no chat started
