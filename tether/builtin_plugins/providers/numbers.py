"""Numbers that are not finite: ``1e999`` reads as inf in Python's ``json``, ``NaN`` as nan.

Such a value in a stored usage, a provider's reported usage or models.json is treated as
absent, with one warning naming the field (:func:`warn_once`), instead of an
``OverflowError`` from ``int(inf)`` in the middle of a run.
"""

from __future__ import annotations

import math
import sys
from typing import Any

_warned: set[str] = set()


def is_non_finite(value: Any) -> bool:
    return isinstance(value, float) and not math.isfinite(value)


def describe(value: float) -> str:
    return "NaN" if value != value else ("-inf" if value < 0 else "inf")


def drop_non_finite(obj: dict[str, Any], where: str) -> list[str]:
    """Remove the non-finite numbers from ``obj`` (nested objects and lists included); one
    message per removed field, named ``where.path``."""
    out: list[str] = []
    for key in list(obj):
        value = obj[key]
        if is_non_finite(value):
            del obj[key]
            out.append(f"{where}.{key}: not a finite number ({describe(value)}); ignored")
        elif isinstance(value, dict):
            out += drop_non_finite(value, f"{where}.{key}")
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, dict):
                    out += drop_non_finite(item, f"{where}.{key}[{index}]")
    return out


def finite_or_null(value: Any) -> Any:
    """``value`` with every non-finite number replaced by ``None`` (``JSON.stringify`` writes
    ``null`` for them; Python's ``json`` would write the invalid ``Infinity``/``NaN``)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: finite_or_null(item) for key, item in value.items()}
    if isinstance(value, list):
        return [finite_or_null(item) for item in value]
    return value


def json_text(value: Any, **options: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, **options)`` that writes ``null`` for a
    non-finite number, as JavaScript does."""
    import json

    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, **options)
    except ValueError:
        return json.dumps(finite_or_null(value), ensure_ascii=False, **options)


def warn_once(message: str) -> None:
    """``tether: warning: MESSAGE`` on stderr, once per process for the same message."""
    if message in _warned:
        return
    _warned.add(message)
    try:
        sys.stderr.write(f"tether: warning: {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError):  # pragma: no cover - stderr closed
        pass


def token_count(raw: Any, key: str, where: str) -> int | None:
    """``int(raw[key])`` of a provider's usage object; ``None`` when absent or not a finite
    number (then one warning naming ``where.key``)."""
    value = raw.get(key) if isinstance(raw, dict) else None
    if value is None or value == "":
        return None
    if is_non_finite(value):
        warn_once(f"{where}.{key}: not a finite number ({describe(value)}); treated as absent")
        return None
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        warn_once(f"{where}.{key}: not a number ({value!r}); treated as absent")
        return None


__all__ = [
    "describe",
    "drop_non_finite",
    "finite_or_null",
    "json_text",
    "is_non_finite",
    "token_count",
    "warn_once",
]
