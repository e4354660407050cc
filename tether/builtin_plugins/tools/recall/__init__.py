"""Built-in plugin ``tool_recall``: the ``recall`` tool (search and read replaced entries).

A compaction replaces the entries before its ``firstKeptEntryId`` by a summary in the
context, and leaving a branch replaces its entries by a branch summary (or by nothing); the
entries stay in the session file. ``recall`` lets the model search them (by a
case-insensitive text query) or read one (by entry id), with bounded output and paging: every
compaction's span on the active branch and every entry of the abandoned branches, each hit
naming its branch and whether that branch is the active one (:mod:`.tree`). It reads the
session tree through ``ToolContext.session`` and works on tether's and pi's files alike.
While ``recall`` is among the model's tools, the compaction summary the model is sent names the
span it can read (the tool's ``annotate_context``, :mod:`.replaced`).

The tool lives in :mod:`tether.builtin_plugins.tools.recall.tool`, imported when tools are
registered, so that loading this plugin stays cheap.
"""

from __future__ import annotations

from typing import Any

from tether.hookspecs import hookimpl


@hookimpl
def register_tools(register: Any) -> None:
    from tether.builtin_plugins.tools.recall.tool import make_recall_tool

    register(make_recall_tool())
