"""Notes appended to the compaction summary a model is sent (the ``summary_note`` hook).

A note goes only into what is sent, never into a stored entry, so pi opens the file with the
same context. :func:`summary_key` tells when the summary changed (a note is asked for again
only then); :func:`with_note` appends a note to a copy of the messages.
"""

from __future__ import annotations

from typing import Any


def summary_key(messages: list[Any]) -> tuple[Any, str] | None:
    """``(timestamp, summary)`` of the context's compaction summary message; ``None``
    without one."""
    for message in messages:
        if isinstance(message, dict) and message.get("role") == "compactionSummary":
            return message.get("timestamp"), str(message.get("summary", ""))
    return None


def with_note(messages: list[Any], note: str | None) -> list[Any]:
    """``messages`` with ``note`` appended to the compaction summary (a copy; unchanged
    without a note or a summary message)."""
    if not note:
        return messages
    for index, message in enumerate(messages):
        if isinstance(message, dict) and message.get("role") == "compactionSummary":
            summary = str(message.get("summary", ""))
            return [
                *messages[:index],
                {**message, "summary": summary + note},
                *messages[index + 1 :],
            ]
    return messages


__all__ = ["summary_key", "with_note"]
