"""Built-in plugin `provider_faux`: api ``"faux"`` — a scripted model, no network, no key.

The provider ``faux`` and its model ``faux/faux-1`` always exist (``--provider faux``;
registered here with ``register_provider_defaults``). Without a script it answers
deterministically: ``You said: <the user's prompt>`` (not the custom messages
``before_agent_start`` sends with it) or, after tool results, ``Tool <name> returned: <first
line>`` — unless a user-role message follows them (a steering message, or a custom message a
``context`` hook appended: the model cannot tell them apart), which is echoed; streamed in small
chunks, with pi's chars/4 usage estimate (input = the whole request, output = the answer).

Scripted answers come from ``TETHER_FAUX_SCRIPT`` (a JSON file path, or inline JSON) or from
a ``"script"`` field of a faux model in models.json. A script is a list of steps (or
``{"steps": [...]}``); each call consumes the next step, in order, per provider instance (one
per plugin manager, i.e. per process); when the steps run out the default answer is used.
A step is a string (the answer text) or an object::

    {"text": "...", "thinking": "...",
     "toolCalls": [{"name": "read", "arguments": {"path": "a.txt"}, "id": "call_1"}],
     "stopReason": "stop|length|toolUse",          # default: toolUse if toolCalls else stop
     "usage": {"input": 10, "output": 5, "cacheRead": 0, "cacheWrite": 0},
     "error": {"kind": "transient|overflow|permanent", "message": "...", "status": 429,
               "retryAfter": 1.5},
     "chunkDelayMs": 50}                           # slow streaming (abortable)

The adapter lives in :mod:`tether.builtin_plugins.providers.faux.provider`, imported when providers
are registered, so that loading this plugin stays cheap.
"""

from __future__ import annotations

from typing import Any

from tether.hookspecs import hookimpl

FAUX_MODEL = {"id": "faux-1", "name": "Faux (offline, scripted)", "input": ["text", "image"]}


@hookimpl(trylast=True)
def register_providers(register: Any) -> None:
    from tether.builtin_plugins.providers.faux.provider import FauxProvider

    register(FauxProvider())


@hookimpl(trylast=True)
def register_provider_defaults(register: Any) -> None:
    register("faux", {"api": "faux", "reasoning": True, "models": [FAUX_MODEL]})
