"""``tether session tree`` and chat's ``/tree`` as people read them: connectors where the
conversation branches, long runs folded, the active path and the leaf marked, labels and
summaries shown; colour only on a terminal (never with NO_COLOR or through a pipe)."""

from __future__ import annotations

import io
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_in_process import run_in_process
from tests.store_helpers import run_tether
from tests.tree_fixture import build_branched
from tether.builtin_plugins.commands.agent.chat import render_tree
from tether.core.session.session import Session

ESC = "\x1b["


@pytest.fixture
def branched(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    file = tmp_path / "branched.jsonl"
    return file, build_branched(file)


def _tree(
    file: Path, *args: str, env: dict[str, str | None] | None = None, process: bool = False
) -> list[str]:
    """``session tree ARGS FILE`` in this process, its stdout not a terminal; ``process``: in
    a real one, its stdout a pipe."""
    run = run_tether if process else run_in_process
    done = run("session", "tree", *args, str(file), env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def _entry_id(line: str) -> str:
    """The id a line shows (after the mark and the connectors; colour codes removed)."""
    plain = re.sub(r"\x1b\[[0-9;]*m", "", line)
    return plain[2:].lstrip("├└│─ ").split(" ")[0]


def _line_of(lines: list[str], entry_id: str) -> str:
    [line] = [line for line in lines if _entry_id(line) == entry_id]
    return line


def test_structure_connectors_folds_marks_labels(branched) -> None:
    file, ids = branched
    lines = _tree(file, env={"NO_COLOR": None, "FORCE_COLOR": None})
    # the first run (u1 a1 m1…m10 lbl): its first entry, the labelled m5, the last two
    assert _line_of(lines, ids["u1"]).startswith(f"> {ids['u1']} user: start the work")
    assert "[checkpoint]" in _line_of(lines, ids["m5"])
    folds = [line for line in lines if "entries …" in line]
    assert [line[2:] for line in folds] == [
        "… 5 entries …",
        "… 4 entries …",
        "   … 6 entries …",
    ]
    assert all(line.startswith(">") for line in folds)  # folded entries of the active path
    for hidden in ("a1", "m1", "m4", "m6", "m9", "y4", "y9"):
        assert not any(ids[hidden] in line for line in lines), hidden
    # the branch point's two children: the older branch off the path, the newer one on it
    assert _line_of(lines, ids["x1"]).startswith(f"  ├─ {ids['x1']} user: try the first idea")
    assert _line_of(lines, ids["x2"]).startswith(f"  │  {ids['x2']} assistant:")
    summary = _line_of(lines, ids["y0"])
    assert summary.startswith(f"> └─ {ids['y0']} branch_summary: explored the first idea")
    assert _line_of(lines, ids["y3"]).startswith(f">    {ids['y3']} compaction: ## Goal second")
    assert _line_of(lines, ids["y11"]).startswith(f"*    {ids['y11']} assistant: answer 11")
    assert [line[0] for line in lines].count("*") == 1
    assert len(lines) == len(ids) - (5 + 4 + 6) + 3  # entries - folded + fold lines


def test_full_shows_every_entry_in_order(branched) -> None:
    file, ids = branched
    lines = _tree(file, "--full")
    assert not any("entries …" in line for line in lines)
    shown = [_entry_id(line) for line in lines]
    assert shown == list(ids.values())  # pre-order: the run, the old branch, the new one


def test_no_colour_through_a_pipe_or_with_no_color(branched) -> None:
    file, _ = branched
    piped = _tree(file, env={"NO_COLOR": None, "FORCE_COLOR": None}, process=True)
    assert not any(ESC in line for line in piped)
    no_color = _tree(file, env={"NO_COLOR": "1", "FORCE_COLOR": "1"})
    assert not any(ESC in line for line in no_color)
    assert _tree(file, "--color", "never", env={"FORCE_COLOR": "1"}) == piped


def test_forced_colour(branched) -> None:
    file, ids = branched
    for lines in (
        _tree(file, "--color", "always", env={"NO_COLOR": None}),
        _tree(file, env={"FORCE_COLOR": "1", "NO_COLOR": None}),
    ):
        assert any(ESC in line for line in lines)
        leaf = _line_of(lines, ids["y11"])
        assert leaf.startswith(f"{ESC}1;33m*") and f"{ESC}1;33m{ids['y11']}" in leaf
        assert f"{ESC}36m[checkpoint]" in _line_of(lines, ids["m5"])


def test_colour_on_a_terminal_unless_no_color(branched) -> None:
    file, ids = branched

    def on_tty(no_color: str | None) -> str:
        main, child = pty.openpty()
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
        env["TERM"] = "xterm"
        if no_color:
            env["NO_COLOR"] = no_color
        done = subprocess.run(
            [sys.executable, "-m", "tether", "session", "tree", str(file)],
            stdout=child,
            stderr=subprocess.PIPE,
            env=env,
            timeout=60,
        )
        os.close(child)
        chunks = []
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        os.close(main)
        assert done.returncode == 0, done.stderr
        return b"".join(chunks).decode()

    assert ESC in on_tty(None) and ids["y11"] in on_tty(None)
    plain = on_tty("1")
    assert ESC not in plain and ids["y11"] in plain


def test_bad_colour_choice_is_one_line(branched) -> None:
    file, _ = branched
    done = run_tether("session", "tree", "--color", "sometimes", str(file))
    assert done.returncode != 0
    assert done.stderr.strip().splitlines() == [
        "tether: error: --color: expected auto, always or never, not 'sometimes'"
    ]


def test_chat_tree_uses_the_same_view(branched) -> None:
    file, ids = branched
    session = Session.open(file, readonly=True)
    shown = render_tree(session, stream=io.StringIO()).splitlines()
    assert shown == _tree(file, env={"NO_COLOR": None, "FORCE_COLOR": None})
    full = render_tree(session, full=True, stream=io.StringIO())
    assert all(entry_id in full for entry_id in ids.values())
