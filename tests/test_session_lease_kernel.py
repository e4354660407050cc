"""One writer per session (design §8.15), for library users: the harness holds the lease of
its session (a new one too), the lease is re-entrant and safe against the removal race, and an
append on a file that grew since it was read (a writer that took no lease) is refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.lease_helpers import (
    assert_clean,
    lease_elsewhere,
    lock_path,
    run_args,
    session_file,
    tether,
    tether_env,
)
from tests.store_helpers import ROOT, assistant_message
from tether.core.base.errors import SessionFileError
from tether.core.session.session import Session

# -- library use: the harness holds the lease --------------------------------------------------


def _harness(tmp_path: Path, session: Session, monkeypatch: pytest.MonkeyPatch) -> Any:
    from tests.harness_helpers import plugin_manager, use_home
    from tether.core.base.settings import load_settings
    from tether.core.harness.harness import Harness

    home = use_home(tmp_path / "home", monkeypatch)
    settings = load_settings(tmp_path, home=home)
    harness = Harness(plugin_manager(), session, settings=settings, model="faux/faux-1")
    return harness.start()


def test_a_harness_holds_the_lease_of_its_session(tmp_path, monkeypatch) -> None:
    file = session_file(tmp_path)
    harness = _harness(tmp_path, Session.open(file), monkeypatch)
    try:
        other = tether(tmp_path, "session", "compact", str(file), "--summarizer", "offline")
        assert other.returncode == 1
        assert f"{file}: in use by pid {os.getpid()} (" in other.stderr
        assert lease_elsewhere(file).startswith(f"{file}: in use by pid {os.getpid()} (")
    finally:
        harness.close()
    assert not lock_path(file).exists()
    compact = ["session", "compact", str(file), "--summarizer", "offline", "--keep", "10"]
    assert tether(tmp_path, *compact).returncode == 0


def test_a_new_session_is_leased_once_it_has_a_path(tmp_path, monkeypatch) -> None:
    session = Session.create(str(tmp_path), tmp_path / "sessions")
    file = session.file
    assert file is not None and not file.exists()
    harness = _harness(tmp_path, session, monkeypatch)
    try:
        assert lease_elsewhere(file).startswith(f"{file}: in use by pid {os.getpid()}")
        harness.prompt("hello")
        assert file.exists()
        assert lease_elsewhere(file).startswith(f"{file}: in use by pid {os.getpid()}")
    finally:
        harness.close()
    assert lease_elsewhere(file) == "ok"


# -- a writer that ignores the lease: the append is refused, not forked ------------------------


def test_an_append_on_a_file_that_grew_since_it_was_read_is_refused(tmp_path: Path) -> None:
    file = session_file(tmp_path)
    session = Session.open(file)
    foreign = {"type": "custom", "id": "f0f0f0f0", "parentId": session.leaf_id}
    foreign |= {"timestamp": "2026-01-01T00:00:00.000Z", "customType": "pi.other"}
    with file.open("a") as handle:  # pi (which takes no lease) appended meanwhile
        handle.write(json.dumps(foreign) + "\n")
    grown = file.read_bytes()
    with pytest.raises(SessionFileError) as refused:
        session.append_message(assistant_message("on a stale leaf"))
    assert str(refused.value).startswith(f"{file}: another writer appended 1 entry (")
    assert file.read_bytes() == grown  # nothing written
    reopened = Session.open(file)  # what a writer must do: read again, then append
    reopened.append_message(assistant_message("after reading again"))
    assert reopened.get_branch()[-2]["id"] == "f0f0f0f0"


def test_a_run_refuses_to_write_after_another_writer_appended(tmp_path: Path) -> None:
    file = session_file(tmp_path)
    line = json.dumps(
        {"type": "custom", "id": "f0f0f0f0", "parentId": None, "customType": "pi.other"}
        | {"timestamp": "2026-01-01T00:00:00.000Z"}
    )
    call = {"name": "bash", "arguments": {"command": f"echo '{line}' >> {file}"}}
    env = tether_env(tmp_path)
    env["TETHER_FAUX_SCRIPT"] = json.dumps([{"toolCalls": [call]}, "done"])
    result = subprocess.run(
        [sys.executable, "-m", "tether", *run_args(file, "go")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"tether: error: {file}: cannot save the session: another writer appended 1 entry "
        f"({len(line) + 1} bytes) since this process read it; not appending, so the session "
        "is not split; reopen the session to continue"
    ]
    assert file.read_text().endswith(line + "\n")  # the tool result was not forked onto it
    assert_clean(file)


def test_lease_is_reentrant_in_one_process_and_removes_its_lock_file(tmp_path: Path) -> None:
    from tether.builtin_plugins.storage.jsonl.files.lease import SessionLease

    file = tmp_path / "s.jsonl"
    outer = SessionLease(file).acquire()
    inner = SessionLease(file).acquire()
    outer.release()
    assert lease_elsewhere(file).startswith(f"{file}: in use by pid {os.getpid()}")
    inner.release()
    assert not lock_path(file).exists()
    assert lease_elsewhere(file) == "ok"


def test_a_lock_file_removed_between_open_and_lock_is_not_trusted(tmp_path, monkeypatch) -> None:
    """The release/removal race: this process opens the lock file, its holder releases (and
    removes it), a third process creates a new one and locks it; this process's flock on the
    removed file then succeeds, but must not count as holding the lease."""
    from tether.builtin_plugins.storage.jsonl.files import lease as lease_module

    file = tmp_path / "s.jsonl"
    lock = lock_path(file)
    code = (
        "import sys\nfrom tether.builtin_plugins.storage.jsonl.files.lease import SessionLease\n"
        "SessionLease(sys.argv[1], command='the third').acquire()\n"
        "print('held', flush=True)\nsys.stdin.read()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    third: list[subprocess.Popen[str]] = []
    real_flock = lease_module.fcntl.flock

    def flock_after_the_race(fd: int, operation: int) -> None:
        if not third:  # our fd is open on the old file: it goes, a new holder comes
            lock.unlink()
            proc = subprocess.Popen(
                [sys.executable, "-c", code, str(file)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env=env,
            )
            third.append(proc)
            assert proc.stdout is not None and proc.stdout.readline() == "held\n"
        real_flock(fd, operation)

    lock.write_text("")  # left behind by an earlier holder
    monkeypatch.setattr(lease_module.fcntl, "flock", flock_after_the_race)
    try:
        with pytest.raises(SessionFileError, match=r"in use by pid \d+ \(the third\)"):
            lease_module.SessionLease(file).acquire()
    finally:
        for proc in third:
            proc.communicate("", timeout=30)
