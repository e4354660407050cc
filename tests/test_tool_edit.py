"""The ``write`` and ``edit`` tools on real files."""

from __future__ import annotations

import json
from pathlib import Path

from tests.agent_fakes import execute_tool
from tether.builtin_plugins.storage.format.jscompat import js_len
from tether.builtin_plugins.tools.edit.tool import make_edit_tool
from tether.builtin_plugins.tools.write.tool import make_write_tool
from tether.hookspecs.tools import ToolContext, ToolResult


def _edit(tmp_path: Path, **args: object) -> ToolResult:
    return execute_tool(make_edit_tool(), "c", dict(args), ToolContext(cwd=str(tmp_path)))


def _text(result: ToolResult) -> str:
    return result.content[0]["text"]


def test_write_creates_parent_directories_and_overwrites(tmp_path: Path) -> None:
    ctx = ToolContext(cwd=str(tmp_path))
    result = execute_tool(make_write_tool(), "c", {"path": "a/b/c.txt", "content": "héllo"}, ctx)
    assert not result.is_error
    assert (tmp_path / "a" / "b" / "c.txt").read_text(encoding="utf-8") == "héllo"
    # Deliberate difference: pi reports the string length (5) as "bytes"; tether the real bytes.
    assert js_len("héllo") == 5
    assert _text(result) == "Successfully wrote 6 bytes to a/b/c.txt"
    execute_tool(make_write_tool(), "c", {"path": "a/b/c.txt", "content": "new\r\n"}, ctx)
    assert (tmp_path / "a" / "b" / "c.txt").read_bytes() == b"new\r\n"


def test_several_edits_in_one_call_with_a_numbered_diff(tmp_path: Path) -> None:
    target = tmp_path / "m.py"
    target.write_text("".join(f"line{i}\n" for i in range(1, 21)))
    result = _edit(
        tmp_path,
        path="m.py",
        edits=[
            {"oldText": "line15\n", "newText": "LINE15\n"},
            {"oldText": "line3\n", "newText": ""},
        ],
    )
    assert _text(result) == "Successfully replaced 2 block(s) in m.py."
    content = target.read_text()
    assert "line3\n" not in content and "LINE15\n" in content and "line13\n" in content
    # pi's diff layout: 4 context lines around changes, "..." for skipped ones, old numbers
    # for removed/context lines, new numbers for added ones.
    assert result.details["diff"].split("\n") == [
        "  1 line1", "  2 line2", "- 3 line3",
        "  4 line4", "  5 line5", "  6 line6", "  7 line7", "    ...",
        " 11 line11", " 12 line12", " 13 line13", " 14 line14",
        "-15 line15", "+14 LINE15",
        " 16 line16", " 17 line17", " 18 line18", " 19 line19", "    ...",
    ]  # fmt: skip
    assert result.details["firstChangedLine"] == 3


def test_missing_ambiguous_overlapping_and_empty_texts(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("alpha beta\nalpha gamma\n")
    before = (tmp_path / "f.txt").read_text()
    one = _edit(tmp_path, path="f.txt", edits=[{"oldText": "delta", "newText": "x"}])
    assert one.is_error and _text(one) == (
        "Could not find the exact text in f.txt. The old text must match exactly including all "
        "whitespace and newlines."
    )
    many = _edit(
        tmp_path,
        path="f.txt",
        edits=[{"oldText": "beta", "newText": "b"}, {"oldText": "delta", "newText": "d"}],
    )
    assert _text(many).startswith("Could not find edits[1] in f.txt.")
    dup = _edit(tmp_path, path="f.txt", edits=[{"oldText": "alpha", "newText": "a"}])
    assert _text(dup) == (
        "Found 2 occurrences of the text in f.txt. The text must be unique. Please provide more "
        "context to make it unique."
    )
    overlap = _edit(
        tmp_path,
        path="f.txt",
        edits=[
            {"oldText": "alpha beta", "newText": "x"},
            {"oldText": "beta\nalpha", "newText": "y"},
        ],
    )
    assert _text(overlap) == (
        "edits[0] and edits[1] overlap in f.txt. "
        "Merge them into one edit or target disjoint regions."
    )
    empty = _edit(tmp_path, path="f.txt", edits=[{"oldText": "", "newText": "x"}])
    assert _text(empty) == "oldText must not be empty in f.txt."
    same = _edit(tmp_path, path="f.txt", edits=[{"oldText": "beta", "newText": "beta"}])
    assert _text(same).startswith("No changes made to f.txt.")
    none = _edit(tmp_path, path="f.txt", edits=[])
    assert _text(none) == "Edit tool input is invalid. edits must contain at least one replacement."
    assert (tmp_path / "f.txt").read_text() == before  # nothing written by failed edits
    gone = _edit(tmp_path, path="nope.txt", edits=[{"oldText": "a", "newText": "b"}])
    assert _text(gone) == "Could not edit file: nope.txt. Error code: ENOENT."


def test_crlf_and_bom_are_preserved(tmp_path: Path) -> None:
    target = tmp_path / "w.txt"
    target.write_bytes("\ufeffone\r\ntwo\r\nthree\r\n".encode())
    result = _edit(tmp_path, path="w.txt", edits=[{"oldText": "one\ntwo", "newText": "1\n2"}])
    assert not result.is_error
    assert target.read_bytes() == "\ufeff1\r\n2\r\nthree\r\n".encode()


def test_tolerant_match_and_legacy_argument_shapes(tmp_path: Path) -> None:
    target = tmp_path / "q.txt"
    target.write_text("say \u201chello\u201d   \nend\n")
    result = _edit(tmp_path, path="q.txt", oldText='say "hello"', newText="say hi")
    assert not result.is_error
    assert target.read_text() == "say hi\nend\n"
    as_string = json.dumps([{"oldText": "end", "newText": "stop"}])
    assert not _edit(tmp_path, path="q.txt", edits=as_string).is_error
    assert target.read_text() == "say hi\nstop\n"
