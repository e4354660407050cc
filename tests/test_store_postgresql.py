"""PostgreSQL specifics on a real server: appends retried across a restart (the lease taken
again), appends whose outcome the broken connection hid, a server that stays away, the
streamed read. Whole turns across a restart: tests/test_store_pg_turns.py."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests.store_backends import Backend, make_backend
from tests.store_helpers import CORPUS, assistant_message, user_message

SAMPLE = next(p for p in CORPUS if p.stem == "g09-bash-exec")


@pytest.fixture
def pg(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    return make_backend(request, "postgresql", tmp_path / "store")


def texts(session: Any) -> list[str]:
    out = []
    for entry in session.entries():
        message = entry.get("message") if entry.get("type") == "message" else None
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list) and content and isinstance(content[0], dict):
            out.append(str(content[0].get("text")))
    return out


@pytest.mark.parametrize("new_session", [False, True], ids=["existing", "new"])
def test_an_append_whose_commit_was_not_acknowledged_is_retried_and_written_once(
    pg: Backend, new_session: bool
) -> None:
    from tether.storage import StoreConnectionError

    if new_session:  # the first append writes the header too
        from tether.core.session.session import Session
        from tether.core.storage import records as rec

        header = rec.make_header(str(pg.folder))
        database = pg.database()
        session = Session(store=database.session_store(header["id"]), header=header)
        ref = header["id"]
    else:
        ref = pg.add(SAMPLE)
        session = pg.open(ref)
    store = session.store
    real = store.driver.append_lines
    calls = []

    def commit_then_lose_the_answer(*args: Any, **kwargs: Any) -> int:
        calls.append(args)
        real(*args, **kwargs)
        raise StoreConnectionError("the connection to the database was lost (simulated)")

    store.driver.append_lines = commit_then_lose_the_answer
    try:
        session.append_message(user_message("sent once"))
        session.append_message(assistant_message("answered once"))  # the first flush if new
    finally:
        store.driver.append_lines = real
    said = texts(pg.open(ref, readonly=True))
    assert said[-2:] == ["sent once", "answered once"]
    assert said.count("sent once") == 1 and said.count("answered once") == 1
    assert len(calls) == (1 if new_session else 2)  # the retries saw the commits


def test_a_restart_between_appends_is_retried_and_the_lease_taken_again(
    pg: Backend, pg_cluster: Any
) -> None:
    import psycopg

    from tether.builtin_plugins.storage.postgresql.database import lease_key

    ref = pg.add(SAMPLE)
    session = pg.open(ref)
    lease = session.store.lease()
    try:
        session.append_message(user_message("before"))
        pg_cluster.restart()  # the server forgets the lease with its connection
        session.append_message(assistant_message("after"))
        with psycopg.connect(pg.uri, autocommit=True) as other:
            took = other.execute("SELECT pg_try_advisory_lock(%s)", (lease_key(ref),)).fetchone()
            holder = other.execute("SELECT pid FROM tether_leases WHERE session_id = %s", (ref,))
            assert took == (False,) and holder.fetchone() == (os.getpid(),)
    finally:
        lease.release()
    said = texts(pg.open(ref, readonly=True))
    assert said[-2:] == ["before", "after"] and said.count("after") == 1


def test_a_writer_that_took_the_lease_while_the_server_was_away_stops_the_append(
    pg: Backend, pg_cluster: Any
) -> None:
    import psycopg

    from tether.builtin_plugins.storage.postgresql.database import lease_key
    from tether.core.base.errors import SessionChangedError

    ref = pg.add(SAMPLE)
    session = pg.open(ref)
    lease = session.store.lease()
    try:
        session.append_message(user_message("before"))
        pg_cluster.restart()
        with psycopg.connect(pg.uri, autocommit=True) as other:
            other.execute("SELECT pg_advisory_lock(%s)", (lease_key(ref),))
            with pytest.raises(SessionChangedError, match="took the session while the conn"):
                session.append_message(assistant_message("not written"))
    finally:
        lease.release()
    assert "not written" not in texts(pg.open(ref, readonly=True))


def test_a_server_that_stays_away_ends_the_append_then_the_next_settles_it_once(
    pg: Backend, pg_cluster: Any
) -> None:
    # The commit of "committed" is not acknowledged and the server stops: the retries fail
    # for reconnect_seconds, then one error. The next append (the same entry and one more)
    # finds the first committed and writes only the second.
    from tether.storage import StoreConnectionError

    ref = pg.add(SAMPLE)
    session = pg.open(ref)
    store = session.store
    store.driver._reconnect_seconds = 0.6
    real = store.driver.append_lines

    def commit_then_stop(*args: Any, **kwargs: Any) -> int:
        real(*args, **kwargs)
        pg_cluster.server_stop()
        raise StoreConnectionError("the connection to the database was lost (simulated)")

    store.driver.append_lines = commit_then_stop
    try:
        started = time.monotonic()
        with pytest.raises(StoreConnectionError) as failed:
            session.append_message(user_message("committed"))
        assert 0.5 < time.monotonic() - started < 15
        store.driver.append_lines = real
        assert "did not answer for" in str(failed.value) and "Connection refused" in str(
            failed.value
        )
        assert session.persisted_count < len(session.table)  # in memory, not acknowledged
    finally:
        store.driver.append_lines = real
        pg_cluster.ensure_running()
    session.append_message(assistant_message("then this"))
    said = texts(pg.open(ref, readonly=True))
    assert said[-2:] == ["committed", "then this"] and said.count("committed") == 1


def test_loading_streams_the_lines_and_reads_only_the_snapshot(pg: Backend) -> None:
    # The lines come through one binary COPY on a thread while the scanner indexes them;
    # lines appended after the header row was read are not part of this read.
    from tether.builtin_plugins.storage.sql.database import join_session_bytes

    database = pg.database()
    ref = pg.add(SAMPLE)
    streamed = database.read_streamed(ref)
    assert streamed is not None and database.read_streamed("no-such-id") is None
    writer = pg.open(ref)
    writer.append_message(user_message("written meanwhile"))
    assert join_session_bytes(streamed) == SAMPLE.read_bytes()  # the chunks, taken now
    assert texts(pg.open(ref, readonly=True))[-1] == "written meanwhile"


def test_a_failed_streamed_read_is_one_error_where_the_chunks_are_taken() -> None:
    from tether.builtin_plugins.storage.postgresql.stream import Prefetched
    from tether.storage import StoreConnectionError

    def produce() -> Any:
        yield b"first"
        raise OSError("connection reset")

    chunks = Prefetched(produce, lambda exc: StoreConnectionError(f"db#s: lost ({exc})"))
    taken = []
    with pytest.raises(StoreConnectionError, match=r"^db#s: lost \(connection reset\)$"):
        for chunk in chunks:
            taken.append(chunk)
    assert taken == [b"first"]
