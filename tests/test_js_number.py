"""One JavaScript number formatter (issue 24): the kernel's ``js_number`` writes every number
as ``JSON.stringify`` does, integers beyond 2**53 included, and the session writer's numbers
are the same text."""

from __future__ import annotations

import random
import struct

import pytest

from tether.builtin_plugins.memory.serialize import js_text
from tether.builtin_plugins.storage.format.jscompat import js_number
from tether.builtin_plugins.storage.format.stringify import js_number as written_number


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0, "0"),
        (-7, "-7"),
        (2**53 - 1, "9007199254740991"),
        (2**53 + 1, "9007199254740992"),  # JS holds the nearest double
        (2**64, "18446744073709552000"),
        (-(2**70) + 1, "-1.1805916207174113e+21"),
        (10**400, "null"),  # Infinity in JS
        (1.0, "1"),
        (1e-7, "1e-7"),
        (1e21, "1e+21"),
        (123456789012345680000.0, "123456789012345680000"),
        (float("nan"), "null"),
    ],
)
def test_js_number_writes_numbers_as_javascript(value: float | int, text: str) -> None:
    assert js_number(value) == text


def test_a_summarized_number_text_is_javascript_string() -> None:
    assert js_text(2**64) == "18446744073709552000"


def test_the_session_writer_and_the_kernel_write_every_number_alike() -> None:
    rnd = random.Random(24)
    values: list[float | int] = [2**53 + k for k in range(-3, 4)] + [10**30, -(10**400)]
    for _ in range(20000):
        values.append(struct.unpack("<d", struct.pack("<Q", rnd.getrandbits(64)))[0])
        values.append(rnd.randint(-(2**80), 2**80))
    assert [v for v in values if js_number(v) != written_number(v)] == []
