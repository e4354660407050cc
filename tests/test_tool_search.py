"""``grep``, ``find`` and ``ls`` in pure Python on real trees: .gitignore, limits, notices."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.agent_fakes import execute_tool
from tether.builtin_plugins.tools.find.tool import make_find_tool
from tether.builtin_plugins.tools.grep.tool import make_grep_tool
from tether.builtin_plugins.tools.ls.tool import make_ls_tool
from tether.hookspecs.tools import ToolContext, ToolResult


def _call(tool_factory, cwd: Path, **args: object) -> ToolResult:  # noqa: ANN001
    return execute_tool(tool_factory(), "c", dict(args), ToolContext(cwd=str(cwd)))


def _text(result: ToolResult) -> str:
    return result.content[0]["text"]


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config").write_text("needle in git internals\n")
    (tmp_path / ".gitignore").write_text("build/\n*.log\n!keep.log\n/top-only.txt\n")
    (tmp_path / "src" / "pkg").mkdir(parents=True)
    (tmp_path / "src" / "main.py").write_text("import os\nneedle = 1\nprint(needle)\n")
    (tmp_path / "src" / "pkg" / "util.py").write_text("def f():\n    return 'Needle'\n")
    (tmp_path / "src" / "pkg" / ".gitignore").write_text("generated.py\n")
    (tmp_path / "src" / "pkg" / "generated.py").write_text("needle\n")
    (tmp_path / "src" / "top-only.txt").write_text("needle (not anchored here)\n")
    (tmp_path / "top-only.txt").write_text("needle\n")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "out.py").write_text("needle\n")
    (tmp_path / "debug.log").write_text("needle\n")
    (tmp_path / "keep.log").write_text("needle\n")
    (tmp_path / ".hidden.cfg").write_text("needle\n")
    (tmp_path / "blob.bin").write_bytes(b"needle\x00\x01")
    return tmp_path


def test_grep_respects_gitignore_and_skips_binaries(tree: Path) -> None:
    result = _call(make_grep_tool, tree, pattern="needle")
    assert _text(result) == "\n".join(
        [
            ".hidden.cfg:1: needle",
            "keep.log:1: needle",
            "src/main.py:2: needle = 1",
            "src/main.py:3: print(needle)",
            "src/top-only.txt:1: needle (not anchored here)",
        ]
    )
    assert result.details is None


def test_grep_options(tree: Path) -> None:
    assert _text(_call(make_grep_tool, tree, pattern="needle", ignoreCase=True, glob="*.py")) == (
        "src/main.py:2: needle = 1\nsrc/main.py:3: print(needle)\n"
        "src/pkg/util.py:2:     return 'Needle'"
    )
    assert _text(_call(make_grep_tool, tree, pattern="needle", glob="src/**/*.txt")) == (
        "src/top-only.txt:1: needle (not anchored here)"
    )
    assert _text(_call(make_grep_tool, tree, pattern="print(", literal=True)) == (
        "src/main.py:3: print(needle)"
    )
    bad = _call(make_grep_tool, tree, pattern="print(")
    assert bad.is_error and "Invalid regular expression" in _text(bad)
    assert _text(_call(make_grep_tool, tree, pattern="^import", path="src/main.py")) == (
        "main.py:1: import os"
    )
    assert _text(_call(make_grep_tool, tree, pattern="zzz")) == "No matches found"
    missing = _call(make_grep_tool, tree, pattern="x", path="nowhere")
    assert missing.is_error and _text(missing) == f"Path not found: {tree / 'nowhere'}"


def test_grep_context_limit_and_long_lines(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\ntwo hit\nthree\nfour hit\nfive\n" + "x" * 600 + " hit\n")
    ctx = _text(_call(make_grep_tool, tmp_path, pattern="hit", context=1, limit=2))
    assert ctx == (
        "a.txt-1- one\na.txt:2: two hit\na.txt-3- three\n"
        "a.txt-3- three\na.txt:4: four hit\na.txt-5- five"
        "\n\n[2 matches limit reached. Use limit=4 for more, or refine pattern]"
    )
    long = _call(make_grep_tool, tmp_path, pattern="x+ hit")
    assert _text(long) == "a.txt:6: " + "x" * 500 + "... [truncated]" + (
        "\n\n[Some lines truncated to 500 chars. Use read tool to see full lines]"
    )
    assert long.details == {"linesTruncated": True}


def test_grep_byte_limit(tmp_path: Path) -> None:
    (tmp_path / "wide.txt").write_text(("hit " + "w" * 400 + "\n") * 200)
    result = _call(make_grep_tool, tmp_path, pattern="hit", limit=500)
    assert _text(result).endswith("\n\n[50.0KB limit reached]")
    assert result.details["truncation"]["truncatedBy"] == "bytes"


def test_find_globs_and_gitignore(tree: Path) -> None:
    assert _text(_call(make_find_tool, tree, pattern="*.py")) == "src/main.py\nsrc/pkg/util.py"
    assert (
        _text(_call(make_find_tool, tree, pattern="src/**/*.py")) == "src/main.py\nsrc/pkg/util.py"
    )
    assert _text(_call(make_find_tool, tree, pattern="pkg/*.py")) == "src/pkg/util.py"
    assert _text(_call(make_find_tool, tree, pattern="*.{log,cfg}")) == ".hidden.cfg\nkeep.log"
    assert _text(_call(make_find_tool, tree, pattern="pkg")) == "src/pkg/"
    assert _text(_call(make_find_tool, tree, pattern="*.py", path="src/pkg")) == "util.py"
    assert _text(_call(make_find_tool, tree, pattern="*.rs")) == "No files found matching pattern"
    limited = _call(make_find_tool, tree, pattern="*", limit=2)
    assert _text(limited) == (
        ".gitignore\n.hidden.cfg\n\n"
        "[2 results limit reached. Use limit=4 for more, or refine pattern]"
    )
    assert limited.details == {"resultLimitReached": 2}


def test_ls_sorting_markers_and_limit(tmp_path: Path) -> None:
    for name in ("b.txt", "A.txt", ".env", "c"):
        (tmp_path / name).write_text("") if name != "c" else (tmp_path / name).mkdir()
    (tmp_path / "Dir").mkdir()
    assert _text(_call(make_ls_tool, tmp_path)) == ".env\nA.txt\nb.txt\nc/\nDir/"
    assert _text(_call(make_ls_tool, tmp_path, path="c")) == "(empty directory)"
    limited = _call(make_ls_tool, tmp_path, limit=2)
    assert _text(limited) == ".env\nA.txt\n\n[2 entries limit reached. Use limit=4 for more]"
    assert limited.details == {"entryLimitReached": 2}
    not_dir = _call(make_ls_tool, tmp_path, path="b.txt")
    assert not_dir.is_error and _text(not_dir) == f"Not a directory: {tmp_path / 'b.txt'}"
