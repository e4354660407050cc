"""Which summarizer runs when the user chose none is a plugin's answer (``default_summarizer``);
the built-in one (plugin ``llm_summarizer``) keeps the rule: ``llm`` with a usable model, else
``offline``."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from tests.harness_helpers import NO_THIRD_PARTY
from tether.core.choices.running import ChoiceError, run_summarizer
from tether.core.host.manager import create_plugin_manager
from tether.hookspecs import hookimpl
from tether.hookspecs.events import SummarizeRequest

MESSAGES = [{"role": "user", "content": "fix the parser in src/parse.py", "timestamp": 1}]


def _request(kind: str = "branch", **fields: Any) -> SummarizeRequest:
    return SummarizeRequest(kind=kind, messages=list(MESSAGES), **fields)  # type: ignore[arg-type]


class BranchesOffline:
    @hookimpl
    def default_summarizer(self, request: Any) -> Any:
        return "offline" if request.kind == "branch" else None


def test_a_plugin_names_the_summarizer_nobody_chose() -> None:
    pm = create_plugin_manager(environ=NO_THIRD_PARTY, plugins=[("branches", BranchesOffline())])
    model = {"provider": "nowhere", "id": "m"}  # the built-in rule would warn and pick offline
    summary = run_summarizer(pm, _request(model=model, registry=SimpleNamespace(config={})))
    assert summary.summarizer == "offline" and summary.text.strip()
    assert pm.warnings == []  # the plugin answered: the built-in rule never ran


def test_the_builtin_rule_falls_back_to_offline_with_one_warning() -> None:
    pm = create_plugin_manager(environ=NO_THIRD_PARTY, stderr=SimpleNamespace(write=len))
    model = {"provider": "google", "id": "gemini"}
    request = _request("compaction", model=model, registry=SimpleNamespace(config={}))
    assert run_summarizer(pm, request).summarizer == "offline"
    assert pm.warnings == [
        "the session's model google/gemini: provider 'google' is not configured, so the "
        "offline summarizer writes the summary (set compaction.model, or add the provider "
        "to models.json)"
    ]


class Broken:
    @hookimpl(tryfirst=True)
    def default_summarizer(self) -> Any:
        return 42


def test_a_wrong_answer_names_the_plugin() -> None:
    pm = create_plugin_manager(environ=NO_THIRD_PARTY, plugins=[("broken", Broken())])
    with pytest.raises(ChoiceError, match=r"plugin 'broken' failed in default_summarizer: "):
        run_summarizer(pm, _request())
