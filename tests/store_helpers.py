"""Shared helpers for the store/session tests (real files, real subprocesses)."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
GEN = FIXTURES / "pi" / "gen"
GOLDEN = FIXTURES / "pi" / "golden"
STORE_PI = FIXTURES / "store_pi"
CORPUS = sorted(GEN.glob("*.jsonl"))


def golden(name: str, command: str) -> dict[str, Any]:
    with gzip.open(GOLDEN / f"{name}.{command}.json.gz", "rt", encoding="utf-8") as handle:
        return json.load(handle)


def copy_fixture(name: str, folder: Path) -> Path:
    """A writable copy of a corpus file (opening for writing may migrate legacy files)."""
    target = folder / name
    shutil.copyfile(GEN / name, target)
    return target


def counter_ids() -> Any:
    """The oracle's id generator: ``00000001``, ``00000002``… (it patches ``randomUUID``)."""
    count = 0

    def next_id(used: set[str]) -> str:
        nonlocal count
        count += 1
        return f"{count:08x}"

    return next_id


def run_tether(
    *args: str,
    cwd: Path | None = None,
    env: Mapping[str, str | None] | None = None,
    stdin_text: str | None = None,
    timeout: float = 60,
) -> subprocess.CompletedProcess[str]:
    """``python -m tether ARGS`` in this environment without ``TETHER_DEBUG``, with ``env`` laid
    over it (``None`` unsets a variable); ``stdin_text`` is fed to stdin, else stdin is empty
    (``/dev/null``: print mode reads a piped stdin, and an inherited idle pipe would hold it)."""
    full_env = dict(os.environ)
    full_env.pop("TETHER_DEBUG", None)
    for name, value in (env or {}).items():
        if value is None:
            full_env.pop(name, None)
        else:
            full_env[name] = value
    return subprocess.run(
        [sys.executable, "-m", "tether", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        env=full_env,
        input=stdin_text,
        stdin=subprocess.DEVNULL if stdin_text is None else None,
        timeout=timeout,
    )


def user_message(text: str, ts: int = 1735689600000) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": ts}


def assistant_message(text: str, ts: int = 1735689601000) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": [{"type": "text", "text": text}],
        "api": "openai-completions",
        "provider": "fake",
        "model": "fake-a",
        "usage": {
            "input": 10,
            "output": 5,
            "cacheRead": 0,
            "cacheWrite": 0,
            "totalTokens": 15,
            "cost": {
                "input": 6e-05,
                "output": 0.0001,
                "cacheRead": 0,
                "cacheWrite": 0,
                "total": 0.00016,
            },
        },
        "stopReason": "stop",
        "timestamp": ts,
    }


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines()
