"""Writing a context's pieces: in order, or at offsets on two threads into a regular file —
the same bytes either way, and the file's position after them."""

from __future__ import annotations

import errno
import io
import os
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest

from tether.core.context import output_copy


def pieces_and_bytes() -> tuple[list[Any], bytes]:
    """Pieces of every kind — bytes, ranges of a buffer, ranges of two temporary files — and
    the bytes they stand for."""
    first = tempfile.TemporaryFile()
    first.write(bytes(range(256)) * 400)  # flushed by the writer, not here
    second = tempfile.TemporaryFile()
    second.write(b"abcdefghij" * 3000)
    buffer = bytearray(b"0123456789" * 500)
    pieces: list[Any] = [
        b'{"messages":[',
        (first, 10, 50_000),
        b",",
        (buffer, 3, 4000),
        b"",
        (second, 0, 0),
        (second, 7, 29_000),
        b"],",
        b'"llmMessages":[',
        (first, 0, 102_400),
        (buffer, 0, 5000),
        b"]}\n",
    ]
    expected = (
        b'{"messages":['
        + (bytes(range(256)) * 400)[10:50_010]
        + b","
        + bytes(buffer[3:4003])
        + (b"abcdefghij" * 3000)[7:29_007]
        + b'],"llmMessages":['
        + bytes(range(256)) * 400
        + bytes(buffer)
        + b"]}\n"
    )
    return pieces, expected


def write_to(target: Path, mode: str, pieces: list[Any]) -> bytes:
    with target.open(mode) as raw:
        raw.write(b"before\n")  # buffered, not yet in the file: the writer flushes it
        output_copy.write_pieces(raw, pieces)
        raw.write(b"after\n")  # where the pieces end
    return target.read_bytes()


def test_in_order_the_bytes_the_pieces_stand_for() -> None:
    pieces, expected = pieces_and_bytes()
    out = io.BytesIO()
    output_copy.write_pieces(out, pieces)
    assert out.getvalue() == expected


def test_two_threads_at_offsets_write_the_same_bytes_and_leave_the_position_after_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(output_copy, "PARALLEL_BYTES", 1)
    threads: set[int] = set()
    real = os.copy_file_range

    def copy_file_range(*args: Any) -> int:
        threads.add(threading.get_ident())
        return real(*args)

    monkeypatch.setattr(os, "copy_file_range", copy_file_range)
    pieces, expected = pieces_and_bytes()
    assert write_to(tmp_path / "out.json", "wb", pieces) == b"before\n" + expected + b"after\n"
    assert len(threads) == 2  # both halves copied by the kernel, each on its own thread


def test_without_copy_file_range_between_the_files_the_bytes_go_through_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(output_copy, "PARALLEL_BYTES", 1)

    def refused(*args: Any) -> int:
        raise OSError(errno.EXDEV, "cross-device")

    monkeypatch.setattr(os, "copy_file_range", refused)
    pieces, expected = pieces_and_bytes()
    assert write_to(tmp_path / "out.json", "wb", pieces) == b"before\n" + expected + b"after\n"


def test_a_file_opened_for_appending_is_written_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pwrite to an O_APPEND file appends wherever it is asked to write: never at offsets."""
    monkeypatch.setattr(output_copy, "PARALLEL_BYTES", 1)
    target = tmp_path / "out.json"
    target.write_bytes(b"old\n")
    pieces, expected = pieces_and_bytes()
    assert write_to(target, "ab", pieces) == b"old\nbefore\n" + expected + b"after\n"


def test_a_temporary_file_shorter_than_its_range_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(output_copy, "PARALLEL_BYTES", 1)
    short = tempfile.TemporaryFile()
    short.write(b"x" * 100)
    with (tmp_path / "out.json").open("wb") as raw, pytest.raises(OSError, match="ended at"):
        output_copy.write_pieces(raw, [b"[", (short, 0, 5000), b"]"])
