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


#: A label opening a message's rules in prose ("几点要求：…", "Some rules: …").
_RULES_LABEL = re.compile(
    r"^\W*(?:[^:：。.]{0,6}(?:要求|规则|约束|规范)"
    r"|(?:(?:a few|some|my|our|the|ground|house|project|team)\s+)?"
    r"(?:rules|requirements|constraints))\s*[:：]",  # not a topic's ("ESLint rules: …")
    re.IGNORECASE,
)


def opens_rules(sentence: str) -> bool:
    """Whether ``sentence`` opens with a label of rules ("几点要求：不要用 X。"): the sentences
    of its message after it state rules too ("错误信息要带行号和列号。")."""
    return _RULES_LABEL.match(sentence) is not None


__all__ = ["label_list", "opens_rules"]
