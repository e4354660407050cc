"""One setting read without pydantic, for fast commands (``session estimate``/``prepare``)
and for plugins' per-call settings (the tiktoken counter's ``tokens.encoding``).

The same sources and precedence as :func:`tether.core.base.settings.load_settings`: global
``settings.json`` under ``TETHER_HOME`` (or ``~/.tether``), then ``<cwd>/.tether/settings.json``,
then the environment (``TETHER_TOKEN_COUNTER`` for ``tokens.counter``). Cached per file
modification time; a missing or broken file reads as empty (``load_settings`` reports it).
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from tether.core.base.paths import tether_home

_ENVIRONMENT = {
    ("tokens", "counter"): "TETHER_TOKEN_COUNTER",
    ("session", "store"): "TETHER_STORE",
}


def _stamp(path: Path) -> tuple[str, int, int]:
    try:
        st = path.stat()
    except OSError:
        return (str(path), -1, -1)
    return (str(path), st.st_mtime_ns, st.st_size)


def _read(path: str) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


@lru_cache(maxsize=16)
def _merged(stamps: tuple[tuple[str, int, int], ...], section: str) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for path, _mtime, size in stamps:
        if size >= 0:
            block = _read(path).get(section)
            if isinstance(block, dict):
                merged.update(block)
    return merged


def peek_setting(section: str, key: str, cwd: str | Path | None = None) -> Any:
    """``section.key`` from the settings files and the environment (``None`` if unset)."""
    variable = _ENVIRONMENT.get((section, key))
    if variable and os.environ.get(variable):
        return os.environ[variable]
    home = tether_home() / "settings.json"
    project = Path(cwd or os.getcwd()) / ".tether" / "settings.json"
    paths = [home] if project == home else [home, project]
    return _merged(tuple(_stamp(p) for p in paths), section).get(key)


class LazySettings:
    """The resolved :class:`~tether.core.base.settings.Settings` of ``cwd``, loaded (with
    pydantic) on the first attribute read: a hook given settings it may not need (a store
    opened only to read a session) costs nothing until it looks."""

    def __init__(self, cwd: str | Path | None = None) -> None:
        self._cwd = str(cwd or os.getcwd())
        self._loaded: Any = None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if self._loaded is None:
            from tether.core.base.settings import load_settings

            self._loaded = load_settings(self._cwd)
        return getattr(self._loaded, name)


def peek_section(section: str, cwd: str | Path | None = None) -> dict[str, Any]:
    """The merged ``section`` of the settings files (a copy; ``{}`` if no file sets it)."""
    home = tether_home() / "settings.json"
    project = Path(cwd or os.getcwd()) / ".tether" / "settings.json"
    paths = [home] if project == home else [home, project]
    return dict(_merged(tuple(_stamp(p) for p in paths), section))


__all__ = ["LazySettings", "peek_section", "peek_setting"]
