"""JavaScript string semantics that pi's formats depend on.

pi measures and cuts strings in UTF-16 code units (``str.length``), sorts with JS's default
comparison (code-unit order) and renders tool-call arguments with ``JSON.stringify``. These
helpers reproduce exactly that so tether's text equals pi's byte for byte.
"""

from __future__ import annotations

import json
import re
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_INDEX_KEY = re.compile(r"^(?:0|[1-9][0-9]{0,9})$")
_MAX_INDEX = 2**32 - 2
_MAX_SAFE = 2**53  # integers JS holds exactly lie strictly between -_MAX_SAFE and _MAX_SAFE
_encode_str = json.encoder.encode_basestring  # what json.dumps(ensure_ascii=False) uses
_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def js_len(text: str) -> int:
    """Length in UTF-16 code units (JS ``string.length``)."""
    if text.isascii():
        return len(text)
    return len(text) + len(_ASTRAL.findall(text))


def js_slice(text: str, start: int, end: int | None = None) -> str:
    """``text.slice(start, end)`` in UTF-16 units; may leave a lone surrogate, as JS does."""
    if text.isascii():
        return text[start:end]
    units = text.encode("utf-16-le", "surrogatepass")
    lo = start * 2
    hi = len(units) if end is None else end * 2
    return units[lo:hi].decode("utf-16-le", "surrogatepass")


def js_sort_key(text: str) -> bytes:
    """Sort key giving JS's default ``Array.prototype.sort`` order (UTF-16 code units)."""
    return text.encode("utf-16-be", "surrogatepass")


def js_number(value: float | int) -> str:
    """``JSON.stringify`` of a number, as JS prints it (``String(value)`` when finite): ``1``
    not ``1.0``, ``1e-7`` not ``1e-07``; an integer beyond 2**53 as the double JS holds; NaN
    and infinities ``null``."""
    if isinstance(value, int):
        if -_MAX_SAFE < value < _MAX_SAFE:
            return str(value)
        try:
            value = float(value)
        except OverflowError:
            return "null"
    if value != value or value in (float("inf"), float("-inf")):
        return "null"
    if value == 0:
        return "0"
    digits, exponent = _decompose(repr(abs(value)))
    sign = "-" if value < 0 else ""
    n = exponent + 1  # position of the decimal point relative to the digits (JS spec's n)
    k = len(digits)
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    mantissa = digits[0] + ("." + digits[1:] if k > 1 else "")
    exp = n - 1
    return f"{sign}{mantissa}e{'+' if exp >= 0 else '-'}{abs(exp)}"


def _decompose(text: str) -> tuple[str, int]:
    """Shortest round-trip digits and decimal exponent of a positive float's repr."""
    mantissa, _, exp_part = text.partition("e")
    exponent = int(exp_part) if exp_part else 0
    whole, _, frac = mantissa.partition(".")
    digits = (whole + frac).lstrip("0")
    exponent += len(whole) - 1 - (len(whole + frac) - len((whole + frac).lstrip("0")))
    return digits.rstrip("0") or "0", exponent


def js_stringify(value: Any) -> str:
    """``JSON.stringify(value)`` (compact) for JSON-shaped Python data."""
    if type(value) is str:
        return _quote(value)
    if _plain(value):
        return _encode(value)
    return _stringify(value)


def _plain(value: Any) -> bool:
    """True when ``json.dumps`` already gives JS's output (no floats, surrogates, index keys)."""
    if isinstance(value, str):
        return value.isascii() or not _SURROGATE.search(value)
    if isinstance(value, bool) or value is None or isinstance(value, int):
        return True
    if isinstance(value, dict):
        return all(
            isinstance(k, str) and not _INDEX_KEY.match(k) and _plain(k) and _plain(v)
            for k, v in value.items()
        )
    if isinstance(value, (list, tuple)):
        return all(_plain(v) for v in value)
    return False


def _quote(text: str) -> str:
    out = _encode_str(text)
    if not text.isascii() and _SURROGATE.search(text):
        out = _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", out)
    return out


def _stringify(value: Any) -> str:
    if value is None or value is True or value is False:
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return js_number(value)
    if isinstance(value, str):
        return _quote(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_stringify(v) for v in value) + "]"
    if isinstance(value, dict):
        keys = [str(k) for k in value]
        index_keys = sorted(
            (k for k in keys if _INDEX_KEY.match(k) and int(k) <= _MAX_INDEX), key=int
        )
        ordered = index_keys + [k for k in keys if k not in set(index_keys)]
        lookup = {str(k): v for k, v in value.items()}
        return "{" + ",".join(_quote(k) + ":" + _stringify(lookup[k]) for k in ordered) + "}"
    return _stringify(str(value))


__all__ = ["js_len", "js_number", "js_slice", "js_sort_key", "js_stringify"]
