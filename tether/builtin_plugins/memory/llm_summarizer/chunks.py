"""Bounding a summarization request: the history in chunks that fit.

The serialized conversation is cut on message boundaries into chunks whose estimated size
(pi's chars/4) fits what the summarizer model's window leaves free:
``contextWindow − max output tokens − prompt overhead`` (system prompt, instructions, the
running summary), less a headroom for the estimate's error. A single message larger than
that is cut into pieces, at line breaks where possible.
"""

from __future__ import annotations

import math
from collections import deque
from typing import Any

from tether import convert_to_llm
from tether.builtin_plugins.memory.serialize import serialize_conversation
from tether.tools import js_len

PART_SEPARATOR = "\n\n"
HEADROOM = 0.9  # share of the free window a chunk may fill (chars/4 can undercount)
MIN_INPUT_TOKENS = 512  # below this the model is too small to summarize anything


def estimate_text_tokens(text: str) -> int:
    """pi's estimate for a piece of text: ``ceil(length / 4)`` in UTF-16 units."""
    return math.ceil(js_len(text) / 4)


def serialized_parts(messages: list[dict[str, Any]]) -> list[str]:
    """One serialized block per agent message (empty ones dropped).

    ``"\\n\\n".join(parts)`` equals ``serialize_conversation(convert_to_llm(messages))``.
    """
    parts = []
    for message in convert_to_llm(messages):
        text = serialize_conversation([message])
        if text:
            parts.append(text)
    return parts


def input_budget_tokens(context_window: int, max_output: int, overhead_tokens: int) -> int:
    """Tokens the conversation text of one request may take."""
    return math.floor((context_window - max_output) * HEADROOM) - overhead_tokens


def split_text(text: str, max_chars: int) -> list[str]:
    """Cut ``text`` into pieces of at most ``max_chars`` UTF-16 units, at line breaks if any."""
    pieces: list[str] = []
    rest = text
    while js_len(rest) > max_chars:
        # Python indexes code points; an astral character takes two UTF-16 units.
        limit = max(1, max_chars * len(rest) // max(1, js_len(rest)))
        while js_len(rest[:limit]) > max_chars and limit > 1:
            limit -= max(1, limit // 20)
        cut = rest.rfind("\n", 0, limit)
        if cut < limit // 2:
            cut = limit
        pieces.append(rest[:cut])
        rest = rest[cut:].lstrip("\n")
    if rest:
        pieces.append(rest)
    return pieces


def next_chunk(queue: deque[str], max_chars: int) -> list[str]:
    """Take from ``queue`` the longest run of parts whose joined text fits ``max_chars``.

    A first part that alone is too long is split in place (its pieces go back in front).
    """
    chunk: list[str] = []
    used = 0
    while queue:
        part = queue[0]
        need = js_len(part) + (len(PART_SEPARATOR) if chunk else 0)
        if used + need <= max_chars:
            chunk.append(queue.popleft())
            used += need
        elif not chunk:
            queue.popleft()
            queue.extendleft(reversed(split_text(part, max_chars)))
        else:
            break
    return chunk


__all__ = [
    "HEADROOM",
    "MIN_INPUT_TOKENS",
    "PART_SEPARATOR",
    "estimate_text_tokens",
    "input_budget_tokens",
    "next_chunk",
    "serialized_parts",
    "split_text",
]
