"""Built-in plugin ``llm_summarizer``: summaries written by a model.

The summarizer ``llm``. Which model: the setting ``compaction.model`` (``"provider/model"``)
if given, else the session's current model (``request.model``). Chosen by
``compaction.summarizer``/``--summarizer llm``, and the built-in default when a model is known
(its ``default_summarizer`` answer, ``trylast``: ``offline`` when none is).

Each request is isolated and has pi's structure: the system prompt and one user message
``<conversation>…</conversation>`` (+ ``<previous-summary>`` in update mode) + instructions
(+ ``Additional focus: …``); ``max_tokens`` is ``request.max_tokens`` (capped at the model's
output limit). The CALLER computes ``request.max_tokens`` — the kernel uses pi's numbers
(:func:`tether.core.memory.summary_requests.summary_budgets`: history ``0.8 × reserve``, turn prefix
``0.5 × reserve``; branch summaries ``tether.core.memory.branching.BRANCH_SUMMARY_MAX_TOKENS``).
When the serialized history does not fit the model's window it is summarized in chunks, each
folded into the running summary with the update prompt. The returned text is
the model's alone: the caller appends the ``<read-files>``/``<modified-files>`` blocks (and
the branch-summary preamble).

Only a finished text answer is a summary (:mod:`.response`): for a tool call, a reply cut at
the output limit or an empty text the returned ``Summary`` has ``reply_problem`` set (naming the
summarizer, the model and what was wrong; ``details.requests`` has each call's ``stopReason``
and ``usage``), so the summary gate can retry once or let the offline summarizer take over —
and with no gate the kernel refuses it.
Failures raise the provider's typed error (:class:`~tether.hookspecs.providers.ProviderError`:
``TransientError`` for 5xx/timeouts, ``AbortedError``, ``ProviderConfigError``…); the session
is then left untouched by the caller.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from tether.hookspecs import hookimpl

if TYPE_CHECKING:
    from collections.abc import Callable

    from tether.hookspecs.events import SummarizeRequest, Summary
    from tether.providers import Model

EMPTY_TEXT = {"branch": "No content to summarize", "turn_prefix": "No prior history."}


def _request_messages(text: str, timestamp: int) -> list[dict[str, Any]]:
    return [{"role": "user", "content": [{"type": "text", "text": text}], "timestamp": timestamp}]


class LlmSummarizer:
    """Summarizes one request with ``model`` through ``registry`` (a ``ProviderRegistry``)."""

    def __init__(self, registry: Any, model: Model) -> None:
        self.registry = registry
        self.model = model
        self.calls: list[dict[str, Any]] = []
        self.problem: str | None = None  # why the last reply is not a summary

    def _max_output(self, request: SummarizeRequest) -> int:
        limit = self.model.max_tokens if self.model.max_tokens > 0 else request.max_tokens
        return max(1, min(request.max_tokens, limit))

    def _call(self, request: SummarizeRequest, kind: str, text: str, max_output: int) -> str:
        """The reply's text; sets :attr:`problem` when the reply is not a summary."""
        import time

        from tether.builtin_plugins.memory.llm_summarizer.model_choice import setting
        from tether.builtin_plugins.memory.llm_summarizer.prompts import SYSTEM_PROMPT
        from tether.builtin_plugins.memory.llm_summarizer.response import reply_problem, reply_text
        from tether.providers import LlmContext, StreamOptions, drain

        reasoning = request.thinking_level if self.model.reasoning else None
        timeout = setting(request, "timeoutSeconds", "timeout_seconds")
        options = StreamOptions(
            max_tokens=max_output,
            reasoning=None if reasoning in (None, "off") else reasoning,
            signal=request.signal,
            timeout=float(timeout) if timeout is not None else None,
            stream=False,
        )
        context = LlmContext(SYSTEM_PROMPT, _request_messages(text, int(time.time() * 1000)))
        message, error = drain(self.registry.stream(self.model, context, options))
        if error is not None:
            raise error
        used = message.get("usage") if isinstance(message.get("usage"), dict) else {}
        sent = sum(used.get(k) or 0 for k in ("input", "cacheRead", "cacheWrite"))
        self.calls.append(
            {
                "kind": kind,
                "maxTokens": max_output,
                "stopReason": message.get("stopReason"),
                "usage": {"input": sent, "output": used.get("output") or 0},
            }
        )
        self.problem = reply_problem(message, self.model.ref, max_output)
        return reply_text(message)

    def summarize(self, request: SummarizeRequest) -> str:
        """The summary text; several requests when the history exceeds the model's window."""
        from tether.builtin_plugins.memory.llm_summarizer.chunks import (
            MIN_INPUT_TOKENS,
            estimate_text_tokens,
            input_budget_tokens,
            next_chunk,
            serialized_parts,
        )
        from tether.builtin_plugins.memory.llm_summarizer.prompts import (
            SYSTEM_PROMPT,
            instructions_for,
            prompt_kind,
            user_text,
        )
        from tether.providers import ProviderConfigError

        parts = deque(serialized_parts(request.messages))
        running = request.previous_summary or None
        if not parts:
            return running or EMPTY_TEXT.get(request.kind, "No prior history.")
        max_output = self._max_output(request)
        while parts:
            kind = prompt_kind(request.kind, update=running is not None)
            instructions = instructions_for(
                kind, request.custom_instructions, replace=request.replace_instructions
            )
            overhead = estimate_text_tokens(SYSTEM_PROMPT) + estimate_text_tokens(
                user_text("", instructions, running)
            )
            budget = input_budget_tokens(self.model.context_window, max_output, overhead)
            if budget < MIN_INPUT_TOKENS:
                raise ProviderConfigError(
                    f"summarizer model {self.model.ref}: context window "
                    f"{self.model.context_window} leaves {max(budget, 0)} tokens for the "
                    f"conversation after {max_output} output and {overhead} prompt tokens; "
                    "choose a larger compaction.model or lower compaction.reserveTokens"
                )
            chunk = next_chunk(parts, budget * 4)
            text = user_text("\n\n".join(chunk), instructions, running)
            running = self._call(request, kind, text, max_output)
            if self.problem is not None:  # not a summary: the gate decides, no more chunks
                break
        return running


def _resolve(request: SummarizeRequest) -> tuple[Any, Model, bool]:
    """(registry, model, whether the registry is ours to close)."""
    from tether.builtin_plugins.memory.llm_summarizer.model_choice import summarizer_model_spec
    from tether.providers import ProviderConfigError

    spec = summarizer_model_spec(request)
    if spec is None:
        raise ProviderConfigError(
            "compaction.summarizer is 'llm' but no model is known: set compaction.model to "
            "'provider/model' in settings.json or start the session with a model"
        )
    registry, owned = request.registry, False
    if registry is None:
        from tether import create_plugin_manager
        from tether.builtin_plugins.providers.models.registry import ProviderRegistry

        registry, owned = ProviderRegistry(create_plugin_manager()), True
    model, _provider = registry.resolve(spec)
    return registry, model, owned


def summarize(request: SummarizeRequest) -> Summary:
    """The model's summary of ``request``."""
    registry, model, owned = _resolve(request)
    try:
        summarizer = LlmSummarizer(registry, model)
        text = summarizer.summarize(request)
    finally:
        if owned:
            registry.close()
    details = {"model": model.ref, "requests": summarizer.calls}
    from tether.hookspecs.events import Summary

    return Summary(text=text, summarizer="llm", details=details, reply_problem=summarizer.problem)


@hookimpl
def register_summarizers(register: Any) -> None:
    register("llm", summarize)


@hookimpl(trylast=True)
def default_summarizer(request: SummarizeRequest, warn: Callable[[str], None]) -> str:
    """The built-in default: ``llm`` when a model is known (``compaction.model`` or the
    session's current model), else ``offline``. A session's model whose provider is not
    configured (a pi session made with ``google/…``) is not known: ``offline``, said in one
    warning line."""
    configured = (request.settings or {}).get("model")
    if isinstance(configured, str) and configured:
        return "llm"
    model = configured if isinstance(configured, dict) else request.model
    if not (model and model.get("provider") and (model.get("id") or model.get("modelId"))):
        return "offline"
    provider = str(model["provider"])
    if _provider_configured(request, provider):
        return "llm"
    ref = f"{provider}/{model.get('id') or model.get('modelId')}"
    warn(
        f"the session's model {ref}: provider '{provider}' is not configured, so the "
        "offline summarizer writes the summary (set compaction.model, or add the provider "
        "to models.json)"
    )
    return "offline"


def _provider_configured(request: SummarizeRequest, provider: str) -> bool:
    """Whether the request's provider registry knows ``provider`` (without one, or with a
    models.json that cannot be read, it counts as known: the ``llm`` summarizer says what is
    wrong)."""
    try:
        return request.registry is None or provider in request.registry.config
    except Exception:  # noqa: BLE001 - a broken models.json: let llm report it
        return True


__all__ = ["LlmSummarizer", "register_summarizers", "summarize"]
