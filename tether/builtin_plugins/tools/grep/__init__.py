"""Built-in plugin ``tool_grep``: the ``grep`` tool, in pure Python (no ripgrep needed).

Searches file contents with a Python regex (or a literal string) under a directory, skipping
what ``.gitignore`` ignores and binary files. Output lines are ``path:N: text`` for matches and
``path-N- text`` for context lines, each cut to 500 characters; at most ``limit`` (100) matches
and 50 KB, with pi's notices joined in one bracket.

The tool lives in :mod:`tether.builtin_plugins.tools.grep.tool`, imported when tools are
registered, so that loading this plugin stays cheap.
"""

from __future__ import annotations

from typing import Any

from tether.hookspecs import hookimpl


@hookimpl
def register_tools(register: Any) -> None:
    from tether.builtin_plugins.tools.grep.tool import make_grep_tool

    register(make_grep_tool())
