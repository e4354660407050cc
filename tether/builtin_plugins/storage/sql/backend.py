"""The session database both SQL backends are: :class:`SqlDatabase` reads, appends, lists and
resolves sessions in the tables a :class:`~.dialect.Dialect` names. A backend adds how it
connects, its transactions and errors, the ranges of lines it reads and its lease (no hooks
here).

An append (:meth:`SqlDatabase._append_rows`, in the backend's transaction) checks the line
count the writer last saw (the append-time check), inserts the lines with their line indexes
and runs, the listing row and the full-text rows: all or nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tether import SessionChangedError, SessionFileError
from tether.builtin_plugins.storage.sql.database import (
    IndexedSession,
    StoredSession,
    chunk_rows,
    fts_words,
    header_column,
    last_lines,
    summarize_lines,
)
from tether.builtin_plugins.storage.sql.db_store import DatabaseSessionStore
from tether.builtin_plugins.storage.sql.dialect import Dialect
from tether.builtin_plugins.storage.sql.index_runs import add_runs, chunks_after, read_runs
from tether.builtin_plugins.storage.sql.rows import (
    changed_message,
    created_message,
    import_session_bytes,
    pick_one,
    session_row,
)

Header = tuple[dict[str, Any], bytes]  # a new session's header: the record and its line
ROW_FIELDS = "id, cwd, created, modified, name, parent_session, message_count, first_message"


class SqlDatabase:
    """One database of sessions; a backend sets :attr:`dialect`, :attr:`uri` and
    :attr:`where` (the database as messages name it) and implements the methods that raise
    ``NotImplementedError`` here."""

    dialect: Dialect
    uri: str
    where: str

    @property
    def exists(self) -> bool:
        """Whether there is a database (reads of a missing one find nothing)."""
        return True

    def _fetch(self, sql: str, args: Sequence[Any]) -> list[Any]:
        """The rows of a query."""
        raise NotImplementedError

    def _blobs(self, sql: str, args: Sequence[Any]) -> list[Any]:
        """The rows of a query of byte columns."""
        return self._fetch(sql, args)

    def _snapshot(self, session_id: str, read: Callable[[Any], Any]) -> tuple[Any, Any] | None:
        """The session's header row (:meth:`_header`) and what ``read(header row)`` reads,
        both of one state of the session; ``None``: no such session."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.where!r})"

    # ---- one session ----------------------------------------------------------------------

    def session_store(self, session_id: str) -> DatabaseSessionStore:
        return DatabaseSessionStore(self, session_id)

    def _header(self, session_id: str) -> Any:
        """The session's header, whether it ends with a newline, its line count; or ``None``."""
        rows = self._blobs(
            self.dialect.sql("SELECT header, trailing_newline, line_count FROM {s} WHERE id = ?"),
            (session_id,),
        )
        return rows[0] if rows else None

    def read(self, session_id: str) -> StoredSession | None:
        if not self.exists:
            return None
        sql = self.dialect.sql(
            "SELECT raw FROM {e} WHERE session_id = ? AND first_line <= ? ORDER BY first_line"
        )
        found = self._snapshot(session_id, lambda row: self._blobs(sql, (session_id, row[2])))
        if found is None:
            return None
        row, chunks = found
        return StoredSession(
            bytes(row[0]), [bytes(c[0]) for c in chunks], int(row[2]), bool(row[1])
        )

    def read_index(self, session_id: str) -> IndexedSession | None:
        """The header, the runs of chunk indexes and the chunks after them; lines appended
        since the header row was read are not read (a stored chunk or run never changes)."""
        if not self.exists:
            return None
        d = self.dialect

        def chunks(row: Any) -> tuple[list[Any], list[Any]]:
            runs, covered = read_runs(self._blobs, d, session_id, int(row[2]))
            return runs, chunks_after(self._blobs, d, session_id, covered, int(row[2]))

        found = self._snapshot(session_id, chunks)
        if found is None:
            return None
        row, (runs, rows) = found
        return IndexedSession(bytes(row[0]), rows, int(row[2]), bool(row[1]), runs)

    def read_chunk_indexes(self, session_id: str, first: int, last: int) -> list[Any]:
        return chunks_after(self._blobs, self.dialect, session_id, first - 1, last)

    def count(self, session_id: str) -> int | None:
        if not self.exists:
            return None
        sql = self.dialect.sql("SELECT line_count FROM {s} WHERE id = ?")
        rows = self._fetch(sql, (session_id,))
        return int(rows[0][0]) if rows else None

    def tail(self, session_id: str, n: int) -> list[bytes]:
        """The last ``n`` lines (only the chunks that hold them are read)."""
        if not self.exists:
            return []
        rows = self._blobs(
            self.dialect.sql(
                "SELECT e.line_count, e.raw FROM {e} e JOIN {s} s ON s.id = e.session_id "
                "WHERE e.session_id = ? AND e.first_line + e.line_count > s.line_count - ? "
                "ORDER BY e.first_line DESC"
            ),
            (session_id, n),
        )
        return last_lines(((int(c), bytes(r)) for c, r in rows), n)

    def append_lines(
        self,
        session_id: str,
        header: Header | None,
        lines: Sequence[bytes],
        expected: int | None,
        *,
        trailing_newline: bool = True,
    ) -> int:
        """Append ``lines`` (``expected``: the line count the writer saw; ``None``: a new
        session with ``header``) in one transaction; the session's new line count."""
        return self._write(
            session_id,
            lambda cur: self._append_rows(
                cur, session_id, header, lines, expected, trailing_newline
            ),
        )

    def _write(self, session_id: str, write: Callable[[Any], int]) -> int:
        """``write(cursor)`` in one transaction of the backend, its errors as one line."""
        raise NotImplementedError

    def _append_rows(
        self,
        cur: Any,
        session_id: str,
        header: Header | None,
        lines: Sequence[bytes],
        expected: int | None,
        trailing: bool,
    ) -> int:
        """The append-time check, then the rows (see the module docstring)."""
        d, where = self.dialect, f"{self.where}#{session_id}"
        row = cur.execute(
            d.sql("SELECT line_count, first_message FROM {s} WHERE id = ?") + d.lock_row,
            (session_id,),
        ).fetchone()
        if expected is None:
            if row is not None:
                raise SessionChangedError(created_message(where))
            assert header is not None
            self._insert_session(cur, session_id, header)
            base, first = 0, ""
        else:
            if row is None:
                raise SessionFileError(
                    f"{where}: was removed after the session was read; not writing a "
                    "partial session (the entries are still in memory)"
                )
            base, first = int(row[0]), str(row[1])
            if base != expected:
                raise SessionChangedError(changed_message(where, expected, base))
        self._insert_lines(cur, session_id, base, lines, first, trailing)
        return base + len(lines)

    def _insert_session(self, cur: Any, session_id: str, header: Header) -> None:
        record, raw = header
        created = header_column(record, "timestamp") or ""
        cwd = header_column(record, "cwd") or ""
        parent = header_column(record, "parentSession")
        cur.execute(
            self.dialect.sql(
                "INSERT INTO {s} (id, cwd, created, modified, name, parent_session, header, "
                "line_count, message_count, first_message, trailing_newline) "
                "VALUES (?, ?, ?, ?, NULL, ?, ?, 0, 0, '', ?)"
            ),
            (session_id, cwd, created, created, parent, raw, True),
        )

    def _insert_lines(
        self, cur: Any, session_id: str, base: int, lines: Sequence[bytes], first: str, end: bool
    ) -> None:
        d = self.dialect
        rows = chunk_rows(lines, base)
        cur.executemany(
            d.sql(
                "INSERT INTO {e} (session_id, first_line, line_count, raw, line_index) "
                "VALUES (?, ?, ?, ?, ?)"
            ),
            [(session_id, *row) for row in rows],
        )
        new = [(first, count, len(raw), index) for first, count, raw, index in rows]
        add_runs(
            lambda sql, args: cur.execute(sql, args).fetchall(), cur.execute, d, session_id, new
        )
        summary = summarize_lines(lines, base, first)
        if summary.texts:
            cur.executemany(
                d.sql("INSERT INTO {t} (session_id, seq, text) VALUES (?, ?, ?)"),
                [(session_id, seq, text) for seq, text in summary.texts],
            )
        cur.execute(
            d.sql(
                "UPDATE {s} SET line_count = ?, message_count = message_count + ?, "
                "first_message = ?, name = CASE WHEN ? THEN ? ELSE name END, "
                "modified = COALESCE(?, modified), trailing_newline = ? WHERE id = ?"
            ),
            (
                base + len(lines),
                summary.messages,
                summary.first_message,
                summary.name is not None,
                summary.name or None,
                summary.modified,
                end,
                session_id,
            ),
        )

    # ---- many sessions --------------------------------------------------------------------

    def import_session(self, data: bytes, where: str) -> str:
        return import_session_bytes(self, data, where, self.where)

    def resolve(self, ref: str) -> str:
        rows = self._fetch(
            self.dialect.sql("SELECT id FROM {s} WHERE substr(id, 1, ?) = ? ORDER BY id LIMIT 6"),
            (len(ref), ref),
        )
        return pick_one(self.where, ref, [r[0] for r in rows])

    def _search(self, words: list[str]) -> tuple[str, str]:
        """The condition on a session's ``id`` that its messages hold ``words``, and its
        one parameter."""
        raise NotImplementedError

    def list_sessions(
        self, *, cwd: str | None = None, search: str | None = None, limit: int | None = None
    ) -> list[Any]:
        if not self.exists:  # a listing of nothing; `tether sessions` says "no such database"
            return []
        where, args = [], []
        if cwd is not None:
            where.append("cwd = ?")
            args.append(cwd)
        if search is not None:
            words = fts_words(search)
            if not words:
                return []
            condition, arg = self._search(words)
            where.append(condition)
            args.append(arg)
        sql = f"SELECT {ROW_FIELDS} FROM {{s}}"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY modified DESC, id"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        rows = self._fetch(self.dialect.sql(sql), args)
        return [session_row(self.where, row) for row in rows]


__all__ = ["ROW_FIELDS", "Header", "SqlDatabase"]
