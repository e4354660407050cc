"""Which built-in summarizer answers a ``summarize`` request.

Both built-ins (``llm_summarizer`` and ``offline_summarizer``) are ``trylast`` and pluggy
orders ``trylast`` implementations by registration, so neither relies on order: each asks
:func:`choose_summarizer` and answers only when it is the one chosen.

``compaction.summarizer`` setting (in ``request.settings``):

* ``"offline"`` → the offline summarizer;
* ``"llm"`` → the LLM summarizer (a clear error if no model is configured or current);
* unset / ``"auto"`` → the LLM summarizer when a model is known (``compaction.model`` or the
  session's current model), else the offline one;
* any other name → neither built-in answers: a plugin of that name is expected to.
"""

from __future__ import annotations

from typing import Any, Literal

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


def choose_summarizer(request: SummarizeRequest) -> Literal["llm", "offline"] | str:
    """``"llm"``, ``"offline"`` or the name of the plugin the settings ask for."""
    wanted = setting(request, "summarizer")
    if wanted in (None, "auto"):
        return LLM if summarizer_model_spec(request) else OFFLINE
    return str(wanted)


__all__ = ["LLM", "OFFLINE", "choose_summarizer", "setting", "summarizer_model_spec"]
