"""Tool-call ids as OpenAI-compatible endpoints take them: pi's openai-completions rule.

A tool call made by another model (provider, api or model id differ) may carry an id such an
endpoint rejects: the OpenAI Responses API writes ``{call_id}|{item id}`` ids of 400+
characters with ``+``, ``/`` and ``=``. Such an id keeps the part before the first ``|``, every
character outside ``[A-Za-z0-9_-]`` (each UTF-16 unit, as JavaScript counts) becomes ``_``, and
it is cut to 40 characters; without ``|``, only ids sent to provider ``openai`` are cut to 40.
The tool result answering a renamed call gets the same new id. Calls of the model being called
keep their ids.
"""

from __future__ import annotations

import re
from typing import Any

from tether.providers import Model
from tether.tools import js_len, js_slice

MAX_ID = 40  # OpenAI's limit on a tool call id
_OUTSIDE = re.compile(r"[^a-zA-Z0-9_-]")


def tool_call_id(raw: str, provider: str) -> str:
    """The id pi sends for a tool call of another model to ``provider``."""
    if "|" in raw:
        head = raw.split("|", 1)[0]
        return _OUTSIDE.sub(lambda found: "_" * js_len(found.group()), head)[:MAX_ID]
    if provider == "openai" and js_len(raw) > MAX_ID:
        return js_slice(raw, 0, MAX_ID)
    return raw


class ToolIds:
    """The ids of one request: calls of other models renamed, their results following."""

    def __init__(self, model: Model) -> None:
        self._model = (model.provider, model.api, model.id)
        self._renamed: dict[str, str] = {}

    def call(self, message: dict[str, Any], raw: Any) -> Any:
        """The id to send for a tool call of assistant ``message``."""
        same = (message.get("provider"), message.get("api"), message.get("model")) == self._model
        if same or not isinstance(raw, str):
            return raw
        new = tool_call_id(raw, self._model[0])
        if new != raw:
            self._renamed[raw] = new
        return new

    def result(self, raw: Any) -> Any:
        """The id to send in the tool result answering the call ``raw``."""
        return self._renamed.get(raw, raw) if isinstance(raw, str) else raw


__all__ = ["MAX_ID", "ToolIds", "tool_call_id"]
