"""Built-in plugin ``offline_summarizer``: a structured summary without any model.

The summarizer ``offline``: chosen by ``compaction.summarizer``/``--summarizer offline``, and
the built-in default when no model is known (no ``compaction.model``, no session model). The
summary has pi's sections, built deterministically from the messages: the user's requests as the
goal, constraint sentences quoted verbatim, successful edits/writes/commands as done, unresolved
failures with their exact error line as blocked, the last unanswered request as in progress and
next step, and exact paths, function names and error lines as critical context. In update mode
every item of the previous summary is kept. The text is the summary alone; the caller appends
the ``<read-files>``/``<modified-files>`` blocks, as for the LLM summarizer.
"""

from __future__ import annotations

from typing import Any

from tether.hookspecs import hookimpl
from tether.hookspecs.events import SummarizeRequest, Summary

CHARS_PER_TOKEN = 4  # pi's estimate; the rendered summary stays within max_tokens by it


def offline_summary(request: SummarizeRequest) -> Summary:
    """Summarize ``request`` deterministically (no network, linear in the messages)."""
    from tether.builtin_plugins.memory.offline_summarizer.facts import build_checkpoint, read_facts
    from tether.builtin_plugins.memory.offline_summarizer.sections import (
        merge,
        parse_summary,
        render,
    )

    facts = read_facts(request.messages)
    checkpoint = build_checkpoint(facts, request.custom_instructions)
    if request.previous_summary:
        checkpoint = merge(parse_summary(request.previous_summary), checkpoint)
    budget = request.max_tokens * CHARS_PER_TOKEN if request.max_tokens > 0 else None
    text = render(checkpoint, request.kind, budget)
    details = {
        "messages": len(request.messages),
        "updated": bool(request.previous_summary),
    }
    return Summary(text=text, summarizer="offline", details=details)


@hookimpl
def register_summarizers(register: Any) -> None:
    register("offline", offline_summary)


__all__ = ["offline_summary", "register_summarizers"]
