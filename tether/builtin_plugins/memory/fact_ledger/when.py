"""Dates as values: "2024-03-15", "2024/3/15", "March 22", "22 Mar 2025", "3月22日", "2025 年
1 月 10 号" — a release date, a deadline or a freeze that moves is one value of class ``date``
(:func:`~.implicit.values`), changed as a whole, never number by number."""

from __future__ import annotations

import re

_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
_DAY = r"(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"
#: One date (not a version: "2024.1.5"): ISO or slashed with a year, a capitalized month
#: name and a day (either order, a year optional; "may 2" is no date), a Chinese 月…日/号.
DATE = re.compile(
    r"(?<![\w./-])\d{4}([-/])(?:1[0-2]|0?[1-9])\1(?:[12]\d|3[01]|0?[1-9])(?![\w/-]|\.\d)"
    rf"|\b{_MONTH}\s+{_DAY}\b(?:,?\s+\d{{4}}\b)?"
    rf"|\b{_DAY}\s+(?:of\s+)?{_MONTH}(?:\s+\d{{4}})?\b"
    r"|(?:\d{4}\s*年\s*)?(?:1[0-2]|0?[1-9])\s*月\s*(?:[12]\d|3[01]|0?[1-9])\s*[日号]"
)

__all__ = ["DATE"]
