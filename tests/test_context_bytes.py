"""``tether session context --json`` writes the messages and their LLM form byte for byte as
pi does (``JSON.stringify``: compact, ``1`` not ``1.0``, ``0.000001``, array-index keys first,
lone surrogates escaped, U+2028 raw), whichever of orjson or the standard path encodes them.

The goldens in tests/fixtures/pi/stringify/ are pi's own output, unchanged:
``node oracle.mjs context FILE | gzip -9n`` (the pi oracle, pi 0.73.1).
``tricky-values.jsonl`` holds the number and string forms where orjson and JS differ.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from tests.harness_helpers import NO_THIRD_PARTY
from tests.store_helpers import run_tether

HERE = Path(__file__).resolve().parent / "fixtures" / "pi"
GOLDENS = sorted((HERE / "stringify").glob("*.context.json.gz"))


def session_of(golden: Path) -> Path:
    name = golden.name.removesuffix(".context.json.gz") + ".jsonl"
    own = golden.parent / name
    return own if own.exists() else HERE / "gen" / name


def messages_part(data: bytes) -> bytes:
    """From ``,"messages":[`` to the end: both outputs end with messages, then llmMessages."""
    start = data.index(b',"messages":[')
    return data[start:].rstrip(b"\n")


@pytest.mark.parametrize("golden", GOLDENS, ids=lambda p: p.name.split(".")[0])
def test_messages_are_written_byte_for_byte_as_pi_writes_them(golden: Path) -> None:
    done = run_tether("session", "context", str(session_of(golden)), "--json", env=NO_THIRD_PARTY)
    assert done.returncode == 0, done.stderr
    ours = messages_part(done.stdout.encode("utf-8", "surrogatepass"))
    theirs = messages_part(gzip.decompress(golden.read_bytes()))
    assert ours == theirs


def test_there_are_goldens() -> None:
    assert len(GOLDENS) >= 9
