"""One key set again: ``process.threads = 16`` … ``process.threads = 8`` … ``process.threads
= 12``, ``retry_limit: 3`` … ``retry_limit: 5``, ``--jobs 4`` … ``--jobs=8``; and a key word
given again as a key (``bump the loader to 0.15.3`` … ``loader_version=0.15.11``).

The exact ``key = value`` case only (spaces around ``=`` or ``:`` allowed): a later message that
sets the same key to another value retires the earlier sentence setting it, unless the two
name different parts (:func:`~.concepts.parts_differ`) or one sentence sets the key twice
("2 locally, 8 in prod"). A sentence setting a key states a value in force: a constraint,
not a request.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType

from tether.builtin_plugins.memory.fact_ledger.bounds import measures_bound
from tether.builtin_plugins.memory.fact_ledger.concepts import parts_differ
from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.extract import Statement
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.keychange import retire_reshaped
from tether.builtin_plugins.memory.fact_ledger.keypair import (
    cjk_change,
    cjk_now,
    cjk_swap,
    terse_change,
)
from tether.builtin_plugins.memory.fact_ledger.ledger import Ledger
from tether.builtin_plugins.memory.fact_ledger.nowvalue import now_pairs, now_values, plain_renames
from tether.builtin_plugins.memory.fact_ledger.picked import ACCEPTED
from tether.builtin_plugins.memory.fact_ledger.refile import as_rule
from tether.builtin_plugins.memory.fact_ledger.revoke import retire_keeping_clauses
from tether.builtin_plugins.memory.fact_ledger.words import (
    CLAUSES,
    FILE_END,
    WIDE,
    negated,
    vocabulary,
)

_ASSIGN = re.compile(
    r"(?<![\w.\-/:])(?P<key>[A-Za-z_][\w.-]*\w)\s*(?P<op>=|:)\s*(?P<value>[^\s,;，；。、]+)"
)
_FLAG = re.compile(
    r"(?<![\w-])(?P<key>--[a-z][\w-]+)(?:=|\s+)(?P<value>[^\s,;，；。、-][^\s,;，；。、]*)"
)
_VERSION = re.compile(r"(?<![\w.])v?\d+\.\d+(?:\.\d+)*[a-z]?\w*")
#: parts of a key that name no thing of their own ("loader_version": the loader)
_GENERIC = vocabulary("key_parts_generic")
_KINDS = ("constraint", "decision", "request")


def assignments(text: str) -> dict[str, str]:
    """``{key: value}`` of the keys ``text`` sets once (a key set twice in it is left out)."""
    return dict(_assignments(text))


@functools.lru_cache(maxsize=4096)
def _assignments(text: str) -> Mapping[str, str]:
    """:func:`assignments`, read once per text: every new fact is compared with each live
    one, so a long session asks for the same texts again and again."""
    seen: dict[str, list[str]] = {}
    for match in _ASSIGN.finditer(text):
        key, op, value = match.group("key"), match.group("op"), match.group("value")
        if value.startswith(("//", "=")) or (op == ":" and not re.search(r"[._]", key)):
            continue  # a URL, a comparison; "image: x" is a label, not a key
        if FILE_END.search(key):
            continue  # "utils.py: it crashes", "app.py:42": a file, not a key
        seen.setdefault(key.casefold(), []).append(value.rstrip(".:!?)"))
    for match in _FLAG.finditer(text):
        seen.setdefault(match.group("key"), []).append(match.group("value").rstrip(".:!?)"))
    found = {key: values[0] for key, values in seen.items() if len(set(values)) == 1}
    return MappingProxyType(found)  # shared by every caller: read-only


def promote(statements: Sequence[Statement]) -> list[Statement]:
    """A request that sets a key states the value in force: a constraint."""
    return [
        replace(s, kind="constraint") if s.kind == "request" and assignments(s.text) else s
        for s in statements
    ]


def _named_key_word(key: str, value: str, old: str) -> bool:
    """``old`` gives a key's thing ("loader" of ``loader_version``) another version."""
    if not _VERSION.fullmatch(value):
        return False
    words = [w for w in re.split(r"[._-]+", key.casefold().lstrip("-")) if w]
    named = [w for w in words if len(w) >= 3 and w not in _GENERIC]
    if not named or named == words:
        return False  # "timeout_ms" names nothing; a key without a generic part is itself
    said = re.findall(r"[a-z][a-z0-9]*", old.casefold())
    versions = _VERSION.findall(old)
    return all(w in said for w in named) and bool(versions) and value not in versions


MAX_EARLIER = 250  # earlier rules a key set anew is compared with (the newest ones)


def _newest_of(ledger: Ledger, source: str) -> list[Fact]:
    """The live rules and requests of message ``source`` (the newest facts), in order."""
    out = []
    for fact in reversed(ledger.facts):
        if fact.source != source:
            break
        if fact.live and fact.kind in _KINDS:
            out.append(fact)
    return out[::-1]


def _newest_rules(ledger: Ledger, source: str) -> list[Fact]:
    """The newest :data:`MAX_EARLIER` live rules and requests said before ``source``, newest
    first (a long session's compaction stays linear in its length)."""
    found: list[Fact] = []
    for fact in reversed(ledger.facts):
        if fact.source != source and fact.live and fact.kind in _KINDS:
            found.append(fact)
            if len(found) == MAX_EARLIER:
                break
    return found


def retire_same_key(ledger: Ledger, source: str, cues: Cues) -> None:
    """Retire the earlier sentences setting a key that a fact from ``source`` sets anew
    (messages without entry ids share one source: nothing is earlier than another)."""
    if not source:
        return
    news = [fact for fact in _newest_of(ledger, source) if _assignments(fact.text)]
    for new in news:
        keys = _assignments(new.text)
        for old in _newest_rules(ledger, source):  # with the clauses a retirement just kept
            if not old.source or not old.live:
                continue
            theirs = _assignments(old.text)
            changed = [k for k, v in keys.items() if k in theirs and theirs[k] != v] or [
                k for k, v in keys.items() if k not in theirs and _named_key_word(k, v, old.text)
            ]
            if changed and not parts_differ(new.text, old.text, cues.concepts):
                retire_keeping_clauses(ledger, old, new, changed[0].split("_")[0])
    for new in _newest_of(ledger, source):
        olds = [
            f for f in _newest_rules(ledger, source) if f.live and f.source and f.kind != "request"
        ]
        changed = [(old, terse_change(new.text, old.text)) for old in olds]
        # a CJK key told by shared characters is a guess: only for a statement that changed
        # nothing otherwise
        guess = not new.replaces and not any(value for _old, value in changed)
        if guess and WIDE.search(new.text):
            accepted = new.note == ACCEPTED  # an accepted proposal is a change
            texts = [old.text for old in olds]
            at, value = cjk_change(new.text, texts, cued=accepted)
            if not value:  # "改成每月调仓" after "每周调仓": one character swapped
                at, value = cjk_swap(new.text, texts)
            if not value:  # "手续费现在是万一点五了" after "手续费万三"
                at, value = cjk_now(new.text, texts)
            changed = [(olds[at], value)] if value else []
        for old, value in changed:
            if value and old.live and not parts_differ(new.text, old.text, cues.concepts):
                _retire(ledger, old, new, value, cues)
    for new in _newest_of(ledger, source):  # "the partition is gpu-h100-batch now"
        said = now_values(new.text, cues) or plain_renames(new.text)
        for old in _newest_rules(ledger, source) if said else []:
            pairs = now_pairs(new.text, old.text, cues)
            apart = parts_differ(new.text, old.text, cues.concepts)  # staging's, not prod's
            if pairs and old.live and old.kind != "request" and not apart:
                _retire(ledger, old, new, pairs[0][0], cues)
                as_rule(ledger, new)  # "rename mod id to copperpipes": the id now
                for gone in ledger.live("identifier"):  # its name, even if said again
                    if gone.text == pairs[0][0] and gone.source != new.source:
                        ledger.retire(gone, new)  # ("…, copperworks is taken")
    retire_reshaped(
        ledger, source, cues, lambda old, new, value: _retire(ledger, old, new, value, cues)
    )


_CLAUSES = re.compile(rf"{CLAUSES.pattern}|\s*(?:。|同时)\s*")  # and 并且: two clauses


def _names(value: str, clause: str) -> bool:
    """``value`` in ``clause`` as a whole name: not "deployer" in "deployer-role"."""
    head = r"(?<![A-Za-z0-9_.-])" if value[:1].isascii() and value[:1].isalnum() else ""
    tail = r"(?![A-Za-z0-9_-])" if value[-1:].isascii() and value[-1:].isalnum() else ""
    return re.search(head + re.escape(value) + tail, clause, re.IGNORECASE) is not None


def _retire(ledger: Ledger, old: Fact, new: Fact, value: str, cues: Cues) -> None:
    """Retire ``old`` for ``new``; the clauses of ``old`` that do not state ``value`` stay
    live on their own ("Hugo 用 0.120，草稿不要发布": the second clause), in either script, and
    so do its prohibitions naming the value ("不要引入 Kafka": no choice replaces a ban).
    A measure of what ``old`` bounds retires nothing (:mod:`.bounds`)."""
    if measures_bound(new.text, old.text, cues, cued=False):
        return
    if value and negated(old.text) and not _CLAUSES.search(old.text.strip(" .。!！")):
        return  # "前端不要引入 jQuery": another value ("现在是 React 18") lifts no ban
    clauses = [c.strip(" .。!！") for c in _CLAUSES.split(old.text)]
    clauses = [c for c in clauses if c] if old.kind in ("constraint", "decision") else []
    kept = [
        c
        for c in clauses
        if len(clauses) > 1
        and (not _names(value, c) or negated(c))  # "不要引入 Kafka" stays
        and (len(c) >= 4 if WIDE.search(c) else len(c.split()) >= 2 and len(c) >= 6)
    ]
    if kept and len(kept) == len(clauses):
        return  # only prohibitions name the value: a new value is no change of them
    facts = [ledger.new_clause(old, clause, note=old.note) for clause in kept]
    ledger.retire(old, new)
    for child in ledger.live("identifier"):
        home = next((f for f in facts if child.parent == old.id and child.text in f.text), None)
        if home is not None:
            child.parent = home.id


__all__ = ["assignments", "promote", "retire_same_key"]
