"""typer builds only the command a command line names (tether.core.cli.named_command): the
same output and exit code as with every command built, and plugins' sub-apps left as they were."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
from typer.main import get_command

from tether.core.cli import app as cli
from tether.core.cli import named_command
from tether.core.cli.named_command import command_names, only_named


def _app() -> tuple[typer.Typer, typer.Typer]:
    app = typer.Typer(name="tool", add_completion=False)

    @app.callback()
    def root() -> None:
        """Root."""

    @app.command()
    def first_thing() -> None:
        """First."""

    @app.command("second")
    def second() -> None:
        """Second."""

    group = typer.Typer(add_completion=False)  # a plugin's own, module-level in real life

    @group.command("inner")
    def inner() -> None:
        """Inner."""

    @group.command("other")
    def other() -> None:
        """Other."""

    app.add_typer(group, name="grp")
    unnamed = typer.Typer(add_completion=False)

    @unnamed.command("merged")
    def merged() -> None:
        """Merged into the root."""

    app.add_typer(unnamed)
    return app, group


def _names(command: object) -> set[str]:
    return set(getattr(command, "commands", {}))


def test_names_come_from_what_was_registered_unnamed_groups_merged() -> None:
    app, _ = _app()
    assert command_names(app) == {"first-thing", "second", "grp", "merged"}
    assert command_names(app) == _names(get_command(app))


@pytest.mark.parametrize(
    ("args", "root", "inner"),
    [
        (["second", "x"], {"second", "merged"}, None),
        (["grp", "inner"], {"grp", "merged"}, {"inner"}),
        (["grp", "--help"], {"grp", "merged"}, {"inner", "other"}),  # the group's help: all
        (["grp", "inne"], {"grp", "merged"}, {"inner", "other"}),  # a typo: click's hint
        (["--help"], {"first-thing", "second", "grp", "merged"}, {"inner", "other"}),
        (["--help", "grp"], {"first-thing", "second", "grp", "merged"}, {"inner", "other"}),
        (["secnd"], {"first-thing", "second", "grp", "merged"}, {"inner", "other"}),
        ([], {"first-thing", "second", "grp", "merged"}, {"inner", "other"}),
    ],
)
def test_only_what_the_line_names_is_built(
    args: list[str], root: set[str], inner: set[str] | None
) -> None:
    app, group = _app()
    built = get_command(only_named(app, args))
    assert _names(built) == root
    if inner is not None:
        assert _names(built.commands["grp"]) == inner  # type: ignore[attr-defined]
    # the plugin's sub-app and the app itself are untouched
    assert [c.name for c in group.registered_commands] == ["inner", "other"]
    assert len(app.registered_commands) == 2 and len(app.registered_groups) == 2


SESSION = Path(__file__).resolve().parent / "fixtures" / "pi" / "gen" / "g02-linear-text.jsonl"
LINES = [
    ["--help"],
    ["--help", "session"],
    ["session", "--help"],
    ["session", "context", "--help"],
    ["session", "contxt", "FILE"],
    ["sesions"],
    ["session", "context", "FILE", "--json"],
    ["session", "context", "FILE", "--quiet", "--json"],
    ["session", "tree", "FILE", "--json"],
    ["plugins", "--json"],
    ["--disable-plugin", "nobody", "session", "context", "FILE", "--quiet"],
]


@pytest.mark.parametrize("line", LINES, ids=[" ".join(line) for line in LINES])
def test_a_command_line_gives_what_the_whole_app_gives(
    line: list[str], capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = [str(SESSION) if arg == "FILE" else arg for arg in line]
    monkeypatch.setenv("TETHER_LOAD_PLUGINS", "")

    trimmed_code = cli.main(argv)
    trimmed = capfd.readouterr()
    monkeypatch.setattr(cli, "only_named", lambda app, args: app)
    whole_code = cli.main(argv)
    whole = capfd.readouterr()
    assert (trimmed_code, trimmed.out, trimmed.err) == (whole_code, whole.out, whole.err)


def test_the_context_command_builds_one_command(monkeypatch, tmp_path: Path) -> None:
    built: list[set[str]] = []
    real = named_command.only_named

    def spy(app: typer.Typer, args: list[str]) -> typer.Typer:
        trimmed = real(app, args)
        built.append(_names(get_command(trimmed)))
        return trimmed

    monkeypatch.setattr(cli, "only_named", spy)
    monkeypatch.setenv("TETHER_LOAD_PLUGINS", "")
    assert cli.main(["session", "context", str(tmp_path / "missing.jsonl"), "--quiet"]) != 0
    assert built == [{"session"}]
