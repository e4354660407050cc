"""What a few tests need from the machine beyond ``pip``: Debian's ``chromium`` (the HTML export
in a real browser), ``node`` and ``npm`` (pi's own code, installed by ``npm ci`` into
tests/.node) and PostgreSQL's ``initdb``/``pg_ctl`` (a throwaway server).

Where one is missing, the test skips with one line saying what to install. Under ``CI=true``
(``.ci/run`` sets it) it fails instead, so CI stays strict. ``TETHER_TEST_WITHOUT=chromium,node,
postgresql`` treats the named tools as missing: a way out of the 204 MB ``npm ci``, and how the
skips themselves are tested."""

from __future__ import annotations

import glob
import importlib.util
import os
import shutil
import subprocess
from pathlib import Path

import pytest

TOOLS = ("chromium", "node", "postgresql")
NODE_MAJOR = 20  # pi 0.73.1's "engines"
PG_BINDIRS = "/usr/lib/postgresql/*/bin"  # Debian's layout; PATH is searched after it


def strict() -> bool:
    """True under ``CI=true`` (or 1/yes): a missing tool fails the test instead of skipping it."""
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def _left_out(tool: str) -> bool:
    named = os.environ.get("TETHER_TEST_WITHOUT", "")
    return tool in {part.strip().lower() for part in named.split(",")}


def missing(tool: str, why: str) -> None:
    """Skip the current test (fail it under ``CI=true``) with one line: what and why."""
    line = f"{tool} missing: {why}"
    if strict():
        pytest.fail(f"{line} (CI=true: the tools of the full suite are required)", pytrace=False)
    else:
        pytest.skip(line)


def chromium() -> str:
    """The browser to drive with playwright (Debian's ``chromium``; playwright downloads none)."""
    found = None if _left_out("chromium") else shutil.which("chromium")
    if found is None:
        missing("chromium", "the HTML export is checked in it; apt-get install chromium")
    if importlib.util.find_spec("playwright") is None:
        missing("playwright", "it drives the browser; pip install -e '.[dev]'")
    return str(found)


def node() -> None:
    """``node`` (>= 20) and ``npm``: pi's npm package runs in the tests that drive tether with
    pi's own code."""
    for tool in ("node", "npm"):
        if _left_out("node") or shutil.which(tool) is None:
            missing(tool, "pi's own code drives tether; install Node.js 20+ with npm")
    done = subprocess.run(["node", "--version"], capture_output=True, text=True, timeout=60)
    version = done.stdout.strip()
    if not version.startswith("v") or int(version[1:].split(".")[0]) < NODE_MAJOR:
        missing(f"node {NODE_MAJOR}+", f"found {version or 'no version'}; pi's package needs it")


def postgresql() -> Path:
    """The folder of ``initdb`` and ``pg_ctl``, and the ``psycopg`` driver."""
    found = sorted(glob.glob(PG_BINDIRS))
    initdb = shutil.which("initdb")
    if _left_out("postgresql") or not (found or initdb):
        missing("initdb", "the store tests start a PostgreSQL server; apt-get install postgresql")
    if importlib.util.find_spec("psycopg") is None:
        missing("psycopg", "the PostgreSQL store's driver; pip install -e '.[postgres]'")
    return Path(found[-1]) if found else Path(str(initdb)).parent


__all__ = ["TOOLS", "chromium", "missing", "node", "postgresql", "strict"]
