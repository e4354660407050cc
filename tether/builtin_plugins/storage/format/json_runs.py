"""Many objects encoded at once as ``JSON.stringify`` writes them, checked with a few byte
searches over all of them.

:func:`dumps_many_or_none` gives each object's bytes, :func:`dumps_joined_or_none` the whole run
joined by commas (for ``session context``: no per-object split, no second join). orjson encodes
them all; two searches flag what orjson may write otherwise than JS: one over the run's shape
(:data:`_SHAPE`) for an array-index key or an exponent (',"0': JS writes index keys first, and
``1e+16`` and ``1e-6`` as plain digits), one over the bytes themselves for an integral float
(:data:`_INTEGRAL`, ``.0`` then ``,``, ``}`` or ``]``: JS writes ``1`` for ``1.0``; a regular
expression that starts with a rare byte, several times faster than a search of the shape).
A flagged number is rewritten in place when the bytes before it show that it is a value — after
'":' whose quote follows a byte that can end a key but not start a value — and a look-alike in
a text (not after ":", "," or "[") is left alone; anything else goes the careful way
(:func:`~.fastjson.checked`, the object alone). Proven equal to the standard path by
tests/test_fastjson.py.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate
from typing import Any

from tether.builtin_plugins.storage.format.fastjson import (
    checked,
    dumps_or_none,
    dumps_orjson,
    js_number,
)


def _shape_of(byte: int) -> int:
    """The byte's class in :data:`_SHAPE`."""
    if 48 <= byte <= 57:
        return 48  # a digit: "0"
    if byte in b"{,}]e":
        return 44  # where a value starts or ends, or an exponent's "e": ","
    if byte in b'"+-':
        return 34  # a string's quote, or a sign: '"'
    return 46 if byte == 46 else 32  # "." or " "


# orjson's bytes with only their shape kept, for one search: ',"0' is an array-index key
# ('{"1' or ',"1') or an exponent ("e-6", "e+16": JS writes plain digits). A text can look
# the same (a false alarm only costs time); a real one is never missed.
_SHAPE = bytes(_shape_of(byte) for byte in range(256))
_KEY_OR_EXPONENT = b',"0'
# an integral float as orjson writes it ("1.0}": JS writes "1"), or a look-alike in a text;
# searched in the bytes themselves ("." is rare: the search skips from one to the next)
_INTEGRAL = re.compile(rb"\.0[,}\]]")
_OBJECTS = {dict}
_PLUS_ONE = (1).__add__


def dumps_many_or_none(values: list[dict[str, Any]]) -> list[bytes | None]:
    """:func:`dumps_or_none`'s bytes for each of ``values`` (objects: ``None`` where the
    standard path must answer), checked in two searches over all of them:
    only the spots those searches flag are looked at, in place where they tell for certain
    (:func:`_numbers_fixed_at`, :func:`_index_key_at`), else the object alone."""
    try:
        outs: list[bytes | None] = list(map(dumps_orjson(), values))
    except TypeError:  # one of them is refused: each alone
        return list(map(dumps_or_none, values))
    if {*map(type, values)} != _OBJECTS:
        return [checked(v, o) for v, o in zip(values, outs, strict=True)]  # type: ignore[arg-type]
    joined = b",".join(outs)  # type: ignore[arg-type]
    ends: list[int] = []  # where each value ends, its comma included
    numbers: dict[int, list[int]] = {}  # value → where its flagged numbers are
    keys: set[int] = set()  # the values with a possible index key
    integral = [match.start() for match in _INTEGRAL.finditer(joined)]
    for pattern, found in (
        (_KEY_OR_EXPONENT, _found_at(joined.translate(_SHAPE), _KEY_OR_EXPONENT)),
        (_INTEGRAL, integral),
    ):
        for at in found:
            if not ends:
                ends = list(accumulate(map(_PLUS_ONE, map(len, outs))))  # type: ignore[arg-type]
            index = bisect_right(ends, at)
            spot = at - (ends[index - 1] if index else 0)
            out: bytes = outs[index]  # type: ignore[assignment]
            if pattern is _INTEGRAL or out[spot] == 101:  # a float, or "e" then a sign
                numbers.setdefault(index, []).append(spot)
            elif out[spot + 1] == 34 and _index_key_at(out, spot + 1):
                keys.add(index)
    for index in keys:
        outs[index] = None  # JS writes index keys first: the standard path
    for index, spots in numbers.items():
        if index not in keys:
            out = outs[index]  # type: ignore[assignment]
            fixed = _numbers_fixed_at(out, sorted(spots))
            outs[index] = fixed if fixed is not None else checked(values[index], out)
    return outs


def dumps_joined_or_none(values: list[dict[str, Any]]) -> bytes | None:
    """``JSON.stringify``'s bytes of ``values`` (objects) joined by commas, checked and fixed
    over the whole run at once (as :func:`dumps_many_or_none` does, without telling the
    values apart), or ``None`` when one of them needs a closer look (then
    :func:`dumps_many_or_none` tells which)."""
    pieces = dumps_joined_pieces(values)
    return None if pieces is None else b"".join(pieces)


def dumps_joined_pieces(values: list[dict[str, Any]]) -> list[Any] | None:
    """:func:`dumps_joined_or_none`'s bytes as pieces, in order: views of orjson's bytes
    between the numbers written as JS writes them, and those numbers. A caller that copies
    the bytes on (``EncodedContext``) copies them once: no slice without the brackets, no
    join of the fixed run (77 MB each on perf-linear-100k)."""
    if {*map(type, values)} != _OBJECTS:
        return None
    try:  # the list in one call: its items joined by commas, between brackets
        out: bytes = dumps_orjson()(values)
    except TypeError:
        return None
    stop = len(out) - 1  # the items: out[1:stop]
    spots = [match.start() for match in _INTEGRAL.finditer(out, 1, stop)]
    for at in _found_at(out.translate(_SHAPE), _KEY_OR_EXPONENT):
        if out[at] == 101:  # "e" then a sign: an exponent
            spots.append(at)
        elif out[at + 1] == 34 and _index_key_at(out, at + 1):
            return None
    spots.sort()
    return _fixed_pieces(out, spots, 1, stop)


def _found_at(data: bytes, pattern: bytes) -> list[int]:
    """Where ``pattern`` (three bytes, none overlapping itself) is in ``data``."""
    found = []
    at = data.find(pattern)
    while at != -1:
        found.append(at)
        at = data.find(pattern, at + 3)
    return found


_NUMBER_CHARS = frozenset(b"0123456789.e+-")
_ENDS = frozenset(b",}]")  # what comes after a number outside strings
_VALUE_STARTS = frozenset(b":,[")  # what comes before a value outside strings
_NOT_A_KEY_END = frozenset(b'\\:,[{"')  # before '":', these leave open whose quote it is


def _numbers_fixed_at(out: bytes, spots: list[int]) -> bytes | None:
    """``out`` (orjson's bytes of an object) with the numbers at ``spots`` (ascending: a
    "." of ".0," or an "e" of ',"0' as :data:`_SHAPE` shows them) written as JS writes them,
    or ``None`` when a spot may be a number outside the strings without being certainly one
    (:func:`_fixed_pieces`)."""
    pieces = _fixed_pieces(out, spots, 0, len(out))
    if pieces is None:
        return None
    return out if len(pieces) == 1 else b"".join(pieces)


def _fixed_pieces(out: bytes, spots: list[int], start: int, stop: int) -> list[Any] | None:
    """Bytes ``start``–``stop`` of ``out`` (orjson's bytes) as pieces, in order, with the
    numbers at ``spots`` (ascending, within those bytes: a "." of ".0," or an "e" of ',"0'
    as :data:`_SHAPE` shows them) written as JS writes them, or ``None`` when a spot may be a
    number outside the strings without being certainly one.

    A number outside the strings comes after ":", "," or "[" (else it is text). After '":'
    whose quote follows a byte that can end a key but not start a value (a letter, a digit),
    the quote closes a key, so the number is a value. Other spots (array items, keys ending in
    ":" or "\\") are left to the caller's careful path."""
    view = memoryview(out)
    pieces: list[Any] = []  # views of ``out`` between the numbers, and the numbers
    for spot in spots:
        integral = out[spot] == 46  # "1.0,": JS writes "1"
        if integral and (out[spot + 1] != 48 or out[spot + 2] not in _ENDS):
            continue  # "1.5,": as JS writes it (or text: "1.0e" is no number orjson writes)
        first = spot
        while out[first - 1] in _NUMBER_CHARS:
            first -= 1
        if first < start or not 48 <= out[first + (out[first] == 45)] <= 57:
            continue  # in the number fixed already, or text such as "the-1"
        if out[first - 1] not in _VALUE_STARTS:
            continue  # inside a string
        if out[first - 2] != 34 or out[first - 1] != 58 or out[first - 3] in _NOT_A_KEY_END:
            return None  # '":' after a letter or a digit is a key's end; else not certain
        if integral:
            end = spot + 2
            written = out[first:spot] if out[first:spot] != b"-0" else b"0"
        else:
            end = spot + 1
            while out[end] in _NUMBER_CHARS:
                end += 1
            written = js_number(float(out[first:end])).encode("ascii")
            if written == out[first:end]:
                continue
        pieces += (view[start:first], written)
        start = end
    pieces.append(view[start:stop])
    return pieces


def _index_key_at(out: bytes, spot: int) -> bool:
    """Whether the '"' at ``spot`` of ``out`` (a digit after it) may open an array-index
    key, which JS writes before the other keys: only digits up to the next '"', then ":"."""
    close = out.find(b'"', spot + 1)
    return out[spot + 1 : close].isdigit() and out[close + 1 : close + 2] == b":"


__all__ = ["dumps_joined_or_none", "dumps_joined_pieces", "dumps_many_or_none"]
