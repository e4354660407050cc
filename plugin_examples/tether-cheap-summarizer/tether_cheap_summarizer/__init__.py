"""tether plugin ``cheap_summarizer``: summaries written by a cheaper model than the session's.

Configure it in ``settings.json`` (``~/.tether/`` or the project's ``.tether/``)::

    {"cheapSummarizer": {"model": "openrouter/qwen-2.5-7b-instruct",
                         "kinds": ["compaction", "turn_prefix", "branch"]}}

``model`` is a ``provider/model`` of ``models.json``; ``kinds`` (optional, default all) limits
which summaries it writes. When ``model`` is not set — or the user asked for another
summarizer explicitly (``compaction.summarizer`` / ``--summarizer``) — it passes, and tether's
built-in summarizer answers as usual.

It answers the ``summarize`` hook with tether's own LLM summarizer (same prompts, same
chunking of long histories) pointed at the cheap model. Its implementation is not
``trylast``, so it runs before the built-ins whatever order plugins were loaded in.
"""

from __future__ import annotations

from typing import Any

from tether import SummarizeRequest, Summary, hookimpl

NAME = "cheap-summarizer"
SETTINGS_SECTION = "cheapSummarizer"
ALL_KINDS = ("compaction", "turn_prefix", "branch")


def configured_model(request: SummarizeRequest) -> str | None:
    """The cheap ``provider/model`` for this request, or ``None`` to let tether decide."""
    settings = request.app_settings
    section: dict[str, Any] = settings.extra(SETTINGS_SECTION) if settings is not None else {}
    model = section.get("model")
    if not isinstance(model, str) or "/" not in model:
        return None
    kinds = section.get("kinds") or ALL_KINDS
    if request.kind not in kinds:
        return None
    chosen = (request.settings or {}).get("summarizer")
    if chosen not in (None, "", "auto", NAME):  # an explicit choice of another one wins
        return None
    return model


@hookimpl
def summarize(request: SummarizeRequest) -> Summary | None:
    """Summarize with the configured cheap model; ``None`` (pass) when not configured."""
    spec = configured_model(request)
    if spec is None:
        return None
    registry, owned = request.registry, False
    if registry is None:  # called outside a tether session: build our own
        from tether import ProviderRegistry, create_plugin_manager

        registry, owned = ProviderRegistry(create_plugin_manager()), True
    try:
        model, _adapter = registry.resolve(spec)
        # the built-in LLM summarizer, reached through the plugin manager (not imported)
        summarizer = registry.pm.get_plugin("llm_summarizer").LlmSummarizer(registry, model)
        text = summarizer.summarize(request)
    finally:
        if owned:
            registry.close()
    return Summary(text=text, summarizer=NAME, details={"model": model.ref})


__all__ = ["NAME", "configured_model", "summarize"]
