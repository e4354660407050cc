"""Loading a database session from its chunks' line indexes (:mod:`.chunk_index`) instead of
scanning all its bytes; a row's line is fetched from the database when the row is first needed.

:func:`load_indexed` builds the same :class:`~tether.core.storage.entry_table.EntryTable` as
scanning the session's bytes would: the header line goes through the scanner, each run of
consecutive chunks with intact indexes adds its rows from them (tree fields and message roles,
lines not fetched; the indexes come from the stored runs of many chunks, :mod:`.chunk_runs`,
then from the rows of the chunks after them), and every other chunk — no index (an odd line,
an older database being migrated), an index that does not check out, or the last chunk when
the last line has no newline — is fetched and scanned as a file's lines are, at its line
numbers. A chunk fetched is checked to be the size indexed (a byte more is asked for).

:class:`ChunkLines` fetches lines for the table (the scanner's ``LineTable.line_source``):
the rows a caller asks for at once (a context's entries) as byte ranges of their chunks,
merged where they are close, or the whole chunk when most of it is wanted; a single row with
the rows around it, so going through many rows one by one costs a few fetches. A stored chunk
is never changed (an append adds chunks), so a line fetched later is the line indexed.
"""

from __future__ import annotations

import gc
from bisect import bisect_left, bisect_right
from itertools import accumulate, compress, repeat
from operator import add, itemgetter, ne
from typing import Any

from tether.builtin_plugins.storage.jsonl.scan.scanner import LineScanner, ScannedFile
from tether.builtin_plugins.storage.sql.chunk_index import (
    HEAD_SIZE,
    IndexedRows,
    decode_indexes,
    index_ok,
    intact_bodies,
)
from tether.builtin_plugins.storage.sql.chunk_runs import decode_run
from tether.builtin_plugins.storage.sql.database import IndexedSession
from tether.storage import EntryTable, StoreError

WINDOW = 256  # rows fetched on each side of a row asked for alone
GAP = 16  # rows asked for together this close are fetched as one range
MAX_RANGES = 64  # more ranges in one chunk: the whole chunk
Chunk = tuple[int, int, int, Any]  # first line, line count, size, index
Run = tuple[int, int, IndexedRows]  # chunks [start, stop) and their rows


def load_indexed(driver: Any, session_id: str, stored: IndexedSession) -> ScannedFile | None:
    """The scanned session from ``stored`` (see the module docstring); ``None`` when its header
    lines are not a plain header (the caller scans the whole session instead). The cyclic GC
    is paused meanwhile: the columns are long lists of strings, no cycles to find."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _load(driver, session_id, stored)
    finally:
        if enabled:
            gc.enable()


def _load(driver: Any, session_id: str, stored: IndexedSession) -> ScannedFile | None:
    scanner = LineScanner(validate_all=False)
    scanner.feed(stored.header + b"\n")
    header_lines = stored.header.count(b"\n") + 1
    if scanner.header is None or scanner.table.problems or scanner.line_count != header_lines:
        return None
    chunks, given = _expand(driver, session_id, stored)
    end = len(chunks) if stored.trailing_newline else len(chunks) - 1
    runs = _runs(chunks, end, given)
    unindexed, done = [], 0
    for start, stop, _ in [*runs, (len(chunks), len(chunks), None)]:
        unindexed += range(done, start)
        done = stop
    whole = [(chunks[i][0], 0, chunks[i][2] + 1) for i in unindexed]  # a byte more: none
    texts = driver.read_ranges(session_id, whole) if whole else []
    for i, text in zip(unindexed, texts, strict=True):
        if len(text) != chunks[i][2]:
            raise _disagree(driver, session_id, chunks[i][0])
    fetched = dict(zip(unindexed, texts, strict=True))
    table = scanner.table
    run_at = {start: (stop, rows) for start, stop, rows in runs}
    position = 0
    while position < len(chunks):
        first, count = chunks[position][:2]
        if position in run_at:
            stop, rows = run_at[position]
            line = header_lines + first
            table.add_unloaded(rows.ids, rows.parents, rows.types, rows.roles, line)
            last_first, last_count = chunks[stop - 1][:2]
            scanner.line_count = header_lines + last_first - 1 + last_count
            position = stop
            continue
        scanner.line_count = header_lines + first - 1
        rest = scanner.feed(fetched[position])
        if position == len(chunks) - 1 and not stored.trailing_newline:
            scanner.finish(rest)
        else:
            scanner.feed(b"\n", rest)
        position += 1
    scanned = _result(scanner, stored.trailing_newline)
    if runs:
        table.line_source = ChunkLines(driver, session_id, header_lines, chunks, runs)
    return scanned


def _result(scanner: LineScanner, trailing_newline: bool) -> ScannedFile:
    """``scanner.result(…)``, which also makes each parent the string of its id's row: given
    the parents as one branch (each the id on the row before), it does so in one pass, and the
    rows whose parent is another (the forks, from the runs: few) are set here after it."""
    table = scanner.table
    parents, ids = table.parents, table.ids
    forks = list(compress(range(1, len(ids)), map(ne, parents[1:], ids[:-1])))
    table.parents = [*parents[:1], *ids[:-1]]
    scanned = scanner.result(trailing_newline)
    get, final = table.by_id.get, table.parents
    for row in forks:
        parent = parents[row]
        found = None if parent is None else get(parent)
        final[row] = parent if found is None else ids[found]
    return scanned


def _expand(driver: Any, session_id: str, stored: IndexedSession) -> tuple[Chunks, list[Run]]:
    """All the chunks, those of the stored runs (:mod:`.chunk_runs`) first, and the spans of
    them whose index rows a run holds. A run that does not check out gives way to its chunks'
    own indexes (``driver.read_chunk_indexes``), as does a run holding a last line without a
    newline (that chunk is scanned)."""
    chunks = Chunks()
    given: list[Run] = []
    for k, (first, last, blob) in enumerate(stored.runs):
        decoded = decode_run(blob, first, last)
        at_end = k == len(stored.runs) - 1 and not stored.chunks
        if decoded is None or (at_end and not stored.trailing_newline):
            chunks.add(driver.read_chunk_indexes(session_id, first, last))
            continue
        base = len(chunks)
        for start, stop, rows in decoded.spans:
            if given and given[-1][1] == base + start:  # right after the last: one run
                _extend(given[-1][2], rows)
                given[-1] = (given[-1][0], base + stop, given[-1][2])
            else:
                given.append((base + start, base + stop, rows))
        chunks.add_columns(decoded.firsts, decoded.counts, decoded.sizes)
    chunks.add(stored.chunks)
    return chunks, given


class Chunks:
    """A session's chunks in columns (one per append: no tuple a chunk until one is asked
    for); ``chunks[i]`` is ``(first line, line count, size, line index or None)``."""

    def __init__(self) -> None:
        self.firsts: list[int] = []
        self.counts: list[int] = []
        self.sizes: list[int] = []
        self.indexes: list[Any] = []

    def __len__(self) -> int:
        return len(self.firsts)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice):
            columns = (self.firsts, self.counts, self.sizes, self.indexes)
            return list(zip(*(column[key] for column in columns), strict=True))
        return (self.firsts[key], self.counts[key], self.sizes[key], self.indexes[key])

    def add(self, rows: list[Any]) -> None:
        """Chunks as ``(first line, line count, size, line index)`` rows."""
        if rows:
            firsts, counts, sizes, indexes = zip(*rows, strict=True)
            self.firsts += firsts
            self.counts += counts
            self.sizes += sizes
            self.indexes += indexes

    def add_columns(self, firsts: list[int], counts: list[int], sizes: list[int]) -> None:
        """Chunks of a run (their index rows are in the run)."""
        self.firsts += firsts
        self.counts += counts
        self.sizes += sizes
        self.indexes += repeat(None, len(firsts))


def _extend(rows: IndexedRows, more: IndexedRows) -> None:
    rows.types += more.types
    rows.roles += more.roles
    rows.ids += more.ids
    rows.parents += more.parents
    rows.lengths += more.lengths


def _runs(chunks: Chunks, end: int, given: list[Run]) -> list[Run]:
    """The runs of consecutive chunks among ``chunks[:end]`` with intact indexes: the runs
    ``given`` (decoded from the stored runs) and those found among the other chunks."""
    runs: list[Run] = []
    free = 0
    for start, stop, _ in given:
        runs += _indexed(chunks, free, start)
        free = stop
    runs += _indexed(chunks, free, end)
    return sorted([*runs, *given], key=itemgetter(0))


def _indexed(chunks: Chunks, lo: int, hi: int) -> list[Run]:
    """The runs among ``chunks[lo:hi]`` whose own indexes are intact."""
    part = chunks[lo:hi]
    counts = list(map(itemgetter(1), part))
    bodies = intact_bodies(list(map(itemgetter(3), part)), counts)
    groups: list[tuple[int, int, list[bytes]]] = []
    if bodies is not None and _contiguous(part, counts):  # the usual case: all, in one pass
        groups = [(lo, hi, bodies)] if hi > lo else []
    else:
        stop = -1
        for i, (first, count, _, blob) in enumerate(part, lo):
            if not index_ok(blob, count):
                continue
            if stop == i and _follows(chunks[i - 1], first):
                groups[-1][2].append(blob[HEAD_SIZE:])
            else:
                groups.append((i, i + 1, [blob[HEAD_SIZE:]]))
            stop = i + 1
            groups[-1] = (groups[-1][0], stop, groups[-1][2])
    runs: list[Run] = []
    for start, stop, group in groups:
        runs += _checked(chunks, start, stop, group)
    return runs


def _checked(chunks: Chunks, start: int, stop: int, bodies: list[bytes]) -> list[Run]:
    """``chunks[start:stop]`` as one run when their joined index bodies decode; else each
    part that decodes on its own (the rest is scanned)."""
    rows = _decode(chunks[start:stop], bodies)
    if rows is not None:
        return [(start, stop, rows)]
    runs: list[Run] = []
    for i in range(start, stop):  # find the chunks whose index text is wrong
        one = _decode(chunks[i : i + 1], bodies[i - start : i - start + 1])
        if one is not None:
            runs.append((i, i + 1, one))
    return runs


def _decode(chunks: list[Chunk], bodies: list[bytes]) -> IndexedRows | None:
    return decode_indexes(bodies, sum(map(itemgetter(1), chunks)))


def _contiguous(chunks: list[Chunk], counts: list[int]) -> bool:
    firsts = list(map(itemgetter(0), chunks))
    return firsts[1:] == list(map(add, firsts, counts))[:-1]


def _follows(previous: Chunk, first: int) -> bool:
    return previous[0] + previous[1] == first


class ChunkLines:
    """Fetches the lines of a table's unloaded rows (see the module docstring)."""

    def __init__(
        self, driver: Any, session_id: str, header_lines: int, chunks: Chunks, runs: list[Run]
    ) -> None:
        self.driver = driver
        self.session_id = session_id
        self.header_lines = header_lines
        self.chunks = chunks
        self.runs = runs  # the chunks with an index, with each line's length
        self._starts: list[int] | None = None
        self._offsets: dict[int, list[int] | None] = {}

    def load(self, table: EntryTable, rows: list[int]) -> None:
        """Fetch the lines of the unloaded rows among ``rows`` (and of rows near them)."""
        missing = table.unloaded(rows)
        if not missing:
            return
        if len(missing) == 1:  # one by one: fetch its neighbours with it
            row = missing[0]
            near = range(max(0, row - WINDOW), min(len(table), row + WINDOW + 1))
            missing = table.unloaded(list(near))
        linenos = table.linenos
        if self._starts is None:
            self._starts = list(map(add, self.chunks.firsts, repeat(self.header_lines)))
        starts = self._starts
        wanted: dict[int, list[int]] = {}  # chunk → positions of the lines wanted in it
        for row in missing:
            chunk = bisect_right(starts, linenos[row]) - 1
            wanted.setdefault(chunk, []).append(linenos[row] - starts[chunk])
        spans: list[tuple[int, int, int]] = []  # (chunk, first position, end position)
        for chunk, positions in wanted.items():
            spans += self._spans(chunk, positions)
        requests = []
        for chunk, lo, hi in spans:
            offsets = self._offsets_of(chunk)
            if offsets is None:  # lengths that do not add up: the whole chunk, by its size
                requests.append((self.chunks[chunk][0], 0, self.chunks[chunk][2] + 1))
                continue
            start = offsets[lo]  # with the byte after: the next newline, none at the end
            requests.append((self.chunks[chunk][0], start, offsets[hi] - start))
        found = self.driver.read_ranges(self.session_id, requests)
        end = len(linenos)
        while end and not linenos[end - 1]:  # rows appended since the load have no line
            end -= 1
        for (chunk, lo, hi), data in zip(spans, found, strict=True):
            lines = self._exact(chunk, lo, hi, data).split(b"\n")
            if len(lines) != hi - lo:
                raise _disagree(self.driver, self.session_id, self.chunks[chunk][0])
            first = starts[chunk] + lo
            row = bisect_left(linenos, first, 0, end)
            while row < end and linenos[row] < first + len(lines):
                table.set_line(row, lines[linenos[row] - first])
                row += 1

    def _exact(self, chunk: int, lo: int, hi: int, data: bytes) -> bytes:
        """The bytes of lines ``lo``…``hi - 1`` of ``chunk`` from what was fetched for them (a
        byte more was asked for: the newline after them, or nothing after the chunk's last
        line); a chunk of another size than indexed is an error."""
        first, count, size, _ = self.chunks[chunk]
        offsets = self._offsets_of(chunk)
        if offsets is None:
            if len(data) == size:
                return data
        elif hi < count:
            if len(data) == offsets[hi] - offsets[lo] and data.endswith(b"\n"):
                return data[:-1]
        elif len(data) == offsets[hi] - offsets[lo] - 1:
            return data
        raise _disagree(self.driver, self.session_id, first)

    def _offsets_of(self, chunk: int) -> list[int] | None:
        """Where each line of ``chunk`` starts (and where a line after the last would);
        ``None`` when its index's lengths do not add up to its size."""
        if chunk in self._offsets:
            return self._offsets[chunk]
        at = bisect_right(self.runs, chunk, key=itemgetter(0)) - 1
        start, stop, rows = self.runs[at]
        assert start <= chunk < stop, "an unloaded row in a chunk without an index"
        first, count, size, _ = self.chunks[chunk]
        skip = first - self.chunks[start][0]
        try:
            lengths = list(map(int, rows.lengths[skip : skip + count]))
        except ValueError:
            lengths = []
        offsets: list[int] | None = list(
            accumulate(map(add, lengths, repeat(1)), initial=0)  # each line and its newline
        )
        if len(lengths) != count or offsets[-1] - 1 != size:
            offsets = None
        self._offsets[chunk] = offsets
        return offsets

    def _spans(self, chunk: int, positions: list[int]) -> list[tuple[int, int, int]]:
        count = self.chunks[chunk][1]
        positions.sort()
        spans: list[list[int]] = []
        for at in positions:
            if spans and at - spans[-1][1] <= GAP:
                spans[-1][1] = at + 1
            else:
                spans.append([at, at + 1])
        offsets = self._offsets_of(chunk)
        if offsets is None:
            return [(chunk, 0, count)]
        wanted = sum(offsets[hi] - offsets[lo] for lo, hi in spans)
        if len(spans) > MAX_RANGES or 2 * wanted > offsets[-1]:
            return [(chunk, 0, count)]
        return [(chunk, lo, hi) for lo, hi in spans]


def _disagree(driver: Any, session_id: str, first: int) -> StoreError:
    return StoreError(
        f"{driver.uri}#{session_id}: the lines stored from line {first} on disagree with "
        "their index"
    )


__all__ = ["ChunkLines", "load_indexed"]
