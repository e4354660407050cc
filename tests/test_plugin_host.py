"""The plugin host with real installed plugins: a name clash with a built-in, a raise in a
``register_*`` hook, plugins only from installed distributions, tracing. Every test runs the
real ``tether`` CLI in a subprocess with fake distributions on ``PYTHONPATH``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.plugin_fakes import (
    COUNTING_PLUGIN,
    GOOD_COMMANDS_PLUGIN,
    HALF_COMMANDS_PLUGIN,
    PROVIDERS_PLUGIN,
    TOOLS_PLUGIN,
    marker_plugin,
    write_distribution,
)
from tests.store_helpers import GEN, run_tether

CLEAN_ENV = {"TETHER_LOAD_PLUGINS": None, "TETHER_DISABLE_PLUGINS": None}


def _tether(
    site: Path | None, *args: str, cwd: Path | None = None, **env: str | None
) -> subprocess.CompletedProcess[str]:
    full: dict[str, str | None] = {**CLEAN_ENV, "TETHER_TRACE_PLUGINS": None, **env}
    full["PYTHONPATH"] = str(site) if site is not None else None
    return run_tether(*args, cwd=cwd, env=full)


def _warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("tether: warning:")]


def _rows(result: subprocess.CompletedProcess[str]) -> dict[str, dict]:
    assert result.returncode == 0, result.stderr
    return {(r["name"], r["distribution"]): r for r in json.loads(result.stdout)["plugins"]}


# -- a third-party plugin named like a built-in ----------------------------------------------


def _imposter_site(tmp_path: Path) -> tuple[Path, Path]:
    site, marker = tmp_path / "site", tmp_path / "imposter-imported"
    write_distribution(
        site,
        "tether-imposter",
        "2.0",
        {"tool_bash": "imposter_bash"},
        {"imposter_bash": marker_plugin(str(marker))},
    )
    return site, marker


def test_a_plugin_named_like_a_builtin_is_reported_once_and_skipped(tmp_path: Path) -> None:
    site, marker = _imposter_site(tmp_path)
    listed = _tether(site, "plugins", "--all", "--json")
    rows = _rows(listed)
    assert rows[("tool_bash", "tether")]["status"] == "loaded"  # the built-in stays
    assert rows[("tool_bash", "tether-imposter")]["status"] == "skipped"
    warnings = _warnings(listed.stderr)
    assert len(warnings) == 1 and listed.stderr.count("\n") == 1, listed.stderr
    assert "'tool_bash'" in warnings[0] and "tether-imposter" in warnings[0]
    assert "'tether'" in warnings[0] and "skipped" in warnings[0]
    assert not marker.exists(), "a skipped plugin must not be imported"
    # advice that works: blocking the name (--disable-plugin tool_bash) blocks the built-in too
    assert "--disable-plugin" not in warnings[0]
    assert (
        "pip uninstall tether-imposter" in warnings[0] and "rename its entry point" in warnings[0]
    )
    table = _tether(site, "plugins")
    assert table.returncode == 0, table.stderr
    [row] = [line.split() for line in table.stdout.splitlines() if "tether-imposter" in line]
    assert row[:4] == ["tool_bash", "skipped", "tether-imposter", "2.0"], row

    # every other command keeps working, with the built-in bash tool
    prompt = _tether(site, "prompt", cwd=tmp_path)
    assert prompt.returncode == 0 and "- bash: Run shell commands" in prompt.stdout
    assert len(_warnings(prompt.stderr)) == 1


def test_blocking_or_not_allowing_the_clashing_plugin_silences_the_warning(
    tmp_path: Path,
) -> None:
    site, marker = _imposter_site(tmp_path)
    for args, env in (
        (["--disable-plugin", "tool_bash"], {}),
        ([], {"TETHER_DISABLE_PLUGINS": "tool_bash"}),
        ([], {"TETHER_LOAD_PLUGINS": ""}),
    ):
        result = _tether(site, *args, "plugins", "--json", **env)
        assert result.returncode == 0 and result.stderr == "", (args, env, result.stderr)
        status = _rows(result)[("tool_bash", "tether-imposter")]["status"]
        assert status == ("not-allowed" if "TETHER_LOAD_PLUGINS" in env else "blocked")
    assert not marker.exists()


# -- a raise in a register_* hook ------------------------------------------------------------


def _one_warning(result: subprocess.CompletedProcess[str], plugin: str, hook: str) -> str:
    warnings = _warnings(result.stderr)
    assert len(warnings) == 1, result.stderr
    assert f"'{plugin}'" in warnings[0] and hook in warnings[0], warnings[0]
    assert "Traceback" not in result.stderr
    return warnings[0]


def test_a_raise_in_register_commands_drops_only_that_plugins_commands(tmp_path: Path) -> None:
    site = tmp_path / "site"
    write_distribution(
        site, "tether-half", "0.1", {"half_cmds": "half_cmds"}, {"half_cmds": HALF_COMMANDS_PLUGIN}
    )
    write_distribution(
        site, "tether-good", "0.1", {"good_cmds": "good_cmds"}, {"good_cmds": GOOD_COMMANDS_PLUGIN}
    )
    listed = _tether(site, "plugins")
    assert listed.returncode == 0, listed.stderr
    line = _one_warning(listed, "half_cmds", "register_commands")
    assert "broke halfway" in line
    assert "half_cmds" in listed.stdout and "register_commands" in listed.stdout

    helped = _tether(site, "--help")
    assert "good-one" in helped.stdout
    assert "half-done" not in helped.stdout and "halfgroup" not in helped.stdout
    session_help = _tether(site, "session", "--help")
    assert "half-session" not in session_help.stdout and "context" in session_help.stdout

    good = _tether(site, "good-one")
    assert (good.returncode, good.stdout) == (0, "good command ran\n")
    gone = _tether(site, "half-done")
    assert gone.returncode == 2 and "No such command" in gone.stderr


def test_a_raise_in_register_tools_drops_only_that_plugins_tools(tmp_path: Path) -> None:
    site = tmp_path / "site"
    failing = TOOLS_PLUGIN.format(name="halftool", tail='raise KeyError("tools broke")')
    working = TOOLS_PLUGIN.format(name="goodtool", tail="")
    write_distribution(
        site, "tether-half-tools", "0.1", {"half_tools": "half_tools"}, {"half_tools": failing}
    )
    write_distribution(
        site, "tether-good-tools", "0.1", {"good_tools": "good_tools"}, {"good_tools": working}
    )
    prompt = _tether(site, "prompt", cwd=tmp_path)
    assert prompt.returncode == 0, prompt.stderr
    _one_warning(prompt, "half_tools", "register_tools")
    assert "goodtool SNIPPET" in prompt.stdout and "- bash:" in prompt.stdout
    assert "halftool" not in prompt.stdout


def test_a_raise_in_register_providers_drops_only_that_plugins_providers(
    tmp_path: Path,
) -> None:
    site = tmp_path / "site"
    write_distribution(
        site, "tether-hijack", "0.1", {"hijack": "hijack"}, {"hijack": PROVIDERS_PLUGIN}
    )
    home = tmp_path / "home"
    home.mkdir()
    done = _tether(
        site, "run", "--no-session", "--provider", "faux", "hi", cwd=tmp_path, HOME=str(home)
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "You said: hi\n"  # the built-in faux adapter, not the dropped one
    assert "broke halfway" in _one_warning(done, "hijack", "register_providers")


# -- plugins only from installed distributions -----------------------------------------------


def test_python_m_tether_imports_nothing_from_a_dist_info_in_the_current_folder(
    tmp_path: Path,
) -> None:
    folder, marker = tmp_path / "project", tmp_path / "planted-imported"
    write_distribution(
        folder,
        "tether-planted",
        "6.6.6",
        {"planted": "planted_plugin"},
        {
            "planted_plugin": marker_plugin(str(marker), COUNTING_PLUGIN),
            "planted_egg": marker_plugin(str(marker), COUNTING_PLUGIN),
        },
    )
    (folder / "tether_planted-6.6.6.egg-info").mkdir()
    egg_entry_points = "[tether.plugins]\nplanted_egg = planted_egg\n"
    (folder / "tether_planted-6.6.6.egg-info" / "entry_points.txt").write_text(egg_entry_points)
    (folder / "tether_planted-6.6.6.egg-info" / "PKG-INFO").write_text(
        "Metadata-Version: 2.1\nName: tether-planted-egg\nVersion: 6.6.6\n"
    )
    here = _tether(None, "plugins", "--json", cwd=folder)
    names = {name for name, _ in _rows(here)}
    assert not names & {"planted", "planted_egg"}, names
    assert not marker.exists(), "python -m tether imported a plugin from the current folder"

    # the same folder installed on purpose (PYTHONPATH) is a real distribution
    chosen = _tether(folder, "plugins", "--json", cwd=tmp_path)
    assert {"planted", "planted_egg"} <= {name for name, _ in _rows(chosen)}
    assert marker.exists()


# -- tracing ---------------------------------------------------------------------------------


def _trace_lines(stderr: str, hook: str) -> list[str]:
    return [ln for ln in stderr.splitlines() if ln.startswith(f"[tether trace] {hook}")]


def _counter_site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    write_distribution(
        site,
        "tether-fake-counter",
        "1.2.3",
        {"fake_counter": "fake_counter"},
        {"fake_counter": COUNTING_PLUGIN},
    )
    return site


def test_tracing_covers_the_hooks_called_plugin_by_plugin(tmp_path: Path) -> None:
    site = _counter_site(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    run = _tether(
        site,
        "run",
        "--no-session",
        "--provider",
        "faux",
        "hi",
        cwd=tmp_path,
        HOME=str(home),
        TETHER_TRACE_PLUGINS="1",
    )
    assert run.returncode == 0, run.stderr
    for hook in (
        "register_commands",
        "register_tools",
        "register_providers",
        "system_prompt_sections",
        "before_agent_start",
    ):
        assert _trace_lines(run.stderr, hook), (hook, run.stderr)
    sections = _trace_lines(run.stderr, "system_prompt_sections(options) ->")[0]
    assert "prompt_sections" in sections


def test_tracing_lists_call_order_and_names_who_answered(tmp_path: Path) -> None:
    site = _counter_site(tmp_path)
    estimate = _tether(
        site,
        "session",
        "estimate",
        str(GEN / sorted(p.name for p in GEN.glob("*.jsonl"))[0]),
        TETHER_TRACE_PLUGINS="1",
    )
    assert estimate.returncode == 0, estimate.stderr
    called = _trace_lines(estimate.stderr, "register_token_counters(register) ->")[0]
    order = called.split("-> [", 1)[1].rstrip("]").split(", ")
    # registration hooks run built-ins first, then third-party plugins (the call order)
    assert order[-1] == "fake_counter" and "token_estimate" in order[:-1], called
    assert any(
        line == "[tether trace] counter 'sevens' chosen (default-claim): answered by fake_counter"
        for line in estimate.stderr.splitlines()
    ), estimate.stderr


def test_tether_hooks_lists_the_order_the_trace_shows(tmp_path: Path) -> None:
    site = tmp_path / "site"
    extra = TOOLS_PLUGIN.format(name="extratool", tail="")
    write_distribution(
        site, "tether-extra", "0.1", {"extra_tools": "extra_tools"}, {"extra_tools": extra}
    )
    home = tmp_path / "home"
    home.mkdir()
    for hook, args in (
        ("register_tools", ["run", "--no-session", "--provider", "faux", "hi"]),
        ("register_commands", ["plugins"]),
    ):
        run = _tether(site, *args, cwd=tmp_path, HOME=str(home), TETHER_TRACE_PLUGINS="1")
        assert run.returncode == 0, run.stderr
        traced = _trace_lines(run.stderr, f"{hook}(")[0].split("-> [", 1)[1].rstrip("]")
        listed = _tether(site, "hooks", "--json", hook, cwd=tmp_path, HOME=str(home))
        assert listed.returncode == 0, listed.stderr
        plugins = [i["plugin"] for i in json.loads(listed.stdout)["implementations"]]
        assert plugins == traced.split(", "), (hook, traced)
        if hook == "register_tools":  # built-ins first, so a plugin's tool replaces theirs
            assert plugins[0] == "tool_bash" and plugins[-1] == "extra_tools", plugins
