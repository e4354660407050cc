"""A value of the same family as an earlier one: "round with ROUND_HALF_UP" then "banker's
rounding, ROUND_HALF_EVEN"; "Output reconciled.csv" then "the output should be
reconciled.xlsx". Two constants that differ only in their last part (``ROUND_HALF_*``,
``LOG_LEVEL_*``) or two files that differ only in their extension are two choices for one
thing, so a later rule stating one in place of the other changes it.

It is no change when the later sentence also names the earlier value, or its clause adds
("also", 另外), bans, or says a word the earlier clause does not ("Styles go in
Settings.css" after "Component logic lives in Settings.tsx": two files for two things); nor
for a constant that names a setting rather than a value of one (``DB_HOST`` / ``DB_PORT``: a
last part that is a noun of configuration, or one assigned a value: ``LOG_LEVEL_FILE=…``);
constants need three parts or more (``MAX_RETRIES`` / ``MAX_WORKERS`` are two settings).
"""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.words import (
    ADDED,
    STOP,
    negated,
    stemmed,
    vocabulary,
    words_of,
)

_CONSTANT = re.compile(r"(?<![\w$.-])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+){2,})(?![\w=]|\s*[=:]\s*\S)")
_FILE = re.compile(r"(?<![\w/.-])([A-Za-z][\w-]*)\.([A-Za-z][A-Za-z0-9]{1,7})(?![\w-]|\.\w)")
_EXT = vocabulary("file_extensions")
#: Words that only link a value to its place ("should be", "there", "now").
_PLAIN = vocabulary("bare_filler") | frozenset("should be is are goes go use there".split())
#: Last parts that name a setting, not a value of one (``…_HOST``, ``…_PORT``, ``…_PATH``).
_SETTING_TAILS = frozenset(w.upper() for w in vocabulary("setting_tails"))


def _constants(text: str) -> dict[str, str]:
    """The family (all parts but the last) of each value-like constant ``text`` names."""
    out = {}
    for match in _CONSTANT.finditer(text):
        name = match.group(1)
        family, _, tail = name.rpartition("_")
        if tail not in _SETTING_TAILS:
            out[name] = family
    return out


def _files(text: str) -> dict[str, str]:
    """The stem of each ``stem.ext`` file name ``text`` names."""
    found = _FILE.finditer(text)  # "requests.get" is no file
    return {m.group(0): m.group(1).casefold() for m in found if m.group(2).casefold() in _EXT}


def sibling_value(new: str, old: str) -> bool:
    """Whether ``new`` states, in place of a value ``old`` states, another of its family."""
    for read in (_constants, _files):
        mine, theirs = read(new), read(old)
        if any(name in new for name in theirs):
            continue  # "ROUND_HALF_EVEN, not ROUND_HALF_UP" is read elsewhere
        for name, family in mine.items():
            said = [n for n, f in theirs.items() if f == family]
            if said and _in_place(_clause_of(new, name), name, _clause_of(old, said[0]), said[0]):
                return True
    return False


def _in_place(clause: str, name: str, old_clause: str, old_name: str) -> bool:
    """Whether ``clause`` puts ``name`` where ``old_clause`` put ``old_name``: neither bans,
    it adds nothing ("also", 另外), and it says nothing the old clause does not — "Styles
    go in Settings.css" is no place of "Component logic lives in Settings.tsx"."""
    if negated(clause) or negated(old_clause) or ADDED.search(clause):
        return False
    mine = _content(clause.replace(name, " "))
    return mine <= _content(old_clause.replace(old_name, " "))


def _content(text: str) -> set[str]:
    return stemmed(words_of(text) - STOP - _PLAIN)


def _clause_of(text: str, name: str) -> str:
    """The clause of ``text`` that names ``name`` (a file name's dot aside)."""
    at = text.find(name)
    start = max(text.rfind(mark, 0, at) for mark in ",;:!?，；：。！？") + 1
    ends = [e for e in (text.find(mark, at + len(name)) for mark in ",;:!?，；：。！？") if e >= 0]
    return text[start : min(ends, default=len(text))]


__all__ = ["sibling_value"]
