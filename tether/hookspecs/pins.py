"""What the ``pins`` hook returns: the pinned texts every summary tether writes carries."""

from __future__ import annotations

from typing import Any, Protocol

Entry = dict[str, Any]


class Pins(Protocol):
    """Pinned texts of a session: kept verbatim in every later compaction and branch summary.

    ``session`` is the session written to (pins are entries on its branch); ``branch`` a list
    of entries, root first. ``pin`` and ``unpin`` raise a :class:`tether.TetherError` (one line,
    nothing written) for an empty or too long text, or an unknown or ambiguous pin id.
    """

    def pins(self, session: Any) -> list[dict[str, Any]]:
        """The pins in force at the session's leaf, oldest first: ``{"pinId", "text",
        "entryId", "holderId"}``."""
        ...

    def pin(self, session: Any, text: str) -> str:
        """Pin ``text`` at the leaf (append what records it); returns the pin id."""
        ...

    def unpin(self, session: Any, pin_id: str) -> str:
        """End the pin in force whose id is (or starts with) ``pin_id``; returns its id."""
        ...

    def previous_summary(self, text: str | None, branch: list[Entry]) -> str | None:
        """The previous summary as summarizers get it: without what :meth:`stored_summary`
        added to it (``None`` and untouched text unchanged)."""
        ...

    def stored_summary(self, summary: str, branch: list[Entry]) -> str:
        """The summary to store at the end of ``branch``, with the pinned texts in force there
        (whoever wrote the summary)."""
        ...


__all__ = ["Pins"]
