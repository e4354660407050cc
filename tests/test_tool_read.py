"""The ``read`` tool on real files: pi's head truncation notices, offset/limit, images."""

from __future__ import annotations

import base64
import struct
import zlib
from pathlib import Path

import pytest

from tests.agent_fakes import execute_tool
from tether.builtin_plugins.tools.read.tool import make_read_tool
from tether.hookspecs.tools import ToolContext, ToolResult


def _read(tmp_path: Path, **args: object) -> ToolResult:
    return execute_tool(make_read_tool(), "c", dict(args), ToolContext(cwd=str(tmp_path)))


def _text(result: ToolResult) -> str:
    return result.content[0]["text"]


def _png(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (
        b"\x89PNG\r\n\x1a\n"
        + struct.pack(">I", len(ihdr))
        + chunk
        + struct.pack(">I", zlib.crc32(chunk))
    )


def test_small_file_is_returned_verbatim(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\ntwo\n")
    result = _read(tmp_path, path="a.txt")
    assert not result.is_error
    assert _text(result) == "one\ntwo\n"
    assert result.details is None


def test_line_limit_notice(tmp_path: Path) -> None:
    (tmp_path / "long.txt").write_text("\n".join(f"line {i}" for i in range(1, 2501)))
    result = _read(tmp_path, path="long.txt")
    text = _text(result)
    assert text.endswith(
        "line 2000\n\n[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]"
    )
    assert result.details["truncation"]["truncatedBy"] == "lines"
    rest = _text(_read(tmp_path, path="long.txt", offset=2001))
    assert rest.startswith("line 2001\n") and rest.endswith("line 2500")


def test_byte_limit_notice_with_offset(tmp_path: Path) -> None:
    (tmp_path / "wide.txt").write_text("\n".join("y" * 999 for _ in range(100)))
    text = _text(_read(tmp_path, path="wide.txt", offset=11))
    # 51 lines of 999 bytes + 50 newlines = 50999 bytes fit; the 52nd would not.
    assert text.endswith(
        "\n\n[Showing lines 11-61 of 100 (50.0KB limit). Use offset=62 to continue.]"
    )


def test_user_limit_notice_and_offset_past_the_end(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("a\nb\nc\nd\ne")
    assert _text(_read(tmp_path, path="f.txt", offset=2, limit=2)) == (
        "b\nc\n\n[2 more lines in file. Use offset=4 to continue.]"
    )
    assert _text(_read(tmp_path, path="f.txt", offset=4, limit=10)) == "d\ne"
    error = _read(tmp_path, path="f.txt", offset=9)
    assert error.is_error
    assert _text(error) == "Offset 9 is beyond end of file (5 lines total)"


def test_first_line_over_the_byte_limit_points_to_bash(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text("z" * 61440 + "\nsmall")
    result = _read(tmp_path, path="big.txt")
    assert _text(result) == (
        "[Line 1 is 60.0KB, exceeds 50.0KB limit. Use bash: sed -n '1p' big.txt | head -c 51200]"
    )
    assert result.details["truncation"]["firstLineExceedsLimit"] is True


def test_images_come_back_as_image_blocks(tmp_path: Path) -> None:
    png = _png(10, 20)
    (tmp_path / "pic.dat").write_bytes(png)  # detected by content, not by extension
    result = _read(tmp_path, path="pic.dat")
    assert result.content[0] == {"type": "text", "text": "Read image file [image/png]"}
    assert result.content[1] == {
        "type": "image",
        "data": base64.b64encode(png).decode(),
        "mimeType": "image/png",
    }


def test_oversized_image_without_a_resizer_is_omitted(tmp_path: Path) -> None:
    (tmp_path / "huge.png").write_bytes(_png(5000, 100))  # header only: cannot be resized
    result = _read(tmp_path, path="huge.png")
    assert len(result.content) == 1
    assert _text(result) == (
        "Read image file [image/png]\n"
        "[Image omitted: could not be resized below the inline image size limit.]"
    )


def test_home_and_absolute_paths_and_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "notes.md").write_text("from home")
    monkeypatch.setenv("HOME", str(home))
    assert _text(_read(tmp_path, path="~/notes.md")) == "from home"
    assert _text(_read(tmp_path / "home", path=str(home / "notes.md"))) == "from home"
    assert _text(_read(tmp_path, path="@home/notes.md")) == "from home"
    missing = _read(tmp_path, path="nope.txt")
    assert missing.is_error and str(tmp_path / "nope.txt") in _text(missing)
    directory = _read(tmp_path, path="home")
    assert directory.is_error and "directory" in _text(directory)
