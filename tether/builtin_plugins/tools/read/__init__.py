"""Built-in plugin ``tool_read``: the ``read`` tool (text with pi's head truncation, images).

Text files are cut to 2000 lines / 50 KB, never mid-line, with pi's continuation notices;
``offset`` (1-based) and ``limit`` select a window. PNG, JPEG, GIF and WebP files (detected by
their magic bytes) come back as an image block after a short text line.

The tool lives in :mod:`tether.builtin_plugins.tools.read.tool`, imported when tools are
registered, so that loading this plugin stays cheap.
"""

from __future__ import annotations

from typing import Any

from tether.hookspecs import hookimpl


@hookimpl
def register_tools(register: Any) -> None:
    from tether.builtin_plugins.tools.read.tool import make_read_tool

    register(make_read_tool())
