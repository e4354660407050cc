"""Which model and thinking level a session runs with, and what else an agent is set up with.

The choice is a plugin's (the ``choose_model`` and ``choose_thinking_level`` hooks; the
built-in ``model_choice`` plugin follows pi's ``createAgentSession``): :func:`choose_model`
and :func:`choose_thinking_level` ask it and check the answer. The harness records what was
chosen (see :func:`.switching.bind_session`); :func:`branch_thinking_level` reads the level
the branch recorded last.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from tether.core.base.errors import (
    HookError,
    ProviderConfigError,
    ProviderError,
    TetherError,
    UsageError,
)
from tether.core.hooks.checks import expect
from tether.core.hooks.runner import attributed
from tether.hookspecs.providers import Model


def stderr_warning(message: str) -> None:
    """The default warning sink: one ``tether: warning:`` line on stderr."""
    sys.stderr.write(f"tether: warning: {message}\n")


NO_MODEL_CHOICE = "no plugin chose a model (is 'model_choice' disabled?)"
NO_LEVEL_CHOICE = "no plugin chose a thinking level (is 'model_choice' disabled?)"


@dataclass
class ModelRequest:
    """What the user asked for: ``ref`` (``provider/model`` or a model id), or its parts."""

    ref: str | None = None
    provider: str | None = None
    model: str | None = None

    @property
    def given(self) -> bool:
        return bool(self.ref or self.provider or self.model)


@dataclass(frozen=True)
class _Choice:
    """A choice hook: its name, the type its answer must have, and the error (class and
    message) when no plugin answers."""

    hook: str
    answer: type
    error: type[TetherError]
    missing: str

    def ask(self, hooks: Any, **arguments: Any) -> Any:
        """The first answer of the hook, checked; a typed error a plugin raised on purpose (an
        unknown model, a missing key) is said as the plugin said it."""
        try:
            found = hooks.runner.first(self.hook, arguments, expect(self.answer))
        except (TetherError, ProviderError) as exc:
            failure = attributed(exc)
            if failure is not None and not isinstance(exc, HookError):
                exc.args = (failure.detail, *exc.args[1:])
            raise
        if found is None:
            raise self.error(self.missing)
        return found


_MODEL_CHOICE = _Choice("choose_model", Model, ProviderConfigError, NO_MODEL_CHOICE)
_LEVEL_CHOICE = _Choice("choose_thinking_level", str, UsageError, NO_LEVEL_CHOICE)


def choose_model(
    hooks: Any,
    registry: Any,
    request: ModelRequest,
    *,
    stored: dict[str, Any] | None = None,
    current: Model | None = None,
    warn: Callable[[str], None] = stderr_warning,
) -> Model:
    """The model the ``choose_model`` hook chooses; ``stored`` is the branch's model (a session
    with messages), ``current`` the one in use. No answer is one error line."""
    # the request's fields (ref, provider, model) are the hook's own argument names
    return _MODEL_CHOICE.ask(  # type: ignore[no-any-return]
        hooks, registry=registry, **asdict(request), stored=stored, current=current, warn=warn
    )


def choose_thinking_level(
    hooks: Any,
    requested: str | None,
    *,
    branch_level: str | None = None,
    model: Model | None = None,
    settings: Any = None,
) -> str:
    """The level the ``choose_thinking_level`` hook chooses; ``branch_level`` is the branch's
    last recorded level (a session with messages). No answer is one error line."""
    return _LEVEL_CHOICE.ask(  # type: ignore[no-any-return]
        hooks, requested=requested, branch_level=branch_level, model=model, settings=settings
    )


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


def assemble_prompt(pm: Any, cwd: str, tools: Any, settings: Any) -> tuple[str, list[str]]:
    """The system prompt for ``cwd`` and ``tools``, and what the section plugins warned about."""
    from tether.core.agent.prompt import assemble_system_prompt, build_prompt_options

    found: list[str] = []
    options = build_prompt_options(cwd, tools, settings=settings, warnings=found)
    return assemble_system_prompt(pm, options)[0], found


__all__ = [
    "NO_LEVEL_CHOICE",
    "NO_MODEL_CHOICE",
    "ModelRequest",
    "assemble_prompt",
    "branch_thinking_level",
    "choose_model",
    "choose_thinking_level",
    "DEFAULT_HOOK_TIMEOUT_MS",
    "LIMITED_BY_DEFAULT",
    "hook_time_limit",
    "stderr_warning",
]
