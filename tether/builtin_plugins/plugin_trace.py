"""Built-in plugin ``plugin_trace``: ``TETHER_TRACE_PLUGINS=1``, one stderr line per hook
call, its plugins in call order.

It answers ``watch_hook_calls``: when the variable is set it becomes the plugin manager's
``observer`` and wraps pluggy's executor. So every hook call is traced, whichever way the
kernel makes it: through pluggy (``pm.hook.x``, wrapped here) or one implementation at a time
(the ``register_*`` hooks, ``system_prompt_sections`` and the hooks the kernel checks, which
it reports to the observer). A single-answer (``firstresult``) hook also says which plugin
answered, and a named choice (summarizer, counter, strategy) says once which plugin it went
to, and why. Without the variable nothing is wrapped: tracing off costs nothing.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TextIO

from tether.hookspecs import hookimpl

ENV_TRACE = "TETHER_TRACE_PLUGINS"
PREFIX = "[tether trace]"

HookExec = Callable[[str, Sequence[Any], Mapping[str, Any], bool], Any]


class Tracer:
    """The observer ``pm.observer``: each event the kernel reports is one line on ``stream``."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.chosen: set[tuple[str, str, str]] = set()

    def write(self, text: str) -> None:
        self.stream.write(f"{PREFIX} {text}\n")

    def called(self, hook_name: str, arg_names: Iterable[str], plugins: Sequence[str]) -> None:
        """``hook(args) -> [plugins in call order]``."""
        self.write(f"{hook_name}({', '.join(arg_names)}) -> [{', '.join(plugins)}]")

    def failed(self, hook_name: str, plugin: str, exc: BaseException) -> None:
        """``hook raised … in plugin 'x'``."""
        self.write(f"{hook_name} raised {exc!r} in plugin '{plugin}'")

    def answered(self, hook_name: str, plugin: str | None) -> None:
        """``hook answered by x`` (or ``had no answer``), for a single-answer hook."""
        self.write(f"{hook_name} {f'answered by {plugin}' if plugin else 'had no answer'}")

    def chose(self, kind: str, name: str, why: str, plugin: str) -> None:
        """Once per choice: which plugin a named choice went to, and why."""
        if (kind, name, why) not in self.chosen:
            self.chosen.add((kind, name, why))
            self.write(f"{kind} '{name}' chosen ({why}): answered by {plugin}")


def _recording(impl: Any, answered: list[str]) -> Any:
    """A copy of a hook implementation that notes its plugin's name when it answers."""
    function = impl.function

    def call(*args: Any) -> Any:
        value = function(*args)
        if value is not None:
            answered.append(impl.plugin_name)
        return value

    proxy = copy.copy(impl)
    proxy.function = call  # pluggy's HookImpl attributes are Final only to type checkers
    return proxy


def enable_tracing(pm: Any, stream: TextIO) -> None:
    """Trace every hook call of ``pm`` to ``stream`` (pluggy's calls and the kernel's own).

    Wraps pluggy's executor the way ``add_hookcall_monitoring`` does, but passes copies of
    the implementations of a ``firstresult`` hook that note who answered.
    """
    tracer = pm.observer = Tracer(stream)
    inner: HookExec = pm._inner_hookexec

    def traced(
        hook_name: str, impls: Sequence[Any], kwargs: Mapping[str, Any], firstresult: bool
    ) -> Any:
        names = [impl.plugin_name for impl in reversed(impls)]  # pluggy calls back to front
        tracer.called(hook_name, kwargs, names)
        answered: list[str] = []
        if firstresult:
            impls = [
                impl if impl.wrapper or impl.hookwrapper else _recording(impl, answered)
                for impl in impls
            ]
        try:
            result = inner(hook_name, impls, kwargs, firstresult)
        except BaseException as exc:
            tracer.write(f"{hook_name} raised {exc!r}")
            raise
        if firstresult:
            who = f"answered by {answered[-1]}" if answered and result is not None else None
            tracer.write(f"{hook_name} {who or 'had no answer'}")
        return result

    pm._inner_hookexec = traced


@hookimpl
def watch_hook_calls(pm: Any, environ: Mapping[str, str]) -> None:
    if environ.get(ENV_TRACE, "") not in ("", "0", "false", "no"):
        enable_tracing(pm, getattr(pm, "stderr", None) or sys.stderr)


__all__ = ["ENV_TRACE", "PREFIX", "Tracer", "enable_tracing", "watch_hook_calls"]
