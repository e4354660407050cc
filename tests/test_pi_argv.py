"""pi's command-line forms, in process: ``--list-models``, ``--export``, ``-p`` with
``--mode json`` (compact lines, as RPC's), and how piped stdin is read (a terminal, an empty
pipe, an idle one, no stdin at all)."""

from __future__ import annotations

import io
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.harness_helpers import plugin_manager
from tether.builtin_plugins.commands import SessionOptions
from tether.builtin_plugins.commands.agent import inputs
from tether.builtin_plugins.commands.agent.setup import build_harness
from tether.builtin_plugins.commands.pi_forms import route_top_level
from tether.core.base.errors import UsageError
from tether.core.cli import app as cli
from tether.core.cli.argv import preparse_mode
from tether.hookspecs import hookimpl

COMMANDS = {"run", "chat", "models", "session", "sessions", "rpc"}


def test_list_models_and_export_become_tethers_commands() -> None:
    assert route_top_level(["--list-models"], COMMANDS) == ["models"]
    assert route_top_level(["--list-models", "gpt"], COMMANDS) == ["models", "gpt"]
    assert route_top_level(["--provider", "x", "--list-models", "-p"], COMMANDS) == ["models"]
    assert route_top_level(["--export", "s.jsonl"], COMMANDS) == [
        "session", "export", "s.jsonl", "--html",
    ]  # fmt: skip
    assert route_top_level(["--export", "s.jsonl", "o.html"], COMMANDS) == [
        "session", "export", "s.jsonl", "--html", "-o", "o.html",
    ]  # fmt: skip
    with pytest.raises(UsageError, match="--export needs a session file"):
        route_top_level(["--export"], COMMANDS)
    assert route_top_level(["--", "--list-models"], COMMANDS) == ["chat", "--", "--list-models"]


def test_print_flag_next_to_mode_json_or_rpc_is_dropped() -> None:
    assert preparse_mode(["-p", "--mode", "json", "hi"]) == ["run", "--json", "hi"]
    assert preparse_mode(["--mode=json", "--print", "hi", "--", "-p"]) == [
        "run", "--json", "hi", "--", "-p",
    ]  # fmt: skip
    assert preparse_mode(["--mode", "rpc", "-p"]) == ["rpc"]


def _main(argv: list[str], home: Path, monkeypatch: pytest.MonkeyPatch, stdin: str = "") -> int:
    monkeypatch.setenv("TETHER_HOME", str(home))
    monkeypatch.setenv("TETHER_FSYNC", "0")
    monkeypatch.setenv("TETHER_LOAD_PLUGINS", "")
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    return cli.main(argv)


def test_print_with_mode_json_prints_compact_lines(tmp_path, monkeypatch, capfd) -> None:
    code = _main(
        ["-p", "--mode", "json", "--provider", "faux", "--no-session", "hi"], tmp_path, monkeypatch
    )
    out, err = capfd.readouterr()
    assert code == 0, err
    lines = out.splitlines()
    assert json.loads(lines[0])["type"] == "session" and len(lines) > 3
    for line in lines:  # pi's JSON.stringify spacing, as the RPC lines
        assert line == json.dumps(json.loads(line), ensure_ascii=False, separators=(",", ":"))


def test_list_models_with_a_search(tmp_path, monkeypatch, capfd) -> None:
    assert _main(["--list-models", "faux"], tmp_path, monkeypatch) == 0
    out = capfd.readouterr().out
    assert out.splitlines()[0].startswith("MODEL") and "faux/faux-1" in out
    assert "openai/" not in out


def test_export_writes_the_html_page(tmp_path, monkeypatch, capfd) -> None:
    assert _main(["-p", "--provider", "faux", "hello"], tmp_path, monkeypatch) == 0
    [session] = sorted((tmp_path / "sessions").glob("*/*.jsonl"))
    capfd.readouterr()
    target = tmp_path / "page.html"
    assert _main(["--export", str(session), str(target)], tmp_path, monkeypatch) == 0
    assert capfd.readouterr().out == f"{target}\n"
    assert target.read_text().lstrip().lower().startswith("<!doctype html")


def test_stdin_that_is_a_terminal_closed_or_empty_is_no_input() -> None:
    assert inputs.read_piped_stdin(io.StringIO("")) is None
    assert inputs.read_piped_stdin(io.StringIO(" \n\t")) is None
    closed = io.StringIO("x")
    closed.close()
    assert inputs.read_piped_stdin(closed) is None
    main, other = os.openpty()
    try:
        with open(other, closefd=False) as terminal:
            assert inputs.read_piped_stdin(terminal) is None  # never read from a terminal
    finally:
        os.close(main)
        os.close(other)
    read, write = os.pipe()
    os.close(write)  # an empty pipe at its end
    with open(read) as pipe:
        assert inputs.read_piped_stdin(pipe, note=lambda: pytest.fail("no wait")) is None


def test_an_idle_pipe_is_waited_for_and_said_once(monkeypatch) -> None:
    monkeypatch.setattr(inputs, "STDIN_NOTE_AFTER", 0.05)
    read, write = os.pipe()
    notes: list[float] = []

    def late_writer() -> None:
        time.sleep(0.3)
        os.write(write, "late \u00e9text\n".encode())
        os.close(write)

    thread = threading.Thread(target=late_writer)
    thread.start()
    with open(read) as pipe:
        got = inputs.read_piped_stdin(pipe, note=lambda: notes.append(time.monotonic()))
    thread.join()
    assert got == "late \u00e9text" and len(notes) == 1


def test_a_dash_is_stdin_in_its_place_and_stdin_is_not_merged_again() -> None:
    read = inputs.read_inputs(["-", "second"], stdin=io.StringIO("from stdin\n"))
    assert read.messages == ["from stdin\n", "second"] and read.stdin is None


class _ToolPlugin:
    """A third-party plugin with one tool: ``--no-tools`` keeps it (pi keeps extension tools)."""

    @hookimpl
    def register_tools(self, register: Any) -> None:
        from tether.hookspecs.tools import FunctionTool

        register(FunctionTool("lookup", "Look up a word.", {"type": "object"}, run=print))


def test_no_tools_drops_the_builtin_tools_only(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TETHER_HOME", str(tmp_path))
    pm = plugin_manager(("lookup_plugin", _ToolPlugin()))
    names = {}
    for label, keep in (("none", None), ("read", "read")):
        options = SessionOptions(provider="faux", no_session=True, no_tools=True, tools=keep)
        harness, _ = build_harness(pm, options, cwd=str(tmp_path))
        names[label] = [tool.name for tool in harness.agent.state.tools]
        harness.close()
    assert names == {"none": ["lookup"], "read": ["read", "lookup"]}


def test_each_session_option_is_declared_once_on_its_field() -> None:
    """``SessionOptions`` is the options' one home: ``chat``, ``run`` and ``rpc`` end with its
    fields as their options, in order, each with the flag and default its field declares."""
    from dataclasses import fields

    import typer

    from tether.builtin_plugins.commands.agent import register_commands
    from tether.builtin_plugins.commands.rpc import register_commands as register_rpc

    app = typer.Typer()
    register_commands(app)
    register_rpc(app)
    commands = typer.main.get_command(app).commands  # type: ignore[attr-defined]
    declared = [(f.name, f.default) for f in fields(SessionOptions)]
    for name in ("chat", "run", "rpc"):
        params = commands[name].params[-len(declared) :]
        assert [(p.name, p.default) for p in params] == declared
        flags = {p.name: p.opts[0] for p in params}
        assert flags["continue_recent"] == "--continue"
        assert flags["session_dir"] == "--session-dir"
