"""A session of many small chunks (one per append, the live case) loads from runs of chunk
indexes (schema v4, :mod:`tether.builtin_plugins.storage.sql.chunk_runs`): the same table as
scanning its
bytes, whether written at import or append by append; a damaged or missing run gives way to its
chunks' own indexes, a damaged chunk index among them to scanning that chunk; a chunk changed
or gone behind tether's back is one clear error; a v3 database gets its runs when migrated."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.store_backends import DATABASES, Backend, make_backend
from tests.store_helpers import CORPUS, assistant_message, user_message
from tests.test_store_index import (
    DAMAGE,
    assert_only_scanned,
    counting_reads,
    damage,
    every_chunk,
    loaded,
    scanned_facts,
    stored_bytes,
    table_facts,
)
from tether.builtin_plugins.storage.sql import chunk_runs
from tether.builtin_plugins.storage.sql import database as database_module
from tether.builtin_plugins.storage.sql.chunk_index import HEAD_SIZE
from tether.storage import StoreError

RUN = 16  # chunks a run (256 in use): a small session makes several runs
SAMPLE = next(p for p in CORPUS if p.stem == "g16-branched")


@pytest.fixture(params=DATABASES)
def backend(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: Any) -> Backend:
    monkeypatch.setattr(database_module, "CHUNK_BYTES", 1)  # one chunk per line
    monkeypatch.setattr(chunk_runs, "RUN_CHUNKS", RUN)
    return make_backend(request, request.param, tmp_path / "store")


def sql(backend: Backend, statement: str, args: tuple[Any, ...] = ()) -> list[Any]:
    """``statement`` on the backend's database, behind tether's back (``?`` parameters)."""
    assert backend.uri is not None
    if backend.name == "sqlite":
        with sqlite3.connect(backend.uri.split("://", 1)[1]) as db:
            return db.execute(statement, args).fetchall()
    import psycopg

    statement = statement.replace("?", "%s").replace(" entries", " tether_entries")
    statement = statement.replace("index_runs", "tether_index_runs")
    with psycopg.connect(backend.uri, autocommit=True) as conn:
        cur = conn.execute(statement, args)  # type: ignore[arg-type]
        return cur.fetchall() if cur.description else []


def test_an_imported_session_of_one_chunk_per_line_loads_from_runs(backend: Backend) -> None:
    ref = backend.add(SAMPLE)
    data = stored_bytes(backend, ref)
    indexed = backend.database().read_index(ref)
    lines = data.count(b"\n") - 1
    assert len(indexed.runs) == lines // RUN and len(indexed.chunks) == lines % RUN
    assert [run[0] for run in indexed.runs] == [1 + RUN * k for k in range(lines // RUN)]
    assert all(chunk[3] for chunk in every_chunk(indexed))
    session = loaded(backend, ref)
    assert table_facts(session.header, session.table) == scanned_facts(data)


def test_appends_one_at_a_time_write_runs_and_load_the_same(backend: Backend) -> None:
    ref = backend.add(SAMPLE)
    session = backend.open(ref)
    for n in range(2 * RUN + 3):  # one append (one chunk) per entry, crossing two runs
        session.append_message(user_message(f"turn {n}"))
        session.append_message(assistant_message(f"answer {n}"))
    session.flush()
    data = stored_bytes(backend, ref)
    lines = data.count(b"\n") - 1
    indexed = backend.database().read_index(ref)
    assert len(indexed.runs) == lines // RUN and len(indexed.chunks) == lines % RUN
    again = loaded(backend, ref)
    assert table_facts(again.header, again.table) == scanned_facts(data)
    assert again.table.linenos[-1] == lines + 1


RUN_DAMAGE = {**DAMAGE, "gone": None}
RUN_DAMAGE["another magic"] = lambda run: run.replace(chunk_runs.MAGIC, b"TRN9", 1)
RUN_DAMAGE.pop("missing")  # the column is NOT NULL: a missing run is a gone row


@pytest.mark.parametrize("how", sorted(RUN_DAMAGE))
def test_a_damaged_run_gives_way_to_its_chunks_indexes(
    backend: Backend, how: str, monkeypatch: Any
) -> None:
    ref = backend.add(SAMPLE)
    data = stored_bytes(backend, ref)
    first, last, blob = backend.database().read_index(ref).runs[3]
    if how == "gone":
        sql(backend, "DELETE FROM index_runs WHERE session_id = ? AND first_line = ?", (ref, first))
    else:
        changed = RUN_DAMAGE[how](blob)  # type: ignore[misc]
        sql(
            backend,
            "UPDATE index_runs SET run = ? WHERE session_id = ? AND first_line = ?",
            (changed, ref, first),
        )
    fetched = counting_reads(backend, monkeypatch)
    session = loaded(backend, ref)
    assert fetched == []  # the chunks' own indexes: nothing scanned
    assert table_facts(session.header, session.table) == scanned_facts(data)


def test_a_damaged_chunk_index_under_a_damaged_run_scans_that_chunk(
    backend: Backend, monkeypatch: Any
) -> None:
    ref = backend.add(SAMPLE)
    data = stored_bytes(backend, ref)
    indexed = backend.database().read_index(ref)
    first, _, blob = indexed.runs[2]
    victim = next(c for c in every_chunk(indexed) if c[0] == first + RUN // 2)
    damage(backend, ref, victim[0], DAMAGE["flipped byte"])
    sql(
        backend,
        "UPDATE index_runs SET run = ? WHERE session_id = ? AND first_line = ?",
        (blob[:-1], ref, first),
    )
    assert_only_scanned(backend, monkeypatch, ref, victim, data)


def test_a_chunk_damaged_before_its_run_was_written_is_scanned(
    backend: Backend, monkeypatch: Any
) -> None:
    ref = backend.add(SAMPLE)
    session = backend.open(ref)
    tail = backend.database().read_index(ref).chunks
    assert 0 < len(tail) < RUN
    victim = tail[0]
    damage(backend, ref, victim[0], DAMAGE["truncated"])
    for n in range(RUN):
        session.append_message(user_message(f"turn {n}"))
    session.flush()
    data = stored_bytes(backend, ref)
    indexed = backend.database().read_index(ref)
    assert [c[3] for c in every_chunk(indexed) if c[0] == victim[0]] == [False]
    assert_only_scanned(backend, monkeypatch, ref, victim, data)


def test_a_session_without_a_last_newline_scans_its_last_chunk(
    backend: Backend, tmp_path: Path
) -> None:
    lines = SAMPLE.read_bytes().rstrip(b"\n").split(b"\n")[: 2 * RUN + 1]  # header + 2 runs
    source = tmp_path / "unterminated.jsonl"
    source.write_bytes(b"\n".join(lines))
    ref = backend.add(source)
    indexed = backend.database().read_index(ref)
    assert len(indexed.runs) == 2 and indexed.chunks == []
    data = stored_bytes(backend, ref)
    assert data == source.read_bytes()
    session = loaded(backend, ref)
    assert table_facts(session.header, session.table) == scanned_facts(data)


@pytest.mark.parametrize("change", ["longer", "shorter", "gone"])
def test_a_chunk_changed_or_gone_behind_tethers_back_is_one_clear_error(
    backend: Backend, change: str
) -> None:
    ref = backend.add(SAMPLE)
    session = loaded(backend, ref)
    table = session.table
    row = len(table) // 2
    line = table.linenos[row] - 1  # the header is line 1 of the file, entry lines count from 1
    where = (ref, line)
    if change == "gone":
        sql(backend, "DELETE FROM entries WHERE session_id = ? AND first_line = ?", where)
    else:
        (raw,) = sql(
            backend, "SELECT raw FROM entries WHERE session_id = ? AND first_line = ?", where
        )[0]
        raw = bytes(raw) + b" " if change == "longer" else bytes(raw)[:-1]
        sql(
            backend,
            "UPDATE entries SET raw = ? WHERE session_id = ? AND first_line = ?",
            (raw, *where),
        )
    with pytest.raises(StoreError, match="disagree with their index|are gone"):
        table.entries([row])


def test_a_v3_database_gets_its_runs_when_migrated(backend: Backend) -> None:
    ref = backend.add(SAMPLE)
    data = stored_bytes(backend, ref)
    expected = scanned_facts(data)
    backend.database().close()
    backend.opened = None  # the next database() opens (and migrates) it again
    sql(backend, "DROP TABLE index_runs")
    sql(backend, "UPDATE tether_schema SET version = 3")
    assert backend.database().read_index(ref).runs != []  # opening migrates
    assert sql(backend, "SELECT version FROM tether_schema") == [(4,)]
    session = loaded(backend, ref)
    assert table_facts(session.header, session.table) == expected


def test_run_bytes_round_trip_and_refuse_what_does_not_add_up() -> None:
    index = b"TIX2" + bytes(8)  # not intact: the chunk is kept without an index
    rows = [(1, 2, 10, None), (3, 1, 5, index)]
    blob = chunk_runs.encode_run(rows)
    decoded = chunk_runs.decode_run(blob, 1, 3)
    assert decoded is not None and decoded.spans == []
    assert decoded.chunks == [(1, 2, 10, None), (3, 1, 5, None)]
    assert chunk_runs.decode_run(blob, 2, 3) is None  # not the lines it is stored for
    assert chunk_runs.decode_run(blob, 1, 4) is None
    assert chunk_runs.decode_run(blob[:HEAD_SIZE], 1, 3) is None


def test_an_imported_session_of_large_chunks_loads_from_runs(
    backend: Backend, monkeypatch: Any
) -> None:
    monkeypatch.setattr(database_module, "CHUNK_BYTES", 4000)
    monkeypatch.setattr(chunk_runs, "RUN_LINES", 50)  # 4096 in use
    ref = backend.add(SAMPLE)
    data = stored_bytes(backend, ref)
    indexed = backend.database().read_index(ref)
    chunks = every_chunk(indexed)
    assert len(indexed.runs) >= 3 and len(chunks) > 2 * RUN
    assert all(last - first + 1 >= 50 for first, last, _ in indexed.runs)  # before RUN chunks
    assert sum(chunk[1] for chunk in indexed.chunks) < 50
    assert all(chunk[3] for chunk in chunks)
    session = loaded(backend, ref)
    assert table_facts(session.header, session.table) == scanned_facts(data)


def second_database(backend: Backend) -> Any:
    """Another handle on the backend's database (another connection, as another process)."""
    assert backend.uri is not None
    if backend.name == "sqlite":
        from tether.builtin_plugins.storage.sqlite.database import SqliteDatabase

        return SqliteDatabase(backend.uri)
    from tether.builtin_plugins.storage.postgresql.database import PostgresDatabase

    return PostgresDatabase(backend.uri)


def test_a_failed_append_writes_neither_its_chunks_nor_its_runs(
    backend: Backend, monkeypatch: Any
) -> None:
    ref = backend.add(SAMPLE)
    before = stored_bytes(backend, ref)
    runs_before = backend.database().read_index(ref).runs
    store = backend.database().session_store(ref)
    store.load()

    def broken(pending: Any) -> Any:
        raise RuntimeError("the disk went away")

    monkeypatch.setattr(chunk_runs, "plan_runs", broken)
    lines = [
        {
            "type": "custom",
            "customType": "n",
            "data": n,
            "id": f"x{n}",
            "parentId": None,
            "timestamp": "2026-01-02T03:04:05.000Z",
        }
        for n in range(RUN)
    ]
    with pytest.raises(RuntimeError):
        store.append(lines, header={}, header_written=True)
    assert stored_bytes(backend, ref) == before  # the chunks went with the run
    assert backend.database().read_index(ref).runs == runs_before
    monkeypatch.undo()
    monkeypatch.setattr(database_module, "CHUNK_BYTES", 1)
    monkeypatch.setattr(chunk_runs, "RUN_CHUNKS", RUN)
    store.append(lines, header={}, header_written=True)
    data = stored_bytes(backend, ref)
    assert len(backend.database().read_index(ref).runs) > len(runs_before)
    session = loaded(backend, ref)
    assert table_facts(session.header, session.table) == scanned_facts(data)


def test_two_writers_leave_runs_that_follow_each_other(backend: Backend) -> None:
    from tether.core.base.errors import SessionChangedError

    ref = backend.add(SAMPLE)
    first = backend.database().session_store(ref)
    second = second_database(backend).session_store(ref)
    first.load()
    second.load()
    line = {
        "type": "custom",
        "customType": "n",
        "data": 1,
        "parentId": None,
        "timestamp": "2026-01-02T03:04:05.000Z",
    }
    first.append([{**line, "id": f"a{n}"} for n in range(RUN)], header={}, header_written=True)
    with pytest.raises(SessionChangedError):  # it read before the other wrote: nothing written
        second.append([{**line, "id": "b0"}], header={}, header_written=True)
    second.load()
    for n in range(RUN):  # one chunk an append, crossing a run
        second.append([{**line, "id": f"b{n}"}], header={}, header_written=True)
    data = stored_bytes(backend, ref)
    indexed = backend.database().read_index(ref)
    lines = data.count(b"\n") - 1
    assert [run[0] for run in indexed.runs] == [1 + RUN * k for k in range(lines // RUN)]
    assert len(indexed.chunks) == lines % RUN
    session = loaded(backend, ref)
    assert table_facts(session.header, session.table) == scanned_facts(data)
