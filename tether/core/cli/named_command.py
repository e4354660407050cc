"""The command a command line names, found before typer builds every command.

typer turns each registered command into a click command before it parses a single argument —
every signature read, every type hint evaluated: ~20 ms for tether's fifty commands, a tenth
of ``tether session context`` on a 10k-entry session. A command line runs one of them.

:func:`command_names` lists the names of an app's commands from what plugins registered.
:func:`only_named` gives a copy of the app holding, at each level, only the command or group
the arguments name exactly — so click builds that one and parses the line as it would have.
Anything else (an option before the name, ``--help`` of a group, a name that is not there, a
typo click would suggest a fix for) keeps the level whole. Plugins' own ``Typer`` objects are
copied, never changed: the same sub-app may serve another app.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import typer
from typer.main import get_command_name, solve_typer_info_defaults


def command_names(app: typer.Typer) -> set[str]:
    """The names of ``app``'s commands and named groups (an unnamed group's commands count
    as the app's own, as typer merges them)."""
    return set(_entries(app))


def only_named(app: typer.Typer, args: Sequence[str]) -> typer.Typer:
    """``app``, or a copy holding only what ``args[0]`` names exactly (and, within a group
    so named, only what ``args[1]`` names, and so on)."""
    if not args or args[0].startswith("-"):
        return app
    entries = _entries(app)
    named = entries.get(args[0])
    if named is None:
        return app
    trimmed = copy.copy(app)
    trimmed.registered_commands = [e for e in app.registered_commands if e in named]
    trimmed.registered_groups = []
    for info in app.registered_groups:
        name = _group_name(info)
        if name == args[0]:
            info = copy.copy(info)
            info.typer_instance = only_named(info.typer_instance, args[1:])
        elif name is not None:
            continue  # another named group
        trimmed.registered_groups.append(info)  # an unnamed one stays whole
    return trimmed


def _entries(app: typer.Typer) -> dict[str, list[Any]]:
    """Each name at ``app``'s level → what registers it there (commands, a named group, an
    unnamed group that brings it in)."""
    found: dict[str, list[Any]] = {}
    for info in app.registered_commands:
        if info.callback is not None:
            name = info.name or get_command_name(info.callback.__name__)
            found.setdefault(name, []).append(info)
    for info in app.registered_groups:
        name = _group_name(info)
        if name is not None:
            found.setdefault(name, []).append(info)
        elif info.typer_instance is not None:  # its commands become this level's
            for inner in _entries(info.typer_instance):
                found.setdefault(inner, []).append(info)
    return found


def _group_name(info: Any) -> str | None:
    """The name typer gives a group (``None``: it has none, its commands join the parent)."""
    if info.typer_instance is None:
        return None
    return solve_typer_info_defaults(info).name or None


__all__ = ["command_names", "only_named"]
