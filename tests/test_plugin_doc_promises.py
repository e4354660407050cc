"""What docs/plugins.md promises a plugin author, held by the code (issue 24, "a plugin written
against the docs alone keeps working"): the kit's ``context()`` runs the ``context`` hooks as
``tether session context`` does; the summary gate hands only a split turn's failed part to the
offline summarizer and records both names; a fallback's reason names the summarizer the user
chose and its cost counts every call; a summarizer gets its plugin's settings section.
In-process through :mod:`tether.testing`.
"""

from __future__ import annotations

import types
from typing import Any

import tether
from tether.testing import faux_session

SECTIONS = ["Goal", "Constraints & Preferences", "Progress", "Key Decisions", "Next Steps"]
GOOD = "\n\n".join(f"## {s}\n- the user greeted twice" for s in [*SECTIONS, "Critical Context"])
TOOL_CALL = {"toolCalls": [{"name": "ls", "arguments": {}}]}


def plugin(**hooks: Any) -> types.SimpleNamespace:
    """A plugin object from hook functions (each marked ``@tether.hookimpl``)."""
    return types.SimpleNamespace(**{name: tether.hookimpl(f) for name, f in hooks.items()})


def summarizers(**named: Any) -> types.SimpleNamespace:
    def register_summarizers(register: Any) -> None:
        for name, function in named.items():
            register(name, function)

    return plugin(register_summarizers=register_summarizers)


def test_kit_context_runs_the_context_hooks_like_session_context() -> None:
    date = {"role": "custom", "customType": "date", "content": "Today is Monday."}

    def context(event: Any) -> None:
        event.messages.append(dict(date))

    with faux_session(plugins=[("dated", plugin(context=context))]) as t:
        t.prompt("hello")
        assert [m["role"] for m in t.context()] == ["user", "assistant", "custom"]
        assert t.context()[-1]["content"] == "Today is Monday."
        assert [m["role"] for m in t.context(hooks=False)] == ["user", "assistant"]


def test_a_split_turn_hands_only_its_failed_part_to_the_offline_summarizer() -> None:
    asked: list[str] = []

    def one_line(request: tether.SummarizeRequest) -> tether.Summary:
        asked.append(request.kind)
        if request.kind == "turn_prefix":
            problem = "the model answered with a tool call"
            return tether.Summary(text="", summarizer="mine", reply_problem=problem)
        return tether.Summary(text=GOOD, summarizer="mine")

    settings = {"compaction": {"summarizer": "one-line", "keepRecentTokens": 1}}
    with faux_session(
        plugins=[("p", summarizers(**{"one-line": one_line}))], settings=settings
    ) as t:
        t.prompt("hello first")
        t.prompt("hello second")
        outcome = t.compact()
    assert outcome.preparation is not None and outcome.preparation.is_split_turn
    assert sorted(asked) == ["compaction", "turn_prefix", "turn_prefix"]  # one retry, the prefix
    assert outcome.gate is not None and outcome.gate["verdict"] == "fallback"
    entry = outcome.entry
    assert entry is not None and entry["details"]["summarizer"] == "one-line+offline"
    assert entry["summary"].startswith(GOOD)  # the plugin's good history is kept
    assert "**Turn Context (split turn):**" in entry["summary"]
    assert outcome.gate["missing"][0] == (
        "reply: summarizer 'one-line': the model answered with a tool call"
    )


def test_a_fallback_names_the_chosen_summarizer_and_counts_every_call() -> None:
    def budget(request: tether.SummarizeRequest) -> tether.Summary:
        return request.summarize_with("llm", max_tokens=min(request.max_tokens, 300))

    settings = {"compaction": {"summarizer": "budget", "keepRecentTokens": 5}}
    script = ["one", "two", "three", TOOL_CALL, TOOL_CALL]
    with faux_session(
        plugins=[("b", summarizers(budget=budget))], settings=settings, script=script
    ) as t:
        for text in ("hello first", "hello second", "hello third"):
            t.prompt(text)
        outcome = t.compact()
        assert len(t.requests) == 5  # three turns, the summary and the gate's retry
    assert outcome.preparation is not None and not outcome.preparation.is_split_turn
    assert outcome.gate is not None and outcome.gate["verdict"] == "fallback"
    details = outcome.entry["details"] if outcome.entry else {}
    assert details["summarizer"] == "offline"
    cost = details["cost"]
    assert cost["model"] == "faux/faux-1"  # the two failed calls' model and usage
    assert cost["usage"]["input"] > 0 and cost["usage"]["output"] > 0
    assert outcome.gate["missing"][0].startswith(
        "reply: summarizer 'budget': summarizer 'llm' (faux/faux-1): the model answered with"
    )


def test_a_summarizer_gets_its_plugins_settings_section() -> None:
    seen: list[dict[str, Any]] = []

    def mine(request: tether.SummarizeRequest) -> tether.Summary:
        seen.append(request.plugin_settings)
        return request.summarize_with("offline")

    settings = {
        "compaction": {"summarizer": "mine", "keepRecentTokens": 1},
        "plugins": {"minesum": {"maxTokens": 300}, "other": {"x": 1}},
    }
    with faux_session(plugins=[("minesum", summarizers(mine=mine))], settings=settings) as t:
        t.prompt("hello first")
        t.prompt("hello second")
        assert t.compact().status == "compacted"
    assert seen and all(s == {"maxTokens": 300} for s in seen)
