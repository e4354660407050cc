"""Built-in plugin ``tool_edit``: the ``edit`` tool (exact text replacements in one file).

``edits`` is a list of ``{oldText, newText}``; each ``oldText`` must occur exactly once in the
original file and edits must not overlap. A UTF-8 BOM and CRLF line endings are preserved.
The result's ``details`` carry a numbered diff and the first changed line (pi's shape).

The tool lives in :mod:`tether.builtin_plugins.tools.edit.tool`, imported when tools are
registered, so that loading this plugin stays cheap.
"""

from __future__ import annotations

from typing import Any

from tether.hookspecs import hookimpl


@hookimpl
def register_tools(register: Any) -> None:
    from tether.builtin_plugins.tools.edit.tool import make_edit_tool

    register(make_edit_tool())
