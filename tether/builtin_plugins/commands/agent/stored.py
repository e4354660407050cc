"""``tether chat`` / ``tether run`` in a database store: which session (as :mod:`.setup` does
for JSONL files, with ids where files were): ``--session ID|PREFIX``, ``--fork ID|PREFIX``
(a copy in the same database, ``parentSession`` = the source's store URI), ``-c`` (this
project's most recent), ``-r`` (pick one), else a new session."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any


def open_stored(
    database: Any,
    options: Any,
    cwd: str,
    *,
    pick: Callable[[list[Any]], Path | None] | None = None,
    claim: Callable[[Any], Any] | None = None,
) -> tuple[Any, str]:
    """``(session, reason)`` for the options, in ``database``."""
    import tether.storage as rec
    from tether import Session
    from tether.builtin_plugins.commands.store_select import open_stored_session
    from tether.cli import UsageError
    from tether.storage import uri_without_password

    def existing(ref: str) -> Any:
        session_id = database.resolve(ref)
        if claim is not None:
            claim(session_id)
        session = open_stored_session(database, session_id, readonly=False)
        return session

    if options.fork:
        source = open_stored_session(database, options.fork)
        header = rec.make_header(cwd, parent_session=uri_without_password(source.store.uri))
        store = database.session_store(header["id"])
        entries = source.entries()
        store.append(entries, header=header)
        session = Session(store=store, loaded=store.load(), cwd=cwd)
        return session, "fork"
    if options.session:
        return existing(options.session), "resume"
    if options.resume and pick is not None:
        rows = database.list_sessions(cwd=cwd)
        if rows:
            chosen = pick(rows)
            if chosen is None:
                raise UsageError("no session chosen")
            return existing(str(chosen)), "resume"
    if options.continue_recent or options.resume:
        recent = database.list_sessions(cwd=cwd, limit=1)
        if recent:
            return existing(recent[0].id), "resume"
    header = rec.make_header(cwd)
    return Session(store=database.session_store(header["id"]), header=header, cwd=cwd), "startup"


__all__ = ["open_stored"]
