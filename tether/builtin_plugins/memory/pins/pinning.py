"""Pinning and unpinning on a session: the ``tether.pin`` / ``tether.unpin`` entries written.

Both append a ``custom`` entry at the leaf (:mod:`.format` has the format and what is in
force). Errors are one :class:`~tether.core.base.errors.TetherError` line and
write nothing: an unknown entry id, an entry without text, an empty text, an unknown or
ambiguous pin id.
"""

from __future__ import annotations

from typing import Any

from tether import TetherError
from tether.builtin_plugins.memory.pins.format import (
    PIN_TYPE,
    UNPIN_TYPE,
    Pin,
    entry_text,
    pin_data,
    pins_in_force,
    unpin_data,
)
from tether.storage import new_entry_id


def current_pins(session: Any) -> list[Pin]:
    """The pins in force at the session's leaf."""
    leaf = session.leaf_id
    return [] if leaf is None else pins_in_force(session.get_branch(leaf))


def pin_text(session: Any, text: str) -> Pin:
    """Pin ``text`` verbatim at the leaf; returns the new pin."""
    if not isinstance(text, str) or not text.strip():
        raise TetherError("nothing to pin: the text is empty")
    return _append_pin(session, text, None)


def pin_entry(session: Any, entry_id: str) -> Pin:
    """Pin the text of entry ``entry_id`` (a user or assistant message, or a custom message)."""
    entry = session.get_entry(entry_id)
    if entry is None:
        raise TetherError(f"no entry with id '{entry_id}'")
    text = entry_text(entry)
    if text is None:
        kind = entry.get("type")
        message = entry.get("message") if kind == "message" else None
        what = f"a {message.get('role')} message" if isinstance(message, dict) else f"a {kind}"
        raise TetherError(
            f"entry '{entry_id}' has no text to pin ({what} without text, e.g. only tool calls; "
            "pin a message with text, or use --text)"
        )
    return _append_pin(session, text, entry_id)


#: The longest text a pin may hold: every later summary carries it whole, so the summary size
#: cap (README, docs/plugins.md) grows by at most this per pin.
MAX_PIN_CHARS = 2000


def _append_pin(session: Any, text: str, entry_id: str | None) -> Pin:
    if len(text) > MAX_PIN_CHARS:
        raise TetherError(
            f"the text to pin has {len(text)} characters; a pin holds at most {MAX_PIN_CHARS} "
            "(every later summary carries it whole): pin a shorter text"
        )
    held = {pin.pin_id for pin in current_pins(session)}
    pin_id = new_entry_id(_Taken(held, session))
    holder = session.append_custom_entry(PIN_TYPE, pin_data(pin_id, text, entry_id))
    return Pin(pin_id, text, entry_id, holder)


class _Taken:
    """Ids a new pin id must avoid: the pins in force and every entry id (no look-alikes)."""

    def __init__(self, held: set[str], session: Any) -> None:
        self.held, self.session = held, session

    def __contains__(self, candidate: object) -> bool:
        return candidate in self.held or self.session.get_entry(candidate) is not None


def find_pin(pins: list[Pin], pin_id: str) -> Pin:
    """The pin whose id is ``pin_id`` or starts with it; one error line otherwise."""
    wanted = pin_id.strip()
    exact = [pin for pin in pins if pin.pin_id == wanted]
    found = exact or ([pin for pin in pins if pin.pin_id.startswith(wanted)] if wanted else [])
    if len(found) == 1:
        return found[0]
    if not found:
        held = ", ".join(pin.pin_id for pin in pins) or "none"
        raise TetherError(f"no pin '{pin_id}' in force (pins in force: {held})")
    ids = ", ".join(pin.pin_id for pin in found)
    raise TetherError(f"pin id '{pin_id}' is ambiguous: {ids}")


def unpin(session: Any, pin_id: str) -> Pin:
    """Unpin the pin in force whose id is (or starts with) ``pin_id``; returns it."""
    pin = find_pin(current_pins(session), pin_id)
    session.append_custom_entry(UNPIN_TYPE, unpin_data(pin.pin_id))
    return pin


__all__ = ["current_pins", "find_pin", "pin_entry", "pin_text", "unpin"]
