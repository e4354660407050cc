"""Read a session file into an :class:`~tether.core.jsonl_index.EntryTable` without parsing it.

pi reads a session by parsing every line; tether matches each line against pi's usual key order
(``{"type":…,"id":…,"parentId":…,"timestamp":"``) and takes the tree fields from the bytes.
Lines that do not match (another key order, ``custom`` entries, odd spacing) are parsed in full.
pi's semantics are kept: blank lines are ignored, unparsable lines skipped (reported here with
their line numbers), the first parsable record must be the header.

Glued lines — a torn write followed by a complete record on the same line, which pi drops — are
caught cheaply: in a healthy block of lines every line starts a record and holds exactly one
``"parentId":``; when the counts disagree the block is scanned line by line for a second record
start. The file is read in blocks so the raw bytes are never held twice.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

from tether.core.jsonl_index import (
    EntryTable,
    Problem,
    entry_problem,
    json_error,
    parent_of,
    parse_json_line,
)

BLOCK_SIZE = 8 << 20
MAX_LINES_BEFORE_HEADER = 1000
_PREFIX = re.compile(
    rb'\{"type":"([^"\\]*)","id":"([^"\\]+)","parentId":(?:null|"([^"\\]*)"),"timestamp":"'
)
_CUSTOM_PREFIX = re.compile(rb'\{"type":"(custom(?:_message)?)","customType":"')
_CUSTOM_TAIL = re.compile(
    rb',"id":"([^"\\]+)","parentId":(?:null|"([^"\\]*)"),"timestamp":"[^"\\]*"\}$'
)
# Where a record can start inside a line (quotes inside JSON strings are always escaped).
_GLUE = re.compile(
    rb'\{"type":"(?:[^"\\]*","id":"[^"\\]*","parentId":|custom(?:_message)?","customType":|session",)'
)
_BOM = b"\xef\xbb\xbf"


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


def _header_error(record: Any) -> str:
    if not isinstance(record, dict):
        return f"a JSON {type(record).__name__}, not an object"
    if record.get("type") != "session":
        kind = json.dumps(record.get("type"), ensure_ascii=False)
        return f'"type" is {kind}, expected "session"'
    if not isinstance(record.get("id"), str):
        return '"id" is not a string'
    return ""


class _Scanner:
    def __init__(self, *, validate_all: bool) -> None:
        self.table = EntryTable()
        self.validate_all = validate_all
        self.header: dict[str, Any] | None = None
        self.header_lineno = 0
        self.header_error = ""
        self.stopped = False
        self.parsed: dict[int, dict[str, Any]] = {}
        self.type_names: dict[bytes, str] = {}
        self.line_count = 0

    def feed(self, block: bytes, *, final: bool) -> None:
        lines = block.split(b"\n")
        if block.endswith(b"\n"):
            lines.pop()
        base = self.line_count
        self.line_count += len(lines)
        if self.stopped:
            return
        start = offset = 0
        if self.header is None:
            start, offset = self._find_header(lines, base)
            if self.header is None:
                return
        careful = start > 0 or block.count(b'"parentId":') != block.count(
            b'\n{"type":"'
        ) + block.startswith(b'{"type":"')
        unterminated = final and not block.endswith(b"\n")
        table = self.table
        table._blocks.append(block)
        table._unparsed.append(0)
        first_row = len(table.ids)
        fast = self._scan(lines, base, start, offset, careful, unterminated)
        table._unparsed[-1] = fast
        table._block_size.append(fast)
        table._block_rows.append((first_row, len(table.ids)))

    def _find_header(self, lines: list[bytes], base: int) -> tuple[int, int]:
        offset = 0
        for i, raw in enumerate(lines):
            offset += len(raw) + 1
            lineno = base + i + 1
            if lineno > MAX_LINES_BEFORE_HEADER:
                self.stopped = True
                self.header_error = self.header_error or "no header in the first lines"
                return len(lines), offset
            text = raw.strip()
            if lineno == 1 and text.startswith(_BOM):
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
            error = _header_error(record)
            if error:
                if not self.header_error:  # report the first bad line
                    self.header_lineno, self.header_error = lineno, error
                self.stopped = True
                return len(lines), offset
            self.header_lineno = lineno
            self.header, self.header_error = record, ""
            return i + 1, offset
        return len(lines), offset

    def _scan(
        self,
        lines: list[bytes],
        base: int,
        start: int,
        offset: int,
        careful: bool,
        unterminated: bool,
    ) -> int:
        """Index ``lines[start:]``; returns how many rows point into this block (unparsed)."""
        table = self.table
        match = None if self.validate_all else _PREFIX.match
        glue = _GLUE.search
        ids, parents, types = table.ids, table.parents, table.types
        linenos, starts, block_ix = table.linenos, table._starts, table._block_ix
        block = len(table._blocks) - 1
        names = self.type_names
        last = len(lines) - 1
        tail = last if unterminated else -1  # a last line without newline is always parsed
        fast = 0
        for i in range(start, len(lines)):
            raw = lines[i]
            found = match(raw) if match is not None and i != tail else None
            if found is not None and raw[-1:] == b"}" and (not careful or glue(raw, 1) is None):
                kind, entry_id, parent = found.groups()
                name = names.get(kind)
                if name is None:
                    name = names[kind] = kind.decode("utf-8", "replace")
                ids.append(entry_id.decode("utf-8", "replace"))
                parents.append(None if parent is None else parent.decode("utf-8", "replace"))
                types.append(name)
                linenos.append(base + i + 1)
                starts.append(offset)
                block_ix.append(block)
                fast += 1
            elif raw.strip():
                fast += self._slow_line(raw, base + i + 1, offset, unterminated and i == last)
            offset += len(raw) + 1
        return fast

    def _slow_line(self, raw: bytes, lineno: int, offset: int, is_unterminated: bool) -> int:
        table = self.table
        custom = None if self.validate_all or is_unterminated else _CUSTOM_PREFIX.match(raw)
        if custom is not None and _GLUE.search(raw, 1) is None:
            tail = _CUSTOM_TAIL.search(raw, max(0, len(raw) - 400))
            if tail is not None:
                entry_id, parent = tail.groups()
                table.ids.append(entry_id.decode("utf-8", "replace"))
                table.parents.append(None if parent is None else parent.decode())
                table.types.append(custom.group(1).decode())
                table.linenos.append(lineno)
                table._starts.append(offset)
                table._block_ix.append(len(table._blocks) - 1)
                return 1
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
            return 0
        if is_unterminated:
            message = "last line has no newline (valid; one is added before the next append)"
            table.problems.append(Problem(lineno, "unterminated", message))
        problem = entry_problem(record, lineno)
        if problem is not None:
            table.problems.append(problem)
            return 0
        self.parsed[len(table.ids)] = record
        kind = record.get("type")
        table.ids.append(record["id"])
        table.parents.append(parent_of(record))
        table.types.append(kind if isinstance(kind, str) else "")
        table.linenos.append(lineno)
        table._starts.append(0)
        table._block_ix.append(-1)
        return 0

    def result(self, ends_with_newline: bool) -> ScannedFile:
        self.table.finish_scan(self.parsed)
        return ScannedFile(
            self.header, self.header_lineno, self.header_error, self.table, ends_with_newline
        )


def _blocks(handle: IO[bytes]) -> Iterator[tuple[bytes, bool]]:
    """Blocks of whole lines (the last one may lack its newline), flagged when final."""
    carry = b""
    while True:
        chunk = handle.read(BLOCK_SIZE)
        if not chunk:
            if carry:
                yield carry, True
            return
        if carry:
            chunk = carry + chunk
        cut = chunk.rfind(b"\n") + 1
        if cut == 0:
            carry = chunk
        elif cut == len(chunk):
            carry = b""
            yield chunk, False
        else:
            carry = chunk[cut:]
            yield chunk[:cut], False


def scan_stream(handle: IO[bytes], *, validate_all: bool = False) -> tuple[ScannedFile, bool]:
    """Scan an open binary file. Returns the result and whether the file held any non-blank
    byte. ``validate_all`` parses every line (``session show``/``repair``)."""
    scanner = _Scanner(validate_all=validate_all)
    last = b""
    content = False
    for block, final in _blocks(handle):
        content = content or bool(block.strip())
        last = block[-1:]
        scanner.feed(block, final=final or not block.endswith(b"\n"))
    return scanner.result(last in (b"", b"\n")), content


def scan_bytes(data: bytes, *, validate_all: bool = False) -> ScannedFile:
    """Scan file content held in memory."""
    scanner = _Scanner(validate_all=validate_all)
    if data:
        scanner.feed(data, final=True)
    return scanner.result(data.endswith(b"\n") or not data)


__all__ = ["ScannedFile", "scan_bytes", "scan_stream"]
