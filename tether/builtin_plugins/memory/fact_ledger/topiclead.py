"""A sentence that opens with its topic: "nvm on the textures size, the artist went with 32x32",
"as for the batch size, …", "re the timeout, …" — the value after it is of that topic when the
earlier rule says every word of the topic but an attribute (read by :mod:`.implicit`)."""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.slots import WORD_STOP
from tether.builtin_plugins.memory.fact_ledger.words import vocabulary, word_root

_TOPIC_LEAD = re.compile(
    r"^\W*(?:(?:ok|oh|also|and|so|but|btw|actually|nvm|never\s?mind)\W+)*"
    r"(?:on|about|re|regarding|as for|as to|wrt)\b",
    re.IGNORECASE,
)
#: A clause naming its own key before the value: "the jump height is 2 units".
_OWN_KEY = re.compile(r"[A-Za-z]\w*\s+(?:is|are|=|:)\s*$")
#: Words that name an attribute of a thing, not the thing: "the textures size".
_ATTRIBUTES = frozenset("size value number count setting amount level length".split())
_WORDS = re.compile(r"[a-z][a-z0-9'-]*[a-z0-9]")
_WEAK = vocabulary("weak_subject")


def opens_with_topic(lead: str) -> bool:
    """Whether ``lead`` opens with a topic word ("on", "about", "re", "as for"…)."""
    return _TOPIC_LEAD.search(lead) is not None


def names_own_key(before_value: str) -> bool:
    """Whether the words before a value name its key ("the jump height is")."""
    return _OWN_KEY.search(before_value) is not None


#: A value picked right there: "the artist went with 32x32", "make it 6" (not "refresh the
#: token every 5 minutes", "flag them after 60 seconds": a setting of its own).
_PICKED = re.compile(
    r"\b(?:with|use|using|make it|set it to|pick|picked|chose|choose|settled on|do)\s+$",
    re.IGNORECASE,
)


def picked_here(before_value: str) -> bool:
    """Whether the words right before a value pick it (see :data:`_PICKED`)."""
    return _PICKED.search(before_value) is not None


#: Words after a value that leave it the topic's: "32x32 so just do that", "6 then".
_AFTER_FREE = frozenset("so then please pls and but now instead too".split())


def keyed_after(after_value: str) -> bool:
    """Whether a word right after a value names what it is of ("20ms predelay", "3 seconds
    of invulnerability", "15 Hz for the mapping runs"), not the lead's topic."""
    found = re.match(r"\W*([A-Za-z][\w-]*)", after_value)
    return found is not None and found.group(1).casefold() not in _AFTER_FREE


def topic_of(lead: str, old: str) -> bool:
    """Whether every word of the lead's topic but an attribute is one ``old`` says ("on the
    textures size" of "textures 16x16"; not "on the booking emails" of "booking timeout")."""
    said = {word_root(w) for w in _WORDS.findall(old.casefold())}
    topic = _TOPIC_LEAD.sub(" ", lead.casefold())
    words = {word_root(w) for w in _WORDS.findall(topic) if w not in WORD_STOP and w not in _WEAK}
    return bool(words) and words - {word_root(w) for w in _ATTRIBUTES} <= said


__all__ = ["keyed_after", "names_own_key", "opens_with_topic", "picked_here", "topic_of"]
