"""pi's session migrations v1 → v2 → v3, keeping untouched lines byte-identical.

v1 → v2: the header gets ``version`` (a new key, so it lands last); every other record gets an
``id`` and ``parentId`` = the previous record's id (appended after its keys); a
compaction's ``firstKeptEntryIndex`` (an index into the record list, header = 0) becomes
``firstKeptEntryId`` and is deleted. v2 → v3: ``version = 3``; ``message`` entries with role
``hookMessage`` get role ``custom``. Unlike pi, generated ids are really collision-checked, and
they are derived from the session id and the record's position
(:func:`derived_entry_id`), so every read of an unmigrated file shows
the same ids and the rewrite at the first write stores exactly those (pi's are random).

Records whose only change is keys appended at the end are written by splicing the new keys
into their original bytes, so their content stays byte-for-byte what it was; other changed
records are re-serialized with :func:`tether.builtin_plugins.storage.format.stringify.dumps_record`.
"""

from __future__ import annotations

from collections.abc import Callable, Container
from dataclasses import dataclass, field
from typing import Any

from tether.builtin_plugins.storage.format.stringify import dumps_record
from tether.storage import CURRENT_SESSION_VERSION, parse_json_object

IdFactory = Callable[[set[str]], str]
BOM = b"\xef\xbb\xbf"


def derived_entry_id(session_id: str, index: int, existing: Container[str]) -> str:
    """The 8-hex id of record ``index`` of a migrated v1 file, the same on every read: sha256
    of ``"{session_id}:{index}"``; if taken, of ``"{session_id}:{index}:{n}"`` (n = 1, 2, …)."""
    import hashlib  # only v1/v2 files need it: not imported at every start

    seed, attempt = f"{session_id}:{index}", 0
    while True:
        key = seed if attempt == 0 else f"{seed}:{attempt}"
        digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
        candidate = digest[:8] if attempt < 100 else digest[:32]
        if candidate not in existing:
            return candidate
        attempt += 1


def header_version(header: dict[str, Any]) -> float:
    """pi's ``header.version ?? 1``, compared as JavaScript compares it with a number: a
    numeric string such as ``"3"`` is that number; any other value counts as current (never
    migrated)."""
    version = header.get("version")
    if version is None:
        return 1
    if isinstance(version, str):
        number = _js_number(version)
        return CURRENT_SESSION_VERSION if number is None else number
    if isinstance(version, bool) or not isinstance(version, (int, float)):
        return CURRENT_SESSION_VERSION
    return version


def _js_number(text: str) -> float | None:
    """JavaScript's ``Number(text)`` (``None`` where it is ``NaN``)."""
    stripped = text.strip()
    if not stripped:
        return 0
    if stripped.lstrip("+-") == "Infinity":
        return float(stripped.replace("Infinity", "inf"))
    if stripped[:2].lower() in ("0x", "0o", "0b"):
        try:
            return int(stripped, 0)
        except ValueError:
            return None
    if not all(c in "0123456789+-.eE" for c in stripped):
        return None  # also Python's "inf", "nan" and "1_0", which JavaScript reads as NaN
    try:
        return float(stripped)
    except ValueError:
        return None


@dataclass
class MigratedRecord:
    """One record after migration and how to write it."""

    record: dict[str, Any]
    raw: bytes | None  # original line (without newline), None for records we cannot splice
    appended: list[str] = field(default_factory=list)  # keys added at the end
    rewritten: bool = False  # changed inside: write canonically

    def line(self) -> bytes:
        if self.rewritten or self.raw is None:
            return dumps_record(self.record).encode("utf-8")
        if not self.appended:
            return self.raw
        body = self.raw.rstrip()
        assert body.endswith(b"}")
        extra = ",".join(
            dumps_record(key) + ":" + dumps_record(self.record[key]) for key in self.appended
        ).encode("utf-8")
        inner = body[:-1]
        sep = b"" if inner.rstrip().endswith(b"{") else b","
        return inner + sep + extra + b"}"


def migrate(records: list[MigratedRecord], new_id: IdFactory | None = None) -> bool:
    """Migrate in place (``records[0]`` is the header); return True if anything changed.
    ``new_id`` replaces the derived v1 ids (tests number them like pi's oracle)."""
    if not records:
        return False
    version = header_version(records[0].record)
    if version >= CURRENT_SESSION_VERSION:
        return False
    if version < 2:
        _v1_to_v2(records, new_id)
    if version < 3:
        _v2_to_v3(records)
    return True


def migrate_bytes(data: bytes, new_id: IdFactory | None = None) -> bytes:
    """A whole v1/v2 file migrated to v3: every readable record, one per line (malformed lines
    are dropped, as pi's rewrite does; a UTF-8 BOM before the header is dropped too)."""
    items: list[MigratedRecord] = []
    for raw in data.split(b"\n"):
        raw = raw.strip()
        if not items and raw.startswith(BOM):
            raw = raw[len(BOM) :].strip()
        record = parse_json_object(raw)  # blank and malformed lines are dropped
        if record is not None:
            items.append(MigratedRecord(record, raw))
    migrate(items, new_id)
    return b"".join(item.line() + b"\n" for item in items)


def _set(item: MigratedRecord, key: str, value: Any) -> None:
    if key in item.appended:
        pass
    elif key in item.record:
        item.rewritten = item.rewritten or item.record[key] != value
    else:
        item.appended.append(key)
    item.record[key] = value


def _v1_to_v2(records: list[MigratedRecord], new_id: IdFactory | None) -> None:
    used: set[str] = set()
    previous: str | None = None
    session_id = str(records[0].record.get("id"))
    for index, item in enumerate(records):
        record = item.record
        if record.get("type") == "session":
            _set(item, "version", 2)
            continue
        entry_id = new_id(used) if new_id else derived_entry_id(session_id, index, used)
        used.add(entry_id)
        _set(item, "id", entry_id)
        _set(item, "parentId", previous)
        previous = entry_id
        if record.get("type") == "compaction":
            index = record.get("firstKeptEntryIndex")
            if isinstance(index, (int, float)) and not isinstance(index, bool):
                target = records[int(index)].record if 0 <= index < len(records) else None
                if index == int(index) and target is not None and target.get("type") != "session":
                    if "id" in target:  # a later record has no id yet: pi writes nothing
                        _set(item, "firstKeptEntryId", target["id"])
                del record["firstKeptEntryIndex"]
                item.rewritten = True


def _v2_to_v3(records: list[MigratedRecord]) -> None:
    for item in records:
        record = item.record
        if record.get("type") == "session":
            _set(item, "version", 3)
            continue
        message = record.get("message") if record.get("type") == "message" else None
        if isinstance(message, dict) and message.get("role") == "hookMessage":
            message["role"] = "custom"
            item.rewritten = True


__all__ = ["BOM", "IdFactory", "MigratedRecord", "header_version", "migrate", "migrate_bytes"]
