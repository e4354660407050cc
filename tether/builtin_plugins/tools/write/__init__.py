"""Built-in plugin ``tool_write``: the ``write`` tool (create or overwrite a file).

Parent directories are created; writes to one real file are serialized with edits.

The tool lives in :mod:`tether.builtin_plugins.tools.write.tool`, imported when tools are
registered, so that loading this plugin stays cheap.
"""

from __future__ import annotations

from typing import Any

from tether.hookspecs import hookimpl


@hookimpl
def register_tools(register: Any) -> None:
    from tether.builtin_plugins.tools.write.tool import make_write_tool

    register(make_write_tool())
