"""A full disk under a SQLite store says so in one line (issue 22, item 3).

The disk is filled the way a user's quota would: a file-size limit (``RLIMIT_FSIZE``, with
``SIGXFSZ`` ignored) on a real ``tether run``. SQLite ends the transaction itself on that
error; the rollback after it must not replace the error with ``cannot rollback - no
transaction is active``. The session keeps every line saved before.
"""

from __future__ import annotations

import re
import resource
import signal
import subprocess
import sys
from pathlib import Path

from tests.lease_helpers import tether_env
from tests.store_helpers import GEN
from tether.builtin_plugins.storage.sqlite.database import SqliteDatabase

LIMIT = 40_000  # below one WAL frame (64 KiB pages): the first page written fails


NO_BYTECODE = {"PYTHONDONTWRITEBYTECODE": "1"}  # a cut-short write would leave a bad cache


def _limited() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))


def test_a_full_disk_is_named_and_the_session_stays_whole(tmp_path: Path) -> None:
    uri = f"sqlite:///{tmp_path}/s.db"  # four slashes: absolute
    database = SqliteDatabase(uri)
    session_id = database.import_session((GEN / "g02-linear-text.jsonl").read_bytes(), "g02")
    before = database.read(session_id)
    database.close()  # the last connection: the WAL is checkpointed and removed
    assert before is not None

    done = subprocess.run(
        [sys.executable, "-m", "tether", "run", "go on", "--provider", "faux"]
        + ["--store", uri, "--session", session_id[:8]],
        cwd=tmp_path,
        env={**tether_env(tmp_path), **NO_BYTECODE},
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        preexec_fn=_limited,
    )
    assert done.returncode == 1, done.stderr
    assert done.stdout == ""
    pattern = (
        rf"tether: error: {re.escape(uri)}#{session_id}: cannot save the session: disk full: "
        rf"files may not grow past the file-size limit \(ulimit -f\) of {LIMIT} bytes "
        r"\(SQLite: [^)]+\); this append was not stored \(what was saved before is intact\)\n"
    )
    assert re.fullmatch(pattern, done.stderr), done.stderr
    assert "rollback" not in done.stderr

    after = SqliteDatabase(uri).read(session_id)
    assert after == before


def test_a_new_database_on_a_full_disk_is_one_line_and_left_no_file(tmp_path: Path) -> None:
    sample = GEN / "g02-linear-text.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "tether", "session", "import", str(sample)]
        + ["--store", "sqlite:///new.db"],
        cwd=tmp_path,
        env={**tether_env(tmp_path), **NO_BYTECODE},
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        preexec_fn=_limited,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(
        "tether: error: sqlite:///new.db#bc688778-2b49-7044-a5e3-41245c6e4337: cannot save the "
        f"session: cannot set up {tmp_path}/new.db: disk full: files may not grow past the "
        f"file-size limit (ulimit -f) of {LIMIT} bytes (SQLite: "
    ), done.stderr
    assert done.stderr.count("\n") == 1
    assert not list(tmp_path.glob("new.db*"))
