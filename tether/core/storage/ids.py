"""Ids, timestamps and the format version, as pi writes them: the lowest layer of the format
(:mod:`tether.core.storage.records` and the JSONL store's serialization build on it).
"""

from __future__ import annotations

import os
import re
import time
import uuid
from collections.abc import Container
from typing import Any, Final

CURRENT_SESSION_VERSION: Final = 3


def new_entry_id(existing: Container[str]) -> str:
    """An 8-hex entry id not in ``existing`` (100 tries, then a full UUID), like pi's."""
    for _ in range(100):
        candidate = uuid.uuid4().hex[:8]
        if candidate not in existing:
            return candidate
    return str(uuid.uuid4())


def new_session_id() -> str:
    """A UUIDv7 (time-ordered), as pi 0.73 uses for session ids."""
    ms = time.time_ns() // 1_000_000
    rand = int.from_bytes(os.urandom(10), "big")
    value = (ms & (2**48 - 1)) << 80 | 0x7 << 76 | (rand >> 68) << 64 | 0b10 << 62
    value |= rand & (2**62 - 1)
    return str(uuid.UUID(int=value))


def now_ms() -> int:
    """Wall clock in epoch milliseconds (``Date.now()``)."""
    return time.time_ns() // 1_000_000


def iso_from_ms(ms: int) -> str:
    """``new Date(ms).toISOString()``: ``YYYY-MM-DDTHH:mm:ss.sssZ``."""
    seconds, millis = divmod(int(ms), 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{millis:03d}Z"


def iso_now() -> str:
    """The current time as pi writes entry timestamps."""
    return iso_from_ms(now_ms())


_ISO = re.compile(
    r"([+-]\d{6}|\d{4})(?:-(\d\d)(?:-(\d\d))?)?"
    r"(?:T(\d\d):(\d\d)(?::(\d\d)(?:\.(\d+))?)?(Z|[+-]\d\d:\d\d)?)?"
)


def _days_from_civil(year: int, month: int, day: int) -> int:
    year -= month <= 2
    era = (year if year >= 0 else year - 399) // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def date_parse_ms(value: Any) -> int | None:
    """``Date.parse`` for ISO timestamps (zone-less read as UTC); ``None`` where JS gives NaN.

    Follows V8's leniency for the ISO form (day up to 31 rolls over, ``24:00`` is midnight,
    any number of fraction digits); other textual date formats are not supported (``None``).
    """
    if not isinstance(value, str):
        return None
    match = _ISO.fullmatch(value)
    if match is None:
        return None
    year_t, month_t, day_t, hour_t, minute_t, second_t, frac_t, zone = match.groups()
    if year_t == "-000000":
        return None
    month, day = int(month_t or 1), int(day_t or 1)
    hour, minute, second = int(hour_t or 0), int(minute_t or 0), int(second_t or 0)
    millis = int((frac_t or "0")[:3].ljust(3, "0"))
    if not (1 <= month <= 12 and 1 <= day <= 31 and minute <= 59 and second <= 59):
        return None
    if hour > 24 or (hour == 24 and (minute or second or millis)):
        return None
    offset = 0
    if zone and zone not in ("Z", "z"):
        oh, om = int(zone[1:3]), int(zone[4:6])
        if oh > 23 or om > 59:
            return None
        offset = (oh * 60 + om) * (1 if zone[0] == "+" else -1)
    days = _days_from_civil(int(year_t), month, day)
    total = ((days * 24 + hour) * 60 + minute - offset) * 60 + second
    ms = total * 1000 + millis
    return ms if abs(ms) <= 8.64e15 else None


__all__ = [
    "CURRENT_SESSION_VERSION",
    "date_parse_ms",
    "iso_from_ms",
    "iso_now",
    "new_entry_id",
    "new_session_id",
    "now_ms",
]
