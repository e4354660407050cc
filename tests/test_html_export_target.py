"""Where ``tether session export FILE --html`` writes: without ``-o`` next to FILE (as the
JSONL export does), never into the current folder; ``-o -`` streams the page (or the JSONL
export) to stdout."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.store_helpers import run_tether
from tests.tree_fixture import build_branched
from tether.builtin_plugins.commands.session.html_export import render_html
from tether.core.session.session import Session


@pytest.fixture
def source(tmp_path: Path) -> Path:
    (tmp_path / "sessions").mkdir()
    file = tmp_path / "sessions" / "branched.jsonl"
    build_branched(file)
    (tmp_path / "elsewhere").mkdir()
    return file


def test_without_output_the_page_goes_next_to_the_source(
    source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    from tether.core.cli.app import main
    from tether.core.host.manager import create_plugin_manager

    elsewhere = tmp_path / "elsewhere"
    monkeypatch.chdir(elsewhere)
    code = main(["session", "export", str(source), "--html"], pm=create_plugin_manager())
    out, err = capsys.readouterr()
    page = source.with_suffix(".html")
    assert (code, err, out) == (0, "", f"{page}\n")
    assert list(elsewhere.iterdir()) == []
    assert page.read_text(encoding="utf-8") == render_html(Session.open(source, readonly=True))


def test_dash_streams_the_page_to_stdout(source: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    before = sorted(p.name for p in source.parent.iterdir())
    done = run_tether("session", "export", str(source), "--html", "-o", "-", cwd=elsewhere)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == render_html(Session.open(source, readonly=True))
    assert list(elsewhere.iterdir()) == []
    assert sorted(p.name for p in source.parent.iterdir()) == before


def test_dash_streams_the_jsonl_export_to_stdout(
    source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    from tether.core.cli.app import main
    from tether.core.host.manager import create_plugin_manager

    elsewhere = tmp_path / "elsewhere"
    monkeypatch.chdir(elsewhere)
    code = main(["session", "export", str(source), "-o", "-"], pm=create_plugin_manager())
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert list(elsewhere.iterdir()) == [] and sorted(p.name for p in source.parent.iterdir()) == [
        source.name
    ]  # no file named '-', nothing left beside the source
    streamed = tmp_path / "streamed.jsonl"
    streamed.write_text(out, encoding="utf-8")
    exported, original = Session.open(streamed, readonly=True), Session.open(source, readonly=True)
    assert exported.header["parentSession"] == str(source.resolve())
    assert [e["id"] for e in exported.entries()] == original.branch_ids()
