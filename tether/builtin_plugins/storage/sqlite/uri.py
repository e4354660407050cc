"""``sqlite://`` URIs, read as SQLAlchemy reads them.

- ``sqlite:///sessions.db`` — relative to the current folder (three slashes);
- ``sqlite:////srv/sessions.db`` — absolute (four slashes: the third starts the path);
- ``sqlite:///~/sessions.db`` — in the home folder;
- ``?mode=ro`` — read only: never created, never written; ``?mode=rw`` — never created;
  ``?mode=rwc`` (the default) — created on the first write. No other option is taken.

tether before issue 22 read ``sqlite:///srv/sessions.db`` as absolute; where that reading names
an existing file or folder and the relative one does not, the error says so (:func:`hint`).
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import parse_qsl

from tether.storage import StoreError

MODES = ("ro", "rw", "rwc")
EXAMPLE = "sqlite:///sessions.db (relative) or sqlite:////abs/sessions.db"


def _parts(uri: str) -> tuple[str, str]:
    rest = uri.split("://", 1)[1]
    path, _, query = rest.partition("?")
    return path, query


def database_path(uri: str) -> Path:
    """The database file of ``uri`` (see the module docstring)."""
    rest, _ = _parts(uri)
    path = rest[1:] if rest.startswith("/") else rest  # sqlite://rel.db: relative as before
    if not path or path == "/":
        raise StoreError(f"{uri}: no database file in the URI ({EXAMPLE})")
    return Path(os.path.abspath(os.path.expanduser(path)))


def open_mode(uri: str) -> str:
    """``ro``, ``rw`` or ``rwc`` (``?mode=…``; an unknown option is refused in one line)."""
    _, query = _parts(uri)
    mode = "rwc"
    for name, value in parse_qsl(query, keep_blank_values=True):
        if name != "mode":
            raise StoreError(f"{uri}: unknown option {name!r} (only ?mode=ro|rw|rwc is taken)")
        if value not in MODES:
            raise StoreError(f"{uri}: ?mode={value}: expected ro, rw or rwc")
        mode = value
    return mode


def old_reading(uri: str, path: Path) -> Path | None:
    """Where tether before issue 22 put ``uri``'s database (``sqlite:///X`` as ``/X``), when
    that differs from ``path``; ``None`` otherwise."""
    rest, _ = _parts(uri)
    if not rest.startswith("/") or rest.startswith(("//", "/~")):
        return None
    old = Path(os.path.abspath(rest))
    return None if old == path else old


def hint(uri: str, path: Path, *, folder: bool = False) -> str:
    """``; three slashes are relative …`` when the old reading of ``uri`` names a file that
    exists (``folder``: a folder that exists, for a database to create); else ``""``."""
    old = old_reading(uri, path)
    if old is None or not (old.parent.is_dir() if folder else old.exists()):
        return ""
    return (
        "; three slashes are relative to the current folder (as in SQLAlchemy): "
        f"for {old} write sqlite:///{old}"
    )


__all__ = ["EXAMPLE", "database_path", "hint", "old_reading", "open_mode"]
