"""The lease never writes through what stands at its lock path (issue 22, item 1).

A symlink (to a file, or dangling), a FIFO, a folder or a hard link at ``FILE.lock`` (or at a
SQLite database's ``<db>.lease-<id>.lock``) is refused in one line; the file it names is left
byte for byte, no target is created, and release never removes what is not our lock file.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.lease_helpers import tether
from tether.builtin_plugins.storage.jsonl.files.lease import SessionLease
from tether.core.base.errors import SessionFileError

VICTIM = b"precious bytes\n\x00not json at all\n"


def _symlink_to_file(lock: Path) -> Path:
    victim = lock.parent / "victim.txt"
    victim.write_bytes(VICTIM)
    lock.symlink_to(victim.name)
    return victim


def _dangling_symlink(lock: Path) -> Path:
    target = lock.parent / "created-by-nobody.txt"
    lock.symlink_to(target.name)
    return target


def _hard_link(lock: Path) -> Path:
    victim = lock.parent / "victim.txt"
    victim.write_bytes(VICTIM)
    os.link(victim, lock)
    return victim


def _fifo(lock: Path) -> Path:
    os.mkfifo(lock)
    return lock


def _folder(lock: Path) -> Path:
    lock.mkdir()
    return lock


KINDS: dict[str, tuple[Callable[[Path], Path], str]] = {
    "symlink": (_symlink_to_file, "not a regular file (a symlink)"),
    "dangling": (_dangling_symlink, "not a regular file (a symlink)"),
    "hardlink": (_hard_link, "not a lock file of tether's (a file with 2 hard links)"),
    "fifo": (_fifo, "not a regular file (a FIFO)"),
    "folder": (_folder, "not a regular file (a directory)"),
}


def _check_untouched(kind: str, lock: Path, thing: Path) -> None:
    if kind == "dangling":
        assert not os.path.lexists(thing), "a dangling link's target was created"
        assert os.readlink(lock) == thing.name
    elif kind in ("symlink", "hardlink"):
        assert thing.read_bytes() == VICTIM
        assert os.path.islink(lock) == (kind == "symlink")
        assert lock.read_bytes() == VICTIM  # the link (or the second name) is still there
    else:
        assert os.path.lexists(lock)


def _sqlite_lease(tmp_path: Path) -> tuple[Path, Callable[[], object]]:
    from tether.builtin_plugins.storage.sqlite.database import SqliteDatabase

    database = SqliteDatabase(f"sqlite:///{tmp_path}/s.db")  # four slashes: absolute
    lock = tmp_path / "s.db.lease-0193abcd.lock"
    return lock, lambda: database.lease("0193abcd")


def _jsonl_lease(tmp_path: Path) -> tuple[Path, Callable[[], object]]:
    file = tmp_path / "s.jsonl"
    return tmp_path / "s.jsonl.lock", lambda: SessionLease(file).acquire()


@pytest.mark.parametrize("store", ["jsonl", "sqlite"])
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_lock_path_that_is_not_our_file_is_refused_and_left_alone(
    tmp_path: Path, store: str, kind: str
) -> None:
    lock, take = (_jsonl_lease if store == "jsonl" else _sqlite_lease)(tmp_path)
    make, expected = KINDS[kind]
    thing = make(lock)
    with pytest.raises(SessionFileError) as caught:
        take()
    message = str(caught.value)
    assert message.startswith(f"{lock}: {expected}; refusing to use it as the lock of ")
    assert "\n" not in message
    _check_untouched(kind, lock, thing)


def test_release_never_removes_a_link_put_in_place_of_the_lock_file(tmp_path: Path) -> None:
    lease = SessionLease(tmp_path / "s.jsonl").acquire()
    lock = tmp_path / "s.jsonl.lock"
    victim = tmp_path / "victim.txt"
    victim.write_bytes(VICTIM)
    swapped = tmp_path / "swap"
    swapped.symlink_to(victim.name)
    os.replace(swapped, lock)  # someone swaps the lock file for a link while it is held
    lease.release()
    assert os.path.islink(lock) and victim.read_bytes() == VICTIM


def test_our_own_stale_lock_file_is_reused_and_removed(tmp_path: Path) -> None:
    lock = tmp_path / "s.jsonl.lock"
    lock.write_bytes(b'{"pid": 999999999, "command": "tether run", "since": 1}\n')
    with SessionLease(tmp_path / "s.jsonl").acquire():
        assert b'"pid": %d' % os.getpid() in lock.read_bytes()
    assert not os.path.lexists(lock)


def test_run_refuses_a_symlinked_lock_file_in_one_line(tmp_path: Path) -> None:
    lock = tmp_path / "s.jsonl.lock"
    victim = _symlink_to_file(lock)
    file = tmp_path / "s.jsonl"
    done = tether(tmp_path, "run", "--session", str(file), "--provider", "faux", "hi")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        f"tether: error: {lock}: not a regular file (a symlink); refusing to use it as the lock "
        f"of {tmp_path / 's.jsonl'} (nothing was changed; remove it if it is stale)\n"
    )
    assert victim.read_bytes() == VICTIM and os.path.islink(lock)
    assert not (tmp_path / "s.jsonl").exists()


RACE = """
import math, sys
from tether.builtin_plugins.storage.jsonl.files.lease import SessionLease
for _ in range(300):
    SessionLease(sys.argv[1]).acquire(math.inf).release()
"""


def test_a_lock_file_removed_while_being_opened_is_not_refused(tmp_path: Path) -> None:
    """A releaser unlinks the lock file between another's open and fstat: that file has no
    link left (it is ours, just gone) and the acquirer retries instead of refusing it."""
    import subprocess
    import sys

    from tests.store_helpers import ROOT

    file = str(tmp_path / "s.jsonl")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    racers = [
        subprocess.Popen([sys.executable, "-c", RACE, file], env=env, stderr=subprocess.PIPE)
        for _ in range(4)
    ]
    errors = [racer.communicate(timeout=120)[1] for racer in racers]
    assert [racer.returncode for racer in racers] == [0] * 4, errors
    assert not os.path.lexists(tmp_path / "s.jsonl.lock")
