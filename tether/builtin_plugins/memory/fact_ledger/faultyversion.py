"""A version found faulty, then another picked in the same message: the fault is the reason.

"v2.8.1 has the idempotency-key bug QA just hit. tag v2.8.2 has the fix use that": the first
sentence says why the version changes; once the second picks another version of the same
form (a pick word, or "the fix"), the first goes with the change, and so do the earlier rules
choosing the faulty version of that product ("pin the data client at v2.8.1"), never a ban.
Only a sentence that is nothing but the fault: it opens with the version (or a name and the
version), is one clause and asks nothing ("React 18.2.0 has the hydration bug, so keep the
workaround"; "1.0.3 has a bug we need to fix" stay), and the pick is of the same thing ("Go
with Next 14.1.0" is another package's version; "will fix it in v2.9.0" picks nothing). A
version that fixes a bug is not found faulty, nor one the message still uses.
"""

from __future__ import annotations

import re
from typing import Protocol

from tether.builtin_plugins.memory.fact_ledger.clauses import retire_rule
from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.faulted import faulted_after
from tether.builtin_plugins.memory.fact_ledger.keyshape import Keyed, keyed_values
from tether.builtin_plugins.memory.fact_ledger.words import negated, word_search


class Ledger(Protocol):
    facts: list[Fact]

    def live(self, *kinds: str) -> list[Fact]: ...

    def retire(self, old: Fact, new: Fact | None, status: str = "retired") -> None: ...


_PICK = word_search("pick_words")
#: A defect named after a version: "v2.8.1 has the idempotency-key bug", "1.4 regressed".
_DEFECT = re.compile(r"\b(?:bugs?|buggy|regression|regressed)\b|有\s?bug", re.IGNORECASE)
_FIXES = re.compile(r"\bfix(?:es|ed)?\b|修复|修了", re.IGNORECASE)  # "v2.8.2 fixes the bug"
#: A version said to hold the fix now: "v2.8.2 has the fix", "fixed in 1.4.3", "1.4.3 修复了".
_HAS_FIX = re.compile(
    r"\b(?:has|have|ships|contains|includes|got|with) the fix\b|\bfixed in\b|修复了", re.IGNORECASE
)
#: What a sentence that only finds fault never has: a second clause, a modal, an aim.
_MORE = re.compile(
    r"[,;:，；：]|\s[-—–]+\s|\b(?:so|but|and|which|must|need|needs|should|have to|has to"
    r"|until|before|after|on|for)\b|要|需要|必须|得|先|给",
    re.IGNORECASE,
)
#: Words before a version that name no product: "tag v2.8.2", "version 3.1".
_GENERIC = frozenset("tag version release build image v use with go pin to on at is".split())
_NAME_BEFORE = re.compile(r"([A-Za-z][\w.+-]*)\s*$")
MAX_FACTS = 200  # the newest facts, where one message's facts are


def _product(text: str, version: Keyed) -> str:
    """The name just before ``version`` in ``text`` ("React 18.2.0"), "" if generic."""
    found = _NAME_BEFORE.search(text[: version.start])
    name = found.group(1).casefold() if found else ""
    return "" if name in _GENERIC else name


def _faulted_version(text: str, cues: Cues) -> Keyed | None:
    """The version ``text`` opens with, when the rest of it only finds fault with it."""
    versions = [k for k in keyed_values(text, cues) if k.shape == "version"]
    if len(versions) != 1 or len(text[: versions[0].start].split()) > 1:
        return None  # not its subject: "The changelog for 2.4.0 must …"
    end = versions[0].start + len(versions[0].value)
    rest = text[end:].rstrip(" .。!！")
    if _MORE.search(rest):
        return None  # "…, so keep the workaround", "… a bug we need to fix"
    defect = _DEFECT.search(rest)
    if defect is not None and not _FIXES.search(rest[: defect.start()]):
        return versions[0]
    return versions[0] if faulted_after(text, end) else None


def _picks_instead(text: str, old: Keyed, product: str, cues: Cues) -> bool:
    """Whether ``text`` picks another version of ``old``'s form, of the same product."""
    if not (_PICK.search(text) or _HAS_FIX.search(text)) or _faulted_version(text, cues):
        return False  # "upstream will fix it in v2.9.0" picks nothing
    return any(
        k.shape == "version"
        and k.form == old.form
        and k.value != old.value
        and _product(text, k) == product
        for k in keyed_values(text, cues)
    )


def retire_faulted_versions(ledger: Ledger, source: str, cues: Cues) -> None:
    """Retire each rule of message ``source`` that only finds fault with a version when a
    later fact of that message picks another (see the module)."""
    if not source:
        return  # no entry ids: one message cannot be told from another
    facts = [
        f
        for f in ledger.facts[-MAX_FACTS:]
        if f.source == source and f.live and f.kind in ("constraint", "decision", "request")
    ]
    for at, fact in enumerate(facts):
        old = _faulted_version(fact.text, cues)
        if old is None:
            continue
        product = _product(fact.text, old)
        new = next((n for n in facts[at + 1 :] if _picks_instead(n.text, old, product, cues)), None)
        kept = [f for f in facts if f is not fact and old.value in f.text]
        if new is not None and not kept:  # "We still ship v0.9.3 to the legacy fleet": stays
            ledger.retire(fact, new)
            _retire_pins(ledger, old, product, new, cues)


def _retire_pins(ledger: Ledger, old: Keyed, product: str, new: Fact, cues: Cues) -> None:
    """Retire the earlier rules choosing version ``old`` of ``product`` ("pin the data client
    at v2.8.1"; not a ban, "never deploy v2.8.1"), the clauses naming it, and the identifier
    that is it: the fault and the pick replace them."""
    said = re.compile(rf"(?<![\w.-]){re.escape(old.value)}(?![\w-]|\.\d)")
    for rule in ledger.live("constraint") + ledger.live("decision"):
        if rule.source == new.source or negated(rule.text) or not said.search(rule.text):
            continue
        versions = [k for k in keyed_values(rule.text, cues) if k.value == old.value]
        if versions and _product(rule.text, versions[0]) == product:
            retire_rule(ledger, rule, new, cues, changes=lambda clause: bool(said.search(clause)))
    for child in ledger.live("identifier"):
        if child.text == old.value:
            ledger.retire(child, new)


__all__ = ["retire_faulted_versions"]
