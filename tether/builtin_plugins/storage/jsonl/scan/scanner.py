"""Read a session file into an :class:`~tether.core.storage.entry_table.EntryTable` without parsing
it.

pi reads a session by parsing every line; tether matches each line against pi's usual key order
(``{"type":…,"id":…,"parentId":…,"timestamp":"``) and takes the tree fields from the bytes.
Lines that do not match (another key order, ``custom`` entries, odd spacing) are parsed in full.
pi's semantics are kept: blank lines are ignored, unparsable lines skipped (reported here with
their line numbers), the first parsable record must be the header.

The file is read in 8 MB chunks and each chunk is indexed with a few passes over its bytes
(one regex ``findall`` for every line's prefix, ``bytes.count``) rather than one match per
line: 100k entries in about a quarter of a second. Each row keeps its line's bytes until the
entry is parsed.

Glued lines — a torn write followed by a complete record on the same line, which pi drops — are
caught cheaply: a plain entry line ends with ``}`` and holds exactly one ``"parentId":`` (in its
prefix); when a chunk's counts disagree, or a line does not end with ``}``, the chunk is scanned
line by line and every line searched for a second record start.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import IO, Any

from tether.builtin_plugins.storage.jsonl.scan.block_lines import block_lines
from tether.builtin_plugins.storage.jsonl.scan.header import (
    BOM,
    MAX_LINES_BEFORE_HEADER,
    header_error,
)
from tether.builtin_plugins.storage.jsonl.scan.line_table import LineTable
from tether.builtin_plugins.storage.jsonl.scan.lines_left import UNLOADED
from tether.storage import (
    EntryTable,
    Problem,
    entry_problem,
    json_error,
    parent_of,
    parse_json_line,
)

# a block and its lines are dropped before the next is read, so the next reuses their memory
# (on a virtual machine, memory touched for the first time costs ~2.5 ms a megabyte)
BLOCK_SIZE = 512 << 10
_PREFIX_TEXT = (
    rb'\{"type":"([^"\\\n]*)","id":"([^"\\\n]+)","parentId":(null|"[^"\\\n]*"),"timestamp":"'
)
ENTRY_PREFIX = re.compile(_PREFIX_TEXT)
# Every end of a line closing an object, with the prefix of the line after it if it has one.
_LINE_END = re.compile(rb"\}\n(?:" + _PREFIX_TEXT + rb")?")
_NO_PREFIX = (b"", b"", b"")
CUSTOM_PREFIX = re.compile(rb'\{"type":"(custom(?:_message)?)","customType":"')
CUSTOM_TAIL = re.compile(
    rb',"id":"([^"\\]+)","parentId":(?:null|"([^"\\]*)"),"timestamp":"[^"\\]*"\}$'
)
# Where a record can start inside a line (quotes inside JSON strings are always escaped).
RECORD_START = re.compile(
    rb'\{"type":"(?:[^"\\]*","id":"[^"\\]*","parentId":|custom(?:_message)?","customType":|session",)'
)
_PLUS_ONE = (1).__add__  # a line's length and its newline
_NON_BLANK = re.compile(rb"[^ \t\n\r\x0b\x0c]")  # what bytes.strip() keeps


@dataclass
class ScannedFile:
    """A scanned file: the header (``None`` if there is none), the entries, the problems."""

    header: dict[str, Any] | None
    header_lineno: int
    header_error: str
    table: EntryTable
    ends_with_newline: bool

    @property
    def problems(self) -> list[Problem]:
        return self.table.problems


def _decode_all(items: tuple[bytes, ...]) -> list[str]:
    """Decode many short UTF-8 strings at once (bad bytes → U+FFFD, as one by one)."""
    decoded = b"\0".join(items).decode("utf-8", "replace").split("\0")
    if len(decoded) != len(items):  # a NUL inside an item (invalid JSON anyway)
        decoded = [item.decode("utf-8", "replace") for item in items]
    return decoded


def _parents_of(items: tuple[bytes, ...]) -> list[str | None]:
    """The parent ids of :data:`ENTRY_PREFIX`'s third group (``null`` → ``None``, ``"x"`` →
    ``x``, ``b""`` → ``""``), decoded at once: the group holds no quote but its own two."""
    joined = b"\0".join(items).replace(b'"', b"")
    parents: list[str | None] = joined.decode("utf-8", "replace").split("\0")  # type: ignore[assignment]
    if len(parents) != len(items):  # a NUL inside an item (invalid JSON anyway)
        return [None if p == b"null" else p[1:-1].decode("utf-8", "replace") for p in items]
    at = -1
    for _ in range(items.count(b"null")):  # roots: few
        at = items.index(b"null", at + 1)
        parents[at] = None
    return parents


class LineScanner:
    """Indexes lines fed in order into :attr:`table` (``line_count``: lines seen so far, the
    number the next fed line follows)."""

    def __init__(self, *, validate_all: bool, keep_lines: bool = True) -> None:
        self.table = LineTable()
        self.validate_all = validate_all
        self.keep_lines = keep_lines  # else the rows' lines stay in the file (``UNLOADED``)
        self.header: dict[str, Any] | None = None
        self.header_lineno = 0
        self.header_error = ""
        self.stopped = False
        self.parsed: dict[int, dict[str, Any]] = {}
        self.type_names: dict[bytes, str] = {}
        self.line_count = 0
        self.consumed = 0  # bytes fed so far
        self.starts: list[int] = []  # where each line of the current lines starts

    def feed(self, chunk: bytes, carry: bytes = b"") -> bytes:
        """Index the complete lines of ``carry + chunk``; returns what follows the last
        newline (the start of a line that the next chunk continues)."""
        first = self.consumed - len(carry)
        self.consumed += len(chunk)
        if not self.keep_lines:  # few lines are read: none cut from the chunk until then
            found = block_lines(chunk, carry, first)
            if found is None:
                return carry + chunk
            block, self.starts = found
            self._lines(block, chunk, len(carry), block.end)
            return chunk[block.end :]
        lines = chunk.split(b"\n")
        rest = lines.pop()
        if not lines:
            return carry + rest
        if carry:
            lines[0] = carry + lines[0]
        self.starts = list(accumulate(map(_PLUS_ONE, map(len, lines)), initial=first))
        self._lines(lines, chunk, len(carry), len(chunk) - len(rest))
        return rest

    def finish(self, rest: bytes) -> None:
        """The last line of the file when it has no newline (always parsed)."""
        if rest:
            self.starts = [self.consumed - len(rest)]
            self._lines([rest], b"", 0, 0, unterminated=True)

    def _lines(
        self,
        lines: Sequence[bytes],
        chunk: bytes,
        shift: int,
        end: int,
        *,
        unterminated: bool = False,
    ) -> None:
        """Index ``lines``: the lines of ``chunk[:end]``, except that the first one starts
        ``shift`` bytes before the chunk."""
        base = self.line_count
        self.line_count += len(lines)
        if self.stopped:
            return
        start = offset = 0
        if self.header is None:
            start, offset = self._find_header(lines, base)
            if self.header is None or start == len(lines):
                return
        if unterminated:
            if lines[-1].strip():
                self._slow_line(lines[-1], base + len(lines), True, self.starts[-1])
            return
        if start == 0:  # it may have begun in the previous chunk: on its own
            self._scan(lines, base, 0, 1, careful=True)
            start, offset = 1, len(lines[0]) + 1
        pos = offset - shift
        if not self._bulk(chunk, lines, base, start, len(lines), pos, end):
            self._scan(lines, base, start, len(lines), careful=True)

    def _find_header(self, lines: Sequence[bytes], base: int) -> tuple[int, int]:
        offset = 0
        for i, raw in enumerate(lines):
            offset += len(raw) + 1
            lineno = base + i + 1
            if lineno > MAX_LINES_BEFORE_HEADER:
                self.stopped = True
                self.header_error = self.header_error or "no header in the first lines"
                return len(lines), offset
            text = raw.strip()
            if lineno == 1 and text.startswith(BOM):
                text = text[3:].strip()
            if not text:
                continue
            try:
                record = parse_json_line(text)
            except ValueError:
                error = json_error(text)
                if not self.header_error:
                    self.header_lineno, self.header_error = lineno, error
                self.table.problems.append(Problem(lineno, "malformed", error + ", skipped"))
                continue
            error = header_error(record)
            if error:
                if not self.header_error:  # report the first bad line
                    self.header_lineno, self.header_error = lineno, error
                self.stopped = True
                return len(lines), offset
            self.header_lineno = lineno
            self.header, self.header_error = record, ""
            return i + 1, offset
        return len(lines), offset

    def _bulk(
        self,
        block: bytes,
        lines: Sequence[bytes],
        base: int,
        start: int,
        stop: int,
        pos: int,
        end: int,
    ) -> bool:
        """Index ``lines[start:stop]`` (bytes ``block[pos:end]``, ending with a newline) with a
        few passes over the bytes instead of one regex match per line. ``False`` (nothing done)
        when a line does not end with ``}``, when the block may hold glued records (a plain
        entry line holds one ``"parentId":``, in its prefix) or with ``validate_all``."""
        count = stop - start
        if not count:
            return True
        if self.validate_all:
            return False
        found = _LINE_END.findall(block, pos, end)  # one tuple per line end
        if len(found) != count:
            return False
        found.pop()  # nothing follows the last line
        first = ENTRY_PREFIX.match(block, pos, end)
        found.insert(0, _NO_PREFIX if first is None else first.groups())
        kinds, id_bytes, parent_bytes = zip(*found, strict=True)
        odd = [i for i, p in enumerate(parent_bytes) if not p] if b"" in parent_bytes else []
        in_odd = sum(lines[start + i].count(b'"parentId":') for i in odd)
        if block.count(b'"parentId":', pos, end) != count - len(odd) + in_odd:
            return False
        names = self.type_names
        for kind in set(kinds):
            if kind not in names:
                names[kind] = kind.decode("utf-8", "replace")
        types = list(map(names.__getitem__, kinds))
        ids = _decode_all(id_bytes)
        parents = _parents_of(parent_bytes)
        table = self.table
        done = 0
        for i in [*odd, count]:  # runs of plain entries, then one odd line
            if i > done:
                table.ids += ids[done:i]
                table.parents += parents[done:i]
                table.types += types[done:i]
                table.linenos.extend(range(base + start + done + 1, base + start + i + 1))
                table._raw += (
                    lines[start + done : start + i] if self.keep_lines else [UNLOADED] * (i - done)
                )
                table.offsets.extend(self.starts[start + done : start + i])
            if i < count:
                at = start + i
                self._slow_line(lines[at], base + at + 1, False, self.starts[at])
            done = i + 1
        return True

    def _scan(
        self, lines: Sequence[bytes], base: int, start: int, stop: int, careful: bool
    ) -> None:
        """Index ``lines[start:stop]`` one line at a time (``careful``: look for glued records
        in every line)."""
        table = self.table
        match = None if self.validate_all else ENTRY_PREFIX.match
        glue = RECORD_START.search
        ids, parents, types = table.ids, table.parents, table.types
        linenos, raws, offsets, starts = table.linenos, table._raw, table.offsets, self.starts
        keep = self.keep_lines
        names = self.type_names
        slow_line = self._slow_line
        for i in range(start, stop):
            raw = lines[i]
            found = match(raw) if match is not None else None
            if found is not None and raw[-1:] == b"}" and (not careful or glue(raw, 1) is None):
                kind, entry_id, parent = found.groups()
                name = names.get(kind)
                if name is None:
                    name = names[kind] = kind.decode("utf-8", "replace")
                ids.append(entry_id.decode("utf-8", "replace"))
                parents.append(
                    None if parent == b"null" else parent[1:-1].decode("utf-8", "replace")
                )
                types.append(name)
                linenos.append(base + i + 1)
                raws.append(raw if keep else UNLOADED)
                offsets.append(starts[i])
            elif raw.strip():
                slow_line(raw, base + i + 1, False, starts[i])

    def _slow_line(self, raw: bytes, lineno: int, is_unterminated: bool, offset: int) -> None:
        table = self.table
        custom = None if self.validate_all or is_unterminated else CUSTOM_PREFIX.match(raw)
        if custom is not None and RECORD_START.search(raw, 1) is None:
            tail = CUSTOM_TAIL.search(raw, max(0, len(raw) - 400))
            if tail is not None:
                entry_id, parent = tail.groups()
                table.ids.append(entry_id.decode("utf-8", "replace"))
                table.parents.append(None if parent is None else parent.decode("utf-8", "replace"))
                table.types.append(custom.group(1).decode())
                table.linenos.append(lineno)
                table._raw.append(raw if self.keep_lines else UNLOADED)
                table.offsets.append(offset)
                return
        try:
            record = parse_json_line(raw)
        except ValueError:
            if is_unterminated:
                message = (
                    "incomplete last line (no newline): a torn write, set aside on next append"
                )
                table.problems.append(Problem(lineno, "torn", message))
            else:
                table.problems.append(Problem(lineno, "malformed", json_error(raw) + ", skipped"))
            return
        if is_unterminated:
            message = "last line has no newline (valid; one is added before the next append)"
            table.problems.append(Problem(lineno, "unterminated", message))
        problem = entry_problem(record, lineno)
        if problem is not None:
            table.problems.append(problem)
            return
        self.parsed[len(table.ids)] = record
        kind = record.get("type")
        table.ids.append(record["id"])
        table.parents.append(parent_of(record))
        table.types.append(kind if isinstance(kind, str) else "")
        table.linenos.append(lineno)
        table._raw.append(None)
        table.offsets.append(offset)

    def result(self, ends_with_newline: bool) -> ScannedFile:
        self.table.finish_scan(self.parsed)
        return ScannedFile(
            self.header, self.header_lineno, self.header_error, self.table, ends_with_newline
        )


def scan_stream(handle: IO[bytes], *, validate_all: bool = False) -> tuple[ScannedFile, bool]:
    """Scan an open binary file. Returns the result and whether the file held any non-blank
    byte. ``validate_all`` parses every line (``session show``/``repair``)."""
    scanner = LineScanner(validate_all=validate_all)
    rest = b""
    content = False
    while chunk := handle.read(BLOCK_SIZE):
        content = content or _NON_BLANK.search(chunk) is not None
        rest = scanner.feed(chunk, rest)
    scanner.finish(rest)
    return scanner.result(not rest), content


def scan_bytes(data: bytes, *, validate_all: bool = False) -> ScannedFile:
    """Scan file content held in memory."""
    scanner = LineScanner(validate_all=validate_all)
    rest = scanner.feed(data)
    scanner.finish(rest)
    return scanner.result(not rest)


__all__ = [
    "CUSTOM_PREFIX",
    "CUSTOM_TAIL",
    "ENTRY_PREFIX",
    "RECORD_START",
    "LineScanner",
    "ScannedFile",
    "scan_bytes",
    "scan_stream",
]
