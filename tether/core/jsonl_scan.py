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

from tether.core.jsonl_index import BadRef, EntryTable, Problem, json_error, parse_json_line

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
        self.lines: list[bytes | None] = []
        self.table = EntryTable(self.lines)
        self.validate_all = validate_all
        self.header: dict[str, Any] | None = None
        self.header_lineno = 0
        self.header_error = ""
        self.stopped = False
        self.parsed: dict[int, dict[str, Any]] = {}
        self.type_names: dict[bytes, str] = {}

    def feed(self, block: bytes, *, final: bool) -> None:
        if self.stopped:
            return
        lines = block.split(b"\n")
        if block.endswith(b"\n"):
            lines.pop()
        base = len(self.lines)
        self.lines.extend(lines)
        start = 0
        if self.header is None:
            start = self._find_header(lines, base)
            if self.header is None:
                return
        careful = start > 0 or block.count(b'"parentId":') != block.count(
            b'\n{"type":"'
        ) + block.startswith(b'{"type":"')
        unterminated = final and not block.endswith(b"\n")
        self._scan(lines, base, start, careful, unterminated)

    def _find_header(self, lines: list[bytes], base: int) -> int:
        for i, raw in enumerate(lines):
            lineno = base + i + 1
            if lineno > MAX_LINES_BEFORE_HEADER:
                self.stopped = True
                self.header_error = self.header_error or "no header in the first lines"
                return len(lines)
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
            self.header_lineno = lineno
            if error:
                self.header_error = error
                self.stopped = True
                return len(lines)
            self.header, self.header_error = record, ""
            return i + 1
        return len(lines)

    def _scan(
        self, lines: list[bytes], base: int, start: int, careful: bool, unterminated: bool
    ) -> None:
        match = None if self.validate_all else _PREFIX.match
        glue = _GLUE.search
        ids, parents, types, linenos = (
            self.table.ids,
            self.table.parents,
            self.table.types,
            self.table.linenos,
        )
        names = self.type_names
        last = len(lines) - 1
        for i in range(start, len(lines)):
            raw = lines[i]
            found = match(raw) if match is not None else None
            if found is not None and raw[-1:] == b"}" and (not careful or glue(raw, 1) is None):
                kind, entry_id, parent = found.groups()
                name = names.get(kind)
                if name is None:
                    name = names[kind] = kind.decode("utf-8", "replace")
                ids.append(entry_id.decode("utf-8", "replace"))
                parents.append(None if parent is None else parent.decode("utf-8", "replace"))
                types.append(name)
                linenos.append(base + i + 1)
            elif raw.strip():
                self._slow_line(raw, base + i + 1, unterminated and i == last)

    def _slow_line(self, raw: bytes, lineno: int, is_unterminated: bool) -> None:
        custom = None if self.validate_all else _CUSTOM_PREFIX.match(raw)
        if custom is not None and _GLUE.search(raw, 1) is None:
            tail = _CUSTOM_TAIL.search(raw, max(0, len(raw) - 400))
            if tail is not None:
                entry_id, parent = tail.groups()
                self.table.ids.append(entry_id.decode("utf-8", "replace"))
                self.table.parents.append(None if parent is None else parent.decode())
                self.table.types.append(custom.group(1).decode())
                self.table.linenos.append(lineno)
                return
        try:
            record = parse_json_line(raw)
        except ValueError:
            if is_unterminated:
                message = (
                    "incomplete last line (no newline): a torn write, set aside on next append"
                )
                self.table.problems.append(Problem(lineno, "torn", message))
            else:
                self.table.problems.append(
                    Problem(lineno, "malformed", json_error(raw) + ", skipped")
                )
            return
        if is_unterminated:
            message = "last line has no newline (valid; one is added before the next append)"
            self.table.problems.append(Problem(lineno, "unterminated", message))
        self._add_record(record, lineno)

    def _add_record(self, record: Any, lineno: int) -> None:
        problems = self.table.problems
        if not isinstance(record, dict):
            kind = type(record).__name__
            problems.append(
                Problem(lineno, "not-an-entry", f"a JSON {kind}, not an object; skipped")
            )
            return
        kind = record.get("type")
        if kind == "session":
            message = "another session header; ignored (as pi does)"
            problems.append(Problem(lineno, "duplicate-header", message))
            return
        entry_id = record.get("id")
        if not isinstance(entry_id, str):
            problems.append(Problem(lineno, "not-an-entry", "entry has no string id; skipped"))
            return
        parent = record.get("parentId")
        if parent is not None and not isinstance(parent, str):
            parent = BadRef(parent)
        self.parsed[len(self.table.ids)] = record
        self.table.ids.append(entry_id)
        self.table.parents.append(parent)
        self.table.types.append(kind if isinstance(kind, str) else "")
        self.table.linenos.append(lineno)

    def result(self, ends_with_newline: bool) -> ScannedFile:
        table = self.table
        table.finish_scan()
        for row, record in self.parsed.items():
            table._parsed[row] = record
            table._lines[table.linenos[row] - 1] = None
        return ScannedFile(
            self.header, self.header_lineno, self.header_error, table, ends_with_newline
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
