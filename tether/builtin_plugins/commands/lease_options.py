"""The lease taken by the commands that write a session, and their ``--wait [SECONDS]``.

``run``, ``chat``, ``session compact``, ``session branch`` and ``session repair`` hold the
session's lease (its store's ``lease``) while they work. Without ``--wait`` a second writer
fails at once with one line naming the holder; ``--wait SECONDS`` waits that long, and a bare
``--wait`` (the kernel's argv pre-parse turns it into ``--wait=forever`` when no number
follows) waits until the holder is done. Waiting is announced on stderr. The option itself
is ``tether.core.cli.app.WaitOpt`` (plugin modules stay cheap to load).
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


def claim(path: str | Path, wait: str | None) -> Any:
    """The lease of the session file ``path`` (with a database store: of the session that id
    or prefix names), waited for as ``--wait`` says (``None`` when ``path`` does not exist:
    the command then reports that, and no lock file is made)."""
    from tether.builtin_plugins.commands import file_store, store_configured
    from tether.builtin_plugins.storage.jsonl.files.lease import parse_wait
    from tether.storage import lease_store

    seconds = parse_wait(wait)
    database = None
    if store_configured():
        from tether.builtin_plugins.commands.store_select import active_database

        database = active_database()
    session_id = database.resolve(str(path)) if database is not None else None
    if database is None and not os.path.lexists(path):
        return None

    def announce(holder: Any) -> None:
        limit = "" if math.isinf(seconds) else f" (up to {seconds:g} s)"
        sys.stderr.write(f"tether: waiting for {path}, held by {holder.describe()}{limit}\n")
        sys.stderr.flush()

    hint = "use --wait to wait" if wait is None else f"gave up after waiting {seconds:g} s"
    if database is not None:
        return database.lease(session_id, seconds, on_wait=announce, hint=hint)
    return lease_store(file_store(path), seconds, on_wait=announce, hint=hint)


@contextmanager
def holding(path: str | Path, wait: str | None) -> Iterator[None]:
    """Hold the lease of ``path`` for the ``with`` block (see :func:`claim`)."""
    lease = claim(path, wait)
    try:
        yield
    finally:
        if lease is not None:
            lease.release()


__all__ = ["claim", "holding"]
