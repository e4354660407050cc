"""Facade methods declared by their typed signature alone; the call is the same for every hook
of a kind.

A method of :class:`~tether.core.hooks.facade.Hooks` decorated with :func:`first_answer` or
:func:`notify` has no body of its own: its signature (keyword-only
arguments, checked at each call site) and its name say which hook it calls with which
arguments. ``session`` is handed on as a
:class:`~tether.hookspecs.session_protocol.HookSession` (``None``: an empty one); ``failure``
(what did not happen) and ``warnings`` (where a notify hook's warnings go) are the facade's own
and not passed to the hook.
"""

from __future__ import annotations

import builtins
import functools
import importlib
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from tether.core.hooks.checks import Check, expect

P = ParamSpec("P")
R = TypeVar("R")


def _answer_check(types: tuple[str, ...]) -> Callable[[], Check]:
    """``expect`` of ``types`` (``"events.Cancel"``: ``tether.hookspecs.events.Cancel``;
    ``"dict"``: the built-in), imported at the first call (starting tether imports no event
    types)."""

    @functools.cache
    def check() -> Check:
        found = []
        for name in types:
            module, _, attribute = name.rpartition(".")
            home = importlib.import_module(f"tether.hookspecs.{module}") if module else builtins
            found.append(getattr(home, attribute))
        return expect(*found)

    return check


def _declared(kind: str, types: tuple[str, ...]) -> Callable[[Callable[P, R]], Callable[P, R]]:
    check = _answer_check(types)

    def declare(method: Callable[P, R]) -> Callable[P, R]:
        name = method.__name__
        defaults = dict(getattr(method, "__kwdefaults__", None) or {})  # keyword-only arguments

        @functools.wraps(method)
        def call(hooks: Any, **given: Any) -> Any:
            kwargs = {**defaults, **given}
            if "session" in kwargs:
                kwargs["session"] = hooks._session(kwargs["session"])
            if kind == "notify":
                return hooks._notify(name, kwargs.pop("warnings"), **kwargs)
            return hooks._first(name, kwargs.pop("failure"), check(), **kwargs)

        return call  # type: ignore[return-value]

    return declare


def first_answer(*types: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """The hook's first answer that is not ``None``, one of ``types`` (else an error naming the
    plugin); a failure raises, prefixed with ``failure``."""
    return _declared("first", types)


def notify() -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Every plugin is told; a failure is a warning (to ``warnings`` when given), never an
    error."""
    return _declared("notify", ())


__all__ = ["first_answer", "notify"]
