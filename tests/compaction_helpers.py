"""Helpers for the compaction and branching tests: a scripted summarizer plugin, a plugin
manager with extra plugins, settings without the user's files, and a growing session."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from tether.core.base.settings import Settings
from tether.core.hooks.facade import Hooks
from tether.core.host.manager import create_plugin_manager
from tether.core.session.session import Session
from tether.hookspecs import hookimpl
from tether.hookspecs.events import SummarizeRequest, Summary

# pi's checkpoint headings, in order (compaction; a branch summary has all but the last) and
# those of a turn-prefix summary.
PI_CHECKPOINT_HEADINGS = [
    "## Goal",
    "## Constraints & Preferences",
    "## Progress",
    "### Done",
    "### In Progress",
    "### Blocked",
    "## Key Decisions",
    "## Next Steps",
    "## Critical Context",
]
PI_TURN_PREFIX_HEADINGS = ["## Original Request", "## Early Progress", "## Context for Suffix"]

COMPACTION = Path(__file__).parent / "fixtures" / "compaction"

CANNED = {
    "compaction": "[oracle summary]",
    "turn_prefix": "[oracle turn-prefix summary]",
    "branch": "[oracle branch summary]",
}
USAGE = {
    "input": 100,
    "output": 20,
    "cacheRead": 0,
    "cacheWrite": 0,
    "totalTokens": 120,
    "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0},
}


class ScriptedSummarizer:
    """A summarizer plugin (``scripted``, claiming the default) answering pi's oracle texts;
    records every request."""

    def __init__(self, *, fail: Exception | None = None, texts: dict[str, str] | None = None):
        self.requests: list[SummarizeRequest] = []
        self.fail = fail
        self.texts = texts or CANNED

    @hookimpl
    def register_summarizers(self, register: Any) -> None:
        register("scripted", self.summarize, default=True)

    def summarize(self, request: SummarizeRequest) -> Summary:
        self.requests.append(request)
        if self.fail is not None:
            raise self.fail
        return Summary(text=self.texts[request.kind], summarizer="scripted")


#: pi mode: tether without its summary gate writes exactly the compaction entry pi writes
#: (the gate's retry, carried-forward block and ``details.gate`` are tether's additions).
PI_MODE = ("summary_gate",)


def hooks_with(*plugins: tuple[str, object], pi_mode: bool = False) -> Hooks:
    """Hooks over the installed plugins plus ``plugins`` (registered last, so called first);
    ``pi_mode`` blocks the summary gate (:data:`PI_MODE`)."""
    disabled = PI_MODE if pi_mode else ()
    return Hooks(create_plugin_manager(plugins=plugins, environ={}, disabled=disabled))


def settings(**compaction: Any) -> Settings:
    """Settings with only the given ``compaction`` keys (no user or project files read)."""
    return Settings.model_validate({"compaction": compaction} if compaction else {})


def copy_fixture(source: Path, directory: Path) -> Path:
    target = directory / source.name
    shutil.copyfile(source, target)
    return target


def pi_recording(name: str) -> dict[str, Any]:
    """pi's recorded answers (``<name>.pi.json``) for the hand-made ``COMPACTION/<name>.jsonl``."""
    return json.loads((COMPACTION / f"{name}.pi.json").read_text(encoding="utf-8"))


def compact_scripted(session: Session, reserve: int, keep: int) -> tuple[Any, ScriptedSummarizer]:
    """``compact`` in pi mode (no summary gate) with pi's ``reserve``/``keep`` budgets and a
    fresh :class:`ScriptedSummarizer` (returned with the outcome, for its requests)."""
    from tether.core.memory.compaction import compact

    summarizer = ScriptedSummarizer()
    budgets = settings(reserveTokens=reserve, keepRecentTokens=keep)
    hooks = hooks_with(("scripted", summarizer), pi_mode=True)
    return compact(session, hooks, budgets), summarizer


def pi_request_kind(request: SummarizeRequest) -> str:
    """Our request in the words of pi's golden ``requests[].kind``."""
    if request.kind == "turn_prefix":
        return "turnPrefix"
    if request.kind == "branch":
        return "branchSummary"
    return "updateSummary" if request.previous_summary else "summary"


def add_round(session: Session, n: int, *, words: int = 60) -> dict[str, list[str]]:
    """Append one tool-using turn touching files of round ``n``; return the paths by operation."""
    read, written, edited = f"src/read_{n}.py", f"src/new_{n}.py", f"src/edit_{n}.py"
    filler = " ".join(f"word{i}" for i in range(words))
    session.append_message(
        {
            "role": "user",
            "content": [{"type": "text", "text": f"round {n}: {filler}"}],
            "timestamp": 1_700_000_000_000 + n,
        }
    )
    calls = [
        ("read", {"path": read}),
        ("write", {"path": written, "content": filler}),
        ("edit", {"path": edited, "edits": [{"oldText": "a", "newText": "b"}]}),
    ]
    session.append_message(
        {
            "role": "assistant",
            "content": [{"type": "text", "text": f"working on round {n}"}]
            + [
                {"type": "toolCall", "id": f"call_{n}_{i}", "name": name, "arguments": args}
                for i, (name, args) in enumerate(calls)
            ],
            "api": "openai-completions",
            "provider": "openai",
            "model": "gpt-4o",
            "usage": USAGE,
            "stopReason": "toolUse",
            "timestamp": 1_700_000_000_000 + n,
        }
    )
    for i, (name, _args) in enumerate(calls):
        session.append_message(
            {
                "role": "toolResult",
                "toolCallId": f"call_{n}_{i}",
                "toolName": name,
                "content": [{"type": "text", "text": f"{name} ok {filler}"}],
                "isError": False,
                "timestamp": 1_700_000_000_000 + n,
            }
        )
    session.append_message(
        {
            "role": "assistant",
            "content": [{"type": "text", "text": f"round {n} done"}],
            "api": "openai-completions",
            "provider": "openai",
            "model": "gpt-4o",
            "usage": USAGE,
            "stopReason": "stop",
            "timestamp": 1_700_000_000_000 + n,
        }
    )
    return {"read": [read], "modified": [written, edited]}


def new_session(path: Path) -> Session:
    return Session.open(path, create=True, cwd=str(path.parent))


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
