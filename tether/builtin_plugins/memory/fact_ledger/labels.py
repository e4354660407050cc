"""Rules listed after a label with spaces between them and no punctuation, as people type
Chinese in a chat: "质控阈值：比例超过15%的去掉 少于200的也去掉 别的先不管". The label names
what the items set; each item is a rule, so the sentence states rules (a constraint), even
when no cue word is in it."""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.words import WIDE

#: an optional short lead ("嗯 ", "ok "), a label of at most 12 characters, a colon, the rest
_LABELLED = re.compile(r"^(?:\S{1,4}\s+)?[^\s:：]{1,12}[:：]\s*(?P<items>.+)$")
MIN_ITEMS = 2
MIN_WIDE = 3  # wide characters in an item: a clause, not a stray word


def label_list(sentence: str) -> bool:
    """Whether ``sentence`` is a label followed by at least two space-separated clauses
    written in a wide script (each with a few wide characters)."""
    found = _LABELLED.match(sentence.strip())
    if found is None:
        return False
    items = found.group("items").rstrip("。.!！").split()
    wide = [item for item in items if len(WIDE.findall(item)) >= MIN_WIDE]
    return len(items) >= MIN_ITEMS and len(wide) >= MIN_ITEMS


__all__ = ["label_list"]
