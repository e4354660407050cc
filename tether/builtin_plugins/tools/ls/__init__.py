"""Built-in plugin ``tool_ls``: the ``ls`` tool (list one directory).

Entries are sorted case-insensitively, directories end with ``/``, dotfiles are included;
at most ``limit`` (500) entries and 50 KB, with pi's notices.

The tool lives in :mod:`tether.builtin_plugins.tools.ls.tool`, imported when tools are
registered, so that loading this plugin stays cheap.
"""

from __future__ import annotations

from typing import Any

from tether.hookspecs import hookimpl


@hookimpl
def register_tools(register: Any) -> None:
    from tether.builtin_plugins.tools.ls.tool import make_ls_tool

    register(make_ls_tool())
