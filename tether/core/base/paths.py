"""Where tether keeps its files: the home directory and pi's per-project session folders.

A light module (standard library only) so fast commands can find sessions without loading
settings. ``tether.core.base.settings`` re-exports :func:`tether_home`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any


def tether_home(environ: Mapping[str, str] | None = None) -> Path:
    """``TETHER_HOME`` or ``~/.tether``."""
    env = os.environ if environ is None else environ
    raw = env.get("TETHER_HOME")
    return Path(raw).expanduser() if raw else Path.home() / ".tether"


def sessions_root(home: Path | None = None) -> Path:
    """``<home>/sessions``: one sub-folder per project."""
    return (home or tether_home()) / "sessions"


def encode_cwd(cwd: str) -> str:
    """pi's project folder name: ``/srv/app`` → ``--srv-app--``, ``C:\\x\\y`` → ``--C--x-y--``.

    One leading ``/`` or ``\\`` is removed, then every ``/``, ``\\`` and ``:`` becomes ``-``.
    Lossy like pi's (``/a-b/c`` and ``/a/b-c`` share a folder).
    """
    text = cwd[1:] if cwd[:1] in ("/", "\\") else cwd
    for char in ("/", "\\", ":"):
        text = text.replace(char, "-")
    return f"--{text}--"


def default_session_dir(cwd: str, home: Path | None = None) -> Path:
    """``<home>/sessions/--<cwd encoded>--`` (not created: it appears with the first file)."""
    return sessions_root(home) / encode_cwd(cwd)


def session_file_name(timestamp: str, session_id: str) -> str:
    """``<ts>_<id>.jsonl`` where ``<ts>`` is the ISO timestamp with ``:`` and ``.`` as ``-``."""
    return f"{timestamp.replace(':', '-').replace('.', '-')}_{session_id}.jsonl"


def read_json_file(path: Path, error: type[Exception], what: str) -> Any:
    """The JSON value in ``path`` (``{}`` when absent or blank); ``error`` names the file, the
    line and what is wrong in one line. ``what`` names the file's role ("settings", …)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise error(f"{path}: cannot read {what}: {exc.strerror}") from exc
    try:
        return json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        raise error(
            f"{path}:{exc.lineno}: invalid JSON in {what}: {exc.msg} (column {exc.colno})"
        ) from exc


__all__ = [
    "read_json_file",
    "default_session_dir",
    "encode_cwd",
    "session_file_name",
    "sessions_root",
    "tether_home",
]
