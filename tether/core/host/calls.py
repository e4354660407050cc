"""Calling hooks on the kernel's behalf: a failing plugin is named in one clear error.

:func:`call_registration` calls a ``register_*`` hook one plugin at a time, so that a plugin
that raises is named and only its registrations are dropped. Every other hook is called
through the typed facade :class:`tether.core.hooks.facade.Hooks`.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any, Literal, Protocol

from tether.core.base.errors import TetherError


def observe(pm: Any, event: str, *args: Any) -> None:
    """Report ``event`` to the observer a plugin set on ``pm`` in ``watch_hook_calls``
    (``pm.observer``; the built-in ``plugin_trace`` behind ``TETHER_TRACE_PLUGINS``); nothing
    when there is none. The events of hooks the kernel calls one implementation at a time
    (pluggy's own calls the observer wraps itself): ``called(hook, arg_names, plugins)``,
    ``failed(hook, plugin, exc)``, ``answered(hook, plugin or None)``, and
    ``chose(kind, name, why, plugin)`` for a named choice."""
    observer = getattr(pm, "observer", None)
    if observer is not None:
        getattr(observer, event)(*args)


def detail_of(exc: BaseException) -> str:
    """One line: the exception's first line, with its type unless it is a TetherError."""
    text = str(exc).strip()
    detail = text.splitlines()[0] if text else type(exc).__name__
    if not isinstance(exc, TetherError) and detail != type(exc).__name__:
        detail = f"{type(exc).__name__}: {detail}"
    return detail


def warn(pm: Any, message: str) -> None:
    """One ``tether: warning:`` line, through the plugin manager when it keeps them."""
    method = getattr(pm, "warn", None)
    if method is not None:
        method(message)
    else:
        sys.stderr.write(f"tether: warning: {message}\n")


Order = Literal["call", "registration"]

# The hooks called in registration order (built-ins first, so a later plugin's registration
# replaces a built-in's); every other hook runs in pluggy's call order.
REGISTRATION_ORDER = frozenset(
    {
        "register_tools",
        "register_summarizers",
        "register_token_counters",
        "register_compaction_strategies",
        "register_provider_defaults",
        "register_fact_cues",
    }
)


def hook_order(hook_name: str) -> Order:
    """The order ``hook_name``'s implementations are called in (see ``REGISTRATION_ORDER``)."""
    return "registration" if hook_name in REGISTRATION_ORDER else "call"


def ordered_hookimpls(pm: Any, hook_name: str, order: Order | None = None) -> list[Any]:
    """The implementations of ``hook_name`` in the order they are called (wrappers included).

    ``order="call"`` is pluggy's call order (later-loaded plugins and ``tryfirst`` first);
    ``"registration"`` the reverse (built-ins first); ``None``: :func:`hook_order`.
    """
    impls = getattr(pm.hook, hook_name).get_hookimpls()
    if (order or hook_order(hook_name)) == "call":
        return list(reversed(impls))
    return list(impls)


def implementations(pm: Any, hook_name: str, *, order: Order = "call") -> list[tuple[str, Any]]:
    """``(plugin name, implementation)`` of ``hook_name``, to be called one by one (traced),
    in ``order`` (see :func:`ordered_hookimpls`). Wrappers are left out: a hook called
    plugin by plugin has nothing for them to wrap.
    """
    caller = getattr(pm.hook, hook_name)
    ordered = ordered_hookimpls(pm, hook_name, order)
    found = []
    for impl in ordered:
        if impl.wrapper or impl.hookwrapper:
            warn(pm, f"plugin '{impl.plugin_name}': a wrapper of {hook_name} is not supported")
        else:
            found.append((impl.plugin_name, impl))
    arg_names = caller.spec.argnames if caller.spec is not None else ()
    observe(pm, "called", hook_name, arg_names, [name for name, _ in found])
    return found


def call_implementation(impl: Any, kwargs: Mapping[str, Any]) -> Any:
    """Call one pluggy implementation with the arguments it asks for (as pluggy does)."""
    return impl.function(*[kwargs[name] for name in impl.argnames])


class Registration(Protocol):
    """What :func:`call_registration` needs from the caller of a ``register_*`` hook."""

    def arguments(self, plugin: str) -> dict[str, Any]:
        """The hook's arguments for ``plugin``'s implementation (collecting apart)."""
        ...

    def keep(self, plugin: str) -> None:
        """``plugin``'s implementation returned: its registrations count."""
        ...

    def drop(self, plugin: str) -> None:
        """``plugin``'s implementation raised: forget what it registered."""
        ...


def call_registration(
    pm: Any,
    hook_name: str,
    registration: Registration,
    *,
    order: Order | None = None,
) -> list[str]:
    """Call every implementation of a ``register_*`` hook on its own, in ``order`` (default:
    :func:`hook_order`); return who failed.

    A plugin whose implementation raises is named with the hook in one warning line, and
    only its registrations are dropped: every other plugin's stay.
    """
    failed: list[str] = []
    for plugin, impl in implementations(pm, hook_name, order=order or hook_order(hook_name)):
        kwargs = registration.arguments(plugin)
        try:
            call_implementation(impl, kwargs)
        except Exception as exc:  # a plugin can fail in any way; the others must not suffer
            registration.drop(plugin)
            failed.append(plugin)
            observe(pm, "failed", hook_name, plugin, exc)
            detail = detail_of(exc)
            record = getattr(pm, "records", {}).get(plugin)
            if record is not None and not record.error:
                record.error = f"{hook_name}: {detail}"
            why = f"failed in {hook_name}; its registrations were dropped: {detail}"
            warn(pm, f"plugin '{plugin}' {why}")
        else:
            registration.keep(plugin)
    return failed


_IMMUTABLE = frozenset({str, int, float, bool, type(None)})


def copy_json(value: Any) -> Any:
    """A deep copy of JSON-shaped data (dicts, lists, scalars), ~10x faster than
    ``copy.deepcopy``: containers are rebuilt, strings and numbers shared (they are immutable).
    Anything else (tuples, objects, aliased or cyclic structures) goes through ``deepcopy``."""
    try:
        return _copy_json(value)
    except (_NotJson, RecursionError):
        import copy

        return copy.deepcopy(value)


class _NotJson(Exception):
    pass


def _copy_json(value: Any) -> Any:
    cls = value.__class__
    if cls is dict:
        return {
            key: item if item.__class__ in _IMMUTABLE else _copy_json(item)
            for key, item in value.items()
        }
    if cls is list:
        return [item if item.__class__ in _IMMUTABLE else _copy_json(item) for item in value]
    if cls in _IMMUTABLE:
        return value
    raise _NotJson


def watch_calls(pm: Any, environ: Mapping[str, str]) -> None:
    """``watch_hook_calls``, each implementation on its own: one that raises is a warning
    naming it, and the others still run."""
    for plugin, impl in implementations(pm, "watch_hook_calls"):
        try:
            call_implementation(impl, {"pm": pm, "environ": environ})
        except Exception as exc:  # a plugin can fail in any way; the others must not suffer
            warn(pm, f"plugin '{plugin}' failed in watch_hook_calls: {exc!r}")


__all__ = [
    "Registration",
    "call_implementation",
    "call_registration",
    "copy_json",
    "detail_of",
    "implementations",
    "observe",
    "warn",
    "watch_calls",
]
