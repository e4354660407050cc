"""The code blocks of the docs and of the hookspec docstrings, as data for the doc tests.

A fenced block is run by the suite unless an HTML comment right above it says
``<!-- not run: why -->``. ``text`` blocks are diagrams, not code. A block is a file of the
example project when a ``<!-- file: PATH -->`` comment stands above it or its first line is
``# PATH`` (python, toml).
"""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
HOOKSPECS = ROOT / "tether" / "hookspecs"

_FENCE = re.compile(r"^```([\w-]*)[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
_COMMENT = re.compile(r"<!--\s*(.*?)\s*-->\s*$")
_FILE_LINE = re.compile(r"#\s*([\w./-]+\.(?:py|toml|json|cfg|txt|md))\s*$")


@dataclass(frozen=True)
class Block:
    doc: str
    line: int
    lang: str
    body: str
    note: str  # the HTML comment right above the block ("" when none)

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"

    @property
    def not_run(self) -> str | None:
        """The reason given in ``<!-- not run: reason -->``, else ``None``."""
        if self.note.startswith("not run:"):
            return self.note.removeprefix("not run:").strip()
        return None

    @property
    def file(self) -> str | None:
        """The example-project file this block is, if it is one."""
        if self.note.startswith("file:"):
            return self.note.removeprefix("file:").strip()
        first = self.body.splitlines()[0] if self.body else ""
        match = _FILE_LINE.match(first) if self.lang in ("python", "toml") else None
        return match.group(1) if match else None


def doc_blocks(path: Path) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    found = []
    for match in _FENCE.finditer(text):
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        comment = _COMMENT.match(before.strip())
        found.append(
            Block(
                doc=path.name,
                line=text.count("\n", 0, match.start()) + 1,
                lang=match.group(1),
                body=match.group(2),
                note=comment.group(1) if comment else "",
            )
        )
    return found


def all_doc_blocks() -> list[Block]:
    return [block for path in sorted(DOCS.glob("*.md")) for block in doc_blocks(path)]


def hookspec_examples() -> dict[str, str]:
    """``{hook name: the code of its docstring's Example:: block}``."""
    examples = {}
    for path in sorted(HOOKSPECS.glob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(node, ast.FunctionDef):
                continue
            doc = ast.get_docstring(node) or ""
            if "Example::" not in doc:
                continue
            code = textwrap.dedent(doc.split("Example::", 1)[1]).strip("\n")
            examples[node.name] = code + "\n"
    return examples


def shell_commands(block: Block) -> list[str]:
    """The command lines of a bash block (comments and blank lines dropped)."""
    return [
        line.strip()
        for line in block.body.splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]
