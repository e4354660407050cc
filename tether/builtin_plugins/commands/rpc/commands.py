"""The RPC commands about the agent: state, models, thinking, queues, compaction, retries.

Each handler takes ``(server, command)`` and returns the response's ``data`` (``...``: a
response without ``data``) or raises; the message of what it raises is the error response.
:data:`HANDLERS` maps every command of pi's rpc.md to its handler (the session ones are in
:mod:`.session_commands`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from tether.builtin_plugins.commands.rpc.prompting import follow_up, steer
from tether.builtin_plugins.commands.rpc.session_commands import HANDLERS as SESSION_HANDLERS
from tether.builtin_plugins.commands.rpc.wire import compaction_result

Handler = Callable[[Any, dict[str, Any]], Any]
THINKING_LEVELS = ("off", "minimal", "low", "medium", "high")
QUEUE_MODES = ("all", "one-at-a-time")
ABORT_WAIT_SECONDS = 30.0


def model_json(model: Any) -> dict[str, Any] | None:
    """pi's ``Model`` object for a tether :class:`~tether.hookspecs.providers.Model`."""
    if model is None:
        return None
    cost = model.cost or {}
    return {
        "id": model.id,
        "name": model.name or model.id,
        "api": model.api,
        "provider": model.provider,
        "baseUrl": model.base_url,
        "reasoning": bool(model.reasoning),
        "input": list(model.input),
        "cost": {k: cost.get(k, 0) for k in ("input", "output", "cacheRead", "cacheWrite")},
        "contextWindow": model.context_window,
        "maxTokens": model.max_tokens,
    }


def available_models(server: Any) -> list[Any]:
    """The models with a key (or needing none), models.json order. The offline ``faux`` models
    are listed only while one of them is in use (they answer no real question)."""
    from tether.providers import ProviderConfigError

    registry, current = server.harness.registry, server.harness.model
    offline = current is not None and current.api == "faux"
    out = []
    for model in registry.models():
        if model.api == "faux" and not offline:
            continue
        try:
            registry.api_key(model)
        except ProviderConfigError:
            continue
        out.append(model)
    return out


def _need(command: dict[str, Any], key: str, kind: type = str) -> Any:
    value = command.get(key)
    if not isinstance(value, kind):
        raise ValueError(f"{key} must be a {kind.__name__}")
    return value


# -- state -------------------------------------------------------------------------------------


def get_state(server: Any, command: dict[str, Any]) -> Any:
    h = server.harness
    state: dict[str, Any] = {
        "model": model_json(h.model),
        "thinkingLevel": h.thinking_level,
        "isStreaming": server.streaming.is_set(),
        "isCompacting": server.compacting.is_set(),
        "steeringMode": h.agent.steering_mode,
        "followUpMode": h.agent.follow_up_mode,
        "sessionFile": str(h.session.file) if h.session.file is not None else None,
        "sessionId": h.session.session_id,
        "sessionName": h.session.session_name,
        "autoCompactionEnabled": bool(h.settings.compaction.enabled),
        "messageCount": len(h.agent.state.messages),
        "pendingMessageCount": len(server.queues),
    }
    return {k: v for k, v in state.items() if v is not None or k == "model"}


def get_messages(server: Any, command: dict[str, Any]) -> Any:
    return {"messages": list(server.harness.agent.state.messages)}


def abort(server: Any, command: dict[str, Any]) -> Any:
    """Abort the run (and a retry wait or compaction), then wait until it has ended."""
    server.harness.abort()
    deadline = time.monotonic() + ABORT_WAIT_SECONDS
    while server.streaming.is_set() and time.monotonic() < deadline:
        time.sleep(0.01)
    return ...


# -- models and thinking -----------------------------------------------------------------------


def set_model(server: Any, command: dict[str, Any]) -> Any:
    provider, model_id = _need(command, "provider"), _need(command, "modelId")
    found = [m for m in available_models(server) if (m.provider, m.id) == (provider, model_id)]
    if not found:
        raise ValueError(f"Model not found: {provider}/{model_id}")
    server.harness.set_model(found[0].ref)
    return model_json(server.harness.model)


def cycle_model(server: Any, command: dict[str, Any]) -> Any:
    scoped = bool(server.scoped_models)
    models = server.scoped_models or available_models(server)
    if len(models) <= 1:
        return None
    h = server.harness
    current = h.model
    keys = [(m.provider, m.id) for m in models]
    here = (current.provider, current.id) if current is not None else None
    index = keys.index(here) if here in keys else -1
    chosen = models[(index + 1) % len(models)]
    h.set_model(chosen.ref)
    return {"model": model_json(h.model), "thinkingLevel": h.thinking_level, "isScoped": scoped}


def get_available_models(server: Any, command: dict[str, Any]) -> Any:
    return {"models": [model_json(m) for m in available_models(server)]}


def set_thinking_level(server: Any, command: dict[str, Any]) -> Any:
    server.harness.set_thinking_level(_need(command, "level"))
    return ...


def cycle_thinking_level(server: Any, command: dict[str, Any]) -> Any:
    h = server.harness
    if h.model is None or not h.model.reasoning:
        return None
    index = THINKING_LEVELS.index(h.thinking_level) if h.thinking_level in THINKING_LEVELS else -1
    level = THINKING_LEVELS[(index + 1) % len(THINKING_LEVELS)]
    h.set_thinking_level(level)
    return {"level": h.thinking_level}


# -- queues, compaction, retries ---------------------------------------------------------------


def _queue_mode(command: dict[str, Any]) -> str:
    mode = command.get("mode")
    if mode not in QUEUE_MODES:
        raise ValueError(f"mode must be one of: {', '.join(QUEUE_MODES)}")
    return str(mode)


def set_steering_mode(server: Any, command: dict[str, Any]) -> Any:
    server.harness.agent.steering_mode = _queue_mode(command)
    return ...


def set_follow_up_mode(server: Any, command: dict[str, Any]) -> Any:
    server.harness.agent.follow_up_mode = _queue_mode(command)
    return ...


def compact(server: Any, command: dict[str, Any]) -> Any:
    instructions = command.get("customInstructions")
    server.compacting.set()
    try:
        outcome = server.harness.compact(instructions if isinstance(instructions, str) else None)
    finally:
        server.compacting.clear()
    if outcome is None or outcome.status != "compacted":
        reason = getattr(outcome, "reason", "") or "Nothing to compact"
        raise ValueError(reason[:1].upper() + reason[1:])
    return compaction_result(outcome.entry)


def set_auto_compaction(server: Any, command: dict[str, Any]) -> Any:
    server.harness.settings.compaction.enabled = bool(_need(command, "enabled", bool))
    return ...


def set_auto_retry(server: Any, command: dict[str, Any]) -> Any:
    server.harness.settings.retry.enabled = bool(_need(command, "enabled", bool))
    return ...


def abort_retry(server: Any, command: dict[str, Any]) -> Any:
    """Cancel a retry's wait (nothing else runs then: the failed call has ended)."""
    h = server.harness
    if h.runs.retry_attempt and not h.agent.is_running:
        h.op_signal.abort()
    return ...


HANDLERS: dict[str, Handler] = {
    "steer": steer,
    "follow_up": follow_up,
    "abort": abort,
    "get_state": get_state,
    "get_messages": get_messages,
    "set_model": set_model,
    "cycle_model": cycle_model,
    "get_available_models": get_available_models,
    "set_thinking_level": set_thinking_level,
    "cycle_thinking_level": cycle_thinking_level,
    "set_steering_mode": set_steering_mode,
    "set_follow_up_mode": set_follow_up_mode,
    "compact": compact,
    "set_auto_compaction": set_auto_compaction,
    "set_auto_retry": set_auto_retry,
    "abort_retry": abort_retry,
    **SESSION_HANDLERS,
}

__all__ = ["HANDLERS", "available_models", "model_json"]
