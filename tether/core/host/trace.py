"""``TETHER_TRACE_PLUGINS=1``: one stderr line per hook call, its plugins in call order.

Every hook call is traced, whichever way the kernel makes it: through pluggy (``pm.hook.x``,
wrapped here) or one implementation at a time (the ``register_*`` hooks and
``system_prompt_sections``, which :mod:`tether.core.host.calls` calls plugin by plugin and
reports with :func:`trace_call`). A single-answer (``firstresult``) hook also says which
plugin answered. Nothing here costs anything while tracing is off.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TextIO

PREFIX = "[tether trace]"


def _write(stream: TextIO, text: str) -> None:
    stream.write(f"{PREFIX} {text}\n")


def trace_call(pm: Any, hook_name: str, arg_names: Iterable[str], plugins: Sequence[str]) -> None:
    """Write ``hook(args) -> [plugins in call order]`` if ``pm`` traces (else nothing)."""
    stream = getattr(pm, "trace", None)
    if stream is not None:
        _write(stream, f"{hook_name}({', '.join(arg_names)}) -> [{', '.join(plugins)}]")


def trace_failure(pm: Any, hook_name: str, plugin: str, exc: BaseException) -> None:
    """Write ``hook raised … in plugin 'x'`` if ``pm`` traces."""
    stream = getattr(pm, "trace", None)
    if stream is not None:
        _write(stream, f"{hook_name} raised {exc!r} in plugin '{plugin}'")


def trace_answer(pm: Any, hook_name: str, plugin: str | None) -> None:
    """Write ``hook answered by x`` (or ``had no answer``) for a single-answer hook."""
    stream = getattr(pm, "trace", None)
    if stream is not None:
        _write(stream, f"{hook_name} {f'answered by {plugin}' if plugin else 'had no answer'}")


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


HookExec = Callable[[str, Sequence[Any], Mapping[str, Any], bool], Any]


def enable_tracing(pm: Any, stream: TextIO) -> None:
    """Trace every hook call of ``pm`` to ``stream`` (pluggy's calls and :func:`trace_call`).

    Wraps pluggy's executor the way ``add_hookcall_monitoring`` does, but passes copies of
    the implementations of a ``firstresult`` hook that note who answered.
    """
    pm.trace = stream
    inner: HookExec = pm._inner_hookexec

    def traced(
        hook_name: str, impls: Sequence[Any], kwargs: Mapping[str, Any], firstresult: bool
    ) -> Any:
        names = [impl.plugin_name for impl in reversed(impls)]  # pluggy calls back to front
        trace_call(pm, hook_name, kwargs, names)
        answered: list[str] = []
        if firstresult:
            impls = [
                impl if impl.wrapper or impl.hookwrapper else _recording(impl, answered)
                for impl in impls
            ]
        try:
            result = inner(hook_name, impls, kwargs, firstresult)
        except BaseException as exc:
            _write(stream, f"{hook_name} raised {exc!r}")
            raise
        if firstresult:
            who = f"answered by {answered[-1]}" if answered and result is not None else None
            _write(stream, f"{hook_name} {who or 'had no answer'}")
        return result

    pm._inner_hookexec = traced


__all__ = ["PREFIX", "enable_tracing", "trace_answer", "trace_call", "trace_failure"]
