"""The contract between tether and its plugins.

``hookspec`` marks a hook specification, ``hookimpl`` marks a plugin's implementation.
Every hook is synchronous and called with keyword arguments; an implementation may accept
any subset of the arguments. Specifications live in one module per area:

- :mod:`tether.hookspecs.registration` — tools, providers, commands, prompt sections, HTTP clients
- :mod:`tether.hookspecs.agent` — the turn: input, system prompt, context, tool calls, events
- :mod:`tether.hookspecs.session` — session lifecycle, compaction and tree navigation, storage
- :mod:`tether.hookspecs.choices` — summarizers, token counters and compaction strategies by
  name, and the summarizer nobody chose
- :mod:`tether.hookspecs.memory` — the plan of a summary's requests, pins, fact cues, the
  summary gate (its types: :mod:`tether.hookspecs.gate`), the branch summary's input
  (:mod:`tether.hookspecs.branch`)

The event objects passed to hooks are defined in :mod:`tether.hookspecs.events`; every hook
that takes a ``session`` gets a :class:`tether.hookspecs.session_protocol.HookSession` (read
side, and an act side that raises ``tether.NoAgentError`` where no agent runs). A plugin
imports all of them from ``tether`` (``from tether import hookimpl, Block, HookSession``).
What a plugin implements or receives is defined here too: a tool (:mod:`tether.hookspecs.tools`),
a provider and its models and stream events (:mod:`tether.hookspecs.providers`), the abort
signal both get (:mod:`tether.hookspecs.abort`), a system-prompt section
(:mod:`tether.hookspecs.prompt`) and a session store (:mod:`tether.hookspecs.store`).

Failures: whatever a hook does wrong — raise, return a value of the wrong type — is an error
naming the plugin and the hook (see each hook for what happens then). While an agent runs,
a third-party implementation can be interrupted: Ctrl-C ends the hook call and aborts the
turn (a second Ctrl-C exits; the session file stays whole). A time limit per call applies to
third-party implementations while an agent runs: by default 30 s for ``input``, ``context``,
``agent_event``, ``session_start`` and ``session_shutdown``; ``{"plugins": {"hookTimeoutMs":
5000}}`` in ``settings.json`` sets it for every hook (``0``: no limit). A call past it fails like
a raise, naming the plugin, and that plugin is not called for the hook again until the call
returns (a hanging ``agent_event`` observer costs one warning).
A plugin's own settings live under its name: ``{"plugins": {"<name>": {...}}}``, read with
``session.plugin_settings("<name>")``.
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
    "tether.hookspecs.choices",
    "tether.hookspecs.memory",
)

__all__ = ["PROJECT_NAME", "SPEC_MODULES", "hookimpl", "hookspec"]
