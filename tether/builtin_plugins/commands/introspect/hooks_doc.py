"""Render the hook reference (one section per hook) from the hookspec docstrings.

The docstrings are reST (``code``, :class:`Name`, ``Example::`` blocks); :func:`plain_doc`
turns them into the Markdown that ``docs/hooks.md`` and ``tether hooks NAME`` show.
"""

from __future__ import annotations

import inspect
import re
from importlib import import_module

from tether.hookspecs import SPEC_MODULES, hookspec


def _is_spec(obj: object) -> bool:
    return callable(obj) and hasattr(obj, f"{hookspec.project_name}_spec")


_ROLE = re.compile(r":[a-z]+:`(~?)([^`]+)`")
_LITERAL = re.compile(r"``(.+?)``", re.S)  # may run over a line break


def _inline(text: str) -> str:
    """``x`` and :role:`x` → `x`; :role:`~a.b.C` → `C` (reST's short form)."""
    text = _ROLE.sub(lambda m: f"`{m[2].rsplit('.', 1)[-1] if m[1] else m[2]}`", text)
    return _LITERAL.sub(r"`\1`", text)


def plain_doc(doc: str) -> str:
    """A reST docstring as Markdown: inline markup as `code`; a paragraph ending ``::`` ends
    with ``:`` and its literal block (indented) stays as it is, an indented code block."""
    out: list[str] = []
    prose: list[str] = []
    block_indent: int | None = None  # the indentation a literal block must exceed
    for line in doc.splitlines():
        indent = len(line) - len(line.lstrip())
        if block_indent is not None:
            if not line.strip() or indent > block_indent:
                out.append(line)
                continue
            block_indent = None
        if line.rstrip().endswith("::"):
            block_indent = indent
            line = line.rstrip()[:-1]
        prose.append(line)
        if block_indent is not None:
            out.append(_inline("\n".join(prose)))
            prose = []
    if prose:
        out.append(_inline("\n".join(prose)))
    return "\n".join(out)


def hooks_markdown() -> str:
    """The Markdown reference of every hook, grouped by hookspec module, in source order."""
    out = [
        "# Hook reference",
        "",
        "Generated from the hookspec docstrings by `tether hooks --markdown`; do not edit by hand.",
        "Implement a hook with `@tether.hookimpl` in a module declared as an entry point of the",
        "`tether.plugins` group. Implementations may accept any subset of the arguments.",
        "The examples use the public names of `tether` bare (`hookimpl`, `Block`, `Summary`,",
        "`FunctionTool`, …): start a plugin module with `from tether import hookimpl, Block`",
        "(or `import tether` and write `tether.Block`).",
        "",
    ]
    for module_name in SPEC_MODULES:
        module = import_module(module_name)
        doc = plain_doc(inspect.getdoc(module) or "")
        out += [f"## {module_name.rsplit('.', 1)[1]}", "", doc, ""]
        specs = [
            (name, fn)
            for name, fn in vars(module).items()
            if _is_spec(fn) and getattr(fn, "__module__", "") == module_name
        ]
        specs.sort(key=lambda item: item[1].__code__.co_firstlineno)
        for name, fn in specs:
            opts = getattr(fn, f"{hookspec.project_name}_spec")
            kind = "firstresult" if opts.get("firstresult") else "all implementations run"
            signature = str(inspect.signature(fn)).replace("'", "")
            out += [f"### `{name}`", "", f"`{name}{signature}` — {kind}", ""]
            out += [plain_doc(inspect.getdoc(fn) or ""), ""]
    return "\n".join(out).rstrip() + "\n"


__all__ = ["hooks_markdown", "plain_doc"]
