"""The contract between tether and its plugins.

``hookspec`` marks a hook specification, ``hookimpl`` marks a plugin's implementation.
Every hook is synchronous and called with keyword arguments; an implementation may accept
any subset of the arguments. Specifications live in one module per area:

- :mod:`tether.hookspecs.registration` — tools, providers, commands, prompt sections, HTTP clients
- :mod:`tether.hookspecs.agent` — the turn: input, system prompt, context, tool calls, events
- :mod:`tether.hookspecs.session` — session lifecycle, compaction and tree navigation, storage
- :mod:`tether.hookspecs.memory` — compaction strategy, summarizers, token counting

The event objects passed to hooks are defined in :mod:`tether.hookspecs.events`.
"""

from __future__ import annotations

import pluggy

PROJECT_NAME = "tether"

hookspec = pluggy.HookspecMarker(PROJECT_NAME)
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)

#: Modules that hold hook specifications, in documentation order.
SPEC_MODULES: tuple[str, ...] = (
    "tether.hookspecs.registration",
    "tether.hookspecs.agent",
    "tether.hookspecs.session",
    "tether.hookspecs.memory",
)

__all__ = ["PROJECT_NAME", "SPEC_MODULES", "hookimpl", "hookspec"]
