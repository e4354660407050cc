"""orjson's path (tether.builtin_plugins.storage.format.fastjson) against the standard path, byte
for byte.

For a seeded random corpus of JSON values and texts, and for every line of every fixture file:
``loads`` equals the standard library's parse (same types, same key order, float bits), and
``dumps`` equals the JS-exact standard encoder (``format.dumps_record_std``). Where orjson's
own answer differs from the standard path's (or orjson refuses), the fallback is taken (for
floats: orjson again, with those floats as JS writes them).
"""

from __future__ import annotations

import json
import math
import random
import re
import struct
from pathlib import Path
from typing import Any

import orjson
import pytest

from tether.builtin_plugins.storage.format import fastjson, json_runs
from tether.builtin_plugins.storage.format.stringify import (
    dumps_bytes,
    dumps_line,
    dumps_record,
    dumps_record_std,
)

FIXTURES = Path(__file__).resolve().parent / "fixtures"
KEYS = ["a", "type", "0", "1", "12", "01", "4294967294", "4294967295", "-1", "1.5", "é", "\u2028"]
SPECIAL_FLOATS = [0.0, -0.0, 1.0, -1.0, 100.0, 1e-6, 1.5e-6, 1e-7, 1e15, 1e16, 1e20, 1e21, 5e-324]
# texts that look like what the byte searches look for: numbers after '":', "[" or ",", keys
LOOK_ALIKES = [".0,", "e+17]", "e-6}", '{"0', ',"1":', "12345678901234567890", '":1.0,', "[2.0,"]
LOOK_ALIKES += ['\\":3.0}', ":", "\\", ",4.0]", "3e-6,", '{"5":6.0}', '"0"', "-0.0,"]
SPECIAL_INTS = [0, -1, 2**53 - 1, 2**53, 2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63)]


def same(a: Any, b: Any) -> bool:
    """Equal with the same types, the same key order and the same float bits (-0.0 ≠ 0.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return struct.pack("<d", a) == struct.pack("<d", b) or (math.isnan(a) and math.isnan(b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def random_string(rng: random.Random) -> str:
    pools = [
        lambda: chr(rng.randint(32, 126)),
        lambda: chr(rng.randint(0, 31)),
        lambda: rng.choice('\u2028\u2029\x7f"\\/é中'),
        lambda: chr(rng.randint(0x10000, 0x10FFFF)),
        lambda: chr(rng.randint(0xD800, 0xDFFF)),  # a lone surrogate
        lambda: rng.choice(LOOK_ALIKES),
    ]
    weights = [60, 4, 6, 4, 1, 3]
    return "".join(rng.choices(pools, weights)[0]() for _ in range(rng.randint(0, 12)))


def random_float(rng: random.Random) -> float:
    roll = rng.random()
    if roll < 0.3:
        return rng.choice(SPECIAL_FLOATS) * rng.choice((1, -1))
    if roll < 0.5:
        return float(rng.randint(-(10**17), 10**17))
    if roll < 0.8:
        return rng.random() * 10 ** rng.randint(-12, 24)
    bits = rng.getrandbits(64)
    value = struct.unpack("<d", struct.pack("<Q", bits))[0]
    return value if math.isfinite(value) else 1.0


def random_value(rng: random.Random, depth: int = 0) -> Any:
    kinds = ["str", "int", "float", "bool", "null", "list", "dict"]
    weights = [30, 15, 15, 5, 5, 0 if depth > 3 else 12, 0 if depth > 3 else 18]
    kind = rng.choices(kinds, weights)[0]
    if kind == "str":
        return random_string(rng)
    if kind == "int":
        return rng.choice(SPECIAL_INTS) if rng.random() < 0.2 else rng.randint(-(10**6), 10**6)
    if kind == "float":
        return random_float(rng)
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "null":
        return None
    if kind == "list":
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    keys = [rng.choice(KEYS) if rng.random() < 0.3 else random_string(rng) for _ in range(5)]
    return {k: random_value(rng, depth + 1) for k in keys[: rng.randint(0, 5)]}


def corpus(count: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    return [random_value(rng) for _ in range(count)]


def check_dumps(value: Any) -> None:
    reference = dumps_record_std(value).encode("utf-8", "surrogatepass")
    fast = fastjson.dumps_or_none(value)
    if fast is not None:
        assert fast == reference, value
    assert dumps_bytes(value) == reference
    try:
        raw = orjson.dumps(value)
    except TypeError:
        raw = None
    if raw != reference:  # orjson's own bytes are never used then
        assert fast is None or fast != raw, f"orjson differs, its bytes were kept: {value!r}"


def check_loads(raw: bytes) -> None:
    try:
        reference: Any = fastjson.loads_std(raw)
    except ValueError:
        reference = ValueError
    try:
        fast: Any = fastjson.loads(raw)
    except ValueError:
        fast = ValueError
    if reference is ValueError:
        assert fast is ValueError, raw
    else:
        assert same(fast, reference), raw
    try:
        plain: Any = orjson.loads(raw)
    except ValueError:
        plain = ValueError
    if reference is ValueError or plain is ValueError or not same(plain, reference):
        assert fastjson.loads_or_none(raw) is None, f"orjson differs, no fallback: {raw!r}"


def texts_of(value: Any, rng: random.Random) -> list[bytes]:
    """Several spellings of ``value``: JS-exact, Python's (ASCII escapes, spaces), mutations."""
    out = [dumps_record_std(value).encode("utf-8", "surrogatepass")]
    try:
        out.append(json.dumps(value, ensure_ascii=rng.random() < 0.5).encode("utf-8"))
    except (UnicodeEncodeError, ValueError):
        out.append(json.dumps(value).encode())
    text = out[-1]
    out.append(text.replace(b"1", b"12345678901234567890123", 1))  # a big integer (or text)
    out.append(text.replace(b"0", b"1e400", 1))
    out.append(text[: len(text) // 2])  # truncated
    out.append(text.replace(b"a", b"\xff", 1))  # invalid UTF-8
    return out


def test_dumps_equals_the_standard_encoder_on_a_random_corpus() -> None:
    for value in corpus(6000, seed=12):
        check_dumps(value)


def test_loads_equals_the_standard_parser_on_a_random_corpus() -> None:
    rng = random.Random(13)
    for value in corpus(3000, seed=14):
        for raw in texts_of(value, rng):
            check_loads(raw)


@pytest.mark.parametrize(
    "value", [2**53, 2**64, {"1": 1, "a": 2}, [{"a": {"0": 1}}], "\ud800", "\ud83d\ude00"]
)
def test_the_fallback_is_taken_where_orjson_differs(value: Any) -> None:
    assert fastjson.dumps_or_none(value) is None
    assert dumps_bytes(value) == dumps_record_std(value).encode("utf-8", "surrogatepass")


@pytest.mark.parametrize(
    "value", [1.0, -0.0, 1e16, 1e20, 1.5e-6, [2.0], {"a": [1e17, {"b": 0.0}]}, {"e": 1e-6}]
)
def test_floats_orjson_writes_otherwise_are_written_as_js_does(value: Any) -> None:
    assert orjson.dumps(value) != dumps_record_std(value).encode()
    assert fastjson.dumps_or_none(value) == dumps_record_std(value).encode()


@pytest.mark.parametrize(
    "raw",
    [b"123456789012345678901234567890", b"[18446744073709551616]", b'"\\ud800"', b"1e400"],
)
def test_parse_fallback_where_orjson_differs_or_refuses(raw: bytes) -> None:
    assert fastjson.loads_or_none(raw) is None
    assert same(fastjson.loads(raw), json.loads(raw))


def test_every_fixture_line_parses_and_prints_the_same() -> None:
    files = sorted(FIXTURES.rglob("*.jsonl"))
    assert len(files) > 20
    lines = 0
    for path in files:
        for raw in path.read_bytes().split(b"\n"):
            check_loads(raw)
            try:
                value = fastjson.loads_std(raw)
            except ValueError:
                continue
            check_dumps(value)
            assert dumps_record(value) == dumps_record_std(value)
            assert dumps_line(value) == dumps_bytes(value) + b"\n"
            lines += 1
    assert lines > 1000


@pytest.mark.parametrize(
    "value",
    [
        {"cost": {"input": 0.5, "cacheRead": 0.0, "n": -0.0, "big": 1234567890123456.0}},
        {"text": 'say ":1.0," and \\":2.0}', "x": [3.0, -4.0], "y": {"z": 5.0}},
        [{"v1.0": "1.0,"}, 10.0, "\\u0022:6.0,"],
    ],
)
def test_integral_floats_are_fixed_in_the_bytes_without_a_second_encoding(
    value: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    reference = dumps_record_std(value).encode()
    if b"\\\\" not in orjson.dumps(value):  # no escaped backslash: the bytes are fixed in place
        monkeypatch.setattr(fastjson, "_js_floats", None)
    assert fastjson.dumps_or_none(value) == reference


@pytest.mark.parametrize("value", ['0a,"1":2.0,e+17', ["0a1b", "1.0", "e+16", ',"0":1']])
def test_texts_take_orjson_bytes_without_the_number_and_key_search(value: Any) -> None:
    """A string or a list of strings (ids, a summarizer's text) has no number and no key:
    orjson's bytes are JS's even when they look like an index key or a float."""
    assert fastjson.dumps_or_none(value) == dumps_record_std(value).encode()


def test_lines_parsed_in_a_batch_equal_each_parsed_alone() -> None:
    """One long-number search for a batch of lines; a batch with one long number, an invalid
    line or a lone surrogate gives each line's own answer."""
    rng = random.Random(15)
    lines = [raw for value in corpus(400, seed=16) for raw in texts_of(value, rng)]
    lines = [raw for raw in lines if b"\n" not in raw]
    for at in range(0, len(lines), 37):
        batch = lines[at : at + 37]
        many = fastjson.loads_many_or_none(batch)
        for raw, value in zip(batch, many, strict=True):
            alone = fastjson.loads_or_none(raw)
            assert (value is None) == (alone is None) and (value is None or same(value, alone)), raw
    plain = [b'{"a":1}', b'{"b":[1.5,"x"]}']
    assert fastjson.loads_many_or_none(plain) == [{"a": 1}, {"b": [1.5, "x"]}]


def test_objects_encoded_in_a_batch_are_written_as_js_does() -> None:
    """:func:`json_runs.dumps_many_or_none` checks a run of objects in a few searches over all
    of them: every object (index keys, integral floats, exponents, escaped backslashes,
    surrogates, integers beyond 2^53, numbers' look-alikes in texts) gets ``JSON.stringify``'s
    bytes or ``None`` (the standard path), and only the ones that need it get ``None``."""
    rng = random.Random(17)
    objects = [v for v in corpus(3000, seed=18) if v.__class__ is dict]
    odd = [
        {"cost": {"input": 0.5, "cacheRead": 0.0}, "t": 'say ":1.0," and \\":2.0}'},
        {"b": 2, "1": "a"},
        {"x": 1e-6},
        {"y": 1e16, "z": "e+16"},
        {"text": "\ud800 lone"},
        {"n": 2**60},
        {"s": "0.0,", "k": ["1", 3.0]},
        {"a": "\\", "b": 1.0, "c": 'q"2.0,'},
        {"b": -0.0, "c": 'q\\"2.0,', "a": "\\"},
        {"p": 2.5, "q": [3.0, 0.5], "r": 7.0},
        {"a:": 1.0, "b\\": 2.0, "": 3.0, "[": 4.0, "t": '[5.0,":6.0,\\":7.0}'},
        {"c": 3e-6, "d": [4e-6, "x\\"], "e": "8e-6,", "f": {"g": 1e17}},
    ]
    for _ in range(40):
        rng.shuffle(objects)
        batch = objects[: rng.randint(1, 120)] + odd
        rng.shuffle(batch)
        references = [dumps_record_std(v).encode("utf-8", "surrogatepass") for v in batch]
        outs = json_runs.dumps_many_or_none(batch)
        for value, out, reference in zip(batch, outs, references, strict=True):
            assert out is None or out == reference, value
            if out is None:  # an index key, a lone surrogate, an integer beyond 2^53 …
                assert fastjson.dumps_or_none(value) is None or _needs_care(value), value
        joined = json_runs.dumps_joined_or_none(batch)
        assert joined is None or joined == b",".join(references)
        fine = [(v, o) for v, o in zip(batch, outs, strict=True) if o is not None]
        if fine:  # the ones the batch fixed in place: at once too
            values, fixed = zip(*fine, strict=True)
            certain = json_runs.dumps_joined_or_none(list(values))
            assert certain is None or certain == b",".join(fixed)
            assert certain is not None or any(map(_needs_care, values))
    mixed = [{"a": 1.0}, [2.0], "x", {"b": 2}]  # not all objects: each alone
    assert json_runs.dumps_many_or_none(mixed) == list(map(fastjson.dumps_or_none, mixed))  # type: ignore[arg-type]


def _needs_care(value: Any) -> bool:
    """Whether orjson's bytes of ``value`` have a possible index key or a number after '":'
    that is not certainly a key's end (the two cases a batch leaves to the standard path)."""
    out = orjson.dumps(value)
    return bool(re.search(rb'"[0-9]+":|[:,\[\\{"]":-?[0-9]|[\[,]-?[0-9]+\.0[,}\]]', out))


@pytest.mark.parametrize(
    ("value", "certain"),
    [
        ({"cost": {"input": 0.0, "output": 3e-6, "n": -0.0, "t": 12.0, "u": 1e17}}, True),
        ({"t": "v1.0,", "u": "a 2.0}", "w": "pe-6,", "x": "1.0", "y": 5.0}, True),  # texts
        ({"t": 'x":1.0,'}, False),  # '\\":' may close a key or be in a text
        ({"t": ":1.0,"}, False),  # a text's opening quote after ":"
        ({"t": "[2.0,"}, False),  # "[" may start an array or be in a text
        ({"a": [1.0, 2]}, False),  # an array's item
        ({"a:": 1.0}, False),  # a key ending in ":"
    ],
)
def test_a_batch_fixes_numbers_in_place_only_where_it_is_certain(value: Any, certain: bool) -> None:
    """In a batch, a flagged number is written as JS writes it in place when the bytes before
    it show that it is a value (after '":' that closes a key); a look-alike in a text is left
    as it is; where the bytes do not tell, the object goes the careful way (alone), which
    gives the same bytes."""
    out = orjson.dumps(value)
    spots = [m.start() for m in re.finditer(rb"\.[0-9][,}\]]|e[-+][0-9]", out)]
    reference = dumps_record_std(value).encode()
    assert json_runs._numbers_fixed_at(out, spots) == (reference if certain else None)
    assert json_runs.dumps_many_or_none([value]) == [reference]
    assert json_runs.dumps_joined_or_none([value, value]) == (
        reference + b"," + reference if certain else None
    )


@pytest.mark.parametrize(
    ("value", "std"),
    [({"12": 1, "a": 2}, True), ({"a": {"0": 1}}, True), ({"a": "12", "b": ["x", "12"]}, False)],
)
def test_a_batch_leaves_index_keys_to_the_standard_path(value: Any, std: bool) -> None:
    """JS writes array-index keys ("0", "12") first: an object with one takes the standard
    path; digits in texts do not."""
    assert json_runs.dumps_many_or_none([value]) == [None if std else orjson.dumps(value)]
    assert json_runs.dumps_joined_or_none([{"x": 1}, value]) == (
        None if std else b'{"x":1},' + orjson.dumps(value)
    )
    assert dumps_bytes(value) == dumps_record_std(value).encode()


def test_a_number_with_a_fraction_and_an_exponent_is_written_whole() -> None:
    """orjson writes no "1.0e+16", but were a number so written, its "." and its "e" would
    both be flagged: it is written as JS writes the whole number, not cut after "1"."""
    out = b'{"a":1.0e+16,"b":2.0}'
    spots = [out.index(b"."), out.index(b"e+"), out.rindex(b".")]
    assert json_runs._numbers_fixed_at(out, spots) == b'{"a":10000000000000000,"b":2}'


def test_keys_of_other_digits_are_ordinary_keys() -> None:
    """JS writes only keys of ASCII digits first ("12"); "١٢" (Arabic-Indic) and "²" keep
    their place, on the standard path too (forced here by a lone surrogate), which once
    moved the first and failed on the second (``int("²")``)."""
    value = {"a": 1, "\u0661\u0662": 2, "\u00b2": 3, "12": 4}
    assert dumps_record_std(value) == '{"12":4,"a":1,"\u0661\u0662":2,"\u00b2":3}'  # node's
    forced = {**value, "s": "\ud800"}
    assert (
        dumps_bytes(forced) == '{"12":4,"a":1,"\u0661\u0662":2,"\u00b2":3,"s":"\\ud800"}'.encode()
    )


def test_an_orjson_that_writes_numbers_in_other_forms_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys
    import types

    old = types.SimpleNamespace(__version__="3.8.3", dumps=lambda value: b"[1e16,3e-6]")
    monkeypatch.setitem(sys.modules, "orjson", old)  # orjson before 3.10: "1e16", no sign
    monkeypatch.setattr(fastjson, "_orjson", None)
    with pytest.raises(RuntimeError, match=r"orjson 3\.8\.3 .*orjson>=3\.10"):
        fastjson.dumps_or_none({"cost": 1e16})
