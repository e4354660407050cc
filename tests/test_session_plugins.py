"""A session opened without a plugin manager gets one of its own and keeps it: library calls
share no manager through a module-level global (one plugin manager per app or test)."""

from __future__ import annotations

from pathlib import Path

from tether.core.host.manager import create_plugin_manager
from tether.core.session.session import Session


def test_sessions_opened_without_a_manager_do_not_share_one(tmp_path: Path) -> None:
    first = Session.create(str(tmp_path), tmp_path / "s")
    second = Session.create(str(tmp_path), tmp_path / "s")
    assert first.plugins is not None and second.plugins is not None
    assert first.plugins is not second.plugins
    first.append_message({"role": "user", "content": "hi", "timestamp": 1})
    first.append_message(
        {"role": "assistant", "content": [{"type": "text", "text": "ok"}], "timestamp": 2}
    )
    reopened = Session.open(first.file)
    assert reopened.plugins is not None and reopened.plugins is not first.plugins


def test_a_session_keeps_the_manager_it_was_given(tmp_path: Path) -> None:
    pm = create_plugin_manager()
    session = Session.create(str(tmp_path), tmp_path / "s", plugins=pm)
    assert session.plugins is pm
