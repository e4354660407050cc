"""``tether session import`` of a v1 file: the in-memory migration keeps entries only, so each
line it drops (NUL bytes, broken JSON, a torn last line) is a warning naming file and line."""

from __future__ import annotations

import json
from pathlib import Path

from tests.store_helpers import run_tether


def _v1_line(text: str, second: int) -> str:
    message = {"role": "user", "content": text, "timestamp": second}
    return json.dumps(
        {"type": "message", "timestamp": f"2026-01-01T00:00:0{second}.000Z", "message": message}
    )


def test_dropped_lines_are_named(tmp_path: Path) -> None:
    header = {"type": "session", "id": "v1s", "timestamp": "2026-01-01T00:00:00.000Z", "cwd": "/"}
    file = tmp_path / "v1.jsonl"
    lines = [json.dumps(header), _v1_line("one", 1), "\0" * 8, _v1_line("two", 2), '{"type":']
    file.write_text("\n".join([*lines, _v1_line("three", 3), '{"type":"mess']))  # torn last line
    before = file.read_bytes()
    store = ["--store", f"sqlite:///{tmp_path / 'db.sqlite'}"]
    env = {"TETHER_HOME": str(tmp_path / "home"), "TETHER_FSYNC": "0"}
    done = run_tether(*store, "session", "import", str(file), env=env, cwd=tmp_path)
    assert done.returncode == 0 and done.stdout == f"{file} → v1s\n"
    warned = done.stderr.splitlines()
    assert [w.split(": ")[2] for w in warned] == [f"{file}:3", f"{file}:5", f"{file}:7"]
    assert all(w.startswith("tether: warning: ") for w in warned)
    assert all(w.endswith("; dropped by the v1→v3 migration") for w in warned)
    assert "a torn last line (no newline)" in warned[2]
    assert file.read_bytes() == before  # the source is not rewritten
    shown = run_tether(*store, "session", "show", "v1s", "--json", env=env, cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["entryCount"] == 3
