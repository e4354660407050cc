"""``tether session context FILE --request``: the request body a model call would send, unsent.

The same steps as a run of the harness on that session, in the same order: the model named
by ``--provider``/``--model`` (read as ``run`` reads them), else the model of the branch (from
``models.json`` and the plugins' provider defaults), else the settings' default; the thinking
level of the branch (clamped to the model), every registered tool, the system
prompt assembled for the current directory and passed through ``before_agent_start`` (with
the branch's last user prompt), the branch's messages through the ``context`` hooks, the
recall note and ``convert_to_llm``; then the provider adapter's own request builder (an
adapter's ``request_body``; the built-in HTTP adapters have one) gives the body, written as
the exact bytes the HTTP call sends. An adapter without one (``faux``) gets the provider-neutral
context instead (``systemPrompt``, ``messages``, ``tools``), with a note on stderr.
"""

from __future__ import annotations

import sys
from typing import Any

from tether.memory import block_parts
from tether.rules import is_image


def _branch_level(branch: list[dict[str, Any]]) -> str | None:
    for entry in reversed(branch):
        if entry.get("type") == "thinking_level_change":
            level = entry.get("thinkingLevel")
            return level if isinstance(level, str) else None
    return None


def _last_prompt(messages: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    """Text and images of the last user message (what ``before_agent_start`` saw)."""
    for message in reversed(messages):
        if message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, str):
                return content, []
            text = "".join(block_parts(content, tool_call=lambda _b: "", thinking=False))
            images = [b for b in content or [] if is_image(b)]
            return text, images
    return "", []


def _model(registry: Any, stored: dict[str, Any] | None, warn: Any, asked: Any = None) -> Any:
    """The model asked for (``--provider``/``--model``, as ``run`` reads them); else the
    branch's model as a run would restore it; else the settings' default."""
    from tether.providers import ProviderConfigError

    if asked is not None and asked.given:
        return registry.resolve(asked.ref, provider=asked.provider, model=asked.model)[0]
    if stored and stored.get("provider") and stored.get("modelId"):
        provider, model_id = str(stored["provider"]), str(stored["modelId"])
        try:
            return registry.resolve(provider=provider, model=model_id)[0]
        except ProviderConfigError:
            model = registry.resolve()[0]
            warn(f"Could not restore model {provider}/{model_id}. Using {model.ref}")
            return model
    return registry.resolve()[0]


def request_bytes(
    pm: Any, session: Any, leaf_id: str | None, cwd: str, warn: Any = None, model: Any = None
) -> bytes:
    """The body the provider would receive for the branch ending at ``leaf_id``; ``model`` is
    a :class:`~tether.core.harness.setup.ModelRequest` that overrides the branch's model."""
    from tether import Hooks, convert_to_llm, load_settings
    from tether.builtin_plugins.providers.models.registry import ProviderRegistry
    from tether.cli import json_text
    from tether.core.harness.setup import assemble_prompt, choose_thinking_level
    from tether.core.hooks.plugin_session import PluginSession
    from tether.hookspecs.events import BeforeAgentStartEvent
    from tether.providers import LlmContext, StreamOptions, encode_json_body
    from tether.tools import annotated, collect_tools, order_tools

    say = warn or (lambda line: sys.stderr.write(f"tether: warning: {line}\n"))
    settings = load_settings(cwd)
    hooks = Hooks(pm)
    context = session.build_context(leaf_id)
    branch = session.get_branch(leaf_id) if leaf_id is not None else []
    with ProviderRegistry(pm, settings=settings) as registry:
        stored = context.model if context.messages else None
        chosen = _model(registry, stored, say, model)
        level = choose_thinking_level(
            hooks,
            None,
            branch_level=_branch_level(branch) if context.messages else None,
            model=chosen,
            settings=settings,
        )
        tools = order_tools(collect_tools(pm))
        system_prompt, found = assemble_prompt(pm, cwd, tools, settings)
        for line in found:
            say(line)
        view = PluginSession.reading(
            session, hooks, context.model, branch=branch, settings=settings
        )
        prompt, images = _last_prompt(context.messages)
        start = BeforeAgentStartEvent(prompt, images, system_prompt)
        hooks.before_agent_start(event=start, session=view, failure="before_agent_start")
        messages = context.messages
        if pm.hook.context.get_hookimpls():
            messages = hooks.context(messages=messages, session=view, failure="context hook")
        messages = annotated(tools, messages, view)  # the recall tool's span note, as sent
        llm = LlmContext(
            start.system_prompt,
            convert_to_llm(messages, block_images=bool(settings.block_images)),
            [
                {"name": t.name, "description": t.description, "parameters": t.parameters}
                for t in tools
            ],
        )
        options = StreamOptions(reasoning=None if level == "off" else level)
        builder = getattr(registry.adapter(chosen), "request_body", None)
        if builder is None:
            sys.stderr.write(
                f"tether: note: api '{chosen.api}' sends no HTTP request; this is the context "
                "it receives\n"
            )
            neutral = {
                "systemPrompt": llm.system_prompt,
                "messages": llm.messages,
                "tools": llm.tools,
            }
            return json_text(neutral).encode("utf-8", "replace")
        return encode_json_body(builder(chosen, llm, options))


__all__ = ["request_bytes"]
