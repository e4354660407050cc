""" "Nothing to compact" because every message fits in ``--keep N``: the refusal names the
budget N and labels the context's size as the whole context's (it read "fits in the kept
recent tokens (5003 tokens)" with N = 1000, the context's usage quoted as the kept span)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

USAGE = {"input": 5000, "output": 3, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 5003}


def _entry(entry_id: str, parent: str | None, message: dict[str, Any]) -> dict[str, Any]:
    stamp = "2026-01-01T00:00:01.000Z"
    return {
        "type": "message",
        "id": entry_id,
        "parentId": parent,
        "timestamp": stamp,
        "message": message,
    }


@pytest.fixture
def small(tmp_path: Path) -> Path:
    """A user prompt and an answer whose usage (the system prompt and tools too) is 5003."""
    header = {
        "type": "session",
        "version": 3,
        "id": "s1",
        "timestamp": "2026-01-01T00:00:00.000Z",
        "cwd": "/",
    }
    answer = {
        "role": "assistant",
        "content": [{"type": "text", "text": "hello"}],
        "api": "openai-completions",
        "provider": "loop",
        "model": "m",
        "usage": {
            **USAGE,
            "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0},
        },
        "stopReason": "stop",
        "timestamp": 2,
    }
    rows = [
        header,
        _entry("u1", None, {"role": "user", "content": "hi", "timestamp": 1}),
        _entry("a1", "u1", answer),
    ]
    file = tmp_path / "small.jsonl"
    file.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return file


REASON = (
    "Nothing to compact: the messages since the start fit in the 1000 recent tokens kept "
    "verbatim (keepRecentTokens); the whole context is 5003 tokens"
)


def _cli(capsys: Any, *args: str) -> tuple[int, str, str]:
    from tether.core.cli.app import main
    from tether.core.host.manager import create_plugin_manager

    code = main(list(args), pm=create_plugin_manager())
    out, err = capsys.readouterr()
    return code, out, err


def test_prepare_names_the_budget(
    small: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TETHER_HOME", str(small.parent / "home"))
    code, out, err = _cli(capsys, "session", "prepare", str(small), "--keep", "1000", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["reason"] == REASON and report["tokensBefore"] == 5003


def test_compact_names_the_budget(
    small: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TETHER_HOME", str(small.parent / "home"))
    monkeypatch.setenv("TETHER_FSYNC", "0")
    before = small.read_bytes()
    args = ("session", "compact", str(small), "--keep", "1000", "--summarizer", "offline")
    code, out, err = _cli(capsys, *args)
    assert code == 0, err
    assert out == f"{small}: n{REASON[1:]}\n"
    assert small.read_bytes() == before
