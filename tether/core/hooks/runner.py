"""Calling one hook implementation at a time: who failed, what it returned, Ctrl-C, time limit.

:class:`HookRunner` is the engine under :class:`tether.core.hooks.facade.Hooks`. It calls the
implementations of a hook one by one in pluggy's call order (so ordering and ``tryfirst`` /
``trylast`` are pluggy's) and so always knows which plugin raised or returned a wrong type:
every failure is a :class:`~tether.core.base.errors.HookError` naming the plugin and the hook —
except a typed error (a ``TetherError`` or ``ProviderError`` the plugin raised on purpose),
which keeps its type (retry decisions use it) and gets the plugin and hook in its message
and a ``hook_failure`` attribute.

A third-party implementation runs on a helper thread the caller waits on when the caller
can be interrupted (a running agent passes its abort signal) or a time limit is set
(``{"plugins": {"hookTimeoutMs": N}}``; ``limited`` names the hooks it applies to, ``None``:
all): the wait ends when the signal fires (Ctrl-C) or the limit passes, and the call fails
like a raise. Until such an abandoned call returns, that plugin's implementation of the hook
is not called again: the call fails at once with :class:`HookStillRunning` (notify hooks skip
it without a word, so a hanging observer costs one warning and no more waiting). Built-in
implementations run inline.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypedDict, Unpack

from tether.core.base.errors import (
    HookError,
    HookInterrupted,
    HookStillRunning,
    ProviderError,
    TetherError,
)
from tether.core.host.calls import (
    call_implementation,
    detail_of,
    implementations,
    observe,
    warn,
)

Check = Callable[[Any], "str | None"]
POLL_SECONDS = 0.05


class RunnerOptions(TypedDict, total=False):
    """How hooks are called (see the module documentation); each may be left out or ``None``."""

    on_warning: Callable[[str], None] | None  # where warning lines go (default: the pm's)
    interrupt: Callable[[], Any] | None  # the running turn's abort signal
    timeout_ms: int | None  # per-call limit of third-party implementations (None, 0: off)
    limited: frozenset[str] | None  # the hooks the limit applies to (None: every hook)


def attributed(exc: BaseException) -> HookError | None:
    """The :class:`HookError` saying which plugin failed in which hook (``None``: not a
    failure of a hook implementation)."""
    if isinstance(exc, HookError):
        return exc
    failure = getattr(exc, "hook_failure", None)
    return failure if isinstance(failure, HookError) else None


class HookRunner:
    """Calls implementations of ``pm``'s hooks one by one (see the module documentation)."""

    def __init__(self, pm: Any, **options: Unpack[RunnerOptions]) -> None:
        self.pm = pm
        self.on_warning = options.get("on_warning")
        self.interrupt = options.get("interrupt")
        self.timeout_ms = options.get("timeout_ms") or None
        self.limited = options.get("limited")
        self.abandoned: dict[tuple[str, str], threading.Thread] = {}  # (hook, plugin) → call

    def warn(self, message: str) -> None:
        """One warning line (the harness's warnings, else the plugin manager's)."""
        if self.on_warning is not None:
            self.on_warning(message)
        else:
            warn(self.pm, message)

    def hooked(self, name: str) -> bool:
        """Whether any plugin implements ``name`` (cheap: no tracing, no copies)."""
        return bool(getattr(self.pm.hook, name).get_hookimpls())

    def each(self, name: str, kwargs: Mapping[str, Any], check: Check | None) -> Iterator[Any]:
        """Yield each implementation's (checked) answer, in call order; raise a HookError."""
        for plugin, impl in implementations(self.pm, name):
            value = self.call(name, plugin, impl, kwargs)
            if check is not None:
                problem = check(value)
                if problem is not None:
                    error = HookError(plugin, name, problem)
                    observe(self.pm, "failed", name, plugin, error)
                    raise error
            yield plugin, value

    def first(self, name: str, kwargs: Mapping[str, Any], check: Check | None) -> Any:
        """The first answer that is not ``None`` (pluggy's ``firstresult``)."""
        for plugin, value in self.each(name, kwargs, check):
            if value is not None:
                observe(self.pm, "answered", name, plugin)
                return value
        observe(self.pm, "answered", name, None)
        return None

    def call(self, name: str, plugin: str, impl: Any, kwargs: Mapping[str, Any]) -> Any:
        """Call one implementation; any failure becomes a HookError naming ``plugin``."""
        try:
            if self._guarded(name, plugin):
                return self._call_guarded(name, plugin, impl, kwargs)
            return call_implementation(impl, kwargs)
        except HookError as exc:  # a hook called from inside a hook names its own plugin
            observe(self.pm, "failed", name, plugin, exc)
            raise
        except (TetherError, ProviderError) as exc:  # typed: keep the type, name the plugin
            observe(self.pm, "failed", name, plugin, exc)
            if getattr(exc, "hook_failure", None) is None:
                exc.hook_failure = HookError(plugin, name, detail_of(exc))  # type: ignore[union-attr]
                exc.args = (exc.hook_failure.reason, *exc.args[1:])
            raise
        except Exception as exc:  # a plugin can fail in any way; the user gets one line
            observe(self.pm, "failed", name, plugin, exc)
            raise HookError(plugin, name, detail_of(exc)) from exc

    def limit_ms(self, name: str) -> int | None:
        """The time limit of one call of ``name`` (``None``: none)."""
        if self.limited is not None and name not in self.limited:
            return None
        return self.timeout_ms

    def _guarded(self, name: str, plugin: str) -> bool:
        if self.interrupt is None and self.limit_ms(name) is None:
            return False
        record = getattr(self.pm, "records", {}).get(plugin)
        return record is None or not record.builtin

    def _call_guarded(self, name: str, plugin: str, impl: Any, kwargs: Mapping[str, Any]) -> Any:
        earlier = self.abandoned.get((name, plugin))
        if earlier is not None:
            if earlier.is_alive():
                raise HookStillRunning(plugin, name, "an earlier call has not returned")
            self.abandoned.pop((name, plugin), None)  # it returned: call it again
        signal = self.interrupt() if self.interrupt is not None else None
        if signal is not None and signal.aborted:  # already aborting: let this call finish
            signal = None
        box: dict[str, Any] = {}
        done = threading.Event()

        def target() -> None:
            try:
                box["value"] = call_implementation(impl, kwargs)
            except BaseException as exc:  # re-raised in the caller's thread
                box["error"] = exc
            finally:
                done.set()

        thread = threading.Thread(target=target, daemon=True, name=f"tether-hook-{name}")
        thread.start()
        limit = self.limit_ms(name)
        deadline = None if limit is None else time.monotonic() + limit / 1000
        while not done.wait(POLL_SECONDS):
            if signal is not None and signal.aborted:
                self.abandoned[(name, plugin)] = thread
                raise HookInterrupted(plugin, name, "interrupted; the turn was aborted")
            if deadline is not None and time.monotonic() > deadline:
                self.abandoned[(name, plugin)] = thread
                raise HookError(
                    plugin, name, f"no answer within {limit} ms (plugins.hookTimeoutMs)"
                )
        if "error" in box:
            raise box["error"]
        return box.get("value")


__all__ = ["HookRunner", "RunnerOptions", "attributed", "detail_of"]
