"""What an OpenAI-compatible server accepts, per model (pi's ``compat`` fields of models.json).

Each field is the model's ``compat`` value, else its provider's ``compat`` value, else pi's
default for the provider name and ``baseUrl``:

==================================  ===================================================
``supportsDeveloperRole``           the system prompt of a reasoning model is sent as
                                    ``developer`` (else ``system``); default: standard
                                    servers yes, the non-standard ones below no
``supportsStore``                   ``store: false`` is sent; same default
``maxTokensField``                  ``max_completion_tokens`` (default) or ``max_tokens``
                                    (chutes.ai, Moonshot, Cloudflare AI Gateway)
``supportsReasoningEffort``         ``reasoning_effort`` is sent for reasoning models;
                                    default yes except xAI, z.ai, Moonshot, Cloudflare AI
                                    Gateway
``supportsUsageInStreaming``        ``stream_options.include_usage``; default yes
``thinkingFormat``                  ``openai`` (``reasoning_effort``), ``openrouter``
                                    (``reasoning: {effort}``), ``deepseek``, ``zai``,
                                    ``qwen`` (``enable_thinking``) or
                                    ``qwen-chat-template``; default by provider/URL
==================================  ===================================================

Non-standard servers (neither ``developer`` nor ``store``): Cerebras, xAI, chutes.ai,
DeepSeek, z.ai, Moonshot, opencode, Cloudflare Workers AI and AI Gateway.
"""

from __future__ import annotations

from typing import Any

from tether.providers import Model

COMPAT_FIELDS = (
    "supportsDeveloperRole",
    "supportsStore",
    "maxTokensField",
    "supportsReasoningEffort",
    "supportsUsageInStreaming",
    "thinkingFormat",
)


def _is(model: Model, providers: tuple[str, ...], hosts: tuple[str, ...]) -> bool:
    return model.provider in providers or any(host in model.base_url for host in hosts)


def detected_compat(model: Model) -> dict[str, Any]:
    """pi's defaults for the model's provider name and ``baseUrl``."""
    zai = _is(model, ("zai",), ("api.z.ai",))
    moonshot = _is(model, ("moonshotai", "moonshotai-cn"), ("api.moonshot.",))
    gateway = _is(model, ("cloudflare-ai-gateway",), ("gateway.ai.cloudflare.com",))
    workers = _is(model, ("cloudflare-workers-ai",), ("api.cloudflare.com",))
    grok = _is(model, ("xai",), ("api.x.ai",))
    deepseek = _is(model, ("deepseek",), ("deepseek.com",))
    non_standard = (
        _is(model, ("cerebras", "opencode"), ("cerebras.ai", "chutes.ai", "opencode.ai"))
        or grok
        or deepseek
        or zai
        or moonshot
        or workers
        or gateway
    )
    if deepseek:
        thinking = "deepseek"
    elif zai:
        thinking = "zai"
    elif _is(model, ("openrouter",), ("openrouter.ai",)):
        thinking = "openrouter"
    else:
        thinking = "openai"
    plain_max_tokens = "chutes.ai" in model.base_url or moonshot or gateway
    return {
        "supportsDeveloperRole": not non_standard,
        "supportsStore": not non_standard,
        "maxTokensField": "max_tokens" if plain_max_tokens else "max_completion_tokens",
        "supportsReasoningEffort": not (grok or zai or moonshot or gateway),
        "supportsUsageInStreaming": True,
        "thinkingFormat": thinking,
    }


def resolved_compat(model: Model) -> dict[str, Any]:
    """Every field of :data:`COMPAT_FIELDS`: models.json's ``compat`` over pi's defaults."""
    given = model.extra.get("compat")
    given = given if isinstance(given, dict) else {}
    detected = detected_compat(model)
    return {name: given.get(name, detected[name]) for name in COMPAT_FIELDS}


def reasoning_fields(model: Model, compat: dict[str, Any], level: str | None) -> dict[str, Any]:
    """The request fields that set a reasoning model's effort (``level``: ``None`` = off)."""
    if not model.reasoning:
        return {}
    effort = "high" if level == "xhigh" else level
    style = compat.get("thinkingFormat", "openai")
    if style in ("zai", "qwen"):
        return {"enable_thinking": bool(effort)}
    if style == "qwen-chat-template":
        return {
            "chat_template_kwargs": {"enable_thinking": bool(effort), "preserve_thinking": True}
        }
    if style == "deepseek":
        out: dict[str, Any] = {"thinking": {"type": "enabled" if effort else "disabled"}}
        return {**out, "reasoning_effort": effort} if effort else out
    if style == "openrouter":
        return {"reasoning": {"effort": effort or "none"}}
    if effort and compat.get("supportsReasoningEffort", True):
        return {"reasoning_effort": effort}
    return {}


__all__ = ["COMPAT_FIELDS", "detected_compat", "reasoning_fields", "resolved_compat"]
