"""Terse users: a setting said as a bare key and value, and a turn that only acknowledges.

Users who type little state settings without a sentence around them: ``lr 0.015``,
``timeout 10m``, ``max_workers: 3``, ``dropout 先 0.8``, ``keep -race``, each its own message or
a line of a bullet list. :func:`terse_setting` tells such a line from a request for work: a
few key words (no task verb first), then a value that is a number (with its unit), a flag or
an identifier-like token. It is a value in force (a constraint); a later line for the same key
replaces it through the ledger's own key notion (:mod:`.keyvalue`, :mod:`.samekey`).

:func:`bare_ack` is the other side: a turn of nothing but acknowledgement ("k", "ok", "go on",
"继续", "👍") states no fact, though the filler table's anchored matching misses some of them
("ok" leads a sentence, so it is skipped as a lead word).
"""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.words import vocabulary, word_count

MAX_TERSE = 60  # characters: a key and its value, not a sentence
MAX_KEY_WORDS = 3
_BULLET = re.compile(r"^\s*(?:[-*•·]|\d{1,2}[.)、])\s+")
#: ``<key words> [:|=|先|改成|设为|用] <value> [unit word]``.
_SETTING = re.compile(
    rf"^(?P<key>[^\W\d][\w.-]*(?:\s+[^\W\d][\w.-]*){{0,{MAX_KEY_WORDS - 1}}})"
    r"\s*(?:[:：=]\s*|\s+(?:先|改成|改为|设为|设成|用|to|=)?\s*)"
    r"(?P<value>[-+]?\d[\w.,:/%+-]*|--?[A-Za-z][\w-]*(?:=\S+)?|[A-Za-z_][\w-]*[._/:-][\w./:-]+)"
    r"(?:\s*(?P<unit>[A-Za-z\u4e00-\u9fff]{1,8}))?\s*[吧了]?$"
)
#: Words a key never is: a request for work, a pronoun, a label of a turn.
_NOT_KEYS = vocabulary("not_keys")
_ERRORISH = re.compile(r"error|exception|fail|warn|traceback|fatal|panic", re.IGNORECASE)
_ACK_WORDS = vocabulary("acknowledgements")
_ACK_WIDE = (
    "继续", "好的", "好", "嗯", "行", "谢谢", "可以", "收到", "接着", "没问题", "吧", "啊", "了",
)  # fmt: skip
_STRIP = re.compile(r"[\s.,!?…，。！？~、:;'\"()\[\]]+|[\U0001F300-\U0001FAFF\u2600-\u27BF]+")


def _body(text: str) -> str:
    return _BULLET.sub("", text.strip()).rstrip(" .;。；")


def terse_setting(sentence: str, cues: Cues) -> bool:
    """Whether ``sentence`` (a short message or a list line) is only a key and its value."""
    body = _body(sentence)
    if not body or len(body) > MAX_TERSE or body.endswith(("?", "？")):
        return False
    found = _SETTING.match(body)
    if found is None:
        return False
    key = found.group("key")
    first = key.split()[0].casefold()
    if (
        first in _NOT_KEYS
        or _ERRORISH.search(key)
        or cues.has("filler", key)
        or cues.has("ask", key)
    ):
        return False
    if cues.has("task", key) and not found.group("value").startswith("-"):
        return False  # "run 3 times", "fix 2 tests": work, not a value ("keep -race" is one)
    return True


MAX_ACK = 40  # characters of an acknowledgement, punctuation and emoji aside
MAX_ACK_WORDS = 6
_KNOWN: dict[int, frozenset[str]] = {}  # acknowledgement words per set of cue tables
MAX_STATED_WORDS = 14
_VAGUE = vocabulary("vague")
#: "<thing> is still …", "<thing> is what we use", "<things> stay in UTC": how something is.
_STATED = re.compile(
    r"^\W*(?:[\w.+#/-]+\s+){0,3}?[\w.+#/-]+\s+(?:is|are|stays?|remains?|lives?|runs?"
    r"|goes|sits?|comes?)\s+(?:still\s+|always\s+|only\s+|never\s+)?(?!\w+ing\b)\w",
    re.IGNORECASE,
)


def terse_statement(body: str, cues: Cues) -> bool:
    """Whether ``body`` is a short statement of how something is ("the export is still
    semicolon separated", "bazel is what we build with"): no task, no question, few words."""
    words = body.split()
    if not body.isascii() or not 3 <= len(words) <= MAX_STATED_WORDS or body.endswith("?"):
        return False
    opening = " ".join(words[:2])
    if words[0].casefold().strip(",") in _VAGUE:
        return False  # "it is what it is", "I think …": about nothing named
    return _STATED.match(body) is not None and not cues.has("task", opening)


def bare_ack(text: str, cues: Cues) -> bool:
    """Whether a whole user turn only acknowledges or keeps the work going (no fact)."""
    if len(text) > 4 * MAX_ACK or len(text.split()) > MAX_ACK_WORDS:
        return False
    rest = _STRIP.sub(" ", text.casefold()).strip()
    if not rest:
        return True
    if len(rest) > MAX_ACK:
        return False
    for phrase in sorted(_ACK_WIDE, key=len, reverse=True):
        rest = rest.replace(phrase, " ")
    words = rest.split()
    known = _KNOWN.get(id(cues))
    if known is None:
        known = _KNOWN[id(cues)] = _ACK_WORDS | cues.words("filler") | cues.words("accept")
    return all(word in known for word in words)


_DENIAL = re.compile(r"^\W*(?:no|not|never|nope|不|别|没)", re.IGNORECASE)


MAX_THANKS_WORDS = 3  # after the filler word (a CJK character counts as half a word)


def thanks(sentence: str, cues: Cues) -> bool:
    """A sentence that only acknowledges ("Thanks!", "谢谢分析。", "ok great"): a filler
    word opens it, at most a word or two follow it ("嗯 adc 改成 dma 吧" states a choice),
    and no value or denial is in it ("no more --legacy-fonts" is a rule)."""
    span = cues.find("filler", sentence)
    if span is None or span[0] > 1 or _DENIAL.match(sentence):
        return False
    rest = sentence[span[1] :].rstrip(".。!！")
    if word_count(rest) > MAX_THANKS_WORDS:
        return False
    return not any(ch.isdigit() or ch in "-_/=." for ch in rest)


__all__ = ["bare_ack", "terse_setting", "terse_statement", "thanks"]
