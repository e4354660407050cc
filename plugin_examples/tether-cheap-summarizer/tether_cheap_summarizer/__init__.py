"""tether plugin ``cheap_summarizer``: summaries written by a cheaper model than the session's.

It registers the summarizer ``cheap``; choose it, and configure it, in ``settings.json``
(``~/.tether/`` or the project's ``.tether/``)::

    {"compaction": {"summarizer": "cheap"},
     "cheapSummarizer": {"model": "openrouter/qwen-2.5-7b-instruct",
                         "kinds": ["compaction", "turn_prefix", "branch"]}}

(or ``tether session compact --summarizer cheap``). It does not claim the default: installed
but not chosen, it changes nothing.

``model`` is a ``provider/model`` of ``models.json``; ``kinds`` (optional, default all) limits
which summaries it writes. For the others — and when ``model`` is not set — it hands the
request to tether's built-in default summarizer unchanged.

The cheap summary itself is tether's ``llm`` summarizer (same prompts, same chunking of long
histories) asked by name, through ``request.summarize_with``, with the cheap model.
"""

from __future__ import annotations

from typing import Any

import tether

NAME = "cheap"
SETTINGS_SECTION = "cheapSummarizer"
ALL_KINDS = ("compaction", "turn_prefix", "branch")


def configured_model(request: tether.SummarizeRequest) -> str | None:
    """The cheap ``provider/model`` for this request, or ``None`` to hand it on."""
    settings = request.app_settings
    section: dict[str, Any] = settings.extra(SETTINGS_SECTION) if settings is not None else {}
    model = section.get("model")
    if not isinstance(model, str) or "/" not in model:
        return None
    if request.kind not in (section.get("kinds") or ALL_KINDS):
        return None
    return model


def summarize(request: tether.SummarizeRequest) -> tether.Summary:
    """The cheap model's summary; tether's built-in default when not configured for it."""
    model = configured_model(request)
    if model is None:
        return request.summarize_with(None)
    summary = request.summarize_with("llm", settings={**request.settings, "model": model})
    return tether.Summary(
        text=summary.text,
        summarizer=NAME,
        details=summary.details,
        reply_problem=summary.reply_problem,  # a tool call or a cut reply: the gate decides
    )


@tether.hookimpl
def register_summarizers(register: Any) -> None:
    register(NAME, summarize)


__all__ = ["NAME", "configured_model", "register_summarizers", "summarize"]
