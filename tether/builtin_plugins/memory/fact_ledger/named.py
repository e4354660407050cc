"""The one earlier fact a change names (see :mod:`.supersede`): "Bump Postgres to 17", "not
use Redis anymore", "drop --legacy-peer-deps"; with a take-back cue any word of its clause
("not bother with gzip anymore"). A name that is where the change goes ("switch … to Pulumi
Cloud") names no fact it replaces."""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.partial import qualified_elsewhere
from tether.builtin_plugins.memory.fact_ledger.words import FUNCTION_WORDS

#: A capitalised, dotted or hyphenated name: "Postgres", "SQLite", "pg-bouncer", "k8s.io".
NAME = re.compile(
    r"(?<![\w.-])(?:[A-Z][a-z]+[A-Z]?\w*|[a-z]+[.-][a-z][\w.-]*|[A-Z]{2,}\w*)(?![\w-])"
)
#: A flag or an environment variable: "--offline", "-O2", "NODE_ENV".
FLAG_OR_VAR = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]+|(?<![\w$])[A-Z][A-Z0-9]*_[A-Z0-9_]+")


_TO = re.compile(r"(?:\b(?:to|onto|into)\s+(?:the\s+|a\s+)?|换成|改用|改为|改成|切到)\s*$", re.I)


def _destination(text: str, name: str) -> bool:
    """Whether ``name`` is where ``text`` switches to ("switch the state backend to Pulumi
    Cloud"): an earlier fact naming it ("use pulumi import for the VPC") is not replaced."""
    at = text.find(name)
    return at > 0 and _TO.search(text[:at]) is not None


def named_alike(
    fact: Fact, text: str, rules: list[Fact], *, any_word: bool = False
) -> tuple[float, Fact] | None:
    """With a change cue and no look-alike: the one earlier fact that names the same
    thing (a capitalized or dotted name: "Bump Postgres to 17", "not use Redis anymore";
    with a revoke cue any word of 3+ letters: "not bother with gzip anymore")."""
    names = NAME.findall(text)
    names += [m.group(0) for m in FLAG_OR_VAR.finditer(text) if m.group(0) not in names]
    proper = len(names)  # the names proper; with a take-back cue, any word after them
    if any_word:
        names += [
            w for w in re.findall(r"(?<![\w'])[A-Za-z][\w.-]{2,}(?![\w'])", text) if w not in names
        ]
    for index, name in enumerate(names):
        if name.casefold() in FUNCTION_WORDS or _destination(fact.text, name):
            continue
        head = r"(?<![\w.-])" if name[:1].isalnum() else r"(?<![\w.])"
        pattern = re.compile(head + re.escape(name) + r"(?![\w-])", re.IGNORECASE)
        naming = [old for old in rules if old is not fact and pattern.search(old.text)]
        if index >= proper:  # a plain word: "未压缩的 vcf" (uncompressed) is not every "VCF"
            naming = [old for old in naming if not qualified_elsewhere(text, name, old.text)]
        if len(naming) == 1:
            return (0.0, naming[0])
    return None


__all__ = ["FLAG_OR_VAR", "NAME", "named_alike"]
