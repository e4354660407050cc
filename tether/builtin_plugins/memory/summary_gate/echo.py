"""Replies that are not summaries although they have text: an echo of the prompt, or the
template with its placeholders still in it (``- [The outcome the user wants…]``)."""

from __future__ import annotations

import re
from functools import lru_cache

from tether.hookspecs.gate import SummaryAttempt

_PLACEHOLDER = re.compile(
    r"^\s*(?:[-*+]|\d+[.)])?\s*(?:\[[ xX]\]\s*)?(?:\*\*)?\[(?:Decision|[A-Z][^\[\]\n]{11,})\]"
    r"(?!\()",
    re.MULTILINE,
)
_PROMPT_MARKERS = ("<conversation>", "</conversation>", "<previous-summary>")
_SENTENCE = re.compile(r"(?<=[.:])\s+")


@lru_cache(maxsize=1)
def _prompt_sentences() -> tuple[str, ...]:
    """Long sentences of the built-in summarizer's prompts: a reply quoting one echoes them."""
    from tether.builtin_plugins.memory.llm_summarizer.prompts import INSTRUCTIONS, SYSTEM_PROMPT

    texts = [SYSTEM_PROMPT, *INSTRUCTIONS.values()]
    found = {
        " ".join(s.split())
        for text in texts
        for s in _SENTENCE.split(text)
        if len(s) >= 60 and "[" not in s
    }
    return tuple(sorted(found))


def echo_problem(text: str) -> str | None:
    """Why ``text`` is a prompt echo or an unfilled template, or ``None``."""
    placeholder = _PLACEHOLDER.search(text)
    if placeholder:
        return f"the template's placeholder was left in: {placeholder.group(0).strip()[:60]!r}"
    if any(marker in text for marker in _PROMPT_MARKERS):
        return "the reply echoes the prompt's conversation markers"
    flat = " ".join(text.split())
    if any(sentence in flat for sentence in _prompt_sentences()):
        return "the reply echoes the summarization prompt"
    return None


def reply_problem(attempt: SummaryAttempt) -> str | None:
    """Why ``attempt`` is not a real summary (the summarizer's own finding first)."""
    return attempt.reply_problem or echo_problem(attempt.text)


__all__ = ["echo_problem", "reply_problem"]
