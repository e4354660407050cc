"""Every ``Example::`` block of a hookspec docstring (and so of docs/hooks.md) runs.

Each example is exec'd with the names of ``tether`` in scope (as ``from tether import …``
would give), plus the few names an example leaves to the reader (``PLACEHOLDERS``); its
``@hookimpl`` function is called with real event objects, and what it did or returned is
checked against the hook's contract.
"""

from __future__ import annotations

import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
import typer

import tether
from tests.doc_blocks import hookspec_examples
from tether.core.hooks.plugin_session import PluginSession
from tether.hookspecs import hookimpl

EXAMPLES = hookspec_examples()


class _Provider:
    api = "my-gateway"


class _Store:
    def __init__(self, uri: str) -> None:
        self.uri = uri


class _VaultRegistry:
    def __init__(self, pm: Any, *, vault_url: str) -> None:
        self.pm, self.vault_url = pm, vault_url


#: Names an example leaves to the reader: stand-ins with the obvious meaning.
PLACEHOLDERS: dict[str, Any] = {
    "current_branch": lambda: "main",
    "MyGatewayProvider": _Provider,
    "log": logging.getLogger("tether-example"),
    "flush_my_cache": lambda: None,
    "on_battery": lambda: True,
    "SqliteStore": _Store,
    "VaultRegistry": _VaultRegistry,
    "httpx": httpx,
}


class Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        self.calls.append(args + tuple(kwargs.values()))


def _namespace() -> dict[str, Any]:
    names = {name: getattr(tether, name) for name in tether.__all__}
    return {"tether": tether, **names, **PLACEHOLDERS}


def _run_example(hook: str, arguments: dict[str, Any]) -> Any:
    namespace = _namespace()
    exec(compile(EXAMPLES[hook], f"<{hook} example>", "exec"), namespace)  # noqa: S102
    function = namespace[hook]
    assert hasattr(function, "tether_impl"), f"the {hook} example is not a @hookimpl"
    taken = function.__code__.co_varnames[: function.__code__.co_argcount]
    unknown = set(taken) - set(arguments)
    assert not unknown, f"the {hook} example takes arguments the hook does not have: {unknown}"
    return function(**{name: arguments[name] for name in taken})


def _session(tmp_path: Path) -> PluginSession:
    return PluginSession.reading(tether.Session.in_memory(str(tmp_path)), hooks=None)


def test_every_hook_with_an_example_is_checked_here() -> None:
    assert sorted(EXAMPLES) == sorted(CASES)
    assert len(EXAMPLES) >= 20


def test_every_placeholder_is_used_by_an_example() -> None:
    code = "\n".join(EXAMPLES.values())
    assert [name for name in PLACEHOLDERS if name not in code] == []


def _registered(hook: str) -> Recorder:
    register = Recorder()
    assert _run_example(hook, {"register": register}) is None
    assert register.calls, f"the {hook} example registered nothing"
    return register


def case_register_tools(tmp_path: Path) -> None:
    (tool,) = _registered("register_tools").calls[0]
    assert isinstance(tool, tether.FunctionTool)
    result = tool.execute("call-1", {"name": "Ada"}, tether.ToolContext(cwd=str(tmp_path)))
    assert result.content == [{"type": "text", "text": "Hello, Ada!"}]


def case_register_providers(tmp_path: Path) -> None:
    (provider,) = _registered("register_providers").calls[0]
    assert provider.api == "my-gateway"


def case_register_provider_defaults(tmp_path: Path) -> None:
    name, defaults = _registered("register_provider_defaults").calls[0]
    assert name == "gateway" and defaults["api"] == "openai-completions"


def case_register_commands(tmp_path: Path) -> None:
    app = typer.Typer()
    _run_example("register_commands", {"app": app})
    assert [command.callback.__name__ for command in app.registered_commands] == ["hello"]


def case_system_prompt_sections(tmp_path: Path) -> None:
    section = _run_example(
        "system_prompt_sections", {"options": tether.PromptOptions(cwd=str(tmp_path))}
    )
    assert isinstance(section, tether.Section) and section.name == "house-rules"


def case_http_client(tmp_path: Path) -> None:
    client = _run_example("http_client", {"purpose": "provider"})
    assert isinstance(client, httpx.Client)
    client.close()


def case_model_registry(tmp_path: Path) -> None:
    registry = _run_example("model_registry", {"pm": "the pm", "settings": None})
    assert (registry.pm, registry.vault_url) == ("the pm", "https://vault.internal")


class _Catalogue:
    def find_model(self, provider: str, model: str) -> tether.Model:
        return tether.Model(provider, model, "openai-completions")


def case_choose_model(tmp_path: Path) -> None:
    nothing = dict.fromkeys(("ref", "provider", "model", "stored", "current"))
    chosen = _run_example("choose_model", {"registry": _Catalogue(), **nothing})
    assert chosen.ref == "ollama/qwen3"
    asked = {"registry": _Catalogue(), **nothing, "ref": "openai/gpt-4o"}
    assert _run_example("choose_model", asked) is None  # asked for: the next one answers


def case_choose_thinking_level(tmp_path: Path) -> None:
    mini = tether.Model("openai", "gpt-4o-mini", "openai-completions", reasoning=True)
    arguments = {"requested": None, "branch_level": None, "model": mini, "settings": None}
    assert _run_example("choose_thinking_level", arguments) == "off"
    assert _run_example("choose_thinking_level", {**arguments, "requested": "high"}) is None


def case_default_summarizer(tmp_path: Path) -> None:
    warn = Recorder()
    branch = tether.SummarizeRequest(kind="branch", messages=[])
    assert _run_example("default_summarizer", {"request": branch, "warn": warn}) == "offline"
    history = tether.SummarizeRequest(kind="compaction", messages=[])
    assert _run_example("default_summarizer", {"request": history, "warn": warn}) is None
    assert warn.calls == []


def case_watch_hook_calls(tmp_path: Path) -> None:
    pm = tether.create_plugin_manager(environ={}, load_entry_points=False)
    assert _run_example("watch_hook_calls", {"pm": pm, "environ": {}}) is None
    assert pm.observer is None  # not asked for: nothing watches
    _run_example("watch_hook_calls", {"pm": pm, "environ": {"MY_COUNT_HOOKS": "1"}})
    assert tether.Hooks(pm).pins() is None  # no plugin: nobody answers, still one call
    assert pm.observer.counts == {"pins": 1}


def case_tool_arguments_validator(tmp_path: Path) -> None:
    validate = _run_example("tool_arguments_validator", {})
    schema = {"type": "object", "properties": {"path": {"type": "string"}}}
    assert validate("read", schema, {"path": "a"}) == {"path": "a"}
    with pytest.raises(ValueError, match="read takes no limit"):
        validate("read", schema, {"path": "a", "limit": 3})


def case_route_command_line(tmp_path: Path) -> None:
    arguments = {"args": ["ls", "--json"], "commands": ["sessions", "run"]}
    assert _run_example("route_command_line", arguments) == ["sessions", "--json"]
    assert _run_example("route_command_line", {**arguments, "args": ["run", "hi"]}) is None


def case_register_summarizers(tmp_path: Path) -> None:
    name, summarize = _registered("register_summarizers").calls[0]
    request = tether.SummarizeRequest(kind="compaction", messages=[{"role": "user"}] * 3)
    summary = summarize(request)
    assert name == "shout" and isinstance(summary, tether.Summary)
    assert summary.text == "## Goal\n3 messages"


def case_register_token_counters(tmp_path: Path) -> None:
    name, count = _registered("register_token_counters").calls[0]
    assert name == "words" and count([{"a": "b c"}, {}], None) == [3, 1]  # words of str(message)


def case_register_compaction_strategies(tmp_path: Path) -> None:
    name, prepare = _registered("register_compaction_strategies").calls[0]
    request = tether.PrepareRequest(path=[], settings=tether.CompactionSettings(), count=len)
    assert name == "never" and isinstance(prepare(request), tether.NothingToCompact)


def case_register_fact_cues(tmp_path: Path) -> None:
    from tether.builtin_plugins.memory.fact_ledger import build_cues
    from tether.builtin_plugins.memory.fact_ledger.extract import classify

    language, table = _registered("register_fact_cues").calls[0]
    cues = build_cues({language: table})
    assert language == "de"
    assert classify("Bitte keine Tabs im Code.", cues) == "constraint"
    assert cues.has("change", "Ab jetzt Port 9000.")


def case_input(tmp_path: Path) -> None:
    event = tether.InputEvent("fix the bug on $BRANCH")
    _run_example("input", {"event": event, "session": _session(tmp_path)})
    assert event.text == "fix the bug on main"


def case_before_agent_start(tmp_path: Path) -> None:
    event = tether.BeforeAgentStartEvent("hi", [], "You help.")
    answer = _run_example("before_agent_start", {"event": event, "session": _session(tmp_path)})
    assert event.system_prompt == "You help.\nBe brief."
    assert answer == [{"customType": "note", "content": "It is Friday.", "display": False}]


def case_context(tmp_path: Path) -> None:
    user = {"role": "user", "content": "hi"}
    event = tether.ContextEvent([{"role": "custom", "customType": "debug"}, user])
    _run_example("context", {"event": event, "session": _session(tmp_path)})
    assert event.messages == [user, {"role": "custom", "customType": "date", "content": "Monday"}]


def case_prune_context(tmp_path: Path) -> None:
    tool = {"role": "toolResult", "toolCallId": "c", "content": [{"type": "text", "text": "x"}]}
    messages = [dict(tool) for _ in range(22)]
    event = tether.PruneEvent(messages)
    answer = _run_example("prune_context", {"event": event, "session": _session(tmp_path)})
    assert isinstance(answer, tether.PrunedContext) and len(answer.messages) == 22
    texts = [m["content"][0]["text"] for m in answer.messages]
    assert texts == ["(old output left out)"] * 2 + ["x"] * 20
    assert messages == [tool] * 22  # the event's messages are never changed


def case_before_tool_call(tmp_path: Path) -> None:
    event = tether.BeforeToolCallEvent("c1", "bash", {"command": "rm -rf / --no-preserve-root"})
    answer = _run_example("before_tool_call", {"event": event, "session": _session(tmp_path)})
    assert isinstance(answer, tether.Block)
    event = tether.BeforeToolCallEvent("c2", "bash", {"command": "ls"})
    assert _run_example("before_tool_call", {"event": event, "session": None}) is None


def case_tool_result(tmp_path: Path) -> None:
    event = tether.ToolResultEvent("c1", "bash", {"command": "ls"}, [])
    _run_example("tool_result", {"event": event, "session": _session(tmp_path)})
    assert event.content == [{"type": "text", "text": "(ran in sandbox)"}]


def case_agent_event(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="tether-example"):
        _run_example("agent_event", {"event": tether.AgentEvent("turn_end"), "session": None})
    assert caplog.messages == ["turn done"]


def case_retry_decision(tmp_path: Path) -> None:
    arguments = {"error": SimpleNamespace(status=529), "attempt": 1, "settings": None}
    answer = _run_example("retry_decision", {**arguments, "message": {}})
    assert isinstance(answer, tether.RetryDecision) and answer.retry
    assert _run_example("retry_decision", {**arguments, "attempt": 6, "message": {}}) is None


def case_context_overflow(tmp_path: Path) -> None:
    failed = {
        "role": "assistant",
        "stopReason": "error",
        "errorMessage": "context budget exhausted",
    }
    assert _run_example("context_overflow", {"message": failed, "context_window": 1000}) is True
    other = {**failed, "errorMessage": "bad key"}
    assert _run_example("context_overflow", {"message": other, "context_window": 1000}) is None


def case_session_start(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _run_example("session_start", {"session": _session(tmp_path), "reason": "startup"})
    assert capsys.readouterr().out == "working in None\n"  # an in-memory session has no file


def case_context_warnings(tmp_path: Path) -> None:
    session = _session(tmp_path)
    few = [{"role": "user", "content": "hi"}]
    assert _run_example("context_warnings", {"session": session, "messages": few}) is None
    many = few * 1001
    answer = _run_example("context_warnings", {"session": session, "messages": many})
    assert answer == ["None: 1001 messages in the context"]  # an in-memory session: no file


def case_session_shutdown(tmp_path: Path) -> None:
    assert (
        _run_example("session_shutdown", {"session": _session(tmp_path), "reason": "quit"}) is None
    )


def case_session_before_compact(tmp_path: Path) -> None:
    event = tether.BeforeCompactEvent(preparation=None, branch_entries=[], reason="threshold")  # type: ignore[arg-type]
    answer = _run_example("session_before_compact", {"event": event, "session": None})
    assert isinstance(answer, tether.Cancel)


def case_session_compact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    event = tether.CompactEvent(entry={"type": "compaction", "tokensBefore": 1234}, from_hook=False)
    _run_example("session_compact", {"event": event, "session": None})
    assert capsys.readouterr().out == "compacted 1234 tokens\n"


def case_session_before_tree(tmp_path: Path) -> None:
    event = tether.BeforeTreeEvent("a", "b", None, [], summarize=True)
    answer = _run_example("session_before_tree", {"event": event, "session": None})
    assert isinstance(answer, tether.CustomBranchSummary)


def case_session_tree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _run_example("session_tree", {"event": tether.TreeEvent("a", "b"), "session": None})
    assert capsys.readouterr().out == "now at a\n"


def case_session_before_fork(tmp_path: Path) -> None:
    event = tether.BeforeForkEvent("a", "before")
    answer = _run_example("session_before_fork", {"event": event, "session": None})
    assert isinstance(answer, tether.Cancel)


def case_open_store(tmp_path: Path) -> None:
    settings = tether.Settings()
    store = _run_example("open_store", {"uri": "sqlite:///s.db", "settings": settings})
    assert isinstance(store, _Store)
    assert (
        _run_example("open_store", {"uri": str(tmp_path / "s.jsonl"), "settings": settings}) is None
    )


def _check(text: str, retry_text: str) -> tether.SummaryCheck:
    prep = tether.CompactionPreparation(
        "k", [], [], False, 0, None, {}, tether.CompactionSettings()
    )
    answer = tether.SummaryAttempt(text, [tether.Summary(text, "s")])
    again = tether.SummaryAttempt(retry_text, [tether.Summary(retry_text, "s")])
    return tether.SummaryCheck(answer, prep, rerun=lambda note, name: again)


def case_gate_summary(tmp_path: Path) -> None:
    verdict = _run_example("gate_summary", {"check": _check("## Goal\nx", ""), "session": None})
    assert verdict.verdict == "passed" and verdict.text == "## Goal\nx"
    verdict = _run_example("gate_summary", {"check": _check("x", "## Goal\ny"), "session": None})
    assert verdict.verdict == "retried" and verdict.text == "## Goal\ny"
    verdict = _run_example("gate_summary", {"check": _check("x", "z"), "session": None})
    assert verdict.verdict == "carried_forward" and verdict.text.startswith("## Goal\n")
    assert verdict.report() == {"verdict": "carried_forward", "missing": ["section Goal"]}


def case_plan_summary(tmp_path: Path) -> None:
    history = [{"role": "user", "content": "a", "timestamp": 1}]
    prefix = [{"role": "user", "content": "b", "timestamp": 2}]
    prep = tether.CompactionPreparation(
        "k", history, prefix, True, 10, "earlier", {}, tether.CompactionSettings()
    )
    base = tether.SummarizeRequest(kind="compaction", messages=[], settings={"x": 1})
    arguments = {
        "preparation": prep,
        "request": base,
        "custom_instructions": "focus",
        "note": None,
        "keep": frozenset(),
    }
    plan = _run_example("plan_summary", arguments)
    assert [part for part, _ in plan.requests] == ["compaction"]
    asked = plan.requests[0][1]
    assert asked.messages == history + prefix and asked.previous_summary == "earlier"
    assert asked.custom_instructions == "focus" and asked.settings == {"x": 1}
    attempt = plan.merge({"compaction": tether.Summary("done", "s")})
    assert attempt.text == "done" and attempt.parts["compaction"].summarizer == "s"


def case_prepare_branch_summary(tmp_path: Path) -> None:
    said = {"role": "user", "content": "try the other parser", "timestamp": 1}
    answered = {"role": "assistant", "content": [], "timestamp": 2}
    entries = [
        {"type": "message", "id": "u1", "parentId": None, "message": said},
        {"type": "message", "id": "a1", "parentId": "u1", "message": answered},
        {"type": "label", "id": "l1", "parentId": "a1", "targetId": "u1", "label": "x"},
    ]
    arguments = {"entries": entries, "count": len, "context_window": None, "reserve_tokens": 1}
    prepared = _run_example("prepare_branch_summary", arguments)
    assert prepared.messages == [said] and prepared.entry_ids == ["u1"]
    assert prepared.file_ops.to_json() == tether.FileOps().to_json()


def case_compaction_details(tmp_path: Path) -> None:
    said = [{"role": "user", "content": "a", "timestamp": 1}] * 3
    prep = tether.CompactionPreparation(
        "k", said, [], False, 9, None, {}, tether.CompactionSettings()
    )
    arguments = {
        "preparation": prep,
        "summaries": [],
        "answers": [],
        "summarizer": "s",
        "summary": "four",
        "count": len,
        "started": 0.0,
    }
    added = _run_example("compaction_details", arguments)
    assert added == {"myStats": {"messagesReplaced": 3, "summaryChars": 4}}


def case_pins(tmp_path: Path) -> None:
    pins = _run_example("pins", {})
    assert all(callable(getattr(pins, m)) for m in ("pins", "pin", "unpin"))
    assert pins.pins(None) == [] and pins.stored_summary("## Goal\nx", []) == "## Goal\nx"
    assert pins.previous_summary(None, []) is None
    with pytest.raises(tether.TetherError, match="wiki"):
        pins.pin(None, "keep this")


CASES = {
    name.removeprefix("case_"): function
    for name, function in dict(globals()).items()
    if name.startswith("case_")
}


@pytest.mark.parametrize("hook", sorted(CASES))
def test_hookspec_example_runs(hook: str, request: pytest.FixtureRequest) -> None:
    function = CASES[hook]
    names = function.__code__.co_varnames[: function.__code__.co_argcount]
    function(*(request.getfixturevalue(name) for name in names))


def test_hookimpl_is_the_one_plugins_get() -> None:
    assert tether.hookimpl is hookimpl
