"""Index the raw lines of a session file without parsing every entry.

Loading a 100k-entry, 87 MB session must not build 100k dicts. Each line is matched against
pi's usual key order (``{"type":…,"id":…,"parentId":…,"timestamp":…``) to read the four
tree fields (and a message's ``role``) straight from the bytes; lines that do not match are
parsed in full. An entry is parsed when someone asks for it and the parsed dict replaces the
raw bytes. Malformed lines are skipped (pi's semantics: their children become orphans) and
reported with their line numbers.

A line that matches the prefix but is broken further on (e.g. a torn write glued to the next
line) is caught either by the glue check below or when it is first parsed: the row is then
removed, the problem recorded and :attr:`EntryTable.generation` bumped, so callers recompute.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

try:  # pydantic_core parses ~1.5x faster than json and imports in ~20 ms
    from pydantic_core import from_json as _from_json
except ImportError:  # pragma: no cover - pydantic is a dependency
    _from_json = None

_PREFIX = re.compile(
    rb'\{"type":"([^"\\]*)","id":"([^"\\]+)","parentId":(?:null|"([^"\\]*)"),'
    rb'"timestamp":"([^"\\]*)"(?:,"message":\{"role":"([^"\\]*)")?'
)
_CUSTOM_PREFIX = re.compile(rb'\{"type":"custom(?:_message)?","customType":"')
_CUSTOM_TAIL = re.compile(
    rb',"id":"([^"\\]+)","parentId":(?:null|"([^"\\]*)"),"timestamp":"([^"\\]*)"\}$'
)
# The start of a record where it can only be a record (quotes inside strings are escaped).
_GLUE = re.compile(
    rb'\{"type":"(?:[^"\\]*","id":"[^"\\]*","parentId":|custom(?:_message)?","customType":|session",)'
)
_BOM = b"\xef\xbb\xbf"


class StaleRow(Exception):
    """A lazily parsed line turned out malformed; the table changed — recompute."""


@dataclass(frozen=True)
class Problem:
    """Something wrong in a session file, with its 1-based line number."""

    line: int
    kind: str  # malformed | torn | not-an-entry | duplicate-header | unterminated
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


def _reject_constant(name: str) -> Any:
    raise ValueError(f"invalid JSON literal {name}")


def parse_json_line(raw: bytes) -> Any:
    """``JSON.parse`` of one line read as UTF-8 (bad bytes → U+FFFD); ``ValueError`` if invalid."""
    if _from_json is not None:
        try:
            return _from_json(raw, allow_inf_nan=False)
        except ValueError:
            pass  # lone surrogate escapes, invalid UTF-8, …: let json decide
    try:
        return json.loads(raw.decode("utf-8", "replace"), parse_constant=_reject_constant)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def json_error(raw: bytes) -> str:
    """A short description of why ``raw`` is not valid JSON."""
    try:
        json.loads(raw.decode("utf-8", "replace"), parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        return f"invalid JSON: {exc.msg} (column {exc.colno})"
    except (ValueError, RecursionError) as exc:
        return f"invalid JSON: {exc}"
    return "invalid JSON"


def _intern(cache: dict[bytes, str], raw: bytes) -> str:
    text = cache.get(raw)
    if text is None:
        text = cache[raw] = raw.decode("utf-8", "replace")
    return text


class EntryTable:
    """The entries of one session (header excluded), in file order, parsed on demand.

    Parallel lists hold the tree fields of every row; ``by_id`` maps an id to its row (a later
    duplicate wins, as in pi). Rows appended in memory carry their dict and no raw line.
    """

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.parents: list[Any] = []
        self.types: list[str] = []
        self.stamps: list[Any] = []
        self.roles: list[str | None] = []
        self.linenos: list[int] = []
        self._raw: list[bytes | None] = []
        self._parsed: list[dict[str, Any] | None] = []
        self.by_id: dict[str, int] = {}
        self.problems: list[Problem] = []
        self.generation = 0
        self._children: dict[Any, list[int]] | None = None

    def __len__(self) -> int:
        return len(self.ids)

    # ---- building ---------------------------------------------------------------------------

    def add_raw(self, raw: bytes, lineno: int, fields: tuple[Any, ...] | None) -> None:
        """Add a row from a file line; ``fields`` = (type, id, parentId, timestamp, role)."""
        if fields is None:
            self._add_parsed_line(raw, lineno)
            return
        kind, entry_id, parent, stamp, role = fields
        self._add_row(kind, entry_id, parent, stamp, role, lineno, raw, None)

    def _add_parsed_line(self, raw: bytes, lineno: int) -> None:
        try:
            record = parse_json_line(raw)
        except ValueError:
            self.problems.append(Problem(lineno, "malformed", json_error(raw) + ", skipped"))
            return
        self.add_record(record, lineno)

    def add_record(self, record: Any, lineno: int = 0) -> int:
        """Add a parsed record; returns its row or -1 when it is not an entry (problem noted)."""
        if not isinstance(record, dict):
            self.problems.append(
                Problem(
                    lineno,
                    "not-an-entry",
                    f"a JSON {type(record).__name__}, not an object; skipped",
                )
            )
            return -1
        kind = record.get("type")
        if kind == "session":
            self.problems.append(
                Problem(lineno, "duplicate-header", "another session header; ignored (as pi does)")
            )
            return -1
        entry_id = record.get("id")
        if not isinstance(entry_id, str):
            self.problems.append(Problem(lineno, "not-an-entry", "entry has no string id; skipped"))
            return -1
        message = record.get("message") if kind == "message" else None
        role = message.get("role") if isinstance(message, dict) else None
        parent = record.get("parentId")
        if parent is not None and not isinstance(parent, str):
            parent = _BadRef(parent)
        return self._add_row(
            kind, entry_id, parent, record.get("timestamp"), role, lineno, None, record
        )

    def _add_row(
        self,
        kind: Any,
        entry_id: str,
        parent: Any,
        stamp: Any,
        role: Any,
        lineno: int,
        raw: bytes | None,
        parsed: dict[str, Any] | None,
    ) -> int:
        row = len(self.ids)
        self.ids.append(entry_id)
        self.parents.append(parent)
        self.types.append(kind if isinstance(kind, str) else "")
        self.stamps.append(stamp)
        self.roles.append(role if isinstance(role, str) else None)
        self.linenos.append(lineno)
        self._raw.append(raw)
        self._parsed.append(parsed)
        self.by_id[entry_id] = row
        if self._children is not None:
            self._children.setdefault(parent, []).append(row)
        return row

    # ---- reading ----------------------------------------------------------------------------

    def entry(self, row: int) -> dict[str, Any]:
        """The full entry of ``row`` (parsed once, then cached; treat it as read-only)."""
        parsed = self._parsed[row]
        if parsed is not None:
            return parsed
        raw = self._raw[row]
        assert raw is not None
        try:
            record = parse_json_line(raw)
        except ValueError:
            record = None
        if (
            not isinstance(record, dict)
            or record.get("id") != self.ids[row]
            or record.get("type") != self.types[row]
        ):
            self._drop(row, json_error(raw) if record is None else "inconsistent entry")
            raise StaleRow(self.linenos[row])
        self._parsed[row] = record
        self._raw[row] = None
        return record

    def raw_line(self, row: int) -> bytes | None:
        """The row's original bytes while it is unparsed, else ``None``."""
        return self._raw[row]

    def row_of(self, entry_id: Any) -> int | None:
        if not isinstance(entry_id, str):
            return None
        return self.by_id.get(entry_id)

    def children_index(self) -> dict[Any, list[int]]:
        """parentId → child rows in file order (built once, kept up to date on append)."""
        if self._children is None:
            index: dict[Any, list[int]] = {}
            for row, parent in enumerate(self.parents):
                bucket = index.get(parent)
                if bucket is None:
                    index[parent] = [row]
                else:
                    bucket.append(row)
            self._children = index
        return self._children

    def rows_of_type(self, kind: str) -> Iterator[int]:
        return (row for row, t in enumerate(self.types) if t == kind)

    def _drop(self, row: int, why: str) -> None:
        self.problems.append(Problem(self.linenos[row], "malformed", f"{why}, skipped"))
        for column in (
            self.ids,
            self.parents,
            self.types,
            self.stamps,
            self.roles,
            self.linenos,
            self._raw,
            self._parsed,
        ):
            del column[row]
        self.by_id = {entry_id: i for i, entry_id in enumerate(self.ids)}
        self._children = None
        self.generation += 1


class _BadRef:
    """A ``parentId`` that is neither a string nor null: never resolves (an orphan, as in pi)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"_BadRef({self.value!r})"


@dataclass
class ScannedFile:
    """The result of :func:`scan_lines`: the header, its line, the entries and the problems."""

    header: dict[str, Any] | None
    header_lineno: int
    header_error: str
    table: EntryTable
    ends_with_newline: bool
    line_count: int

    @property
    def problems(self) -> list[Problem]:
        return self.table.problems


def _header_error(record: Any) -> str:
    if not isinstance(record, dict):
        return f"a JSON {type(record).__name__}, not an object"
    if record.get("type") != "session":
        return f'"type" is {json.dumps(record.get("type"), ensure_ascii=False)}, expected "session"'
    if not isinstance(record.get("id"), str):
        return '"id" is not a string'
    return ""


def scan_lines(lines: list[bytes], *, validate_all: bool = False) -> ScannedFile:
    """Index ``lines`` (a file split on ``\\n``; the last item is what follows the last newline).

    The first parsable record must be the header (pi skips unparsable lines before it).
    ``validate_all`` parses every line (``session show``/``repair``) instead of trusting the
    prefix match.
    """
    table = EntryTable()
    ends_with_newline = not lines or lines[-1].strip() == b""
    header: dict[str, Any] | None = None
    header_lineno = 0
    header_error = ""
    prefix_match = _PREFIX.match
    glue_search = _GLUE.search
    type_cache: dict[bytes, str] = {}
    role_cache: dict[bytes, str] = {}
    last = len(lines) - 1
    for index, raw in enumerate(lines):
        lineno = index + 1
        if header is None:
            stripped = raw.strip()
            if stripped.startswith(_BOM):
                stripped = stripped[3:].strip()
            if not stripped:
                continue
            try:
                record = parse_json_line(stripped)
            except ValueError:
                if not header_error:
                    header_lineno, header_error = lineno, json_error(stripped)
                table.problems.append(
                    Problem(lineno, "malformed", json_error(stripped) + ", skipped")
                )
                continue
            error = _header_error(record)
            if error:
                header_lineno, header_error = lineno, error
                break
            header, header_lineno, header_error = record, lineno, ""
            continue
        if not raw or (raw[:1].isspace() and not raw.strip()):
            continue
        match = None if validate_all else prefix_match(raw)
        if match is not None and raw[-1:] == b"}" and glue_search(raw, 1) is None:
            kind, entry_id, parent, stamp, role = match.groups()
            table._add_row(
                _intern(type_cache, kind),
                entry_id.decode("utf-8", "replace"),
                None if parent is None else parent.decode("utf-8", "replace"),
                stamp.decode("utf-8", "replace"),
                None if role is None else _intern(role_cache, role),
                lineno,
                raw,
                None,
            )
            continue
        if not validate_all and _CUSTOM_PREFIX.match(raw) and glue_search(raw, 1) is None:
            tail = _CUSTOM_TAIL.search(raw, max(0, len(raw) - 400))
            if tail is not None:
                entry_id, parent, stamp = tail.groups()
                kind = (
                    b"custom_message" if raw.startswith(b'{"type":"custom_message"') else b"custom"
                )
                table._add_row(
                    _intern(type_cache, kind),
                    entry_id.decode("utf-8", "replace"),
                    None if parent is None else parent.decode("utf-8", "replace"),
                    stamp.decode("utf-8", "replace"),
                    None,
                    lineno,
                    raw,
                    None,
                )
                continue
        try:
            record = parse_json_line(raw)
        except ValueError:
            if index == last and not ends_with_newline:
                table.problems.append(
                    Problem(
                        lineno,
                        "torn",
                        "incomplete last line (no newline): a torn write; "
                        "it is set aside on the next append",
                    )
                )
            else:
                table.problems.append(Problem(lineno, "malformed", json_error(raw) + ", skipped"))
            continue
        table.add_record(record, lineno)
    if header is not None and not ends_with_newline and lines and lines[-1].strip():
        torn = any(p.kind == "torn" for p in table.problems)
        if not torn:
            table.problems.append(
                Problem(
                    len(lines),
                    "unterminated",
                    "last line has no newline (valid; one is added before the next append)",
                )
            )
    return ScannedFile(header, header_lineno, header_error, table, ends_with_newline, len(lines))


def split_lines(data: bytes) -> list[bytes]:
    """``data.split(b"\\n")`` (the last item is the text after the final newline)."""
    return data.split(b"\n")


__all__ = [
    "EntryTable",
    "Problem",
    "ScannedFile",
    "StaleRow",
    "json_error",
    "parse_json_line",
    "scan_lines",
    "split_lines",
]
