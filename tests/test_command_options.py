"""Options several ``tether session`` commands take are declared once and reach each command
by name (:func:`tether.builtin_plugins.commands.with_token_options`)."""

from __future__ import annotations

import inspect
from typing import Any

import typer
from typer.testing import CliRunner

from tether.builtin_plugins.commands import with_token_options
from tether.builtin_plugins.commands.compaction import compact_command, prepare_command
from tether.builtin_plugins.commands.context import estimate_command


def _options(command: Any) -> list[str]:
    return [
        p.name for p in inspect.signature(command).parameters.values() if p.kind == p.KEYWORD_ONLY
    ]


def test_a_command_gets_the_token_options_it_names_as_its_last_parameters() -> None:
    app = typer.Typer()
    seen: dict[str, Any] = {}

    @app.command()
    @with_token_options("window", "counter")
    def probe(name: str, **token_options: Any) -> None:
        seen.update(token_options, name=name)

    done = CliRunner().invoke(app, ["x", "--window", "5"])
    assert done.exit_code == 0, done.output
    assert seen == {"name": "x", "window": 5, "counter": None}
    assert list(inspect.signature(probe).parameters) == ["name", "window", "counter"]
    assert CliRunner().invoke(app, ["x", "--keep", "5"]).exit_code != 0  # not declared


def test_the_session_commands_take_the_token_options_they_use() -> None:
    assert _options(prepare_command) == ["keep", "reserve", "window", "counter"]
    assert _options(estimate_command) == ["window", "reserve", "keep", "counter"]
    assert _options(compact_command) == ["keep", "reserve"]
