"""The session header: the first parsable record of a file, as every reader finds it (blank
and malformed lines and a BOM before it skipped, as pi does), and what makes it no header."""

from __future__ import annotations

import json
import os
from typing import Any

from tether.builtin_plugins.storage.jsonl.files.fileio import read_line_at
from tether.storage import parse_json_line

MAX_LINES_BEFORE_HEADER = 1000
BOM = b"\xef\xbb\xbf"


def header_error(record: Any) -> str:
    if not isinstance(record, dict):
        return f"a JSON {type(record).__name__}, not an object"
    if record.get("type") != "session":
        kind = json.dumps(record.get("type"), ensure_ascii=False)
        return f'"type" is {kind}, expected "session"'
    if not isinstance(record.get("id"), str):
        return '"id" is not a string'
    return ""


def first_record(fd: int) -> tuple[int, Any]:
    """The first parsable record of an open file as every reader finds it (blank and
    malformed lines and a BOM before it skipped, as pi does): ``(line number, record)``, or
    ``(0, None)`` if there is none in the first lines."""
    offset, size = 0, os.fstat(fd).st_size
    for lineno in range(1, MAX_LINES_BEFORE_HEADER + 1):
        if offset >= size:
            break
        raw, offset = read_line_at(fd, offset, 16 << 20)
        text = raw.strip()
        if lineno == 1 and text.startswith(BOM):
            text = text[len(BOM) :].strip()
        if not text:
            continue
        try:
            return lineno, parse_json_line(text)
        except ValueError:
            continue
    return 0, None


__all__ = ["BOM", "MAX_LINES_BEFORE_HEADER", "first_record", "header_error"]
