"""Built-in plugin ``tool_find``: the ``find`` tool, in pure Python (no fd needed).

Finds files and directories by glob under a directory, skipping what ``.gitignore`` ignores.
A pattern without ``/`` matches names (``*.py``); one with ``/`` matches the path below the
search directory (``src/**/*.ts``), or the absolute path when it starts with ``/``.
Results are POSIX paths relative to the search directory, directories end with ``/``; at most
``limit`` (1000) results and 50 KB, with pi's notices.

The tool lives in :mod:`tether.builtin_plugins.tools.find.tool`, imported when tools are
registered, so that loading this plugin stays cheap.
"""

from __future__ import annotations

from typing import Any

from tether.hookspecs import hookimpl


@hookimpl
def register_tools(register: Any) -> None:
    from tether.builtin_plugins.tools.find.tool import make_find_tool

    register(make_find_tool())
