"""The ``faux`` provider itself; the plugin that registers it is ``provider_faux``."""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tether.builtin_plugins.providers.messages import (
    fail_message,
    finish_usage,
    new_assistant_message,
)
from tether.providers import (
    BRANCH_SUMMARY_PREFIX,
    COMPACTION_SUMMARY_PREFIX,
    AbortedError,
    ContextOverflowError,
    LlmContext,
    Model,
    PermanentError,
    ProviderConfigError,
    ProviderError,
    StreamEvent,
    StreamOptions,
    TransientError,
)

API = "faux"
ENV_SCRIPT = "TETHER_FAUX_SCRIPT"
CHUNK_CHARS = 12
ERROR_KINDS: dict[str, type[ProviderError]] = {
    "transient": TransientError,
    "overflow": ContextOverflowError,
    "permanent": PermanentError,
}


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts = []
    for block in content or []:
        kind = block.get("type")
        if kind == "text":
            parts.append(block.get("text", ""))
        elif kind == "thinking":
            parts.append(block.get("thinking", ""))
        elif kind == "toolCall":
            parts.append(f"{block.get('name')}:{json.dumps(block.get('arguments'))}")
        elif kind == "image":
            parts.append(f"[image:{block.get('mimeType')}:{len(block.get('data', ''))}]")
    return "\n".join(parts)


DEMO_LINES = 20
CONVERTED_PREFIXES = ("Ran `", BRANCH_SUMMARY_PREFIX, COMPACTION_SUMMARY_PREFIX)
LIST_FILES = re.compile(r"\blist\b.*\bfiles?\b", re.IGNORECASE | re.DOTALL)


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / 4)


def _is_converted(message: dict[str, Any]) -> bool:
    """A user-role message that ``convert_to_llm`` made from a bash execution or a summary."""
    text = _text_of(message.get("content"))
    return text.startswith(CONVERTED_PREFIXES)


def prompt_of_turn(turn: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The user's prompt among the trailing user-role messages (oldest first).

    After conversion the prompt, held next-turn messages and the custom messages plugins inject
    (``before_agent_start``) are all user messages; the harness sends them in pi's order —
    prompt first — so the prompt is the first one that is not a converted bash execution or
    summary (those come before it)."""
    real = [msg for msg in turn if not _is_converted(msg)]
    return (real or turn or [None])[0]


def _users_before(messages: list[dict[str, Any]], end: int) -> list[dict[str, Any]]:
    """The run of user messages ending just before index ``end``, oldest first."""
    start = end
    while start > 0 and messages[start - 1].get("role") == "user":
        start -= 1
    return messages[start:end]


def default_answer(context: LlmContext) -> str:
    """The deterministic reply to a context without a script step: the latest prompt echoed,
    or the latest tool result summed up, whichever is newer."""
    messages = context.messages
    for index in range(len(messages) - 1, -1, -1):
        msg = messages[index]
        if msg.get("role") == "user":
            prompt = prompt_of_turn(_users_before(messages, index + 1)) or msg
            return f"You said: {_text_of(prompt.get('content'))}"
        if msg.get("role") == "toolResult":
            lines = [line for line in _text_of(msg.get("content")).strip().splitlines() if line]
            shown = ", ".join(lines[:DEMO_LINES]) or "(empty)"
            more = f" (+{len(lines) - DEMO_LINES} more)" if len(lines) > DEMO_LINES else ""
            return f"Tool {msg.get('toolName', '?')} returned: {shown}{more}"
    return "Hello from faux."


def default_step(context: LlmContext) -> dict[str, Any]:
    """Without a script: answer, or — so the offline demo shows the agent at work — call ``ls``
    when the latest user message asks to list files and the ``ls`` tool is offered."""
    turn = _users_before(context.messages, len(context.messages))  # prompt + injected ones
    offered = {tool.get("name") for tool in context.tools}
    if "ls" in offered and any(LIST_FILES.search(_text_of(m.get("content"))) for m in turn):
        return {"toolCalls": [{"name": "ls", "arguments": {"path": "."}}]}
    return {"text": default_answer(context)}


def _prompt_text(context: LlmContext) -> str:
    parts = [context.system_prompt] if context.system_prompt else []
    parts += [f"{m.get('role')}:{_text_of(m.get('content'))}" for m in context.messages]
    if context.tools:
        parts.append(json.dumps(context.tools))
    return "\n\n".join(parts)


def load_script(model: Model, environ: Any = None) -> tuple[str, list[Any]]:
    """(source key, steps) from ``TETHER_FAUX_SCRIPT`` or the model's ``script`` field."""
    env = os.environ if environ is None else environ
    raw = env.get(ENV_SCRIPT, "").strip()
    if raw:
        text = raw
        if not raw.startswith(("[", "{")):
            try:
                text = Path(raw).expanduser().read_text(encoding="utf-8")
            except OSError as exc:
                raise ProviderConfigError(
                    f"{ENV_SCRIPT}={raw}: cannot read the faux script: {exc.strerror}"
                ) from exc
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise ProviderConfigError(f"{ENV_SCRIPT}: invalid JSON in the script: {exc}") from exc
        source = f"env:{raw}"
    else:
        data, source = model.extra.get("script") or [], f"model:{model.ref}"
    steps = data.get("steps", []) if isinstance(data, dict) else data
    if not isinstance(steps, list):
        raise ProviderConfigError(f"{source}: a faux script must be a list of steps")
    return source, steps


class FauxProvider:
    """The ``faux`` adapter: scripted or echoing answers, streamed without a network."""

    api = API

    def __init__(self) -> None:
        self.cursor: dict[str, int] = {}
        self.call_count = 0
        self.last_context: LlmContext | None = None  # the latest request, for tests and demos

    def next_step(self, model: Model) -> Any:
        source, steps = load_script(model)
        index = self.cursor.get(source, 0)
        self.cursor[source] = index + 1
        return steps[index] if index < len(steps) else None

    def stream(
        self, model: Model, context: LlmContext, options: StreamOptions
    ) -> Iterator[StreamEvent]:
        self.call_count += 1
        self.last_context = context
        context = _as_sent(model, context)  # what a real provider would send (repaired)
        message = new_assistant_message(model)
        signal = options.signal
        try:
            step = self.next_step(model)
            if step is None:
                step = default_step(context)
            elif isinstance(step, str):
                step = {"text": step}
            if not isinstance(step, dict):
                raise ProviderConfigError(f"faux script step must be a string or object: {step!r}")
            if signal is not None and signal.aborted:
                raise AbortedError("Request was aborted")
            if step.get("error"):
                raise _step_error(step["error"])
            yield StreamEvent("start", partial=message)
            delay = float(step.get("chunkDelayMs", 0)) / 1000
            for kind, key, text in (
                ("thinking_delta", "thinking", step.get("thinking")),
                ("text_delta", "text", step.get("text")),
            ):
                if not text:
                    continue
                block = {"type": key, key: ""}
                message["content"].append(block)
                for start in range(0, len(text), CHUNK_CHARS):
                    if signal is not None and (signal.wait(delay) if delay else signal.aborted):
                        raise AbortedError("Request was aborted")
                    piece = text[start : start + CHUNK_CHARS]
                    block[key] += piece
                    index = len(message["content"]) - 1
                    yield StreamEvent(kind, partial=message, delta=piece, content_index=index)
            for n, call in enumerate(step.get("toolCalls") or []):
                block = {
                    "type": "toolCall",
                    "id": call.get("id") or f"faux_call_{self.call_count}_{n}",
                    "name": call["name"],
                    "arguments": call.get("arguments") or {},
                }
                message["content"].append(block)
                delta, index = json.dumps(block["arguments"]), len(message["content"]) - 1
                yield StreamEvent("toolcall_delta", message, delta, content_index=index)
            default_stop = "toolUse" if step.get("toolCalls") else "stop"
            message["stopReason"] = step.get("stopReason", default_stop)
            usage = {
                "input": estimate_tokens(_prompt_text(context)),
                "output": estimate_tokens(_text_of(message["content"])),
                "cacheRead": 0,
                "cacheWrite": 0,
            }
            usage.update({k: int(v) for k, v in (step.get("usage") or {}).items() if k in usage})
            message["usage"].update(usage)
            finish_usage(model, message["usage"])
        except ProviderError as error:
            finish_usage(model, message["usage"])
            yield StreamEvent("error", message=fail_message(message, error), error=error)
            return
        yield StreamEvent("done", message=message)


def _as_sent(model: Model, context: LlmContext) -> LlmContext:
    """The context after the provider-side repair every real provider applies."""
    from tether.providers import prepare_for_provider

    return LlmContext(
        context.system_prompt, prepare_for_provider(context.messages, model), context.tools
    )


def _step_error(spec: Any) -> ProviderError:
    if isinstance(spec, str):
        return PermanentError(spec)
    cls = ERROR_KINDS.get(str(spec.get("kind", "permanent")), PermanentError)
    return cls(
        str(spec.get("message", "faux error")),
        status=spec.get("status"),
        retry_after=spec.get("retryAfter"),
    )
