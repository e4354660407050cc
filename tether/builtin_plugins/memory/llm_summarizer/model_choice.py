"""Settings of a summarize request, for the built-in summarizers: a setting by name and the
``provider/model`` of the LLM summarizer. (Which summarizer runs is the kernel's choice:
:mod:`tether.core.choices.registry`.)"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tether.hookspecs.events import SummarizeRequest


LLM = "llm"
OFFLINE = "offline"


def setting(request: SummarizeRequest, *names: str) -> Any:
    """The first of ``names`` present in ``request.settings`` (camelCase or snake_case)."""
    settings = request.settings or {}
    for name in names:
        value = settings.get(name)
        if value not in (None, ""):
            return value
    return None


def summarizer_model_spec(request: SummarizeRequest) -> str | None:
    """``"provider/model"`` of the summarizer: ``compaction.model``, else the session's model."""
    configured = setting(request, "model")
    if isinstance(configured, str):
        return configured
    if isinstance(configured, dict):
        configured_model = configured
    else:
        configured_model = request.model
    if not configured_model:
        return None
    provider = configured_model.get("provider")
    model_id = configured_model.get("id") or configured_model.get("modelId")
    if not provider or not model_id:
        return None
    return f"{provider}/{model_id}"


__all__ = ["LLM", "OFFLINE", "setting", "summarizer_model_spec"]
