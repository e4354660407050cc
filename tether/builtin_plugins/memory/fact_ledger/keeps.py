"""False retirements a change must not make: facts a new sentence shares words with but does
not change.

- A fact stating the very setting the new sentence sets ("catchup: false # never backfill
  automatically" beside "back to catchup: false, I'll open a ticket"): the same value said
  again is no change of it.
- A fact pinning a version of a thing the new sentence only uses ("Phoenix 1.7.14 + LiveView
  0.20" beside "use LiveView streams with infinite scroll instead"): the pin stays.
- A common noun before "is dead"/"is gone" ("now that the old android app is dead"): the
  thing gone is that one, not every fact naming an app.
- A gone cue with a condition after it ("the 502 from the proxy goes away after a restart":
  a symptom ends, not the proxy), or in a sentence that keeps the thing meanwhile ("… is
  going away next month; keep posting there until then"): nothing is gone yet.
"""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.faulted import said_wanting
from tether.builtin_plugins.memory.fact_ledger.words import leads_with, vocabulary, word_search

_SETTING = re.compile(r"(?<![\w.-])([A-Za-z_][\w.-]*)\s*(?:=|:)\s*\"?([^\s,;\"#]+)")
_VERSIONED = re.compile(r"(?<![\w.-])([A-Za-z][\w.+-]*)\s+v?(\d+(?:\.\d+)+)(?!\w|\.\w)")
_DETERMINED = re.compile(r"\b(?:the|a|an|our|my|your|their|this|that|its)\s+(?:\S+\s+){0,2}$")


def _settings(text: str, *, held: bool = False) -> dict[str, str]:
    """The ``key=value`` settings of ``text``; with ``held``, only those it does not find
    fault with ("dt=1e-4 is too aggressive" names the old value to say why it goes)."""
    return {
        m.group(1).casefold(): m.group(2).casefold()
        for m in _SETTING.finditer(text)
        if not (held and said_wanting(text, m.end()))
    }


def restates(new: str, old: str) -> bool:
    """``new`` sets a key of ``old`` to the value ``old`` gives it (and no key of ``old`` to
    another value): ``old`` is said again, not changed. A setting ``new`` finds fault with
    is no setting of it."""
    mine, theirs = _settings(new, held=True), _settings(old)
    shared = set(mine) & set(theirs)
    return bool(shared) and all(mine[k] == theirs[k] for k in shared)


def pin_kept(new: str, old: str) -> bool:
    """``old`` pins a version of a name ``new`` names without any version: a use of the
    thing, not a new version of it."""
    pinned = {name.casefold() for name, _v in _VERSIONED.findall(old)}
    if not pinned or _VERSIONED.search(new):
        return False
    said = {w.casefold() for w in re.findall(r"[A-Za-z][\w.+-]*", new)}
    return bool(pinned & said)


def common_noun(text: str, start: int) -> bool:
    """The word ending at ``start`` in ``text`` follows a determiner ("the old android app"):
    a common noun, not the name of a value."""
    before = text[:start]
    at = before.rstrip().rfind(" ")
    return _DETERMINED.search(before[: at + 1] if at >= 0 else "") is not None


_DETERMINER = re.compile(r"\b(?:the|a|an|our|my|your|their|this|that|its)\s+((?:\S+\s+){1,2})$")


def named_noun(text: str, start: int) -> str:
    """The words from after the determiner to ``start`` when a word stands between them
    ("the nginx ingress"): the phrase names one thing ("" when none does)."""
    before = text[:start]
    at = before.rstrip().rfind(" ")
    found = _DETERMINER.search(before[: at + 1] if at >= 0 else "")
    phrase = text[at + 1 - len(found.group(1)) : start].split() if found else []
    while phrase and _DETERMINED.match(phrase[0] + " "):
        phrase = phrase[1:]  # "that the app": no word between
    return " ".join(phrase) if len(phrase) > 1 else ""


_CONDITIONS = vocabulary("gone_conditions")
_HELD = word_search("gone_held")
_NEXT = re.compile(r"\s*([A-Za-z]+)")


def not_gone_yet(text: str, end: int) -> bool:
    """Whether the gone cue of ``text`` ending at ``end`` leaves its thing in use: a condition
    right after it, or a word in the sentence keeping the thing meanwhile."""
    return leads_with(text[end:], _CONDITIONS, _NEXT) or _HELD.search(text) is not None


#: A value said to stay as it is, right after it: "topic 保持不变", "the region stays".
_AS_IS = re.compile(r"\s*(?:保持不变|不变|不动|照旧|保持|stays|is unchanged|unchanged|as is)", re.I)


def kept_as_is(text: str, value: str) -> bool:
    """Whether ``text`` names ``value`` to say it stays as it is ("topic 保持不变")."""
    at = text.casefold().find(value.casefold())
    return at >= 0 and _AS_IS.match(text, at + len(value)) is not None


__all__ = ["common_noun", "kept_as_is", "named_noun", "not_gone_yet", "pin_kept", "restates"]
