"""What the assistant proposes: a sentence with a ``proposal`` cue ("I suggest", "shall I",
"建议"), or a question made of a change itself ("Switch to SF9?", "Bump it to 3.12?", "换成
Kafka？"): a change cue opens it and it names a value. A user's "yes" accepts it (see
:mod:`.build`)."""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.implicit import values
from tether.builtin_plugins.memory.fact_ledger.words import word_count

#: A value named after the cue: a word with a digit, a capitalized or code-like name.
_NAMED = re.compile(r"[\w.-]*\d|(?<![\w.-])[A-Z][\w.+-]+|`[^`]+`|[\w-]+\.[A-Za-z]\w*")
MAX_LEAD_WORDS = 1  # "So switch to SF9?", "Maybe move it to 23:00?"


def proposes(sentence: str, cues: Cues) -> bool:
    """Whether an assistant's ``sentence`` proposes something the user may accept."""
    if cues.has("proposal", sentence):
        return True
    if not sentence.rstrip().endswith(("?", "？")):
        return False
    span = cues.find("change", sentence)
    if span is None or word_count(sentence[: span[0]]) > MAX_LEAD_WORDS:
        return False
    rest = sentence[span[1] :]
    return bool(_NAMED.search(rest) or values(rest, cues))


__all__ = ["proposes"]
