"""The runs of chunk indexes (:mod:`.chunk_runs`) in SQL, for both database
backends (a :class:`~.dialect.Dialect` names the tables and the parameter mark): written in
the append's transaction, read with the chunks after them, built for the chunks already stored
when a database is migrated to schema v4 (no hooks here)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tether.builtin_plugins.storage.sql import chunk_runs
from tether.builtin_plugins.storage.sql.chunk_runs import ChunkRow, StoredRun, covered_prefix
from tether.builtin_plugins.storage.sql.dialect import Dialect


def create_runs_table(tables: Dialect) -> list[str]:
    """The ``CREATE TABLE`` of the runs table (and how its runs are stored)."""
    create = tables.sql(
        "CREATE TABLE {r} (session_id TEXT NOT NULL, first_line INTEGER NOT NULL, "
        "last_line INTEGER NOT NULL, run {blob} NOT NULL, PRIMARY KEY (session_id, first_line))"
    )
    return [create, *tables.uncompressed("{r}", "run")]


Fetch = Callable[[str, Sequence[Any]], list[Any]]  # a query's rows
Run = Callable[[str, Sequence[Any]], Any]  # a statement without rows


def chunks_after(
    fetch: Fetch, tables: Dialect, session_id: str, after: int, upto: int
) -> list[Any]:
    """The chunk rows ``(first line, count, size, line index)`` of lines ``after``+1…``upto``."""
    return fetch(
        tables.sql(
            "SELECT first_line, line_count, {size}(raw), line_index FROM {e} "
            "WHERE session_id = ? AND first_line > ? AND first_line <= ? ORDER BY first_line"
        ),
        (session_id, after, upto),
    )


def read_runs(
    fetch: Fetch, tables: Dialect, session_id: str, upto: int
) -> tuple[list[StoredRun], int]:
    """The session's runs of lines up to ``upto`` that follow each other from line 1 on, and
    the last line they cover
    (:func:`~tether.builtin_plugins.storage.sql.chunk_runs.covered_prefix`)."""
    found = fetch(
        tables.sql(
            "SELECT first_line, last_line, run FROM {r} WHERE session_id = ? AND last_line <= ? "
            "ORDER BY first_line"
        ),
        (session_id, upto),
    )
    return covered_prefix([(int(f), int(last), bytes(run)) for f, last, run in found])


def add_runs(
    fetch: Fetch, run: Run, tables: Dialect, session_id: str, new: Sequence[ChunkRow]
) -> None:
    """After ``new`` chunks were inserted (in this transaction): the runs they complete."""
    if not new:
        return
    ((covered, chunks, lines),) = fetch(
        tables.sql(
            "SELECT c.e, count(p.first_line), coalesce(sum(p.line_count), 0) FROM (SELECT "
            "coalesce((SELECT last_line FROM {r} WHERE session_id = ? ORDER BY first_line DESC "
            "LIMIT 1), 0) AS e) c LEFT JOIN {e} p ON p.session_id = ? AND p.first_line > c.e "
            "GROUP BY c.e"
        ),
        (session_id, session_id),
    )
    if not chunk_runs.due(int(chunks), int(lines)):
        return
    older = chunks_after(fetch, tables, session_id, int(covered), new[0][0] - 1)
    pending = [(int(f), int(n), int(s), ix) for f, n, s, ix in older] + list(new)
    _insert(run, tables, session_id, chunk_runs.plan_runs(pending))


def _insert(run: Run, tables: Dialect, session_id: str, runs: list[StoredRun]) -> None:
    sql = tables.sql("INSERT INTO {r} (session_id, first_line, last_line, run) VALUES (?, ?, ?, ?)")
    for first, last, blob in runs:
        run(sql, (session_id, first, last, blob))


def build_all_runs(fetch: Fetch, run: Run, tables: Dialect) -> None:
    """Schema v4: the runs of every session's chunks already stored."""
    for (session_id,) in fetch(tables.sql("SELECT DISTINCT session_id FROM {e}"), ()):
        rows = chunks_after(fetch, tables, session_id, 0, 2**31 - 1)
        pending = [(int(f), int(n), int(s), ix) for f, n, s, ix in rows]
        _insert(run, tables, session_id, chunk_runs.plan_runs(pending))


__all__ = [
    "add_runs",
    "build_all_runs",
    "chunks_after",
    "create_runs_table",
    "read_runs",
]
