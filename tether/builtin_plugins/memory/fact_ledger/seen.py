"""Errors a successful call shows: a log read, a grep of a CI job, a status query.

"grep -n Exception ci.log" succeeds, and its output names the failure under study:
"1205:    androidx.test.espresso.NoMatchingViewException: No views in hierarchy found …". A log
line naming an error type with its message (``SomeError: …``, ``pkg.SomeException: …``) after
no more than a log's prefix — not code that raises or catches one, not a commit subject or a
line of docs — is kept verbatim as an identifier, the first :data:`MAX_SEEN` distinct ones
of an output. Nothing is open: the call succeeded. They are keyed by the call, so the call
run again replaces them, or ends them when it shows none (a log read twice is not two sets
of facts).
"""

from __future__ import annotations

import itertools
import re
from typing import Protocol

from tether.builtin_plugins.memory.fact_ledger.extract import MAX_FACT, Statement
from tether.builtin_plugins.memory.fact_ledger.fact import Fact

MAX_SEEN = 2  # error lines kept of one successful output
MAX_LOOKED = 20  # lines naming an error looked at per output (a log may repeat one forever)
#: A named error type and its message: "KeyError: 'sku'", "io.grpc.StatusRuntimeException: …".
_NAMED = re.compile(r"(?<![\w.])(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)\b:\s+\S")
_CODE = re.compile(r"\b(?:raise|throw|throws|except|catch|class|def|import|new|assert)\b")
#: What may stand before the error on a log line: numbers, times, punctuation, a bracketed
#: tag ("[main]"), a level in capitals ("ERROR"), "Caused by:" — never prose ("fix KeyError",
#: "If you see `PermissionError`").
_LOG_PREFIX = re.compile(r"(?:[\W\d_]|\[[^\]]*\]|[A-Z]{1,8}(?![a-z])|Caused by)*")


class Ledger(Protocol):
    """What filing seen errors needs of :class:`~.ledger.Ledger`."""

    def live(self, *kinds: str) -> list[Fact]: ...

    def retire(self, old: Fact, new: Fact | None, status: str = "retired") -> None: ...

    def add(self, statement: Statement, cues: object = None) -> Fact: ...


def seen_errors(text: str) -> list[str]:
    """The first :data:`MAX_SEEN` lines of ``text`` naming distinct errors with their
    messages, verbatim (stripped)."""
    out: list[str] = []
    said: set[str] = set()  # the errors themselves: a log repeats one under other prefixes
    if "Error:" not in text and "Exception:" not in text:
        return out  # most outputs: no line to look at (a named error has one of these)
    candidates = (x for x in text.splitlines() if "Error:" in x or "Exception:" in x)
    for line in itertools.islice(candidates, MAX_LOOKED):
        line = line.strip()
        named = _NAMED.search(line)
        if named is None or _CODE.search(line) or line[named.start() :] in said:
            continue
        if not _LOG_PREFIX.fullmatch(line[: named.start()]):
            continue  # a commit subject, a line of docs: not an error that happened
        said.add(line[named.start() :])
        out.append(line[:MAX_FACT])
        if len(out) == MAX_SEEN:
            break
    return out


def file_seen(ledger: Ledger, text: str, key: str, source: str) -> None:
    """File the errors output ``text`` of a successful call shows, replacing those an
    earlier run of that call (``key``) showed."""
    lines = seen_errors(text)
    earlier = [f for f in ledger.live("identifier") if f.key == key]
    for line in lines:
        fact = ledger.add(Statement("identifier", line, source))
        if fact.source == source and not fact.key:
            fact.key = key  # keyed once filed: the lines of one output replace none of theirs
    for old in earlier:
        if old.text not in lines:
            ledger.retire(old, None)


__all__ = ["MAX_SEEN", "file_seen", "seen_errors"]
