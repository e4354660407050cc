"""The JSONL store's entry table: the kernel's, reading more from the raw lines, faster.

Timestamps and message roles are read from a line in pi's key order without parsing it, and
bulk work parses with orjson (:mod:`~tether.builtin_plugins.storage.format.fastjson`, values
proven equal to ``json``'s by tests/test_fastjson.py). Same answers as
:class:`~tether.core.storage.entry_table.EntryTable` (tests/test_fast_context.py).
"""

from __future__ import annotations

import re

from tether.builtin_plugins.storage.format import fastjson
from tether.storage import EntryTable

_STAMP = re.compile(rb'"parentId":(?:null|"[^"\\]*"),"timestamp":"([^"\\]*)"')
# a message entry's role, in pi's key order: trusted only where the line holds no other
# "role" or "message" key and no escape that could spell one (else the line is parsed: its last
# "message" and "role" keys win)
_ROLE = re.compile(
    rb'\{"type":"message","id":"[^"\\]*","parentId":(?:null|"[^"\\]*"),'
    rb'"timestamp":"[^"\\]*","message":\{"role":"([^"\\]*)"'
)


class LineTable(EntryTable):
    """An :class:`EntryTable` filled from JSONL lines (see the module docstring)."""

    fast = fastjson

    def _raw_unparsed(self, row: int) -> bytes | None:
        return None if self.is_parsed(row) else self.raw_line(row)

    def _sniff_stamp(self, row: int) -> str | None:
        raw = self._raw_unparsed(row)
        match = _STAMP.search(raw, 0, 600) if raw is not None else None
        return match.group(1).decode("utf-8", "replace") if match is not None else None

    def _sniff_role(self, row: int) -> str | None:
        raw = self._raw_unparsed(row)
        if raw is None or b"\\u" in raw:  # an escape may spell a key
            return None
        if raw.count(b'"role":') != 1 or raw.count(b'"message":') != 1:
            return None
        match = _ROLE.match(raw)
        return match.group(1).decode("utf-8", "replace") if match is not None else None


__all__ = ["LineTable"]
