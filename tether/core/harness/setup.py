"""Which model and thinking level a session runs with (pi's ``createAgentSession``).

Model: the one asked for (``--provider``/``--model``); else, for a session with messages, the
model of its context if it can still be used (configured, key present); else the current or
the settings' default (``defaultProvider``/``defaultModel``) — with a warning when a stored
model could not be restored (see :func:`.switching.bind_session`). Thinking level: the one
asked for; else the branch's last ``thinking_level_change`` for a session that has one; else
``defaultThinkingLevel`` or ``"medium"``; always clamped to what the model supports
(``"off"`` without reasoning).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from tether.core.agent.providers import Model
from tether.core.base.errors import UsageError

THINKING_LEVELS = ("off", "minimal", "low", "medium", "high", "xhigh")
DEFAULT_THINKING_LEVEL = "medium"


@dataclass
class ModelRequest:
    """What the user asked for: ``ref`` (``provider/model`` or a model id), or its parts."""

    ref: str | None = None
    provider: str | None = None
    model: str | None = None

    @property
    def given(self) -> bool:
        return bool(self.ref or self.provider or self.model)


def check_thinking_level(level: str) -> str:
    if level not in THINKING_LEVELS:
        raise UsageError(
            f"unknown thinking level '{level}': expected one of {', '.join(THINKING_LEVELS)}"
        )
    return level


def clamp_thinking(level: str, model: Model | None) -> str:
    """``"off"`` for models without reasoning; ``xhigh`` stays (adapters map it)."""
    if model is None or not model.reasoning:
        return "off"
    return level if level in THINKING_LEVELS else DEFAULT_THINKING_LEVEL


def resolve_requested(registry: Any, request: ModelRequest) -> Model:
    """The model the user named; a configuration problem is a one-line error."""
    model, _ = registry.resolve(request.ref, provider=request.provider, model=request.model)
    registry.api_key(model)  # no key → ProviderConfigError naming the variable to set
    return model


def choose_thinking_level(
    requested: str | None,
    *,
    has_messages: bool,
    branch_level: str | None,
    settings: Any,
    model: Model | None,
) -> str:
    """The thinking level to run with; ``branch_level`` is the branch's last recorded level."""
    if requested:
        level = check_thinking_level(requested)
    elif has_messages and branch_level:
        level = branch_level
    else:
        level = getattr(settings, "default_thinking_level", None) or DEFAULT_THINKING_LEVEL
    return clamp_thinking(level, model)


def branch_thinking_level(session: Any) -> str | None:
    """The ``thinkingLevel`` of the last ``thinking_level_change`` on the active branch.

    Walks the branch's ids and the entry types of the session's index, parsing one entry at
    most (a 100k-entry session is not read in full)."""
    table = getattr(session, "table", None)
    if table is None or not hasattr(session, "branch_ids"):
        levels = [
            e.get("thinkingLevel")
            for e in session.get_branch()
            if e.get("type") == "thinking_level_change"
        ]
        level = levels[-1] if levels else None
        return level if isinstance(level, str) else None
    for entry_id in reversed(session.branch_ids()):
        row = table.row_of(entry_id)
        if row is not None and table.types[row] == "thinking_level_change":
            level = table.entry(row).get("thinkingLevel")
            return level if isinstance(level, str) else None
    return None


#: The hooks whose third-party calls have a time limit even without ``plugins.hookTimeoutMs``:
#: they run on every prompt or event, so one that hangs would hang the agent.
LIMITED_BY_DEFAULT = frozenset(
    {"input", "context", "agent_event", "session_start", "session_shutdown"}
)
DEFAULT_HOOK_TIMEOUT_MS = 30_000


def hook_time_limit(settings: Any) -> dict[str, Any]:
    """``Hooks``' ``timeout_ms`` and ``limited`` from ``plugins.hookTimeoutMs``: ``N > 0`` limits
    each call of every hook to N ms, ``0`` sets no limit; unset, :data:`DEFAULT_HOOK_TIMEOUT_MS`
    limits the calls of :data:`LIMITED_BY_DEFAULT`. Any other value is one error."""
    extra = getattr(settings, "extra", None)
    section = extra("plugins") if callable(extra) else {}
    if "hookTimeoutMs" not in section or section["hookTimeoutMs"] is None:
        return {"timeout_ms": DEFAULT_HOOK_TIMEOUT_MS, "limited": LIMITED_BY_DEFAULT}
    value = section["hookTimeoutMs"]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise UsageError(
            "settings: plugins.hookTimeoutMs: expected milliseconds (a number, 0 for no "
            f"limit), got {value!r}"
        )
    return {"timeout_ms": int(value) or None, "limited": None}


def stderr_warning(message: str) -> None:
    """The default warning sink: one ``tether: warning:`` line on stderr."""
    sys.stderr.write(f"tether: warning: {message}\n")


def assemble_prompt(pm: Any, cwd: str, tools: Any, settings: Any) -> tuple[str, list[str]]:
    """The system prompt for ``cwd`` and ``tools``, and what the section plugins warned about."""
    from tether.core.agent.prompt import assemble_system_prompt, build_prompt_options

    found: list[str] = []
    options = build_prompt_options(cwd, tools, settings=settings, warnings=found)
    return assemble_system_prompt(pm, options)[0], found


__all__ = [
    "DEFAULT_THINKING_LEVEL",
    "THINKING_LEVELS",
    "ModelRequest",
    "assemble_prompt",
    "branch_thinking_level",
    "check_thinking_level",
    "choose_thinking_level",
    "clamp_thinking",
    "DEFAULT_HOOK_TIMEOUT_MS",
    "LIMITED_BY_DEFAULT",
    "hook_time_limit",
    "resolve_requested",
    "stderr_warning",
]
