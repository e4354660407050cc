"""Helpers for the fact ledger's tests: real sessions written with tether's ``Session`` API,
compacted in-process k times with filler turns (a tool log, a bare "continue") between."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tests.compaction_helpers import hooks_with, settings
from tests.gate_helpers import assistant, text, tool_turn, user
from tether.builtin_plugins.memory.fact_ledger import Ledger, build_ledger
from tether.builtin_plugins.memory.fact_ledger.notes import fact_note
from tether.core.memory.compaction import compact
from tether.core.session.session import Session
from tether.hookspecs import hookimpl
from tether.hookspecs.events import SummarizeRequest, Summary

LOG = "\n".join(f"tests/test_mod_{n}.py::test_case_{n} PASSED [{n}%]" for n in range(120))
FACT_FREE = (
    "## Goal\nKeep the project moving.\n\n## Constraints & Preferences\n- (none)\n\n"
    "## Progress\n### Done\n- [x] Worked on the code\n\n### In Progress\n- [ ] More work\n\n"
    "### Blocked\n- (none)\n\n## Key Decisions\n- (none)\n\n## Next Steps\n1. Keep going\n\n"
    "## Critical Context\n- (none)"
)


def ledger_of_said(*said: str) -> Ledger:
    """The ledger of user messages ``said``, in order (entry ids ``e0``, ``e1``…)."""
    return ledger_of_turns(*(("user", text) for text in said))


def ledger_of_turns(*turns: tuple[str, str]) -> Ledger:
    """The ledger of ``(role, text)`` messages, in order (entry ids ``e0``, ``e1``…)."""
    return ledger_of(
        [{"role": role, "content": [{"type": "text", "text": t}]} for role, t in turns]
    )


def ledger_of_chat(*turns: str) -> Ledger:
    """The ledger of ``"u:…"`` (user) and ``"a:…"`` (assistant) turns, in order."""
    messages: list[dict[str, Any]] = []
    for turn in turns:
        role, said = turn.split(":", 1)
        content = [{"type": "text", "text": said}]
        if role == "u":
            messages.append({"role": "user", "content": content})
        else:
            messages.append({"role": "assistant", "content": content, "stopReason": "stop"})
    return ledger_of(messages)


def live_texts(ledger: Ledger, *kinds: str) -> list[str]:
    """The texts of the live facts of ``kinds`` (all kinds when none), in order."""
    return [f.text for f in ledger.live(*kinds)]


def status_of(ledger: Ledger, said: str) -> str:
    """The status (live, retired…) of the fact whose text is ``said``."""
    return next(f.status for f in ledger.facts if f.text == said)


def note_of(ledger: Ledger, said: str) -> str:
    """The note the live fact opening with ``said`` is shown with (``fact_note``)."""
    fact = next(f for f in ledger.live() if f.text.startswith(said))
    return fact_note(ledger, fact)


def live_rules(ledger: Ledger) -> set[str]:
    """The texts of the live constraints, decisions and requests of ``ledger``."""
    return {f.text for f in ledger.live("constraint", "decision", "request")}


def write_turns(path: Path, turns: Sequence[str], reply: str = "Done.") -> Session:
    """A session file: each user turn answered by ``reply``."""
    session = Session.open(path, create=True, cwd=str(path.parent))
    for turn in turns:
        session.append_message(user(turn))
        session.append_message(assistant([text(reply)]))
    return session


def filler(session: Session, n: int) -> None:
    """A bare "continue" turn, then a test run with a large passing log."""
    session.append_message(user("continue"))
    for message in tool_turn(f"f{n}", "bash", {"command": "pytest -q"}, LOG, False):
        session.append_message(message)
    session.append_message(assistant([text("All tests pass.")]))


class FactFree:
    """Summarizer ``factfree``: well-formed checkpoints that hold none of the facts."""

    def __init__(self, reply: str = FACT_FREE) -> None:
        self.reply = reply
        self.requests: list[SummarizeRequest] = []

    @hookimpl
    def register_summarizers(self, register: Any) -> None:
        register("factfree", self.summarize, default=True)

    def summarize(self, request: SummarizeRequest) -> Summary:
        self.requests.append(request)
        return Summary(text=self.reply, summarizer="factfree")


def compactions(
    path: Path, k: int, *plugins: tuple[str, object], summarizer: str = "offline"
) -> list[dict[str, Any]]:
    """``k`` compactions of ``path`` (filler turns between); the compaction entries written."""
    entries = []
    options = {"keepRecentTokens": 300}
    if summarizer:
        options["summarizer"] = summarizer
    for n in range(k):
        session = Session.open(path)
        filler(session, 2 * n)
        filler(session, 2 * n + 1)
        outcome = compact(Session.open(path), hooks_with(*plugins), settings(**options))
        assert outcome.status == "compacted", outcome.reason
        entries.append(outcome.entry)
    return entries


def ledger_of(messages: Sequence[dict[str, Any]]) -> Ledger:
    """The fact ledger of ``messages`` (entry ids ``e0``, ``e1``…)."""
    return build_ledger(messages, [f"e{i}" for i in range(len(messages))])


def compacted(
    folder: Path, messages: Sequence[dict[str, Any]], summarizer: str, k: int = 15
) -> list[dict[str, Any]]:
    """``messages`` written to a new session in ``folder``, then compacted ``k`` times by
    ``summarizer`` (``offline``, or ``factfree``: :class:`FactFree`); the entries written."""
    path = folder / f"{summarizer}.jsonl"
    session = Session.open(path, create=True, cwd=str(folder))
    for message in messages:
        session.append_message(message)
    plugins = [("factfree", FactFree())] if summarizer == "factfree" else []
    return compactions(path, k, *plugins, summarizer=summarizer)


def section(summary: str, heading: str) -> str:
    """The body under ``heading`` (any level) up to the next heading."""
    start = summary.find(heading + "\n")
    if start < 0:
        return ""
    rest = summary[start + len(heading) + 1 :]
    end = [i for i in (rest.find("\n## "), rest.find("\n### ")) if i >= 0]
    return rest[: min(end)] if end else rest


__all__ = ["FACT_FREE", "FactFree", "compactions", "filler", "section", "write_turns"]
