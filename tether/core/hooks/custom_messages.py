"""Custom messages as the harness stores them (pi's ``createCustomMessage``).

The ``session`` object hooks receive is :class:`tether.core.hooks.plugin_session.PluginSession`.
"""

from __future__ import annotations

from typing import Any

from tether.core.storage.ids import now_ms
from tether.hookspecs.session_protocol import DeliverAs


def custom_message(
    custom_type: str,
    content: str | list[dict[str, Any]],
    display: bool = True,
    details: Any = None,
) -> dict[str, Any]:
    """A ``custom`` agent message (pi's ``createCustomMessage``); ``details`` omitted if None."""
    message: dict[str, Any] = {
        "role": "custom",
        "customType": custom_type,
        "content": content,
        "display": display,
    }
    if details is not None:
        message["details"] = details
    message["timestamp"] = now_ms()
    return message


def as_custom_message(value: Any, default_type: str = "plugin") -> dict[str, Any]:
    """A hook's message (``{"customType", "content", "display", "details"?}`` or a string) as a
    ``custom`` agent message."""
    if isinstance(value, str):
        return custom_message(default_type, value)
    if not isinstance(value, dict):
        raise TypeError(f"expected a message dict, got {type(value).__name__}")
    if value.get("role") == "custom" and "timestamp" in value:
        return value
    return custom_message(
        str(value.get("customType") or value.get("custom_type") or default_type),
        value.get("content", ""),
        bool(value.get("display", True)),
        value.get("details"),
    )


__all__ = ["DeliverAs", "as_custom_message", "custom_message"]
