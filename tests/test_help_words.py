"""Every ``--help`` text (the root, each group, each command) is for users: no module paths,
no reST markup, no words from tether's test tooling ("the oracle"), no typer placeholders
such as ``{files}`` or a lower-case ``[name]`` in a usage line."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import typer

from tether.core.cli.app import create_app
from tether.core.host.manager import create_plugin_manager

INTERNAL = re.compile(
    r"oracle|golden|hookspec|tether\.(core|builtin_plugins|hookspecs)|``|:(mod|func|class|meth):"
)


def _helps() -> Iterator[tuple[str, str]]:
    command = typer.main.get_command(create_app(create_plugin_manager()))
    stack: list[tuple[Any, list[str], Any]] = [(command, ["tether"], None)]
    while stack:
        current, path, parent = stack.pop()
        ctx = typer.Context(current, info_name=path[-1], parent=parent)
        yield " ".join(path), current.get_help(ctx)
        if hasattr(current, "list_commands"):
            for name in current.list_commands(ctx):
                stack.append((current.get_command(ctx, name), [*path, name], ctx))


HELPS = dict(_helps())


def test_every_command_is_walked() -> None:
    assert {"tether", "tether hooks", "tether session import", "tether session stats"} <= set(HELPS)
    assert len(HELPS) > 25


@pytest.mark.parametrize("path", sorted(HELPS))
def test_help_is_for_users(path: str) -> None:
    text = HELPS[path]
    assert not INTERNAL.search(text), INTERNAL.search(text)
    usage = text.splitlines()[0]
    assert "{" not in usage and not re.search(r"\[[a-z_]+\]", usage), usage
