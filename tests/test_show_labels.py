"""``tether session show`` with many labels: one label a line, folded as ``session tree``
folds a long run (it printed 500 labels on one line); a few short ones stay on one line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

STAMP = "2026-01-01T00:00:01.000Z"


def _write(file: Path, labels: int) -> None:
    header = {"type": "session", "version": 3, "id": "s1", "timestamp": STAMP, "cwd": "/"}
    rows: list[dict[str, Any]] = [header]
    parent = None
    for i in range(labels):
        message = {"role": "user", "content": f"prompt {i}", "timestamp": 1}
        rows.append(
            {
                "type": "message",
                "id": f"m{i}",
                "parentId": parent,
                "timestamp": STAMP,
                "message": message,
            }
        )
        parent = f"m{i}"
    for i in range(labels):
        label = {"type": "label", "id": f"l{i}", "parentId": parent, "timestamp": STAMP}
        rows.append({**label, "targetId": f"m{i}", "label": f"mark {i}"})
        parent = f"l{i}"
    file.write_text("".join(json.dumps(r) + "\n" for r in rows))


def _show(file: Path, capsys: Any) -> list[str]:
    from tether.core.cli.app import main
    from tether.core.host.manager import create_plugin_manager

    code = main(["session", "show", str(file)], pm=create_plugin_manager())
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    return out.splitlines()


def test_many_labels_are_folded(tmp_path: Path, capsys: Any) -> None:
    file = tmp_path / "labels.jsonl"
    _write(file, 500)
    lines = _show(file, capsys)
    start = lines.index("labels:    500")
    assert lines[start + 1 : start + 7] == [
        "  m0=mark 0",
        "  m1=mark 1",
        "  m2=mark 2",
        "  … 495 labels (--json lists all) …",
        "  m498=mark 498",
        "  m499=mark 499",
    ]
    assert max(len(line) for line in lines if not line.startswith("file:")) <= 100  # a path


def test_a_few_labels_stay_on_one_line(tmp_path: Path, capsys: Any) -> None:
    file = tmp_path / "labels.jsonl"
    _write(file, 2)
    assert "labels:    m0=mark 0, m1=mark 1" in _show(file, capsys)
