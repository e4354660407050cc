"""A value a message replaces, named again in that message: recalled, not set.

"以后失败重试都 retries=5。之前那个 retries=3 太少，夜里网络抖一下就挂。", "timeout=60 from now on;
the timeout=20 we had kept tripping": the second sentence names the old value — as the
earlier one, or finding fault with it, not keeping it or going back to it — to say why it
changed. Its identifier replaces nothing (the new value stays in force) and is filed
retired, into the fact that replaced it; the sentence goes with it when the old value is all
the value it states — a reason given for the change, shown by the change. A value so named
whose replacement the ledger never saw ("之前那个 retries=3" with no rule of 3 on record) still
replaces nothing: it is filed retired.
"""

from __future__ import annotations

import re
from typing import Protocol

from tether.builtin_plugins.memory.fact_ledger.extract import Statement
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.faulted import faulted
from tether.builtin_plugins.memory.fact_ledger.words import normal

MAX_BACK = 40  # facts back where this message's replacements are
_DIGIT = re.compile(r"\d")


class Ledger(Protocol):
    """What recalling needs of :class:`~.ledger.Ledger`."""

    facts: list[Fact]

    def get(self, fact_id: str) -> Fact | None: ...

    def retire(self, old: Fact, new: Fact | None, status: str = "retired") -> None: ...


#: Words that name a value as the earlier one: "之前那个 X", "the X we had", "the old X".
_EARLIER = re.compile(
    r"\b(?:the (?:old|previous|earlier|original|former)|we had|we used|used to)\b"
    r"|之前|原来|以前|旧的|老的",
    re.IGNORECASE,
)


#: Those of them said after the value: "the timeout=20 we had".
_HAD = re.compile(r"\b(?:we had|we used|used to)\b", re.IGNORECASE)
_CLAUSE = re.compile(r"[;；。!?！？]|,\s|，")  # "X=16 from now on; the X=4 we had …": two
#: Words that keep a value in force or bring it back: "keep", "stays", "go back to", 保持, 用回.
_KEPT = re.compile(
    r"\b(?:keep|keeps|stay|stays|stick with|go back|back to|revert|restore|still)\b"
    r"|\b(?:is|are) (?:fine|ok|okay|good)\b"
    r"|保持|保留|还是用|继续用|用回|改回|换回|恢复",
    re.IGNORECASE,
)


def recalled(statement: Statement) -> bool:
    """Whether the clause of ``statement`` (a value) names it as the earlier one or finds
    fault with it, and neither keeps it nor goes back to it."""
    sentence = statement.parent or statement.text
    clause = next((c for c in _CLAUSE.split(sentence) if statement.text in c), sentence)
    if _KEPT.search(clause):
        return False  # "keep the timeout=60 we had", "go back to the old retries=3": in force
    return _named_earlier(statement.text, clause) or faulted(statement.text, clause)


NEAR = 30  # characters between the value and the words naming it the earlier one


def _named_earlier(value: str, clause: str) -> bool:
    """Whether words beside ``value`` name it the earlier one ("之前那个 retries=3", "the
    timeout=20 we had"), not another thing ("… so they can tell it apart from the old
    cluster")."""
    at = clause.find(value)
    if at < 0:
        return _EARLIER.search(clause) is not None
    before, after = clause[max(0, at - NEAR) : at], clause[at + len(value) : at + len(value) + NEAR]
    return _EARLIER.search(before) is not None or _HAD.search(after) is not None


def recalled_by(ledger: Ledger, statement: Statement) -> Fact | None:
    """The fact of ``statement``'s own message that replaced the value it names, when it is
    :func:`recalled` (``None`` otherwise)."""
    if not recalled(statement):
        return None
    said = normal(statement.text)
    for fact in reversed(ledger.facts[-MAX_BACK:]):
        if fact.kind != "identifier" or fact.live or normal(fact.text) != said:
            continue
        by = ledger.get(fact.replaced_by) if fact.replaced_by else None
        if by is not None and by.source == statement.source:
            return by
    return None


def file_recalled(ledger: Ledger, fact: Fact, parent: Fact | None, by: Fact | None) -> Fact:
    """Retire the recalled identifier ``fact`` into ``by`` (what replaced it, if known), and
    its sentence ``parent`` with it when the old value is the only value it states."""
    ledger.retire(fact, by)
    if (
        by is not None
        and parent is not None
        and parent.live
        and not _DIGIT.search(parent.text.replace(fact.text, ""))
    ):
        home = ledger.get(by.parent) if by.parent else None
        ledger.retire(parent, home or by)
    return fact


__all__ = ["file_recalled", "recalled", "recalled_by"]
