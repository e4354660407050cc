"""``tether ARGS`` in the test's own process: the CLI's ``main()`` with a home, a folder and the
built-in plugins only, its output captured. A process start costs 0.15-0.5 s of CPU; keep a real
subprocess for each user-facing behaviour and use this for the rest. The environment, the
folder and the standard streams are restored afterwards (``--store`` sets ``TETHER_STORE``).
Standard input is empty, as ``/dev/null`` is for the subprocess helpers."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tests.harness_helpers import plugin_manager
from tether.core.cli.app import main

_PM = None


def run_in_process(
    *args: str,
    home: Path | None = None,
    cwd: Path | None = None,
    env: Mapping[str, str | None] | None = None,
    pm: Any = None,
) -> subprocess.CompletedProcess[str]:
    """Like :func:`tests.harness_helpers.run_tether` (no stdin), in this process; a ``None``
    in ``env`` unsets that variable. Without ``home`` the ``TETHER_HOME`` of ``env`` or of
    this process stays; without ``cwd`` the command runs in this process's folder. ``pm``: a
    plugin manager of the test's own (default: the built-ins only)."""
    global _PM
    if _PM is None and pm is None:
        _PM = plugin_manager()
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="")
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="")
    try:
        os.environ.pop("TETHER_DEBUG", None)
        os.environ.update({"TETHER_FSYNC": "0", "TETHER_LOAD_PLUGINS": ""})
        if home is not None:
            os.environ["TETHER_HOME"] = str(home)
        for name, value in (env or {}).items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        os.chdir(cwd or saved_cwd)
        sys.stdin, sys.stdout, sys.stderr = io.StringIO(""), out, err
        code = main(list(args), pm=pm or _PM)
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
    texts = []
    for stream in (out, err):
        stream.flush()
        texts.append(stream.buffer.getvalue().decode("utf-8"))  # type: ignore[attr-defined]
    return subprocess.CompletedProcess(list(args), code, texts[0], texts[1])


__all__ = ["run_in_process"]
