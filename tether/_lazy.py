"""Lazy exports for the public modules: a name's kernel module is imported on first use, so
importing a public module (and ``import tether``) stays cheap.

A public module lists its exports once, as the ``from M import N`` lines under
``if TYPE_CHECKING:`` (what type checkers and IDEs read); :func:`lazy_exports` reads those
lines from the module's source and imports each name from its ``M`` when it is first used.
``from M import *`` re-exports ``M.__all__`` (read from M's source, so nothing is imported):
a list kept once, in ``M``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from importlib import import_module
from typing import Any

_FROM = re.compile(r"from\s+([\w.]+)\s+import\s+(\([^)]*\)|[^\n]*)")
_ALL = re.compile(r"^__all__ = \[([^\]]*)\]", re.MULTILINE)
_TOP_FROM = re.compile(r"^from\s+(tether[\w.]*)\s+import\s+(\([^)]*\)|[^\n]*)", re.MULTILINE)
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # holds the package


def star_exports(module: str) -> dict[str, str]:
    """Name → home of ``module.__all__`` (a module of this package), read from its source, not
    imported: a name ``module`` itself imports at its top level (``from X import N``) is homed
    in ``X``, so using it never imports ``module`` (an error class re-exported by a hookspec
    module costs no more than before)."""
    path = os.path.join(_ROOT, *module.split("."))
    path = os.path.join(path, "__init__.py") if os.path.isdir(path) else path + ".py"
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    found = _ALL.search(source)
    if found is None:
        raise ValueError(f"{module}: no '__all__ = [...]' to export with '*'")
    imported = {
        name.split(" as ")[-1].strip(): home
        for home, names in _TOP_FROM.findall(source)
        for name in names.strip("()").replace("\n", " ").split(",")
        if name.strip()
    }
    return {name: imported.get(name, module) for name in re.findall(r'"(\w+)"', found.group(1))}


def type_checking_exports(source: str) -> dict[str, str]:
    """Name → module of the ``from M import N`` lines in the ``if TYPE_CHECKING:`` block of
    ``source`` (a public module as ruff formats it: one block at the top level); ``*`` stands
    for the names of ``M.__all__``."""
    lines = source.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("if TYPE_CHECKING:")), None)
    if start is None:
        raise ValueError("no 'if TYPE_CHECKING:' block")
    block: list[str] = []
    for line in lines[start + 1 :]:
        if line and not line[0].isspace():
            break
        block.append(line.split("#", 1)[0])
    exports: dict[str, str] = {}
    for home, names in _FROM.findall("\n".join(block)):
        for name in names.strip("()").replace("\n", " ").split(","):
            if name.strip() == "*":
                exports.update(star_exports(home))
            elif name.strip():
                exports[name.split(" as ")[-1].strip()] = home
    return exports


def lazy_exports(
    module: str, namespace: dict[str, Any], *, extra: tuple[str, ...] = ()
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``module``, whose exports are its ``TYPE_CHECKING``
    imports; sets the module's ``_EXPORTS`` (name → module) and ``__all__`` (``extra`` and
    the exports)."""
    with open(namespace["__spec__"].origin, encoding="utf-8") as handle:
        source = handle.read()
    exports = type_checking_exports(source)
    namespace["_EXPORTS"] = exports
    namespace["__all__"] = [*extra, *sorted(exports)]

    def getattr_(name: str) -> Any:
        home = exports.get(name)
        if home is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        value = getattr(import_module(home), name)
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted(set(namespace) | set(exports))

    return getattr_, dir_
