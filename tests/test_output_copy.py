"""Writing a context's pieces in order: bytes, buffer ranges and temporary-file ranges (by
``sendfile`` into a file, through memory elsewhere) — the bytes they stand for, and the file's
position after them."""

from __future__ import annotations

import errno
import io
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tether.builtin_plugins.storage.jsonl.context import output_copy


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


def test_into_a_file_the_kernel_copies_the_file_ranges_and_the_position_follows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[int] = []
    real = os.sendfile

    def sendfile(*args: Any) -> int:
        sent.append(real(*args))
        return sent[-1]

    monkeypatch.setattr(os, "sendfile", sendfile)
    pieces, expected = pieces_and_bytes()
    assert write_to(tmp_path / "out.json", "wb", pieces) == b"before\n" + expected + b"after\n"
    assert sum(sent) == 50_000 + 29_000 + 102_400  # every file range, once


def test_where_the_kernel_refuses_the_bytes_go_through_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(*args: Any) -> int:
        raise OSError(errno.EINVAL, "no sendfile here")

    monkeypatch.setattr(os, "sendfile", refused)
    pieces, expected = pieces_and_bytes()
    assert write_to(tmp_path / "out.json", "ab", pieces) == b"before\n" + expected + b"after\n"


class Recording(io.BytesIO):
    """A writer that notes the size of each write."""

    def __init__(self) -> None:
        super().__init__()
        self.sizes: list[int] = []

    def write(self, data: Any) -> int:
        self.sizes.append(len(data))
        return super().write(data)


@pytest.mark.parametrize("kernel", [True, False])
def test_large_buffers_are_written_in_small_writes(
    monkeypatch: pytest.MonkeyPatch, kernel: bool
) -> None:
    if not kernel:
        monkeypatch.setattr(os, "sendfile", lambda *args: 0)  # the range through memory
    monkeypatch.setattr(output_copy, "WRITE_BYTES", 1000)
    pieces, expected = pieces_and_bytes()
    pieces.append(b"z" * 2500)  # bytes in a row, joined: written in slices too
    out = Recording()
    output_copy.write_pieces(out, pieces)
    assert out.getvalue() == expected + b"z" * 2500
    assert max(out.sizes) == 1000  # a large write would take large blocks of new memory
    assert sum(out.sizes) == len(expected) + 2500


def test_a_spilled_context_goes_to_its_file_in_small_writes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tether.builtin_plugins.storage.jsonl.context.encoded import EncodedContext

    monkeypatch.setattr(output_copy, "WRITE_BYTES", 512)
    spill = Recording()
    messages = [{"role": "user", "content": "x" * 300, "timestamp": n} for n in range(40)]
    encoded = EncodedContext(messages, spill_bytes=4096, spill_file=spill)  # type: ignore[arg-type]
    encoded.flush_to_file()
    assert max(spill.sizes) <= 512 and sum(spill.sizes) == encoded.size
    in_memory = EncodedContext(messages)  # type: ignore[arg-type]
    assert spill.getvalue() == in_memory.read(0, in_memory.size)


def test_a_temporary_file_shorter_than_its_range_is_an_error() -> None:
    short = tempfile.TemporaryFile()
    short.write(b"x" * 100)
    with pytest.raises(OSError, match="ended at"):
        output_copy.write_pieces(io.BytesIO(), [b"[", (short, 0, 5000), b"]"])


def test_an_output_file_is_opened_again_for_reading_where_it_can_be(tmp_path: Path) -> None:
    """A regular file opened to write only (as a shell's ``>`` opens it) is opened again for
    reading, with the position its next bytes go to; a file opened to append, a pipe and a
    buffer are not."""
    target = tmp_path / "out"
    with target.open("wb") as out:
        out.write(b"head:")
        out.flush()
        again = output_copy.reopened_for_reading(out)
        assert again is not None
        source, position = again
        with source:
            assert position == 5 and source.read() == b"head:"
    with target.open("ab") as out:
        assert output_copy.reopened_for_reading(out) is None
    read_end, write_end = os.pipe()
    with os.fdopen(read_end, "rb"), os.fdopen(write_end, "wb") as out:
        assert output_copy.reopened_for_reading(out) is None
    assert output_copy.reopened_for_reading(io.BytesIO()) is None


def test_the_stores_whole_file_writes_are_small_writes_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tether.builtin_plugins.storage.jsonl.files import fileio

    sizes: list[int] = []
    real = os.write

    def write(fd: int, data: Any) -> int:
        sizes.append(len(data))
        return real(fd, data[: len(data) - 7] if len(data) > 7 else data)  # short writes too

    monkeypatch.setattr(os, "write", write)
    data = bytes(range(256)) * 1000
    target = tmp_path / "clone.jsonl"
    fileio.write_file_durably(target, data, fsync=False)
    assert target.read_bytes() == data
    assert max(sizes) == fileio.WRITE_BYTES  # a session written out whole: 64 KB at a time
