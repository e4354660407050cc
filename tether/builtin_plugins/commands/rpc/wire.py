"""tether's events as pi's JSON event stream (``pi --mode json`` and ``--mode rpc``).

:class:`PiEvents` turns one :class:`~tether.hookspecs.events.AgentEvent` into the JSON objects
pi writes for it, with pi's field names and nothing else (json.md, rpc.md):

- ``agent_start``, ``turn_start``: ``{type}``; ``agent_end``: ``{type, messages}``;
  ``turn_end``: ``{type, message, toolResults}``; ``message_start``/``message_end``:
  ``{type, message}``;
- ``message_update``: ``{type, message, assistantMessageEvent}`` where the stream event has pi's
  shape — ``start``, ``text_start``/``text_delta``/``text_end``, ``thinking_*``,
  ``toolcall_start``/``toolcall_delta``/``toolcall_end`` with ``contentIndex``, ``delta``,
  ``content``/``toolCall`` and ``partial``. tether's providers stream deltas only, so the
  ``*_start`` and ``*_end`` events are derived here from the content index (one encoder per
  stream of events: it remembers the open block);
- ``tool_execution_*``: ``toolCallId``, ``toolName``, ``args``, ``partialResult``/``result``
  (``{content, details}``), ``isError``;
- ``compaction_start {reason}``, ``compaction_end {reason, result: {summary,
  firstKeptEntryId, tokensBefore, details} | null, aborted, willRetry, errorMessage?}``;
- ``auto_retry_start {attempt, maxAttempts, delayMs, errorMessage}``,
  ``auto_retry_end {success, attempt, finalError?}``;
- events pi does not have (``progress``) are dropped. tether adds a few fields pi clients
  ignore: ``auto_retry_end.reason`` (why it gave up), ``compaction_end.message`` (why nothing
  was compacted), ``compaction_end.summarizer`` (who wrote the summary) and
  ``compaction_end.gate`` (the summary gate's report).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from tether.hookspecs.events import AgentEvent

_KINDS = {"text": "text", "thinking": "thinking", "toolCall": "toolcall"}


def tool_result_json(result: Any) -> dict[str, Any] | None:
    """A tool result (``ToolResult`` or dict) as pi's ``{content, details}``."""
    if result is None:
        return None
    if isinstance(result, dict):
        return {"content": result.get("content", []), "details": result.get("details")}
    return {"content": list(result.content or []), "details": plain(result.details)}


def plain(value: Any, other: Callable[[Any], Any] = str) -> Any:
    """A JSON value for ``value``: dicts, lists and tuples walked, objects that are not JSON
    given to ``other`` (their text by default)."""
    if isinstance(value, dict):
        return {str(k): plain(v, other) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v, other) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return other(value)


def compaction_result(entry: dict[str, Any] | None) -> dict[str, Any] | None:
    """A compaction entry as pi's ``CompactionResult``."""
    if not entry:
        return None
    return {
        "summary": entry.get("summary", ""),
        "firstKeptEntryId": entry.get("firstKeptEntryId"),
        "tokensBefore": entry.get("tokensBefore", 0),
        "details": entry.get("details"),
    }


class PiEvents:
    """Encodes a stream of tether events as pi's JSON events (see module doc)."""

    def __init__(self) -> None:
        self.open_block: tuple[int, str] | None = None  # (content index, kind) being streamed

    def encode(self, event: AgentEvent) -> list[dict[str, Any]]:
        kind, data = event.type, event.data
        if kind == "message_update":
            return self._update(data)
        if kind == "message_end":
            closing = self._close(data.get("message"))
            return [*closing, {"type": kind, "message": data.get("message")}]
        if kind == "message_start":
            self.open_block = None
            return [{"type": kind, "message": data.get("message")}]
        simple = _simple(kind, data)
        return [] if simple is None else [simple]

    def _update(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        stream = data.get("assistant_message_event")
        message = data.get("message") or {}
        kind = getattr(stream, "type", None)
        if kind == "start":
            return [_update(message, {"type": "start", "partial": message})]
        index = int(getattr(stream, "content_index", -1))
        blocks = message.get("content") or []
        if index < 0 or index >= len(blocks):  # a provider that does not say which block
            index = len(blocks) - 1
        block_kind = _KINDS.get((blocks[index] or {}).get("type", ""), "text") if blocks else "text"
        out: list[dict[str, Any]] = []
        if self.open_block is not None and self.open_block[0] != index:
            out.extend(self._close(message))
        if self.open_block is None:
            self.open_block = (index, block_kind)
            start = {"type": f"{block_kind}_start", "contentIndex": index, "partial": message}
            out.append(_update(message, start))
        delta = {
            "type": f"{block_kind}_delta",
            "contentIndex": index,
            "delta": getattr(stream, "delta", ""),
            "partial": message,
        }
        out.append(_update(message, delta))
        return out

    def _close(self, message: Any) -> list[dict[str, Any]]:
        """The ``*_end`` event of the block being streamed, if any."""
        if self.open_block is None or not isinstance(message, dict):
            self.open_block = None
            return []
        index, kind = self.open_block
        self.open_block = None
        blocks = message.get("content") or []
        if message.get("role") != "assistant" or index >= len(blocks):
            return []
        block = blocks[index] or {}
        end: dict[str, Any] = {"type": f"{kind}_end", "contentIndex": index}
        if kind == "toolcall":
            end["toolCall"] = block
        else:
            end["content"] = block.get("thinking" if kind == "thinking" else "text", "")
        end["partial"] = message
        return [_update(message, end)]


def _update(message: dict[str, Any], stream_event: dict[str, Any]) -> dict[str, Any]:
    return {"type": "message_update", "message": message, "assistantMessageEvent": stream_event}


def _simple(kind: str, data: dict[str, Any]) -> dict[str, Any] | None:
    """Every event but the message ones, or ``None`` for events pi does not have."""
    if kind in ("agent_start", "turn_start"):
        return {"type": kind}
    if kind == "agent_end":
        return {"type": kind, "messages": data.get("messages") or []}
    if kind == "turn_end":
        results = data.get("tool_results") or []
        return {"type": kind, "message": data.get("message"), "toolResults": results}
    if kind.startswith("tool_execution_"):
        out = {
            "type": kind,
            "toolCallId": data.get("tool_call_id"),
            "toolName": data.get("tool_name"),
        }
        if kind != "tool_execution_end":
            out["args"] = data.get("args")
        if kind == "tool_execution_update":
            out["partialResult"] = tool_result_json(data.get("partial_result"))
        if kind == "tool_execution_end":
            out["result"] = tool_result_json(data.get("result"))
            out["isError"] = bool(data.get("is_error"))
        return out
    if kind == "compaction_start":
        return {"type": kind, "reason": data.get("reason")}
    if kind == "compaction_end":
        out = {
            "type": kind,
            "reason": data.get("reason"),
            "result": compaction_result(data.get("result")),
            "aborted": bool(data.get("aborted")),
            "willRetry": bool(data.get("will_retry")),
        }
        if data.get("error_message"):
            out["errorMessage"] = data["error_message"]
        elif out["result"] is None and not out["aborted"] and data.get("message"):
            out["errorMessage"] = f"Compaction failed: {data['message']}"  # as pi reports it
        for key in ("message", "summarizer", "gate"):  # tether's: why nothing, who wrote it, gate
            if data.get(key):
                out[key] = data[key]
        return out
    if kind == "auto_retry_start":
        return {
            "type": kind,
            "attempt": data.get("attempt"),
            "maxAttempts": data.get("max_attempts"),
            "delayMs": data.get("delay_ms"),
            "errorMessage": data.get("error_message") or "",
        }
    if kind == "auto_retry_end":
        out = {"type": kind, "success": bool(data.get("success")), "attempt": data.get("attempt")}
        if data.get("final_error") is not None:
            out["finalError"] = data["final_error"]
        if data.get("reason"):
            out["reason"] = data["reason"]  # tether's addition: why it gave up
        return out
    if kind in ("queue_update", "extension_error"):
        return {"type": kind, **copy.deepcopy(data)}
    return None


__all__ = ["PiEvents", "compaction_result", "plain", "tool_result_json"]
