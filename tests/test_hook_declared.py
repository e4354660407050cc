"""The facade methods declared by their signature alone (``tether/core/hooks/declared.py``):
each names its own hook, checks the answer against its own types (resolved when first called),
hands ``session`` on as a ``HookSession``; ``warnings`` takes a notify hook's warning lines."""

from __future__ import annotations

from typing import Any

import pytest

import tether
from tests.harness_helpers import NO_THIRD_PARTY
from tether.core.base.errors import HookError
from tether.core.hooks.facade import Hooks
from tether.core.host.manager import create_plugin_manager
from tether.hookspecs import hookimpl, memory
from tether.hookspecs.branch import BranchPreparation
from tether.hookspecs.gate import SummaryPlan

SESSION = {"session": None}
FIRST_ANSWERS = [
    ("session_before_compact", SESSION | {"event": None}, "Cancel or CustomCompaction"),
    ("session_before_tree", SESSION | {"event": None}, "Cancel or CustomBranchSummary"),
    ("session_before_fork", SESSION | {"event": None}, "Cancel"),
    ("gate_summary", SESSION | {"check": None}, "GateVerdict"),
]
SPEC_CALLS = [  # Hooks.first(spec, *types): the hookspec is the call's signature
    (
        memory.plan_summary,
        SummaryPlan,
        {"preparation": None, "request": None, "custom_instructions": None, "note": None}
        | {"keep": frozenset()},
    ),
    (
        memory.prepare_branch_summary,
        BranchPreparation,
        {"entries": [], "count": len, "context_window": None, "reserve_tokens": 0},
    ),
]


def _hooks(plugin: object, **options: Any) -> Hooks:
    pm = create_plugin_manager(environ=NO_THIRD_PARTY, plugins=[("wrong", plugin)])
    return Hooks(pm, **options)


def _answering(hook: str, answer: Any) -> object:
    """A plugin whose ``hook`` answers ``answer`` before every other implementation."""

    def impl(self: object) -> Any:
        return answer

    impl.__name__ = hook
    return type("Plugin", (), {hook: hookimpl(tryfirst=True)(impl)})()


@pytest.mark.parametrize(("hook", "kwargs", "types"), FIRST_ANSWERS)
def test_a_wrong_first_answer_names_the_plugin_and_the_types(
    hook: str, kwargs: dict[str, Any], types: str
) -> None:
    hooks = _hooks(_answering(hook, 42))
    expected = f"what failed: plugin 'wrong' failed in {hook}: returned int, expected {types} or"
    with pytest.raises(HookError, match=expected):
        getattr(hooks, hook)(**kwargs, failure="what failed")


@pytest.mark.parametrize(("spec", "answer", "kwargs"), SPEC_CALLS)
def test_a_spec_call_names_the_plugin_and_the_types(
    spec: Any, answer: type, kwargs: dict[str, Any]
) -> None:
    hook = spec.__name__
    hooks = _hooks(_answering(hook, 42))
    expected = f"what failed: plugin 'wrong' failed in {hook}: returned int, expected "
    with pytest.raises(HookError, match=expected + f"{answer.__name__} or None"):
        hooks.first(spec, answer, failure="what failed")(**kwargs)
    with pytest.raises(TypeError):  # a hook's arguments go by keyword
        hooks.first(spec, answer)(*kwargs.values())


def test_a_spec_call_hands_on_its_arguments_and_returns_the_answer() -> None:
    seen: list[Any] = []
    prepared = BranchPreparation(messages=[], entry_ids=[])

    class Prepares:
        @hookimpl(tryfirst=True)
        def prepare_branch_summary(self, entries: Any, reserve_tokens: int) -> Any:
            seen.append((entries, reserve_tokens))
            return prepared

    kwargs = {"entries": ["e"], "count": len, "context_window": None, "reserve_tokens": 7}
    hooks = _hooks(Prepares())
    assert hooks.first(memory.prepare_branch_summary, BranchPreparation)(**kwargs) is prepared
    assert seen == [(["e"], 7)]


def test_a_declared_method_hands_on_its_arguments_and_a_session() -> None:
    seen: list[Any] = []

    class Sees:
        @hookimpl(tryfirst=True)
        def session_before_fork(self, event: Any, session: Any) -> None:
            seen.append({"event": event, "session": session})

    hooks = _hooks(Sees())
    assert hooks.session_before_fork(event="the event", session=None, failure="fork") is None
    assert seen[0]["event"] == "the event"
    assert isinstance(seen[0]["session"], tether.HookSession)  # None: an empty session


def test_a_notify_failure_goes_to_the_warnings_given() -> None:
    class Broken:
        @hookimpl
        def session_shutdown(self, reason: str) -> None:
            raise RuntimeError(f"broke at {reason}")

    printed: list[str] = []
    hooks = _hooks(Broken(), on_warning=printed.append)
    warnings: list[str] = []
    hooks.session_shutdown(session=None, reason="quit", warnings=warnings)
    assert warnings == ["plugin 'wrong' failed in session_shutdown: RuntimeError: broke at quit"]
    hooks.session_shutdown(session=None, reason="again")  # no list: the harness's warning line
    assert printed == ["plugin 'wrong' failed in session_shutdown: RuntimeError: broke at again"]


def test_every_answer_leaves_out_empty_ones_and_refuses_a_wrong_one() -> None:
    kwargs: dict[str, Any] = {
        "preparation": None,
        "summaries": [],
        "answers": [],
        "summarizer": "x",
    }
    kwargs |= {"summary": "", "count": len, "started": 0.0}

    class Adds:
        @hookimpl
        def compaction_details(self) -> dict[str, Any]:
            return {}

    pm = create_plugin_manager(
        environ=NO_THIRD_PARTY, plugins=[("adds", Adds())], disabled=("compaction_cost",)
    )
    details = Hooks(pm).every(memory.compaction_details, dict)
    assert details(**kwargs) == []

    class Wrong:
        @hookimpl
        def compaction_details(self) -> str:
            return "cost"

    with pytest.raises(HookError, match="'wrong' failed in compaction_details: returned str"):
        _hooks(Wrong()).every(memory.compaction_details, dict, failure="details")(**kwargs)
