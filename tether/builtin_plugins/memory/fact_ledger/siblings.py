"""A value of the same family as an earlier one: "round with ROUND_HALF_UP" then "banker's
rounding, ROUND_HALF_EVEN"; "Output reconciled.csv" then "the output should be
reconciled.xlsx". Two constants that differ only in their last part (``ROUND_HALF_*``,
``LOG_LEVEL_*``) or two files that differ only in their extension are two choices for one
thing, so a later rule stating one in place of the other changes it.

It is no change when the later sentence also names the earlier value, or its clause adds
("also", 另外) or bans. When its clause says a word the earlier one does not, two files are
alternatives only when those words are of output ("the upload should be payroll.xlsx", not
"Styles go in Settings.css" after "Component logic lives in Settings.tsx"), and two
constants only when their family names a choice (``LOG_LEVEL``, ``ROUND_HALF``; not
``FLAG_NEW_*``, ``AES_256_*``), in a frame of the new one's own and not for a part. A
constant that names a setting (``DB_HOST`` / ``DB_PORT``: a last part that is a noun of
configuration, or one assigned a value: ``LOG_LEVEL_FILE=…``) is no value, and constants
need three parts or more (``MAX_RETRIES`` / ``MAX_WORKERS`` are two settings).
"""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.subject import clause
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
    for read, apart in ((_constants, _other_frame), (_files, _not_output)):
        mine, theirs = read(new), read(old)
        if any(name in new for name in theirs):
            continue  # "ROUND_HALF_EVEN, not ROUND_HALF_UP" is read elsewhere
        for name, family in mine.items():
            said = [n for n, f in theirs.items() if f == family]
            if not said:
                continue
            clause, old_clause = _clause_of(new, name), _clause_of(old, said[0])
            if negated(clause) or negated(old_clause) or ADDED.search(clause):
                continue  # "don't export users.xlsx", "另外导出 users.xlsx": beside it
            mine_words = _content(clause.replace(name, " "))
            theirs_words = _content(old_clause.replace(said[0], " "))
            if mine_words <= theirs_words or not apart(mine_words, theirs_words, clause, family):
                return True
    return False


def _other_frame(mine: set[str], theirs: set[str], clause: str, family: str) -> bool:
    """Two constants are two settings unless their family names a choice (``LOG_LEVEL_*``,
    ``ROUND_HALF_*``: the ``choice_families`` words), the new one is said in a frame of its
    own ("Accountant wants ROUND_HALF_EVEN"), not the old one's with other words, and not
    for a part ("… for the file handler")."""
    if family.rpartition("_")[2].casefold() not in _CHOICES:
        return True
    return bool(mine & theirs) or _FOR_PART.search(clause) is not None


def _not_output(mine: set[str], theirs: set[str], clause: str, family: str) -> bool:
    """Two files of one stem are alternatives only as what is written out, said in nothing
    but words of output ("the upload should be payroll.xlsx" after "write payroll.csv");
    "Styles go in Grid.css" or "export model.onnx for serving" is another file."""
    extra = mine - theirs  # "Input is always data.csv" / "Output is …": two files
    return not (mine & _OUTPUT and theirs & _OUTPUT) or not extra <= _OUTPUT


_CHOICES = vocabulary("choice_families")
_OUTPUT = stemmed(set(vocabulary("output_words")))
_FOR_PART = re.compile(r"\b(?:for|on|in)\s+(?:the\s+|our\s+|my\s+)?[a-z][\w-]*", re.IGNORECASE)


def _content(text: str) -> set[str]:
    return stemmed(words_of(text) - STOP - _PLAIN)


def _clause_of(text: str, name: str) -> str:
    """The clause of ``text`` naming ``name``; a colon ends a clause too ("it's too noisy:
    LOG_LEVEL_WARN there")."""
    return clause(_COLON.sub(",", text), name)


_COLON = re.compile(r"[:：]")


__all__ = ["sibling_value"]
