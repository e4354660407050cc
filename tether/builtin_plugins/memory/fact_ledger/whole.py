"""A short message kept whole: what the user said together stays together.

The ledger files a message sentence by sentence, so a later change can retire one sentence and
leave the others live. But a short message often means more than its sentences apart — a bare
answer and its reason ("podman. no root daemon on this box"), a word and what it is for — and
read apart, the bare word may be filed as a request or dropped. So a short message that the
ledger filed in several parts, one of them a :func:`fragment`, is also kept as one ``said``
fact (history, shown under Done), word for word, while every part of it is still live: once a
later message retires any part, the whole retires with it (it would show the replaced value)
and its live parts remain on their own.
"""

from __future__ import annotations

from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.ledger import Ledger
from tether.builtin_plugins.memory.fact_ledger.words import WIDE

WHOLE = "the whole message, as said"  # its note in the ledger
MAX_WHOLE = 240  # characters: longer messages are pastes, lists or essays, filed by sentence
MAX_FRAGMENT_WORDS = 2  # a CJK character counts as half a word
MAX_FRAGMENT_CHARS = 16


def fragment(text: str) -> bool:
    """A part that means little on its own: a word or two ("ntfy.", "tabs, sure.")."""
    wide = len(WIDE.findall(text))
    words = len(WIDE.sub(" ", text).split()) + wide // 2
    return words <= MAX_FRAGMENT_WORDS and len(text) <= MAX_FRAGMENT_CHARS


def keep_whole(ledger: Ledger, text: str, parts: list[Fact]) -> Fact | None:
    """File ``text`` (a short message, flattened) as one whole when the ledger filed it in
    several ``parts`` and one of them is a fragment — unless a fact already holds it."""
    if len(text) > MAX_WHOLE or len(parts) < 2 or not parts[0].source:
        return None
    if not any(fragment(part.text) for part in parts):
        return None
    if any(f.text == text for f in parts) or any(f.text == text for f in ledger.live("said")):
        return None  # one part holds it all, or the same message was said before
    return ledger.new_fact("said", text, parts[0].source, note=WHOLE)


def retire_broken_wholes(ledger: Ledger) -> None:
    """Retire each live whole message one of whose parts is retired (by what replaced it):
    one pass over the ledger, once it has read its messages."""
    retired: dict[str, list[Fact]] = {}
    for part in ledger.facts:
        if part.status == "retired" and part.kind != "said":
            retired.setdefault(part.source, []).append(part)
    for whole in ledger.live("said"):
        part = next((p for p in retired.get(whole.source, ()) if p.text in whole.text), None)
        if part is not None:
            ledger.retire(whole, ledger.get(part.replaced_by) if part.replaced_by else None)


__all__ = ["MAX_WHOLE", "WHOLE", "fragment", "keep_whole", "retire_broken_wholes"]
