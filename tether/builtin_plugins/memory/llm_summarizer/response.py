"""The check of the model's reply: only a finished text answer is a summary.

A reply that calls a tool (whatever its stop reason), one cut off at the output limit
(``stopReason`` ``length``), one that stopped for any other reason than ``stop``, or one
without text is not a summary: :func:`problem` says why, naming nothing; :func:`reply_problem`
names the summarizer and the model too. The summarizer hands that to the summary gate
(``Summary.reply_problem``), which retries or lets the offline summarizer take over; without a
gate the compaction fails and the session is left unchanged.
"""

from __future__ import annotations

from typing import Any


def _texts(message: dict[str, Any]) -> list[str]:
    return [
        str(block.get("text", ""))
        for block in message.get("content") or []
        if isinstance(block, dict) and block.get("type") == "text"
    ]


def _has_tool_call(message: dict[str, Any]) -> bool:
    blocks = message.get("content") or []
    return any(isinstance(b, dict) and b.get("type") == "toolCall" for b in blocks)


def problem(message: dict[str, Any], max_tokens: int) -> str | None:
    """What makes ``message`` (an assistant message) no summary, or ``None`` when it is one."""
    stop = message.get("stopReason")
    if stop == "error":
        return f"the request failed: {message.get('errorMessage') or 'Unknown error'}"
    if _has_tool_call(message) or stop == "toolUse":
        return f"the model answered with a tool call (stopReason {stop}), not a summary"
    if stop == "length":
        return (
            f"the reply was cut off at the output limit (stopReason length, "
            f"max_tokens {max_tokens}); raise compaction.reserveTokens or choose another model"
        )
    if stop != "stop":
        return f"the reply ended with stopReason {stop!r}, not a finished summary"
    if not "\n".join(_texts(message)).strip():
        return f"the model returned no summary text (stopReason {stop})"
    return None


def reply_problem(message: dict[str, Any], model_ref: str, max_tokens: int) -> str | None:
    """``summarizer 'llm' (provider/model): <problem>``, or ``None`` for a real summary."""
    what = problem(message, max_tokens)
    return None if what is None else f"summarizer 'llm' ({model_ref}): {what}"


def reply_text(message: dict[str, Any]) -> str:
    """The text blocks of ``message``, joined by newlines."""
    return "\n".join(_texts(message))


def summary_text(message: dict[str, Any], model_ref: str, max_tokens: int) -> str:
    """The summary in ``message``; raises ``PermanentError`` when the reply is not one."""
    what = reply_problem(message, model_ref, max_tokens)
    if what is not None:
        from tether.providers import PermanentError

        raise PermanentError(what)
    return reply_text(message)


__all__ = ["problem", "reply_problem", "reply_text", "summary_text"]
