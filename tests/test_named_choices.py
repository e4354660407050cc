"""Summarizers, token counters and compaction strategies are chosen by name (issue 8, item 4).

Real installed plugins (a dist-info on ``PYTHONPATH``) and real ``tether`` subprocesses: an
explicit choice (``--summarizer``, ``compaction.summarizer``…) always wins over an installed
plugin; a plugin becomes the default only by claiming it; an unknown name is one error line.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from tests.plugin_fakes import write_distribution
from tests.store_helpers import GEN, run_tether

SESSION = GEN / "g03-linear-tools.jsonl"
COMPACT = ("session", "compact", "session.jsonl", "--keep", "3000")

# A plugin written from the hook reference of tether before issue 8: it answers ``summarize``.
OLD_DOCS_SUMMARIZER = """
from tether.hookspecs import hookimpl
from tether.hookspecs.events import Summary

@hookimpl
def summarize(request):
    return Summary(text="## Goal\\nwritten by the old-style plugin", summarizer="old-style")
"""

# The same plugin written from today's reference: a summarizer by name that claims the default.
CLAIMING_SUMMARIZER = """
import tether

def summarize(request):
    return tether.Summary(text="## Goal\\nwritten by {name}", summarizer={name!r})

@tether.hookimpl
def register_summarizers(register):
    register({name!r}, summarize, default=True)
"""

COUNTER_PLUGIN = """
import tether

@tether.hookimpl
def register_token_counters(register):
    register("sevens", lambda messages, model: [7 for _ in messages])
"""


def _site(tmp_path: Path, plugins: dict[str, str]) -> Path:
    site = tmp_path / "site"
    for name, source in plugins.items():
        dist = f"tether-{name.replace('_', '-')}"
        write_distribution(site, dist, "0.1", {name: name}, {name: source})
    return site


def _tether(site: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        "PYTHONPATH": str(site),
        "TETHER_HOME": str(cwd / "home"),
        "TETHER_FSYNC": "0",
        "TETHER_LOAD_PLUGINS": ",".join(p.stem for p in site.glob("*.py")),  # only ours
        "TETHER_DISABLE_PLUGINS": None,
        "TETHER_TOKEN_COUNTER": None,
    }
    return run_tether(*args, cwd=cwd, env=env)


def _project(tmp_path: Path, settings: dict | None = None) -> Path:
    (tmp_path / "home").mkdir(parents=True, exist_ok=True)
    if settings is not None:
        (tmp_path / ".tether").mkdir(exist_ok=True)
        (tmp_path / ".tether" / "settings.json").write_text(json.dumps(settings))
    shutil.copyfile(SESSION, tmp_path / "session.jsonl")
    return tmp_path


def _last_entry(cwd: Path) -> dict:
    return json.loads((cwd / "session.jsonl").read_text(encoding="utf-8").splitlines()[-1])


def test_an_installed_summarize_plugin_never_overrides_summarizer_offline(tmp_path: Path) -> None:
    site = _site(tmp_path, {"old_style": OLD_DOCS_SUMMARIZER})
    cwd = _project(tmp_path)
    done = _tether(site, cwd, *COMPACT, "--summarizer", "offline")
    assert done.returncode == 0, done.stderr
    assert "(summarizer: offline)" in done.stdout, done.stdout
    entry = _last_entry(cwd)
    assert entry["type"] == "compaction" and "old-style plugin" not in entry["summary"]
    # the plugin was written for a hook that no longer exists: named, skipped, not fatal
    assert "old_style" in done.stderr and "summarize" in done.stderr


def test_a_default_claim_is_used_only_without_an_explicit_choice(tmp_path: Path) -> None:
    site = _site(tmp_path, {"claimer": CLAIMING_SUMMARIZER.format(name="claimer")})
    cwd = _project(tmp_path)
    claimed = _tether(site, cwd, *COMPACT)
    assert claimed.returncode == 0, claimed.stderr
    assert "(summarizer: claimer)" in claimed.stdout
    assert "written by claimer" in _last_entry(cwd)["summary"]

    for how in (["--summarizer", "offline"], []):
        cwd = _project(
            tmp_path / "again" / str(len(how)), {"compaction": {"summarizer": "offline"}}
        )
        done = _tether(site, cwd, *COMPACT, *how)
        assert done.returncode == 0, done.stderr
        assert "(summarizer: offline)" in done.stdout, (how, done.stdout)


def test_two_default_claims_warn_naming_both_and_pick_by_name(tmp_path: Path) -> None:
    site = _site(
        tmp_path,
        {
            "zeta": CLAIMING_SUMMARIZER.format(name="zeta"),
            "alpha": CLAIMING_SUMMARIZER.format(name="alpha"),
        },
    )
    cwd = _project(tmp_path)
    done = _tether(site, cwd, *COMPACT)
    assert done.returncode == 0, done.stderr
    assert "(summarizer: alpha)" in done.stdout
    warning = [line for line in done.stderr.splitlines() if "default" in line]
    assert len(warning) == 1 and "'alpha'" in warning[0] and "'zeta'" in warning[0], done.stderr


def test_an_unknown_name_is_one_error_line_listing_the_registered_names(tmp_path: Path) -> None:
    site = _site(tmp_path, {"counter": COUNTER_PLUGIN})
    cwd = _project(tmp_path)
    before = (cwd / "session.jsonl").read_bytes()
    done = _tether(site, cwd, *COMPACT, "--summarizer", "nope")
    assert done.returncode != 0 and "Traceback" not in done.stderr
    (line,) = [ln for ln in done.stderr.splitlines() if ln.startswith("tether: error")]
    assert line.startswith("tether: error: ") and "'nope'" in line
    assert "llm" in line and "offline" in line
    assert (cwd / "session.jsonl").read_bytes() == before

    bad = _tether(site, cwd, "session", "estimate", "session.jsonl", "--counter", "nope")
    assert bad.returncode != 0 and "Traceback" not in bad.stderr
    (line,) = [ln for ln in bad.stderr.splitlines() if ln.startswith("tether: error")]
    assert "'nope'" in line and "sevens" in line and "tiktoken" in line


def test_a_counter_is_chosen_by_flag_or_setting_never_by_being_installed(tmp_path: Path) -> None:
    site = _site(tmp_path, {"counter": COUNTER_PLUGIN})
    cwd = _project(tmp_path)

    def tokens(*args: str) -> list[int | None]:
        done = _tether(site, cwd, "session", "estimate", "session.jsonl", "--json", *args)
        assert done.returncode == 0, done.stderr
        return [row["tokens"] for row in json.loads(done.stdout)["entries"] if row["tokens"]]

    assert set(tokens()) != {7}  # installed, not chosen: pi's chars/4
    assert set(tokens("--counter", "sevens")) == {7}
    _project(cwd, {"tokens": {"counter": "sevens"}})
    assert set(tokens()) == {7}


def test_plugins_lists_what_is_registered_and_what_is_chosen(tmp_path: Path) -> None:
    site = _site(
        tmp_path,
        {"claimer": CLAIMING_SUMMARIZER.format(name="claimer"), "counter": COUNTER_PLUGIN},
    )
    cwd = _project(tmp_path, {"tokens": {"counter": "sevens"}})
    done = _tether(site, cwd, "plugins", "--json")
    assert done.returncode == 0, done.stderr
    choices = json.loads(done.stdout)["choices"]
    summarizers = choices["summarizer"]
    assert {"name": "claimer", "plugin": "claimer", "default": True} in summarizers["registered"]
    assert {"name": "offline", "plugin": "offline_summarizer", "default": False} in summarizers[
        "registered"
    ]
    assert summarizers["chosen"] == {"name": "claimer", "plugin": "claimer", "why": "default-claim"}
    assert choices["counter"]["chosen"] == {"name": "sevens", "plugin": "counter", "why": "setting"}
    assert choices["strategy"]["chosen"] == {
        "name": "pi",
        "plugin": "compaction_strategy",
        "why": "built-in default",
    }
    text = _tether(site, cwd, "plugins")
    assert "summarizer: claimer (plugin claimer; default-claim)" in text.stdout, text.stdout
    assert "counter: sevens (plugin counter; setting)" in text.stdout


RULE = "llm when a model is known (compaction.model or the session's), else offline"


def test_plugins_states_the_summarizers_default_rule(tmp_path: Path) -> None:
    # without compaction.model the listing picks offline, but a session with a model uses llm
    site = _site(tmp_path, {"counter": COUNTER_PLUGIN})
    cwd = _project(tmp_path)
    done = _tether(site, cwd, "plugins", "--json")
    assert done.returncode == 0, done.stderr
    chosen = json.loads(done.stdout)["choices"]["summarizer"]["chosen"]
    assert chosen == {
        "name": "offline",
        "plugin": "offline_summarizer",
        "why": "built-in default",
        "rule": RULE,
    }
    text = _tether(site, cwd, "plugins").stdout
    line = "summarizer: offline (plugin offline_summarizer; built-in default: " + RULE + ")"
    assert line in text.splitlines(), text


FAULTY_PLUGIN = """
import tether

def broken_count(messages, model):
    raise ValueError("the tokenizer fell over")

def short_count(messages, model):
    return [1]

def not_a_summary(request):
    return "just a string"

@tether.hookimpl
def register_token_counters(register):
    register("broken", broken_count)
    register("short", short_count)

@tether.hookimpl
def register_summarizers(register):
    register("stringly", not_a_summary)

@tether.hookimpl
def register_compaction_strategies(register):
    register("half", lambda request: None)
    raise RuntimeError("strategies plugin broke halfway")
"""


def test_a_failing_counter_summarizer_or_registration_names_its_plugin(tmp_path: Path) -> None:
    site = _site(tmp_path, {"faulty": FAULTY_PLUGIN})
    cwd = _project(tmp_path)
    before = (cwd / "session.jsonl").read_bytes()

    def error(*args: str) -> str:
        done = _tether(site, cwd, *args)
        assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
        (line,) = [ln for ln in done.stderr.splitlines() if ln.startswith("tether: error")]
        return line

    # blamed on the counter's plugin, not on the strategy that asked for the counts
    line = error("session", "prepare", "session.jsonl", "--counter", "broken")
    assert "plugin 'faulty' failed in counter 'broken'" in line and "fell over" in line
    assert "compaction_strategy" not in line
    line = error("session", "estimate", "session.jsonl", "--counter", "short")
    assert "plugin 'faulty'" in line and "counter 'short' returned 1 counts" in line
    line = error(*COMPACT, "--summarizer", "stringly")
    assert "plugin 'faulty'" in line and "'stringly' returned str, not a Summary" in line
    assert (cwd / "session.jsonl").read_bytes() == before

    # a raise in register_compaction_strategies drops only that plugin's strategies
    listed = _tether(site, cwd, "plugins", "--json")
    assert listed.returncode == 0, listed.stderr
    assert "'faulty' failed in register_compaction_strategies" in listed.stderr
    strategies = json.loads(listed.stdout)["choices"]["strategy"]["registered"]
    assert [s["name"] for s in strategies] == ["pi"]
    counters = json.loads(listed.stdout)["choices"]["counter"]["registered"]
    assert {"broken", "short"} <= {c["name"] for c in counters}
