"""pi's print-mode habits: piped stdin merged into the prompt, ``@FILE`` arguments, several
messages in turn, ``--no-tools``, ``--api-key``, ``-p`` with ``--mode json`` — as real
processes against the loopback OpenAI-compatible server, whose logged request bodies show what
the model was sent."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest

from tests.cli_in_process import run_in_process
from tests.harness_helpers import chat_requests, run_tether, session_files, write_home

MODEL = ["-m", "loop/test-model"]
# the smallest valid PNG (1x1, transparent)
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    return project


def _user_turns(body: dict[str, Any]) -> list[Any]:
    """The user messages of a request: a string, or the list of parts."""
    return [m["content"] for m in body["messages"] if m["role"] == "user"]


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content if part["type"] == "text")


def test_piped_stdin_is_merged_into_the_prompt_or_is_the_prompt(openai_server, tmp_path, project):
    home = write_home(tmp_path / "home", openai_server)
    code = "def add(a, b):\n    return a + b\n"
    openai_server.text("a summary")
    done = run_tether("-p", *MODEL, "Summarize this", home=home, cwd=project, stdin_text=code)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "a summary\n"
    [turn] = _user_turns(chat_requests(openai_server)[-1])
    assert _text(turn) == code.strip() + "\n\nSummarize this"  # stdin first, as pi

    openai_server.text("ok")
    alone = run_tether("-p", *MODEL, home=home, cwd=project, stdin_text="the whole prompt\n")
    assert alone.returncode == 0, alone.stderr
    assert _user_turns(chat_requests(openai_server)[-1]) == ["the whole prompt"]


def test_no_prompt_at_all_is_one_line_and_no_session(tmp_path, project):
    home = write_home(tmp_path / "home")
    done = run_tether("-p", "--provider", "faux", home=home, cwd=project, stdin_text="  \n")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "no prompt" in done.stderr
    assert session_files(home) == []


def test_file_arguments_are_inlined_and_images_attached(openai_server, tmp_path, project):
    home = write_home(tmp_path / "home", openai_server)  # the model takes text and images
    (project / "calc.py").write_text("print(1 + 1)\n")
    (project / "shot.png").write_bytes(PNG)
    (project / "empty.txt").write_text("")
    openai_server.text("seen")
    done = run_tether(
        "-p", *MODEL, "@calc.py", "@shot.png", "@empty.txt", "What is this?",
        home=home, cwd=project,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    [turn] = _user_turns(chat_requests(openai_server)[-1])
    calc, shot = project / "calc.py", project / "shot.png"
    assert _text(turn) == (
        f'<file name="{calc}">\nprint(1 + 1)\n\n</file>\n<file name="{shot}"></file>\nWhat is this?'
    )
    [image] = [part for part in turn if part["type"] == "image_url"]
    assert image["image_url"]["url"] == "data:image/png;base64," + base64.b64encode(PNG).decode()


# Print mode without standard input: the tests above run it (and its stdin) as real processes;
# the ones below take the same paths in this process (tests/cli_in_process.py).


def test_an_image_for_a_text_only_model_is_left_out_with_a_warning(
    openai_server, tmp_path, project
):
    home = write_home(tmp_path / "home", openai_server, input=["text"])
    (project / "shot.png").write_bytes(PNG)
    openai_server.text("no eyes")
    done = run_in_process("-p", *MODEL, "@shot.png", "describe", home=home, cwd=project)
    assert done.returncode == 0, done.stderr
    [turn] = _user_turns(chat_requests(openai_server)[-1])
    assert _text(turn) == f'<file name="{project / "shot.png"}"></file>\ndescribe'
    assert isinstance(turn, str)  # text only: no image part
    assert "@shot.png: the model takes no images" in done.stderr


def test_a_missing_file_is_one_line_and_nothing_is_sent(openai_server, tmp_path, project):
    home = write_home(tmp_path / "home", openai_server)
    done = run_in_process("-p", *MODEL, "@nope.py", "review", home=home, cwd=project)
    assert done.returncode == 2
    assert done.stderr == f"tether: error: @nope.py: no such file ({project / 'nope.py'})\n"
    assert openai_server.requests == [] and session_files(home) == []


def test_a_file_under_a_file_or_a_folder_is_one_line_naming_it(tmp_path, project):
    """The reasons a store gives for a session file, said of an ``@FILE`` the same way."""
    from tether.builtin_plugins.commands.agent.inputs import read_file_arg
    from tether.cli import UsageError

    (project / "notes.txt").write_text("x")
    (project / "docs").mkdir()
    with pytest.raises(UsageError) as under_a_file:
        read_file_arg("notes.txt/more.md", str(project))
    assert str(under_a_file.value) == "@notes.txt/more.md: a parent folder is not a directory"
    with pytest.raises(UsageError) as folder:
        read_file_arg("docs", str(project))
    assert str(folder.value) == "@docs: is a directory, not a file"


def test_several_messages_are_sent_in_turn(openai_server, tmp_path, project):
    home = write_home(tmp_path / "home", openai_server)
    openai_server.text("answer one")
    openai_server.text("answer two")
    done = run_in_process("-p", *MODEL, "first", "second", home=home, cwd=project)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "answer two\n"  # pi prints the last answer
    first, second = chat_requests(openai_server)
    assert _user_turns(first) == ["first"]
    assert [m["role"] for m in second["messages"] if m["role"] != "system"] == [
        "user",
        "assistant",
        "user",
    ]
    assert _user_turns(second) == ["first", "second"]
    assert _text(second["messages"][-2]["content"]) == "answer one"
    [file] = session_files(home)
    assert file.read_text().count('"role":"user"') == 2


def test_no_tools_sends_no_builtin_tool_and_tools_adds_back(openai_server, tmp_path, project):
    home = write_home(tmp_path / "home", openai_server)
    openai_server.text("a")
    openai_server.text("b")
    bare = run_in_process("-p", *MODEL, "--no-tools", "hi", home=home, cwd=project)
    assert bare.returncode == 0, bare.stderr
    back = run_in_process(
        "-p", *MODEL, "--no-tools", "--tools", "read", "hi", home=home, cwd=project
    )
    assert back.returncode == 0, back.stderr
    none, some = chat_requests(openai_server)
    assert "tools" not in none
    assert [tool["function"]["name"] for tool in some["tools"]] == ["read"]


def test_api_key_is_the_key_sent_and_needs_a_model(openai_server, tmp_path, project):
    home = write_home(tmp_path / "home", openai_server)  # models.json's key: "test-key"
    openai_server.text("keyed")
    # real processes: --api-key holds for the whole process (in this one it would outlive
    # the test)
    done = run_tether("-p", *MODEL, "--api-key", "cli-key-123", "hi", home=home, cwd=project)
    assert done.returncode == 0, done.stderr
    assert openai_server.requests[-1].headers["authorization"] == "Bearer cli-key-123"
    bare = run_tether("-p", "--api-key", "k", "hi", home=home, cwd=project)
    assert bare.returncode == 2 and bare.stderr.count("\n") == 1
    assert "--api-key needs --model or --provider" in bare.stderr


def test_the_chat_inlines_files_into_its_first_prompt(openai_server, tmp_path, project):
    home = write_home(tmp_path / "home", openai_server)
    (project / "notes.md").write_text("# todo\n")
    openai_server.text("read it")
    done = run_tether(*MODEL, "@notes.md", "what is left?", home=home, cwd=project, stdin_text="")
    assert done.returncode == 0, done.stderr
    assert "tether chat" in done.stderr and "read it" in done.stdout
    [turn] = _user_turns(chat_requests(openai_server)[-1])
    assert turn == f'<file name="{project / "notes.md"}">\n# todo\n\n</file>\nwhat is left?'
