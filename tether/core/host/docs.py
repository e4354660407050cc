"""Render the hook reference (one section per hook) from the hookspec docstrings."""

from __future__ import annotations

import inspect
from importlib import import_module

from tether.hookspecs import SPEC_MODULES, hookspec


def _is_spec(obj: object) -> bool:
    return callable(obj) and hasattr(obj, f"{hookspec.project_name}_spec")


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
        out += [f"## {module_name.rsplit('.', 1)[1]}", "", inspect.getdoc(module) or "", ""]
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
            out += [inspect.getdoc(fn) or "", ""]
    return "\n".join(out).rstrip() + "\n"


__all__ = ["hooks_markdown"]
