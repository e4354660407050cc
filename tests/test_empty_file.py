"""An existing empty (0-byte or whitespace-only) session file, one rule for every command.

Commands that read a session refuse it with one line ``FILE: empty file (no session header)``
and exit 1, never touching it; writers (``run --session``, ``chat --session``) start a new
session in it (the header first), as pi does.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.harness_helpers import plugin_manager
from tests.lease_helpers import tether, tether_env
from tether.core.cli.app import main

READERS = [
    ("session", "show"),
    ("session", "tree"),
    ("session", "context"),
    ("session", "context", "--json"),
    ("session", "estimate"),
    ("session", "prepare"),
    ("session", "compact", "--summarizer", "offline"),
    ("session", "branch", "--to", "abc"),
    ("session", "export"),
    ("session", "clone"),
    ("session", "fork", "--before", "abc"),
    ("session", "repair"),
]
EMPTY = [b"", b"  \n\n", b"\xef\xbb\xbf\n"]


@pytest.mark.parametrize("content", EMPTY, ids=["0-byte", "whitespace", "bom"])
@pytest.mark.parametrize("command", READERS, ids=[" ".join(c) for c in READERS])
def test_readers_refuse_an_empty_file(
    command: tuple[str, ...], content: bytes, tmp_path: Path, monkeypatch, capsys
):
    path = tmp_path / "empty.jsonl"
    path.write_bytes(content)
    args = [*command[:2], str(path), *command[2:]]
    if command == READERS[0]:  # a real process; the others call the CLI in this one
        result = tether(tmp_path, *args)
        code, out, err = result.returncode, result.stdout, result.stderr
    else:
        for name, value in tether_env(tmp_path).items():
            monkeypatch.setenv(name, value)
        monkeypatch.delenv("TETHER_DEBUG", raising=False)
        monkeypatch.chdir(tmp_path)
        capsys.readouterr()
        code = main(args, pm=plugin_manager())
        out, err = capsys.readouterr()
    assert code == 1, (out, err)
    assert out == ""
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if line.startswith("tether:")]
    assert errors == [f"tether: error: {path}: empty file (no session header)"], err
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "home") in (
        ["empty.jsonl"],
        ["empty.jsonl", "empty.jsonl.lock"],  # the lease of a writing command
    )


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_bytes().split(b"\n") if line.strip()]


def _roles(records: list[dict]) -> list[str]:
    return [r["message"]["role"] for r in records if r["type"] == "message"]


@pytest.mark.parametrize("content", EMPTY[:2], ids=["0-byte", "whitespace"])
def test_run_starts_a_new_session_in_an_empty_file(content: bytes, tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_bytes(content)
    result = tether(tmp_path, "run", "--provider", "faux", "--session", str(path), "hi")
    assert result.returncode == 0, result.stderr
    records = _records(path)
    assert records[0]["type"] == "session" and records[0]["version"] == 3
    assert [r["type"] for r in records].count("session") == 1
    assert _roles(records) == ["user", "assistant"]
    assert not path.read_bytes().startswith(b"\n")
    shown = tether(tmp_path, "session", "show", str(path))
    assert shown.returncode == 0, shown.stderr


def test_chat_starts_a_new_session_in_an_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"\n")
    result = subprocess.run(
        [sys.executable, "-m", "tether", "chat", "--provider", "faux", "--session", str(path)],
        cwd=tmp_path,
        env=tether_env(tmp_path),
        input="hello\n/quit\n",
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0, result.stderr
    assert "You said: hello" in result.stdout
    records = _records(path)
    assert records[0]["type"] == "session"
    assert [r["type"] for r in records].count("session") == 1
    assert _roles(records) == ["user", "assistant"]
