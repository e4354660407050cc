"""Fast JSON: orjson where its answer is exactly the standard path's, the standard path elsewhere.

:func:`loads` is :func:`loads_std`'s result (the standard library's ``json.loads`` of the
UTF-8 text, ``NaN``/``Infinity`` literals refused) computed by orjson when orjson's answer is
the same. orjson refuses lone surrogate escapes, invalid UTF-8,
``1e400`` and deep nesting (then the standard path answers), and it reads integers beyond 64
bits as floats where Python keeps them exact: a line with a run of 19 or more digits is left
to the standard path.

:func:`dumps_or_none` is :func:`tether.builtin_plugins.storage.format.stringify.dumps_record`
(JavaScript's
``JSON.stringify``: compact, raw non-ASCII, U+2028/2029 unescaped, non-finite numbers as
``null``) as UTF-8 bytes, computed by orjson when its bytes are the same. They differ for a few
number forms (``1.0`` vs JS ``1``, ``1e+16`` … ``1e+20`` and ``1e-6`` vs JS's plain digits,
integers beyond 2^53), array-index keys (JS writes ``"0"``, ``"12"`` first) and strings
holding surrogates (orjson refuses them). orjson refuses the integers and the surrogates (the
standard path answers); the rest is caught by a few byte searches over its output: a value
with such a number is encoded again with its floats as JS writes them (``orjson.Fragment``),
one with a possible index key takes the standard path (a false alarm in a text costs only
time). :mod:`.json_runs` searches a run of objects at once and rewrites a flagged number in
place where the bytes before it show that it is a value, not text.

Both are proven equal to the standard path, byte for byte, by tests/test_fastjson.py on a
random corpus and every fixture line.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from tether.builtin_plugins.storage.format.jscompat import js_number
from tether.storage import loads_std

_orjson: Any = None
_DIGITS = bytes(48 if 48 <= byte <= 57 else 32 for byte in range(256))  # digit → "0", else " "
_LONG_NUMBER = b"0" * 19  # an integer that may not fit 64 bits (orjson makes it a float)


def _shape_of(byte: int) -> int:
    """The byte's class in :data:`_SHAPE`."""
    if byte == 48:
        return 48  # "0"
    if 49 <= byte <= 57:
        return 49  # other digits: "1"
    if byte in b"{,}]":
        return 44  # where a value starts or ends: ","
    if byte == 45:
        return 43  # "-" as "+"
    return byte if byte in b'".e+' else 32


# orjson's output with only its shape kept, for a few searches: an array-index key is ',"0'
# or ',"1' (a quote after "{" or "," opens a string); a number orjson writes otherwise than
# JS — an integral float ("1.0", "-0.0", JS "1", "0"), exponents +16…+20 (JS: plain digits),
# -6 (JS: "0.000001") — is ".0," or starts with "e+1" ("e+10," "e+11," "e+1,"). A text can
# look the same (a false alarm only costs time); a real one is never missed.
_SHAPE = bytes(_shape_of(byte) for byte in range(256))
_FLOAT_FORMS = (b"e+1,", b"e+10,", b"e+11,")
_FLOAT_ENDS = (b".0", b"e+1", b"e+10", b"e+11")


_OPTIONS = 0


def _lib() -> Any:
    """orjson, imported on first use (~10 ms)."""
    global _orjson, _OPTIONS
    if _orjson is None:
        import orjson

        if orjson.dumps([1e16, 3e-6]) != b"[1e+16,3e-6]":  # the forms _SHAPE looks for
            version = getattr(orjson, "__version__", "?")
            raise RuntimeError(
                f"orjson {version} writes numbers in forms tether does not check for;"
                " it needs orjson>=3.10 (pip install -U orjson)"
            )
        # refuse what the standard path writes otherwise or refuses: integers beyond 2^53
        # (JS rounds them), dataclasses, dates, subclasses of str/int/dict/list
        _OPTIONS = (
            orjson.OPT_STRICT_INTEGER
            | orjson.OPT_PASSTHROUGH_DATACLASS
            | orjson.OPT_PASSTHROUGH_DATETIME
            | orjson.OPT_PASSTHROUGH_SUBCLASS
        )
        _orjson = orjson
    return _orjson


def loads(raw: bytes) -> Any:
    """:func:`loads_std`'s value of ``raw``, by orjson when its answer is the same."""
    if _LONG_NUMBER not in raw.translate(_DIGITS):
        try:
            return _lib().loads(raw)
        except ValueError:
            pass  # refused: the standard path decides (and says why)
    return loads_std(raw)


def loads_or_none(raw: bytes) -> Any:
    """orjson's value of ``raw`` when it is the standard path's, else ``None`` (then the
    caller takes its careful path)."""
    if _LONG_NUMBER in raw.translate(_DIGITS):
        return None
    try:
        return _lib().loads(raw)
    except ValueError:
        return None


def loads_many_or_none(raws: list[bytes]) -> list[Any]:
    """:func:`loads_or_none` of each of ``raws``, with one search for long numbers over all
    of them (lines of a file: no newline inside)."""
    lib = _lib()
    if _LONG_NUMBER in b" ".join(raws).translate(_DIGITS):
        return [loads_or_none(raw) for raw in raws]
    loads = lib.loads
    out: list[Any] = []
    append = out.append
    for raw in raws:
        try:
            append(loads(raw))
        except ValueError:
            append(None)
    return out


def loads_orjson() -> Any:
    """orjson's parser itself (``ValueError`` on what it refuses), for a caller that parses
    many values in one call and checks them as :func:`loads_to_write`'s caller would."""
    return _lib().loads


def loads_to_write(raw: bytes | memoryview) -> Any:
    """orjson's value of ``raw``, or ``None`` when it refuses: for values that are only
    written again as JSON. An integer beyond 64 bits is then a float, as JavaScript reads it,
    and :func:`dumps_or_none` writes the same text for both (JS's)."""
    try:
        return _lib().loads(raw)
    except ValueError:
        return None


def dumps_or_none(value: Any) -> bytes | None:
    """orjson's bytes for ``value`` when they are ``JSON.stringify``'s, else ``None`` (then
    the caller takes the standard path,
    :func:`tether.builtin_plugins.storage.format.stringify.dumps_record`).

    A value whose floats orjson writes otherwise is encoded again with those floats as JS
    writes them (:func:`js_number`, as the standard path does).
    """
    lib = _lib()
    try:
        out: bytes = lib.dumps(value, option=_OPTIONS)
    except TypeError:  # surrogates, integers beyond 2^53, keys that are not strings, …
        return None
    return checked(value, out)


def dumps_orjson() -> Any:
    """orjson's encoder with the options :func:`dumps_or_none` uses, for a caller that encodes
    many values in one call and checks them as it does (:mod:`.json_runs`)."""
    lib = _lib()
    return partial(lib.dumps, option=_OPTIONS)


def checked(value: Any, out: bytes) -> bytes | None:
    """``out`` (orjson's bytes of ``value``) made ``JSON.stringify``'s, or ``None``."""
    cls = value.__class__
    if cls is str or (cls is list and all(item.__class__ is str for item in value)):
        return out  # texts only: no number, no key
    shape = out.translate(_SHAPE)
    if b',"0' in shape or b',"1' in shape:
        return None  # maybe an array-index key (JS orders them first)
    if (b"e+1" in shape and _float_forms(shape)) or shape.endswith(_FLOAT_ENDS):
        return _with_js_floats(value)
    if b".0," in shape:
        return _integral_floats_fixed(out) or _with_js_floats(value)
    return out


def _with_js_floats(value: Any) -> bytes | None:
    """orjson's bytes of ``value`` with its floats as JS writes them (:func:`_js_floats`)."""
    lib = _orjson
    try:
        return bytes(lib.dumps(_js_floats(value), option=_OPTIONS))
    except (TypeError, RecursionError):
        return None


_INTEGRAL_ENDS = (b".0,", b".0}", b".0]")  # ".0" then the end of a number
_PLUS_ONE = (1).__add__


def _integral_floats_fixed(out: bytes) -> bytes | None:
    """``out`` (orjson's bytes of a container) with each integral float outside the strings
    written as JS writes it (``1.0`` → ``1``, ``-0.0`` → ``0``), or ``None`` when ``out``
    has an escaped backslash (then a quote's parity does not tell where strings are)."""
    ends = []  # where each ".0" ending a number (or a look-alike in a string) starts
    for pattern in _INTEGRAL_ENDS:
        pos = out.find(pattern)
        while pos != -1:
            ends.append(pos)
            pos = out.find(pattern, pos + 3)
    return _integral_floats_at(out, sorted(ends))


def _integral_floats_at(out: bytes, dots: list[int]) -> bytes | None:
    """:func:`_integral_floats_fixed` given where the candidates' dots are (ascending: each
    a "." then a "0" and the end of a number, as :data:`_SHAPE` shows them)."""
    if not dots:
        return out
    if out.find(b"\\\\", 0, dots[-1]) != -1:
        return None
    pieces: list[bytes] = []
    start = counted = quotes = 0  # quotes before ``counted`` (never inside an escape)
    for pos in dots:
        if out[pos + 1] != 48:  # "0"
            continue
        quotes += out.count(b'"', counted, pos)
        if out.count(b"\\", counted, pos):
            quotes -= out.count(b'\\"', counted, pos)
        counted = pos  # a "." here: no escaped quote straddles it
        if not quotes & 1:  # outside a string: the end of a number "-?digits.0"
            first = pos
            while 48 <= out[first - 1] <= 57:
                first -= 1
            if out[first - 1] == 45:  # "-"
                first -= 1
            digits = out[first:pos]
            pieces.append(out[start:first])
            pieces.append(b"0" if digits == b"-0" else digits)
            start = pos + 2
    if not pieces:
        return out
    pieces.append(out[start:])
    return b"".join(pieces)


def _float_forms(shape: bytes) -> bool:
    """Whether ``shape`` (holding "e+1") has a number orjson writes otherwise than JS."""
    for form in _FLOAT_FORMS:
        if form in shape:
            return True
    return False


_PLAIN = frozenset({str, int, bool, type(None)})


def _js_floats(value: Any) -> Any:
    """``value`` with every float orjson writes otherwise than JS replaced by JS's text (an
    ``orjson.Fragment``): integral ones, and those from 1e-6 to 1e-5."""
    cls = value.__class__
    if cls is dict:
        return {k: v if v.__class__ in _PLAIN else _js_floats(v) for k, v in value.items()}
    if cls is list or cls is tuple:
        return [v if v.__class__ in _PLAIN else _js_floats(v) for v in value]
    if cls is float and (value.is_integer() or 1e-6 <= abs(value) < 1e-5):
        return _orjson.Fragment(js_number(value).encode("ascii"))
    return value


__all__ = [
    "checked",
    "dumps_or_none",
    "dumps_orjson",
    "js_number",
    "loads",
    "loads_many_or_none",
    "loads_or_none",
    "loads_orjson",
    "loads_std",
    "loads_to_write",
]
