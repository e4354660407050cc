"""The plugin kernel: discovery, load order, blocking, allowlisting, failures, name clashes."""

from __future__ import annotations

import io
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.plugin_fakes import (
    BROKEN_PLUGIN,
    COLLIDING_PLUGIN,
    COUNTING_PLUGIN,
    write_distribution,
)
from tests.store_helpers import run_tether
from tether.core.choices.running import token_counter
from tether.core.host import manager as plugins_module
from tether.core.host.manager import create_plugin_manager

MESSAGES = [{"role": "user", "content": "x" * 40, "timestamp": 0}]


@pytest.fixture
def fake_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    site = tmp_path / "site"
    site.mkdir()
    write_distribution(
        site,
        "tether-fake-counter",
        "1.2.3",
        {"fake_counter": "fake_counter"},
        {"fake_counter": COUNTING_PLUGIN},
    )
    monkeypatch.syspath_prepend(str(site))
    return site


def test_third_party_plugin_is_discovered_and_overrides_builtin(fake_site: Path) -> None:
    pm = create_plugin_manager(environ={})
    record = pm.records["fake_counter"]
    assert (record.status, record.distribution, record.version, record.builtin) == (
        "loaded",
        "tether-fake-counter",
        "1.2.3",
        False,
    )
    assert record.hooks == ["register_token_counters"]
    assert token_counter(pm)(MESSAGES) == [7]  # it claims the default


def test_builtins_answer_without_third_party(fake_site: Path) -> None:
    pm = create_plugin_manager(environ={"TETHER_DISABLE_PLUGINS": "fake_counter"})
    assert pm.records["fake_counter"].status == "blocked"
    assert pm.get_plugin("fake_counter") is None
    assert token_counter(pm)(MESSAGES) == [10]  # pi's chars/4 estimate


def test_disable_argument_blocks_like_the_environment(fake_site: Path) -> None:
    pm = create_plugin_manager(environ={}, disabled=["fake_counter"])
    assert pm.records["fake_counter"].status == "blocked"


def test_allowlist_loads_only_named_third_party_plugins(fake_site: Path) -> None:
    write_distribution(
        fake_site,
        "tether-other",
        "0.1",
        {"other_counter": "other_counter"},
        {"other_counter": COUNTING_PLUGIN},
    )
    pm = create_plugin_manager(environ={"TETHER_LOAD_PLUGINS": "other_counter"})
    assert pm.records["fake_counter"].status == "not-allowed"
    assert pm.records["other_counter"].status == "loaded"
    assert pm.records["jsonl_store"].status == "loaded"  # built-ins are not subject to it

    empty = create_plugin_manager(environ={"TETHER_LOAD_PLUGINS": ""})
    assert {r.status for r in empty.records.values() if not r.builtin} == {"not-allowed"}


def test_broken_plugin_is_reported_in_one_line_and_skipped(fake_site: Path) -> None:
    write_distribution(
        fake_site,
        "tether-broken",
        "0.9",
        {"broken": "broken_plugin"},
        {"broken_plugin": BROKEN_PLUGIN},
    )
    err = io.StringIO()
    pm = create_plugin_manager(environ={}, stderr=err)
    assert pm.records["broken"].status == "failed"
    assert "unobtainium" in pm.records["broken"].error
    lines = err.getvalue().splitlines()
    assert len(lines) == 1
    assert "'broken'" in lines[0] and "tether-broken" in lines[0] and "unobtainium" in lines[0]
    assert pm.records["fake_counter"].status == "loaded"


def test_name_collision_with_a_builtin_is_reported_naming_both_and_skipped(
    fake_site: Path,
) -> None:
    write_distribution(
        fake_site,
        "tether-imposter",
        "2.0",
        {"jsonl_store": "imposter"},
        {"imposter": COLLIDING_PLUGIN},
    )
    err = io.StringIO()
    pm = create_plugin_manager(environ={}, stderr=err)
    message = err.getvalue()
    assert message.count("\n") == 1 and message.startswith("tether: warning: ")
    assert "jsonl_store" in message and "tether-imposter" in message and "'tether'" in message
    assert pm.records["jsonl_store"].distribution == "tether"  # the built-in keeps its name
    assert pm.records["tether-imposter:jsonl_store"].status == "skipped"
    assert "imposter" not in sys.modules
    assert pm.get_plugin("jsonl_store").__name__ == "tether.builtin_plugins.storage.jsonl"


def test_tracing_writes_hook_calls_to_stderr(fake_site: Path) -> None:
    err = io.StringIO()
    pm = create_plugin_manager(environ={"TETHER_TRACE_PLUGINS": "1"}, stderr=err)
    token_counter(pm)(MESSAGES)
    assert "register_token_counters" in err.getvalue() and "fake_counter" in err.getvalue()


def test_programmatic_plugins_register_after_entry_points() -> None:
    class Upper:
        from tether.hookspecs import hookimpl

        @hookimpl
        def register_token_counters(self, register):
            register("ones", lambda messages, model: [1] * len(messages))

    pm = create_plugin_manager(environ={}, plugins=[("upper", Upper())])
    assert token_counter(pm, flag="ones")(MESSAGES) == [1]
    assert pm.records["upper"].hooks == ["register_token_counters"]


def _run_cli(args: list[str], site: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return run_tether(*args, env={"PYTHONPATH": str(site), "TETHER_LOAD_PLUGINS": None, **env})


def test_cli_lists_blocks_and_reports_plugins(fake_site: Path) -> None:
    import json

    listed = _run_cli(["plugins", "--json"], fake_site)
    assert listed.returncode == 0, listed.stderr
    rows = {row["name"]: row for row in json.loads(listed.stdout)["plugins"]}
    assert rows["fake_counter"]["status"] == "loaded"
    assert not any(row["builtin"] for row in rows.values())

    blocked = _run_cli(["--disable-plugin", "fake_counter", "plugins", "--json"], fake_site)
    rows = {row["name"]: row for row in json.loads(blocked.stdout)["plugins"]}
    assert rows["fake_counter"]["status"] == "blocked"

    order = _run_cli(["hooks", "register_token_counters", "--json"], fake_site)
    impls = [i["plugin"] for i in json.loads(order.stdout)["implementations"]]
    # the real call order of a register_* hook: built-ins first (as TETHER_TRACE_PLUGINS shows)
    assert impls[-1] == "fake_counter" and "token_estimate" in impls[:-1]


def test_cli_collision_is_one_warning_line_and_the_command_runs(fake_site: Path) -> None:
    write_distribution(
        fake_site,
        "tether-imposter",
        "2.0",
        {"jsonl_store": "imposter"},
        {"imposter": COLLIDING_PLUGIN},
    )
    result = _run_cli(["plugins"], fake_site)
    assert result.returncode == 0 and "fake_counter" in result.stdout
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "tether-imposter" in result.stderr and "skipped" in result.stderr


def _rows(found: list) -> list[tuple[str, str, str, str]]:
    return [(dist, version, name, entry_point.value) for dist, version, name, entry_point in found]


def test_fast_discovery_reads_exactly_what_importlib_metadata_reads(fake_site: Path) -> None:
    # Start-up reads the entry_points.txt files itself (importlib.metadata costs ~30 ms);
    # the installed built-ins, the example plugins and the fake site must all come out the same.
    fast = plugins_module._scan_sys_path(plugins_module.ENTRY_POINT_GROUP)
    slow = plugins_module._scan_importlib_metadata(plugins_module.ENTRY_POINT_GROUP)
    assert fast is not None
    assert _rows(fast) == _rows(slow)
    assert ("tether-fake-counter", "1.2.3", "fake_counter", "fake_counter") in _rows(fast)
    assert {name for dist, _, name, _ in _rows(fast) if dist == "tether"} >= {"jsonl_store"}


def test_a_zipped_distribution_falls_back_to_importlib_metadata(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    unpacked = tmp_path / "unpacked"
    write_distribution(
        unpacked,
        "tether-zipped",
        "0.2",
        {"zipped_counter": "zipped_counter"},
        {"zipped_counter": COUNTING_PLUGIN},
    )
    archive = tmp_path / "zipped.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for path in sorted(unpacked.rglob("*")):
            if path.is_file():
                zipped.write(path, path.relative_to(unpacked).as_posix())
    monkeypatch.syspath_prepend(str(archive))
    assert plugins_module._scan_sys_path(plugins_module.ENTRY_POINT_GROUP) is None
    pm = create_plugin_manager(environ={})
    record = pm.records["zipped_counter"]
    assert (record.status, record.distribution) == ("loaded", "tether-zipped")
    assert record.version == "0.2"
    assert token_counter(pm)(MESSAGES) == [7]


def test_a_wrapper_of_a_register_hook_is_reported_not_silently_ignored() -> None:
    from tether.core.agent.tools import collect_tools
    from tether.hookspecs import hookimpl

    class Wrapping:
        @hookimpl(wrapper=True)
        def register_tools(self, register):
            return (yield)

    err = io.StringIO()
    pm = create_plugin_manager(environ={}, plugins=[("wrapping", Wrapping())], stderr=err)
    tools = collect_tools(pm)
    assert "bash" in tools
    assert err.getvalue() == (
        "tether: warning: plugin 'wrapping': a wrapper of register_tools is not supported\n"
    )


def test_a_failing_hook_call_watcher_is_one_warning_and_the_others_still_watch() -> None:
    from tether.hookspecs import hookimpl

    class Broken:
        @hookimpl
        def watch_hook_calls(self, pm, environ):
            raise RuntimeError("no observer today")

    err = io.StringIO()
    pm = create_plugin_manager(
        environ={"TETHER_TRACE_PLUGINS": "1"}, stderr=err, plugins=[("broken", Broken())]
    )
    assert "plugin 'broken' failed in watch_hook_calls" in err.getvalue()
    assert pm.observer is not None  # the built-in tracer still watches
    token_counter(pm)(MESSAGES)
    assert "[tether trace] register_token_counters(register) -> [" in err.getvalue()


def test_quick_registration_finds_exactly_the_hooks_pluggy_finds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The manager's quick "no" for a module's plain values (``parse_hookimpl_opts``) finds
    the same hook implementations, with the same options, as pluggy's own lookup, and asks
    that slow lookup about the functions only."""
    import types

    import pluggy

    from tether.hookspecs import PROJECT_NAME

    pm = create_plugin_manager(environ={"TETHER_LOAD_PLUGINS": ""})
    plain = pluggy.PluginManager(PROJECT_NAME)
    modules = [p for p in pm.get_plugins() if isinstance(p, types.ModuleType)]
    pairs = [(module, name) for module in modules for name in dir(module)]
    quick = [pm.parse_hookimpl_opts(module, name) for module, name in pairs]
    assert quick == [plain.parse_hookimpl_opts(module, name) for module, name in pairs]
    assert sum(opts is not None for opts in quick) > 50  # the built-ins' hooks are found

    asked: list[str] = []
    monkeypatch.setattr(
        pluggy.PluginManager, "parse_hookimpl_opts", lambda self, plugin, name: asked.append(name)
    )
    for module, name in pairs:
        pm.parse_hookimpl_opts(module, name)
    assert len(asked) < len(pairs) / 2
