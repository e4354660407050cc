"""An id format given anew: "invoice numbers like INV-2024-0001" and later "INV-{client}-
{yyyy}-{seq}, e.g. INV-ACME-2024-0007". A rule that shows a format by example (an id right
after "like", "e.g.", "for example", 例如, 比如, 格式) is replaced by a later rule stating an id
of the same prefix in another shape: a template with placeholders, or an example with other
parts. An id said without an example word ("picking up PAY-4471") is no format."""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.words import alternation

#: An id: a capitalized prefix, then parts joined by "-" or "_" (digits, capitals or
#: placeholders: ``INV-2024-0001``, ``INV-{client}-{yyyy}-{seq}``, ``PO_<year>_<n>``).
_PART = r"(?:[A-Z0-9]+|\{\w+\}|<\w+>)"
_ID = re.compile(rf"(?<![\w{{<-])([A-Z][A-Z0-9]{{1,9}})[-_]({_PART}(?:[-_]{_PART})*)(?![\w}}>-])")
_EXAMPLE = re.compile(rf"(?<![A-Za-z])(?:{alternation('example_words')})\W{{0,3}}$", re.I)
_PLACEHOLDER = re.compile(r"\{\w+\}|<\w+>")


def _shape(value: str) -> str:
    return re.sub(r"\{\w+\}|<\w+>", "P", re.sub(r"[A-Z]+", "A", re.sub(r"\d+", "9", value)))


def _examples(text: str) -> list[re.Match[str]]:
    """The ids ``text`` shows as an example of a format."""
    return [m for m in _ID.finditer(text) if _EXAMPLE.search(text[: m.start()])]


def reformatted(fact: Fact, rules: list[Fact]) -> list[Fact]:
    """The earlier rules whose example id ``fact`` gives another format of (see the module)."""
    mine = list(_ID.finditer(fact.text))
    if not mine:
        return []
    out = []
    for old in rules:
        if old is fact or not old.live or old.source == fact.source:
            continue
        for example in _examples(old.text):
            if example.group(0) in fact.text:
                continue
            for new in mine:
                same_prefix = new.group(1) == example.group(1)
                other = _PLACEHOLDER.search(new.group(0)) or (
                    _EXAMPLE.search(fact.text[: new.start()])
                    and _shape(new.group(0)) != _shape(example.group(0))
                )
                if same_prefix and other and old not in out:
                    out.append(old)
    return out


__all__ = ["reformatted"]
