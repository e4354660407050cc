"""Malformed stored messages (issue 7, item 8): the context stays pi's, requests cope.

A user ``content`` that is an object, an assistant ``content`` that is a string, a tool result
without ``toolCallId``…: ``tether run --session F`` against the loopback servers works, with
one warning naming ``FILE:LINE`` and the field; ``show --validate`` reports the same; the
context (``session context --json``) equals pi's (oracle output in ``pi-context.json``); the
file is never changed.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli_in_process import run_in_process
from tests.harness_helpers import (
    NO_THIRD_PARTY,
    open_harness,
    plugin_manager,
    run_tether,
    write_home,
)
from tether import HookError, create_plugin_manager, hookimpl
from tether.builtin_plugins.memory.serialize import serialize_conversation
from tether.builtin_plugins.providers.message_check import message_issues, sanitize_message
from tether.core.cli.app import main
from tether.core.context.convert import convert_to_llm
from tether.core.session.session import Session

FIXTURES = Path(__file__).parent / "fixtures" / "bad_values"
PI_CONTEXT = json.loads((FIXTURES / "pi-context.json").read_text())
MODEL = ("--model", "loop/test-model")

Check = Callable[[list[dict[str, Any]]], bool]


def _roles(sent: list[dict[str, Any]]) -> list[str]:
    return [m["role"] for m in sent]


def _tool(sent: list[dict[str, Any]]) -> dict[str, Any]:
    return next(m for m in sent if m["role"] == "tool")


def _user_texts(sent: list[dict[str, Any]]) -> list[Any]:
    return [m["content"] for m in sent if m["role"] == "user"]


# fixture → (line, field, what the OpenAI request shows)
CASES: dict[str, tuple[int, str, Check]] = {
    "user-content-object": (
        2,
        "message.content",
        lambda sent: _roles(sent) == ["system", "assistant", "user"],  # the bad user left out
    ),
    "user-no-content": (2, "message.content", lambda sent: _roles(sent)[1] == "assistant"),
    "assistant-content-string": (
        3,
        "message.content",
        lambda sent: sent[2] == {"role": "assistant", "content": "plain string"},
    ),
    "assistant-block-null": (
        3,
        "message.content[0]",
        lambda sent: sent[2] == {"role": "assistant", "content": "ok"},
    ),
    "toolresult-no-id": (
        4,
        "message.toolCallId",
        lambda sent: _tool(sent)["content"] == "No result provided",  # pi's synthetic result
    ),
    "toolresult-content-string": (
        4,
        "message.content",
        lambda sent: _tool(sent) == {"role": "tool", "content": "plain", "tool_call_id": "c1"},
    ),
    "user-block-string": (
        2,
        "message.content[0]",
        lambda sent: _user_texts(sent)[0] == "x",
    ),
    "text-not-a-string": (2, "message.content[0]", lambda sent: _roles(sent)[1] == "assistant"),
    "toolcall-arguments-string": (
        3,
        "message.content[0].arguments",
        lambda sent: sent[2]["tool_calls"][0]["function"]["arguments"] == "{}",
    ),
}


@pytest.fixture
def tether_here(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> Callable[..., tuple[int, str]]:
    """``tether ARGS`` in this process (the built-ins only): its exit code and stdout. The
    subprocess runs above keep one real start per behaviour; these only read a file."""
    pm = plugin_manager()

    def run(*args: str, home: Path) -> tuple[int, str]:
        monkeypatch.setenv("TETHER_HOME", str(home))
        capsys.readouterr()
        code = main(list(args), pm=pm)
        out, err = capsys.readouterr()
        assert "Traceback" not in err, err
        return code, out

    return run


def _copy(tmp_path: Path, name: str) -> tuple[Path, Path]:
    project = tmp_path / "project"
    project.mkdir()
    file = project / f"{name}.jsonl"
    shutil.copyfile(FIXTURES / f"{name}.jsonl", file)
    return project, file


@pytest.mark.parametrize("name", sorted(CASES))
def test_run_with_a_malformed_message(
    name: str, openai_server: Any, tmp_path: Path, tether_here: Callable[..., tuple[int, str]]
) -> None:
    line, field, check = CASES[name]
    home = write_home(tmp_path / "home", openai_server)
    project, file = _copy(tmp_path, name)
    before = file.read_bytes()
    openai_server.text("answer")
    run = run_tether if name == min(CASES) else run_in_process  # one case in a real process
    done = run("run", *MODEL, "--session", str(file), "go on", home=home, cwd=project)
    assert done.returncode == 0, done.stderr
    assert "model call failed" not in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == "answer\n"
    warnings = [w for w in done.stderr.splitlines() if w.startswith("tether: warning:")]
    assert len(warnings) == 1, done.stderr
    assert warnings[0].startswith(f"tether: warning: {file}:{line}: {field}: "), warnings
    sent = openai_server.last_request.body["messages"]
    assert check(sent), sent
    assert sent[-1]["role"] == "user"  # the new prompt went out
    assert file.read_bytes().startswith(before)  # the file is never changed, only appended to

    code, shown = tether_here("session", "show", "--validate", "--json", str(file), home=home)
    assert code == 1  # a problem found
    problems = json.loads(shown)["schemaProblems"]
    assert [(p["line"], p["field"]) for p in problems] == [(line, field)]
    text = tether_here("session", "show", "--validate", str(file), home=home)[1]
    assert f"{file}:{line}: entry " in text and f": {field}: " in text


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_offline_model_copes_with_a_malformed_message(name: str, tmp_path: Path) -> None:
    """The faux provider sees what a real provider would send (repaired), so the offline demo
    never fails on a message that is not the model's."""
    project, file = _copy(tmp_path, name)
    run = run_tether if name == min(CASES) else run_in_process  # one case in a real process
    done = run(
        "run", "--provider", "faux", "--session", str(file), "go on",
        home=tmp_path / "home", cwd=project,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == "You said: go on\n"
    assert "model call failed" not in done.stderr and "Traceback" not in done.stderr


def test_validate_counts_the_format_problems_it_lists(tmp_path: Path) -> None:
    """``show --validate`` never says "problems: none" above the problems it lists."""
    project, file = _copy(tmp_path, "user-content-object")
    shown = run_tether("session", "show", "--validate", str(file), home=tmp_path, cwd=project)
    assert shown.returncode == 1, shown.stderr
    assert "problems:  none" not in shown.stdout
    assert "problems:  1" in shown.stdout and f"{file}:2: entry " in shown.stdout
    plain = run_in_process("session", "show", str(file), home=tmp_path, cwd=project)
    assert "problems:  none" in plain.stdout  # without --validate the lines all parse


def test_anthropic_requests_leave_out_what_cannot_be_sent(
    anthropic_server: Any, tmp_path: Path
) -> None:
    home = write_home(tmp_path / "home", anthropic_server, api="anthropic-messages")
    project, file = _copy(tmp_path, "toolresult-no-id")
    anthropic_server.text("answer")
    done = run_tether("run", *MODEL, "--session", str(file), "go on", home=home, cwd=project)
    assert done.returncode == 0 and "model call failed" not in done.stderr, done.stderr
    sent = anthropic_server.last_request.body["messages"]
    results = [b for m in sent for b in m["content"] if b.get("type") == "tool_result"]
    assert [(r["tool_use_id"], r["is_error"]) for r in results] == [("c1", True)]


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_context_is_pis(
    name: str, tmp_path: Path, tether_here: Callable[..., tuple[int, str]]
) -> None:
    file = FIXTURES / f"{name}.jsonl"
    code, shown = tether_here("session", "context", "--json", str(file), home=tmp_path)
    assert code == 0
    ours, pi = json.loads(shown), PI_CONTEXT[name]
    assert ours["messages"] == pi["messages"] and ours["llmMessages"] == pi["llmMessages"]
    for command in ("tree", "context", "estimate"):
        assert tether_here("session", command, str(file), home=tmp_path)[0] == 0, command


def test_compaction_serializes_a_text_that_is_not_a_string_as_pi_does() -> None:
    messages = Session.open(FIXTURES / "text-not-a-string.jsonl", readonly=True).build_context()
    text = serialize_conversation(convert_to_llm(messages.messages))
    assert text == "[User]: [object Object]\n\n[Assistant]: ok"  # the oracle's activePathText
    prepared = run_in_process(
        "session",
        "prepare",
        "--keep",
        "1",
        "--reserve",
        "1",
        str(FIXTURES / "text-not-a-string.jsonl"),
        home=FIXTURES,
        cwd=FIXTURES,
    )
    assert prepared.returncode == 0 and "Traceback" not in prepared.stderr, prepared.stderr


def test_sanitize_keeps_good_messages_as_they_are() -> None:
    good = {"role": "user", "content": [{"type": "text", "text": "hi"}], "timestamp": 1}
    assert sanitize_message(good) is good and message_issues(good) == []
    bad = {"role": "assistant", "content": [{"type": "toolCall", "id": 5, "name": "x"}]}
    assert sanitize_message(bad) is None
    assert message_issues(bad) == [
        (
            "message.content[0]",
            "id: expected a string, got number; no block left: message left out of model requests",
        )
    ]


def test_no_malformed_message_breaks_a_request() -> None:
    """3000 random malformed messages: both adapters build (and encode) every request."""
    import random

    from tether.builtin_plugins.providers.anthropic.messages import AnthropicMessagesProvider
    from tether.builtin_plugins.providers.http.calls import prepared_context
    from tether.builtin_plugins.providers.openai.completions import OpenAICompletionsProvider
    from tether.builtin_plugins.providers.text_safety import encode_json_body
    from tether.hookspecs.providers import LlmContext, Model, StreamOptions

    values: list[Any] = [None, 1, 1.5, "s\ud83d", True, [], {}, ["x"], {"a": 1}, [None]]
    values += [[{"type": "text"}], [{"type": "text", "text": 5}], [{"type": "image"}]]
    values += [[{"type": "toolCall"}], [{"type": "thinking"}], [{"type": "toolCall", "id": "i"}]]
    roles = ["user", "assistant", "toolResult", "custom", "bashExecution", "branchSummary"]
    keys = ["content", "toolCallId", "toolName", "isError", "stopReason", "usage", "summary"]
    adapters = [
        (OpenAICompletionsProvider(), "openai-completions"),
        (AnthropicMessagesProvider(), "anthropic-messages"),
    ]
    rng = random.Random(7)
    for _ in range(3000):
        message: dict[str, Any] = {"role": rng.choice(roles)}
        for key in rng.sample(keys, rng.randint(0, 5)):
            message[key] = rng.choice(values)
        llm = convert_to_llm([{"role": "user", "content": "hi", "timestamp": 1}, message])
        for adapter, api in adapters:
            model = Model(provider="loop", id="m", api=api, input=["text", "image"])
            context = prepared_context(model, LlmContext("system", llm))
            request = adapter.build_request(model, context, StreamOptions(), stream=True)
            assert json.loads(encode_json_body(request.body)), message


class _LongContext:
    """A third-party ``context_warnings`` answer (and one that breaks)."""

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail

    @hookimpl
    def context_warnings(self, session: Any, messages: list[dict[str, Any]]) -> list[str]:
        if self.fail:
            raise RuntimeError("no luck")
        return [f"{session.file}: {len(messages)} messages"]


def test_the_load_time_warnings_are_the_context_warnings_hooks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kernel says what plugins answer: the built-in ``context_check`` names the malformed
    line, a third-party answer comes first; disabled, the built-in says nothing; a plugin that
    raises is named."""
    home = tmp_path / "home"
    monkeypatch.setenv("TETHER_HOME", str(home))
    project, file = _copy(tmp_path, "user-content-object")
    line, field, _check = CASES["user-content-object"]
    built_in = f"{file}:{line}: {field}: "

    def bound(pm: Any) -> list[str]:
        session = Session.open(file, plugins=pm)
        harness = open_harness(pm, project, home, "faux/faux-1", session=session)
        try:
            return harness.warnings
        finally:
            harness.close()

    warnings = bound(plugin_manager(("long_context", _LongContext())))
    assert warnings[0] == f"{file}: 2 messages"
    assert [w.startswith(built_in) for w in warnings[1:]] == [True]
    quiet = create_plugin_manager(environ=NO_THIRD_PARTY, disabled={"context_check"})
    assert bound(quiet) == []
    with pytest.raises(
        HookError, match="plugin 'broken' failed in context_warnings: RuntimeError: no luck"
    ):
        bound(plugin_manager(("broken", _LongContext(fail=True))))
