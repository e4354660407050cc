"""Built-in plugin ``tool_bash``: the ``bash`` tool (run a shell command in the project).

stdout and stderr are read interleaved through one pipe; the model sees the last 2000 lines /
50 KB, and once the output is longer the full output is kept in a temp file named in the
notice (pi's rule) — private (0600) in ``$TMPDIR/tether-<uid>/bash/`` (0700), where files
older than a day are removed when a new one is made. The command runs in its own session,
so ``timeout`` and an abort through ``ctx.signal`` kill the whole process group,
grandchildren included. A non-zero exit code,
a timeout or an abort gives an error result that ends with pi's status line.

The tool lives in :mod:`tether.builtin_plugins.tools.bash.tool`, imported when tools are
registered, so that loading this plugin stays cheap.
"""

from __future__ import annotations

from typing import Any

from tether.hookspecs import hookimpl


@hookimpl
def register_tools(register: Any) -> None:
    from tether.builtin_plugins.tools.bash.tool import make_bash_tool

    register(make_bash_tool())
