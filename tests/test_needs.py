"""The README's test command passes on a machine without chromium, node/npm or PostgreSQL: the
tests that need one skip with a one-line reason; under ``CI=true`` they fail instead
(tests/needs.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import needs
from tests.store_helpers import ROOT

# one test per tool: the browser, pi's npm package, the PostgreSQL cluster fixture
NEEDING = [
    "tests/test_html_export.py::test_page_in_a_real_browser",
    "tests/test_rpc_pi_client.py::test_pi_rpc_client_drives_tether",
    "tests/test_store_errors.py::test_postgresql_v1_database_is_migrated_to_v2_and_searchable",
]


def _pytest(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k != "CI" and not k.startswith("PYTEST_")}
    full.update(env)
    command = [sys.executable, "-m", "pytest", "-q", "-rsf", "-p", "no:cacheprovider"]
    command += ["-p", "no:xdist", "--basetemp", str(tmp_path / "bt"), *NEEDING]
    return subprocess.run(command, cwd=ROOT, env=full, capture_output=True, text=True, timeout=300)


def test_without_the_tools_the_suite_skips_their_tests_in_one_line_each(tmp_path: Path) -> None:
    done = _pytest(tmp_path, TETHER_TEST_WITHOUT="chromium,node,postgresql")
    assert done.returncode == 0, done.stdout[-2000:]
    lines = done.stdout.splitlines()
    assert lines[-1].startswith("3 skipped"), done.stdout[-2000:]
    skips = [line for line in lines if line.startswith("SKIPPED")]
    assert sorted(s.split(": ", 1)[1] for s in skips) == [
        "chromium missing: the HTML export is checked in it; apt-get install chromium",
        "initdb missing: the store tests start a PostgreSQL server; apt-get install postgresql",
        "node missing: pi's own code drives tether; install Node.js 20+ with npm",
    ]


def test_under_ci_a_missing_tool_fails_the_test(tmp_path: Path) -> None:
    done = _pytest(tmp_path, TETHER_TEST_WITHOUT="chromium,node,postgresql", CI="true")
    assert done.returncode == 1, done.stdout[-2000:]
    summary = done.stdout.splitlines()[-1]
    assert "1 failed" in summary and "2 errors" in summary and "skipped" not in summary
    assert done.stdout.count("(CI=true: the tools of the full suite are required)") >= 3


@pytest.mark.parametrize("ci", ["", "0", "false"])
def test_outside_ci_each_missing_tool_is_a_skip(monkeypatch, ci: str) -> None:
    monkeypatch.setenv("CI", ci)
    monkeypatch.setenv("TETHER_TEST_WITHOUT", " Chromium , node,postgresql")
    for need in (needs.chromium, needs.node, needs.postgresql):
        with pytest.raises(pytest.skip.Exception) as caught:
            need()
        assert "\n" not in str(caught.value) and " missing: " in str(caught.value)


@pytest.mark.parametrize("ci", ["true", "TRUE", "1", "yes"])
def test_under_ci_each_missing_tool_is_a_failure(monkeypatch, ci: str) -> None:
    monkeypatch.setenv("CI", ci)
    monkeypatch.setenv("TETHER_TEST_WITHOUT", "chromium,node,postgresql")
    for need in (needs.chromium, needs.node, needs.postgresql):
        with pytest.raises(pytest.fail.Exception, match="CI=true"):
            need()


def test_a_tool_missing_from_path_is_missing(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("TETHER_TEST_WITHOUT", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder
    monkeypatch.setattr(needs, "PG_BINDIRS", str(tmp_path / "no-postgresql" / "*" / "bin"))
    tools = {needs.chromium: "chromium", needs.node: "node", needs.postgresql: "initdb"}
    for need, tool in tools.items():
        with pytest.raises(pytest.skip.Exception, match=f"^{tool} missing: "):
            need()


def test_an_old_node_is_missing(monkeypatch, tmp_path: Path) -> None:
    for tool, text in (("node", "echo v18.20.4"), ("npm", "echo 9.2.0")):
        (tmp_path / tool).write_text(f"#!/bin/sh\n{text}\n")
        (tmp_path / tool).chmod(0o755)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("TETHER_TEST_WITHOUT", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(pytest.skip.Exception, match=r"^node 20\+ missing: found v18\.20\.4;"):
        needs.node()
