"""Loading a database session from its chunks' line indexes (:mod:`.chunk_index`) instead of
scanning all its bytes; a row's line is fetched from the database when the row is first needed.

:func:`load_indexed` builds the same :class:`~tether.core.storage.jsonl_index.EntryTable` as
scanning the session's bytes would: the header line goes through the scanner, each chunk with
a valid index adds its rows from it (tree fields and message roles, lines not fetched), and
every other chunk — no index (an odd line, an older database being migrated), an index that
does not check out, or the last chunk when the last line has no newline — is fetched and
scanned as a file's lines are, at its line numbers.

:class:`ChunkLines` fetches lines for the table (``EntryTable.line_source``): the rows a caller
asks for at once (a context's entries) as byte ranges of their chunks, merged where they are
close, or the whole chunk when most of it is wanted; a single row with the lines around it, so
going through many rows one by one costs a few fetches. Chunks are never changed once written,
so a line fetched later is the line indexed.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from itertools import accumulate
from typing import Any

from tether.core.storage.chunk_index import decode_chunk_index
from tether.core.storage.database import IndexedChunk, IndexedSession, StoreError
from tether.core.storage.jsonl_index import EntryTable
from tether.core.storage.jsonl_scan import LineScanner, ScannedFile

WINDOW = 256  # lines fetched on each side of a row asked for alone
GAP = 16  # rows asked for together this close are fetched as one range
MAX_RANGES = 64  # more ranges in one chunk: the whole chunk


def load_indexed(driver: Any, session_id: str, stored: IndexedSession) -> ScannedFile | None:
    """The scanned session from ``stored`` (see the module docstring); ``None`` when its header
    lines are not a plain header (the caller scans the whole session instead)."""
    scanner = LineScanner(validate_all=False)
    scanner.feed(stored.header + b"\n")
    header_lines = stored.header.count(b"\n") + 1
    if scanner.header is None or scanner.table.problems or scanner.line_count != header_lines:
        return None
    chunks = stored.chunks
    last = len(chunks) - 1
    indexes = [
        None
        if i == last and not stored.trailing_newline
        else decode_chunk_index(c.index, c.line_count, c.size)
        for i, c in enumerate(chunks)
    ]
    unindexed = [c for c, index in zip(chunks, indexes, strict=True) if index is None]
    whole = [(c.first_line, 0, c.size) for c in unindexed]
    fetched = iter(driver.read_ranges(session_id, whole) if whole else [])
    table = scanner.table
    for i, (chunk, index) in enumerate(zip(chunks, indexes, strict=True)):
        first = header_lines + chunk.first_line
        if index is not None:
            table.add_unloaded(index.ids, index.parents, index.types, index.roles, first)
            scanner.line_count = first - 1 + chunk.line_count
            continue
        scanner.line_count = first - 1
        rest = scanner.feed(next(fetched))
        if i == last and not stored.trailing_newline:
            scanner.finish(rest)
        else:
            scanner.feed(b"\n", rest)
    scanned = scanner.result(stored.trailing_newline)
    if len(unindexed) < len(chunks):
        lengths = [None if index is None else index.lengths for index in indexes]
        table.line_source = ChunkLines(driver, session_id, header_lines, chunks, lengths)
    return scanned


class ChunkLines:
    """Fetches the lines of a table's unloaded rows (see the module docstring)."""

    def __init__(
        self,
        driver: Any,
        session_id: str,
        header_lines: int,
        chunks: list[IndexedChunk],
        lengths: list[array[int] | None],
    ) -> None:
        self.driver = driver
        self.session_id = session_id
        self.chunks = chunks
        self.lengths = lengths  # of each line of each chunk that has an index
        self.starts = [header_lines + c.first_line for c in chunks]  # line number of each
        self._offsets: dict[int, list[int]] = {}

    def load(self, table: EntryTable, rows: list[int]) -> None:
        """Fetch the lines of the unloaded rows among ``rows`` (and of rows near them)."""
        missing = table.unloaded(rows)
        if not missing:
            return
        linenos, starts = table.linenos, self.starts
        wanted: dict[int, list[int]] = {}  # chunk → positions of the lines wanted in it
        for row in missing:
            chunk = bisect_right(starts, linenos[row]) - 1
            wanted.setdefault(chunk, []).append(linenos[row] - starts[chunk])
        spans: list[tuple[int, int, int]] = []  # (chunk, first position, end position)
        for chunk, positions in wanted.items():
            spans += self._spans(chunk, positions, alone=len(missing) == 1)
        requests = []
        for chunk, lo, hi in spans:
            offsets = self._offsets_of(chunk)
            start = offsets[lo]
            requests.append((self.chunks[chunk].first_line, start, offsets[hi] - 1 - start))
        found = self.driver.read_ranges(self.session_id, requests)
        end = len(linenos)
        while end and not linenos[end - 1]:  # rows appended since the load have no line
            end -= 1
        for (chunk, lo, hi), data in zip(spans, found, strict=True):
            lines = data.split(b"\n")
            if len(lines) != hi - lo:
                raise StoreError(
                    f"{self.driver.uri}#{self.session_id}: the lines stored from line "
                    f"{self.chunks[chunk].first_line} on disagree with their index"
                )
            first = starts[chunk] + lo
            row = bisect_left(linenos, first, 0, end)
            while row < end and linenos[row] < first + len(lines):
                table.set_line(row, lines[linenos[row] - first])
                row += 1

    def _offsets_of(self, chunk: int) -> list[int]:
        """Where each line of ``chunk`` starts (and where a line after the last would)."""
        offsets = self._offsets.get(chunk)
        if offsets is None:
            lengths = self.lengths[chunk]
            assert lengths is not None, "an unloaded row in a chunk without an index"
            offsets = list(accumulate(lengths, _plus_newline, initial=0))
            self._offsets[chunk] = offsets
        return offsets

    def _spans(self, chunk: int, positions: list[int], *, alone: bool) -> list[tuple[int, ...]]:
        count = self.chunks[chunk].line_count
        if alone:
            at = positions[0]
            return [(chunk, max(0, at - WINDOW), min(count, at + WINDOW + 1))]
        positions.sort()
        spans: list[list[int]] = []
        for at in positions:
            if spans and at - spans[-1][1] <= GAP:
                spans[-1][1] = at + 1
            else:
                spans.append([at, at + 1])
        offsets = self._offsets_of(chunk)
        wanted = sum(offsets[hi] - offsets[lo] for lo, hi in spans)
        if len(spans) > MAX_RANGES or 2 * wanted > offsets[-1]:
            return [(chunk, 0, count)]
        return [(chunk, lo, hi) for lo, hi in spans]


def _plus_newline(total: int, length: int) -> int:
    return total + length + 1


__all__ = ["ChunkLines", "load_indexed"]
