"""Built-in plugin ``pin_commands``: ``tether session pin|unpin|pins|facts FILE``.

``pin FILE ENTRY_ID`` pins the text of an entry (a user or assistant message) — or, given a
fact id of ``facts FILE`` (:mod:`.facts`), that fact's words — ``pin FILE
--text "…"`` a text of your own; ``unpin FILE PIN_ID`` (an id or its unique prefix) removes a
pin; ``pins FILE [--json]`` lists the pins in force at the leaf. A pinned text appears verbatim
in every later compaction and branch summary of the branch, under ``## Pinned``
(the ``pins`` plugin, :mod:`tether.builtin_plugins.memory.pins`). ``pin`` and ``unpin``
append one ``custom`` entry at the leaf, holding the session's lease (``--wait [SECONDS]``)
like every command that writes.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from tether.builtin_plugins.commands import (
    FileArg,
    PlainJsonOpt,
    add_session_commands,
    open_session_file,
)
from tether.cli import WaitOpt
from tether.hookspecs import hookimpl

PREVIEW = 100  # characters of a pinned text shown on one line


def _print_json(value: Any) -> None:
    import json

    sys.stdout.write(json.dumps(value, ensure_ascii=False, indent=1) + "\n")


def _preview(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= PREVIEW else flat[: PREVIEW - 1] + "…"


def _write(file: Path, wait: str | None, change: Any) -> Any:
    """Run ``change(session)`` on ``file`` under its lease and write the entry it appended at
    once (also in a file that has no assistant message yet); errors name the file."""
    from tether import TetherError
    from tether.builtin_plugins.commands.lease_options import holding

    with holding(file, wait):
        session = open_session_file(file, readonly=False)
        try:
            result = change(session)
        except TetherError as exc:
            if str(exc).startswith(f"{file}:"):
                raise
            raise TetherError(f"{file}: {exc}") from exc
        session.flush(force=True)
    return result


def _pin_entry_or_fact(session: Any, target: str) -> Any:
    """Pin entry ``target``; when no entry has that id, the fact of the ledger with that id
    (``tether session facts``): its words, verbatim."""
    from tether import TetherError
    from tether.sessions import pin_entry, pin_text

    if session.get_entry(target) is not None or not target.startswith("f"):
        return pin_entry(session, target)
    from tether.builtin_plugins.commands.facts import session_ledger

    fact = session_ledger(session).get(target)
    if fact is None:
        raise TetherError(f"no entry and no fact with id '{target}' (see `tether session facts`)")
    if not fact.live:
        raise TetherError(
            f"fact '{target}' is {fact.status}"
            + (f"; it was replaced by {fact.replaced_by}" if fact.replaced_by else "")
        )
    return pin_text(session, fact.text)


def pin_command(
    file: FileArg,
    entry_id: Annotated[
        str | None,
        typer.Argument(
            metavar="[ENTRY_ID|FACT_ID]",
            help="Pin this entry's text, or a fact's words (an id from `session facts`).",
            show_default=False,
        ),
    ] = None,
    text: Annotated[str | None, typer.Option("--text", help="Pin this text.")] = None,
    as_json: PlainJsonOpt = False,
    wait: WaitOpt = None,
) -> None:
    """Pin a fact: kept verbatim in every later summary (an entry's text, or --text)."""
    from tether.cli import UsageError
    from tether.sessions import pin_text

    if (entry_id is None) == (text is None):
        raise UsageError(f"{file}: give an ENTRY_ID or --text TEXT (one of them)")
    if entry_id is not None:
        pin = _write(file, wait, lambda session: _pin_entry_or_fact(session, entry_id))
    else:
        pin = _write(file, wait, lambda session: pin_text(session, text or ""))
    if as_json:
        _print_json(pin.as_json())
        return
    source = f" (entry {pin.entry_id})" if pin.entry_id else ""
    typer.echo(f"{file}: pinned {pin.pin_id}{source}: {_preview(pin.text)}")


def unpin_command(
    file: FileArg,
    pin_id: Annotated[str, typer.Argument(metavar="PIN_ID", help="A pin id or its unique prefix.")],
    as_json: PlainJsonOpt = False,
    wait: WaitOpt = None,
) -> None:
    """Unpin a fact: later summaries leave it out."""
    from tether.sessions import unpin

    pin = _write(file, wait, lambda session: unpin(session, pin_id))
    if as_json:
        _print_json(pin.as_json())
        return
    typer.echo(f"{file}: unpinned {pin.pin_id}: {_preview(pin.text)}")


def pins_command(file: FileArg, as_json: PlainJsonOpt = False) -> None:
    """The pins in force at the session's leaf."""
    from tether.sessions import current_pins

    pins = current_pins(open_session_file(file))
    if as_json:
        _print_json([pin.as_json() for pin in pins])
        return
    if not pins:
        typer.echo(f"{file}: no pins in force")
        return
    for pin in pins:
        source = f"  (entry {pin.entry_id})" if pin.entry_id else ""
        typer.echo(f"{pin.pin_id}  {_preview(pin.text)}{source}")


@hookimpl
def register_commands(app: typer.Typer) -> None:
    add_session_commands(app, pin=pin_command, unpin=unpin_command, pins=pins_command)


__all__ = ["register_commands"]
