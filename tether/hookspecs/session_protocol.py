"""The ``session`` every hook receives: one typed protocol, read side and act side.

Every hook that takes a ``session`` argument gets an object of this shape — in ``tether
chat``/``run`` (an agent runs) and in the session commands (``tether session compact``,
``context``…, no agent). It is never ``None``.

Read side: the session file's header, entries, active branch, leaf, lookup by id, the
current model and thinking level, the working directory, the resolved settings and the
plugin's own settings by its name (``session.plugin_settings("git_status")`` reads
``{"plugins": {"git_status": {...}}}`` from ``settings.json``).

Act side (pi's ``ExtensionAPI`` actions): send a message (steer / follow-up / next turn),
append a custom entry, label an entry, name the session; and tether's pins (a text kept
verbatim in every later summary: what the ``pins`` hook's answer does). Where no agent runs,
every action raises :class:`tether.NoAgentError` naming the action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

if TYPE_CHECKING:  # annotations only: the events are imported when a plugin asks for them
    from tether.hookspecs.events import Entry


DeliverAs = Literal["steer", "follow_up", "next_turn"]


@runtime_checkable
class HookSession(Protocol):
    """What a hook receives as ``session`` (see the module documentation)."""

    # -- read side -------------------------------------------------------------------------------

    @property
    def file(self) -> Any:
        """The session file's path (``None`` for an in-memory session)."""
        ...

    @property
    def header(self) -> dict[str, Any]:
        """The session header (``{"type": "session", "id", "cwd", "version"…}``)."""
        ...

    def entries(self) -> list[Entry]:
        """Every entry of the session, in file order (do not modify)."""
        ...

    def get_branch(self, from_id: str | None = None) -> list[Entry]:
        """The entries from the root to ``from_id`` (default: the leaf)."""
        ...

    @property
    def leaf_id(self) -> str | None:
        """The id of the current leaf entry."""
        ...

    def get_entry(self, entry_id: str) -> Entry | None:
        """The entry with id ``entry_id`` or ``None``."""
        ...

    @property
    def model(self) -> dict[str, Any] | None:
        """The current model as ``{"provider", "modelId"}`` or ``None``."""
        ...

    @property
    def thinking_level(self) -> str:
        """The current thinking level (``"off"``, ``"low"``…)."""
        ...

    @property
    def cwd(self) -> str:
        """The session's working directory."""
        ...

    @property
    def settings(self) -> Any:
        """The resolved settings (``tether.Settings``)."""
        ...

    def plugin_settings(self, name: str) -> dict[str, Any]:
        """The section ``plugins.<name>`` of ``settings.json`` (``{}`` when absent)."""
        ...

    def pins(self) -> list[dict[str, Any]]:
        """The pins in force at the leaf, oldest first: ``{"pinId", "text", "entryId",
        "holderId"}`` (``entryId``: the entry whose text was pinned, or ``None``)."""
        ...

    @property
    def has_agent(self) -> bool:
        """Whether an agent runs (the act side works)."""
        ...

    # -- act side (raises tether.NoAgentError where no agent runs) ------------------------------

    def send_message(
        self, message: Any, *, deliver_as: DeliverAs | None = None, trigger_turn: bool = False
    ) -> None:
        """Deliver a custom message ``{"customType", "content", "display", "details"?}`` as
        steering (default while a run is active), a follow-up, with the next prompt
        (``deliver_as="next_turn"``), as a new turn (``trigger_turn``) or stored at once."""
        ...

    def send_user_message(self, text: str, *, deliver_as: DeliverAs | None = None) -> None:
        """Queue (while busy) or run (while idle) a user prompt."""
        ...

    def append_entry(self, custom_type: str, data: Any = None) -> str:
        """Store plugin state as a ``custom`` entry (not sent to the model); returns its id."""
        ...

    def set_label(self, entry_id: str, label: str | None) -> str:
        """Label an entry (``None`` clears the label)."""
        ...

    def set_name(self, name: str) -> str:
        """Name the session."""
        ...

    def pin(self, text: str) -> str:
        """Pin ``text``: from now on every compaction and branch summary of this branch carries
        it verbatim under ``## Pinned``; returns the pin id."""
        ...

    def unpin(self, pin_id: str) -> str:
        """Unpin the pin in force whose id is (or starts with) ``pin_id``; returns its id.
        Later summaries leave its text out. An unknown or ambiguous id raises
        :class:`tether.TetherError`."""
        ...


__all__ = ["DeliverAs", "HookSession"]
