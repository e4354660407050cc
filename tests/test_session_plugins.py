"""Which plugin manager a session opened without one uses: the app's or the test's
(``PluginScope``), else one of its own. No plugin manager lives at module level."""

from __future__ import annotations

import contextvars
import sys
from pathlib import Path
from typing import Any

from tether import PluginManager, Session, create_plugin_manager, hookimpl
from tether.builtin_plugins.commands.session.file_copies import fork_from
from tether.core.cli.app import main
from tether.storage import PluginScope, default_plugins


def _outside_any_scope(fn: Any) -> Any:
    """``fn()`` in an empty context: no scope, as in a script that opens sessions itself."""
    return contextvars.Context().run(fn)


def test_calls_outside_a_scope_share_no_manager(tmp_path: Path) -> None:
    def opened() -> tuple[Any, Any, Any, Any]:
        first = Session.create(str(tmp_path), tmp_path / "s")
        second = Session.create(str(tmp_path), tmp_path / "s")
        return first.plugins, second.plugins, default_plugins(), default_plugins()

    first, second, third, fourth = _outside_any_scope(opened)
    assert isinstance(first, PluginManager) and isinstance(second, PluginManager)
    assert len({id(first), id(second), id(third), id(fourth)}) == 4


def test_a_scope_lends_its_manager_to_every_call_inside_it_only(tmp_path: Path) -> None:
    pm = create_plugin_manager()

    def opened() -> tuple[Any, Any, Any]:
        with PluginScope(pm):
            session = Session.create(str(tmp_path), tmp_path / "s")
            session.append_message({"role": "user", "content": "hi", "timestamp": 1})
            session.append_message(
                {"role": "assistant", "content": [{"type": "text", "text": "ok"}], "timestamp": 2}
            )
            reopened = Session.open(session.file)
            forked = fork_from(session.file, str(tmp_path), tmp_path / "f")
        return reopened.plugins, forked.plugins, default_plugins()

    reopened, forked, after = _outside_any_scope(opened)
    assert reopened is pm and forked is pm
    assert after is not pm


def test_a_scope_without_a_manager_makes_one_when_first_asked(tmp_path: Path) -> None:
    made: list[Any] = []

    def make() -> Any:
        made.append(create_plugin_manager())
        return made[-1]

    with PluginScope(make=make) as scope:
        assert made == []
        first = Session.create(str(tmp_path), tmp_path / "s")
        second = Session.create(str(tmp_path), tmp_path / "s")
    assert len(made) == 1 and first.plugins is second.plugins is scope.plugins is made[0]


def test_the_cli_lends_its_manager_to_calls_naming_none(tmp_path: Path) -> None:
    seen: list[Any] = []

    class Probe:
        @hookimpl
        def register_commands(self, app: Any) -> None:
            @app.command("probe")
            def probe() -> None:
                seen.append(default_plugins())

    pm = create_plugin_manager(plugins=[("probe", Probe())])
    assert _outside_any_scope(lambda: main(["probe"], pm=pm)) == 0
    assert seen == [pm]


def _managers_in(value: Any) -> bool:
    if isinstance(value, PluginManager):
        return True
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(isinstance(item, PluginManager) for item in value)
    if isinstance(value, dict):
        return any(isinstance(item, PluginManager) for item in value.values())
    return False


def test_no_module_keeps_a_plugin_manager(tmp_path: Path) -> None:
    def opened() -> None:
        session = Session.create(str(tmp_path), tmp_path / "s")
        session.append_message({"role": "user", "content": "hi", "timestamp": 1})
        Session.open(session.file, create=True)

    _outside_any_scope(opened)
    kept = sorted(
        f"{name}.{attr}"
        for name, module in list(sys.modules.items())
        if name == "tether" or name.startswith("tether.")
        for attr, value in list(vars(module).items())
        if _managers_in(value)
    )
    assert kept == []
