"""Database sessions load from the line index stored with each chunk (schema v3) and give the
same entry table as scanning the session's bytes: on every corpus file and on odd lines (those
chunks get no index and are scanned); a v2 database is migrated and loads the same; a missing or
damaged index falls back to scanning its chunk; a context fetches only the lines it needs."""

from __future__ import annotations

import json
import sqlite3
import struct
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.store_backends import DATABASES, Backend, make_backend
from tests.store_helpers import CORPUS
from tether.builtin_plugins.storage.jsonl.scan.scanner import scan_bytes
from tether.builtin_plugins.storage.sql import database as database_module
from tether.builtin_plugins.storage.sql.chunk_index import HEAD_SIZE, MAGIC
from tether.builtin_plugins.storage.sql.chunk_runs import decode_run
from tether.core.storage.entry_table import StaleRow

SCANNED = {"e35-legacy-v1", "e37-malformed-lines"}  # migrated keys in another order; bad lines
STAMP = "2026-01-02T03:04:05.000Z"


def header(session_id: str) -> str:
    record = {"type": "session", "version": 3, "id": session_id, "timestamp": STAMP, "cwd": "/p"}
    return json.dumps(record, separators=(",", ":"))


HEADER = header("odd-lines")


def line(entry_id: str, parent: str | None, text: str = "hi", role: str = "user") -> str:
    message = {"role": role, "content": [{"type": "text", "text": text}], "timestamp": 1}
    record = {"type": "message", "id": entry_id, "parentId": parent, "timestamp": STAMP}
    return json.dumps({**record, "message": message}, separators=(",", ":"), ensure_ascii=False)


ODD_LINES = [  # each is something the scanner's fast path does not take as it is
    "",  # blank
    '{"type":"message","id":"torn',  # malformed
    '{"type":"mess' + line("glued", "p1"),  # a torn write glued to a complete record
    HEADER,  # a second header
    '{"id":"order","type":"message","parentId":"p1","timestamp":"' + STAMP + '"}',
    '{"type":"message","id":"badref","parentId":5,"timestamp":"' + STAMP + '"}',
    '{"type":7,"id":"numtype","parentId":null,"timestamp":"' + STAMP + '"}',
    '{"type":"message","id":"late","parentId":"p2","timestamp":"' + STAMP + '","message":[}',
    line("crlf", "p2") + "\r",
    line("quote", "p2", role='odd"role'),
]
PLAIN_BUT_ODD = [  # indexed all the same: what the scanner makes of them is in the index
    '{"type":"custom","customType":"x","data":{"a":1},"id":"cu","parentId":"p2","timestamp":"'
    + STAMP
    + '"}',
    '{"type":"message","id":"rolelast","parentId":"p2","timestamp":"'
    + STAMP
    + '","message":{"content":"x","role":"assistant"}}',  # its role is read by parsing it
    line("p1", "p2"),  # a duplicate id
    line("badutf", "p2").replace("hi", "\udcff", 1),  # not UTF-8 in its text
]


def odd_sessions(folder: Path) -> list[Path]:
    """Plain lines around each odd line, one file each; and one ending without a newline."""
    files = []
    for number, odd in enumerate(ODD_LINES + PLAIN_BUT_ODD):
        lines = [header(f"odd-{number}"), line("p1", None), line("p2", "p1", "ünï"), odd]
        lines.append(line("p3", "p2"))
        text = "\n".join(lines) + "\n"
        path = folder / f"odd{number:02d}.jsonl"
        path.write_bytes(text.encode("utf-8", "surrogateescape"))
        files.append(path)
    path = folder / "unterminated.jsonl"
    path.write_text("\n".join([header("unterminated"), line("p1", None), line("p2", "p1")]))
    return [*files, path]


def settle(compute: Callable[[], Any]) -> Any:
    """``compute()`` again after each line found malformed on parsing (as the reader does)."""
    while True:
        try:
            return compute()
        except StaleRow:
            continue


def table_facts(header: Any, table: Any) -> dict[str, Any]:
    """Everything a reader can learn from a loaded table, roles first (the index holds them)."""
    rows = lambda: range(len(table))  # noqa: E731 - rows change when a line is dropped
    roles = settle(lambda: [table.role(r) for r in rows()])
    stamps = settle(lambda: [table.stamp(r) for r in rows()])
    entries = settle(lambda: table.entries(list(rows())))
    return {
        "header": header,
        "ids": list(table.ids),
        "parents": [repr(p) for p in table.parents],
        "types": list(table.types),
        "linenos": list(table.linenos),
        "by_id": dict(table.by_id),
        "duplicates": dict(table.duplicates),
        "problems": [(p.line, p.kind, p.message) for p in table.problems],
        "roles": roles,
        "stamps": stamps,
        "entries": entries,
    }


def scanned_facts(data: bytes) -> dict[str, Any]:
    scanned = scan_bytes(data)
    return table_facts(scanned.header, scanned.table)


def every_chunk(indexed: Any) -> list[tuple[int, int, int, bool]]:
    """Every chunk of a ``read_index`` (those of its stored runs too): ``(first line, line
    count, size, whether it has an index)``."""
    out = []
    for first, last, blob in indexed.runs:
        run = decode_run(blob, first, last)
        assert run is not None
        spanned = {i for start, stop, _ in run.spans for i in range(start, stop)}
        out += [(*chunk[:3], i in spanned) for i, chunk in enumerate(run.chunks)]
    return out + [(*chunk[:3], chunk[3] is not None) for chunk in indexed.chunks]


def loaded(backend: Backend, ref: str) -> Any:
    return backend.database().session_store(ref).load(readonly=True)


def stored_bytes(backend: Backend, ref: str) -> bytes:
    from tether.builtin_plugins.storage.sql.database import join_session_bytes

    return join_session_bytes(backend.database().read(ref))


@pytest.fixture(params=DATABASES)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    return make_backend(request, request.param, tmp_path / "store")


@pytest.mark.parametrize("chunk_bytes", [8 << 20, 700])
def test_the_index_and_the_scan_agree_on_every_fixture(
    backend: Backend, chunk_bytes: int, monkeypatch: Any
) -> None:
    monkeypatch.setattr(database_module, "CHUNK_BYTES", chunk_bytes)
    for path in CORPUS:
        ref = backend.add(path)
        data = stored_bytes(backend, ref)
        indexed = backend.database().read_index(ref)
        assert indexed is not None
        if path.stem not in SCANNED:  # every line plain: every chunk has its index
            assert all(c[3] for c in every_chunk(indexed)), path.name
        session = loaded(backend, ref)
        has_index = any(c[3] for c in every_chunk(indexed))
        assert (session.table.line_source is not None) == has_index, path.name
        assert table_facts(session.header, session.table) == scanned_facts(data), path.name


@pytest.mark.parametrize("chunk_bytes", [8 << 20, 300])
def test_chunks_with_odd_lines_have_no_index_and_are_scanned_the_same(
    backend: Backend, chunk_bytes: int, monkeypatch: Any, tmp_path: Path
) -> None:
    monkeypatch.setattr(database_module, "CHUNK_BYTES", chunk_bytes)
    for path in odd_sessions(tmp_path):
        ref = backend.add(path)
        data = stored_bytes(backend, ref)
        assert data == path.read_bytes()
        chunks = backend.database().read_index(ref).chunks
        if chunk_bytes == 300 and path.stem != "unterminated":  # about one line per chunk
            assert chunks[0][3] is not None and chunks[-1][3] is not None
            odd = int(path.stem[3:]) < len(ODD_LINES)
            assert sum(c[3] is None for c in chunks) == odd, path.name
        session = loaded(backend, ref)
        assert table_facts(session.header, session.table) == scanned_facts(data), path.name


def counting_reads(backend: Backend, monkeypatch: Any) -> list[tuple[int, int, int]]:
    """The ranges the backend's database is asked for from now on."""
    database = backend.database()
    fetched: list[tuple[int, int, int]] = []
    read_ranges = database.read_ranges

    def counting(session_id: str, ranges: Any) -> Any:
        fetched.extend(ranges)
        return read_ranges(session_id, ranges)

    monkeypatch.setattr(database, "read_ranges", counting)
    return fetched


def assert_only_scanned(
    backend: Backend, monkeypatch: Any, ref: str, victim: Any, data: bytes
) -> None:
    """Loading ``ref`` fetches the ``victim`` chunk whole (it is scanned), nothing else, and
    gives the table a scan of ``data`` gives."""
    fetched = counting_reads(backend, monkeypatch)
    session = loaded(backend, ref)
    assert fetched == [(victim[0], 0, victim[2] + 1)]  # scanned: the others are not read
    assert table_facts(session.header, session.table) == scanned_facts(data)


def damage(backend: Backend, ref: str, first_line: int, change: Callable[[bytes], Any]) -> None:
    """Replace the stored index of one chunk by ``change(index)``, behind tether's back."""
    assert backend.uri is not None
    if backend.name == "sqlite":
        with sqlite3.connect(backend.uri.split("://", 1)[1]) as db:
            (index,) = db.execute(
                "SELECT line_index FROM entries WHERE session_id = ? AND first_line = ?",
                (ref, first_line),
            ).fetchone()
            db.execute(
                "UPDATE entries SET line_index = ? WHERE session_id = ? AND first_line = ?",
                (change(bytes(index)), ref, first_line),
            )
        return
    import psycopg

    with psycopg.connect(backend.uri, autocommit=True) as conn:
        (index,) = conn.execute(
            "SELECT line_index FROM tether_entries WHERE session_id = %s AND first_line = %s",
            (ref, first_line),
        ).fetchone()
        conn.execute(
            "UPDATE tether_entries SET line_index = %s WHERE session_id = %s AND first_line = %s",
            (change(bytes(index)), ref, first_line),
        )


def rewritten(index: bytes, body: bytes, extra_lines: int = 0) -> bytes:
    """An index with a new body and a CRC that matches it (what damage the CRC cannot see)."""
    magic, count, _ = struct.unpack_from("<4sII", index)
    return struct.pack("<4sII", magic, count + extra_lines, zlib.crc32(body)) + body


DAMAGE: dict[str, Callable[[bytes], Any]] = {
    "missing": lambda index: None,
    "flipped byte": lambda index: index[:40] + bytes([index[40] ^ 1]) + index[41:],
    "truncated": lambda index: index[: len(index) // 2],
    "another magic": lambda index: index.replace(MAGIC, b"TIX9", 1),
    "intact but wrong": lambda index: rewritten(index, index[HEAD_SIZE:].replace(b"\x1f", b"", 1)),
    "another line count": lambda index: rewritten(index, index[HEAD_SIZE:], extra_lines=1),
    "empty": lambda index: b"",
}


@pytest.mark.parametrize("how", sorted(DAMAGE))
def test_a_missing_or_damaged_index_falls_back_to_scanning_its_chunk(
    backend: Backend, how: str, monkeypatch: Any
) -> None:
    monkeypatch.setattr(database_module, "CHUNK_BYTES", 4000)
    sample = next(p for p in CORPUS if p.stem == "g16-branched")
    ref = backend.add(sample)
    data = stored_bytes(backend, ref)
    chunks = backend.database().read_index(ref).chunks
    assert len(chunks) > 3
    victim = chunks[len(chunks) // 2]
    damage(backend, ref, victim[0], DAMAGE[how])
    assert_only_scanned(backend, monkeypatch, ref, victim, data)


def test_lengths_that_do_not_add_up_fetch_the_whole_chunk(
    backend: Backend, monkeypatch: Any
) -> None:
    monkeypatch.setattr(database_module, "CHUNK_BYTES", 4000)
    sample = next(p for p in CORPUS if p.stem == "g16-branched")
    ref = backend.add(sample)
    data = stored_bytes(backend, ref)
    victim = backend.database().read_index(ref).chunks[2]

    def longer_first_line(index: bytes) -> bytes:
        length, rest = index[HEAD_SIZE:].split(b"\x1f", 1)
        return rewritten(index, str(int(length) + 1).encode() + b"\x1f" + rest)

    damage(backend, ref, victim[0], longer_first_line)
    fetched = counting_reads(backend, monkeypatch)
    session = loaded(backend, ref)
    assert fetched == []
    assert table_facts(session.header, session.table) == scanned_facts(data)
    assert (victim[0], 0, victim[2] + 1) in fetched


def downgrade_to_v2(backend: Backend) -> None:
    """What a v2 database holds: no line index column, no runs table, schema version 2."""
    assert backend.uri is not None
    if backend.name == "sqlite":
        with sqlite3.connect(backend.uri.split("://", 1)[1]) as db:
            db.execute("DROP TABLE index_runs")
            db.execute("ALTER TABLE entries DROP COLUMN line_index")
            db.execute("UPDATE tether_schema SET version = 2")
        return
    import psycopg

    with psycopg.connect(backend.uri, autocommit=True) as conn:
        conn.execute("DROP TABLE tether_index_runs")
        conn.execute("ALTER TABLE tether_entries DROP COLUMN line_index")
        conn.execute("UPDATE tether_schema SET version = 2")


def test_a_v2_database_is_migrated_to_v4_and_loads_the_same(
    backend: Backend, monkeypatch: Any, tmp_path: Path
) -> None:

    monkeypatch.setattr(database_module, "CHUNK_BYTES", 3000)
    files = [p for p in CORPUS if p.stem in ("g16-branched", "g21-compaction-multi")]
    files += odd_sessions(tmp_path)[:4]
    refs = {backend.add(path): path for path in files}
    expected = {ref: scanned_facts(stored_bytes(backend, ref)) for ref in refs}
    backend.database().close()
    backend.opened = None  # the next database() opens (and migrates) it again
    downgrade_to_v2(backend)

    database = backend.database()  # opening migrates
    if backend.name == "sqlite":
        version = database._db.execute("SELECT version FROM tether_schema").fetchone()[0]
    else:
        version = database._live().execute("SELECT version FROM tether_schema").fetchone()[0]
    assert version == 4
    for ref in refs:
        chunks = every_chunk(database.read_index(ref))
        if refs[ref] in CORPUS:  # plain lines: indexed by the migration
            assert len(chunks) > 3 and all(c[3] for c in chunks)
        session = loaded(backend, ref)
        assert table_facts(session.header, session.table) == expected[ref], refs[ref].name


def test_a_context_fetches_only_the_lines_it_needs(backend: Backend, monkeypatch: Any) -> None:
    from tether.core.context.build import build_session_context
    from tether.core.session.session import Session

    monkeypatch.setattr(database_module, "CHUNK_BYTES", 20_000)
    sample = next(p for p in CORPUS if p.stem == "g30-mixed-2k")
    ref = backend.add(sample)
    size = len(stored_bytes(backend, ref))
    database = backend.database()
    fetched: list[int] = []
    read_ranges = database.read_ranges

    def counting(session_id: str, ranges: Any) -> Any:
        fetched.extend(length for _, _, length in ranges)
        return read_ranges(session_id, ranges)

    monkeypatch.setattr(database, "read_ranges", counting)
    ours = backend.open(ref, readonly=True)
    assert fetched == []  # opening reads the indexes only
    messages = ours.stream_context(lambda stream: list(stream))
    assert 0 < sum(fetched) < size / 2
    theirs = Session.open(sample, readonly=True)
    assert messages == build_session_context(theirs.get_branch()).messages
    assert ours.get_branch() == theirs.get_branch()


def test_appends_store_the_index_of_what_they_write(backend: Backend) -> None:
    from tests.store_helpers import assistant_message, user_message

    ref = backend.add(next(p for p in CORPUS if p.stem == "g12-labels"))
    session = backend.open(ref)
    first = session.append_message(user_message("one more"))
    session.append_thinking_level_change("high")
    session.append_custom_entry("state", {"n": 1})
    session.append_label_change(first, "mark")
    session.append_message(assistant_message("and its answer"))
    session.flush()
    chunks = every_chunk(backend.database().read_index(ref))
    assert len(chunks) >= 3 and all(c[3] for c in chunks)
    again = loaded(backend, ref)
    assert table_facts(again.header, again.table) == scanned_facts(stored_bytes(backend, ref))
    assert again.table.types[-5:] == [
        "message",
        "thinking_level_change",
        "custom",
        "label",
        "message",
    ]
