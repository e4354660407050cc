"""One fact of the ledger (see :mod:`.ledger`)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Fact:
    """One fact: ``kind`` (goal, constraint, decision, next_step, request, error, identifier;
    ``said``: a short message kept whole, :mod:`.whole`),
    ``text`` verbatim, the entry it came from and the entries it was first and last seen in;
    ``status`` live, retired (``replaced_by`` names the fact that replaced it), resolved (an
    error that a later success cleared) or dropped (for size, see ``Ledger.dropped``)."""

    id: str
    kind: str
    text: str
    source: str = ""
    first_seen: str = ""
    last_seen: str = ""
    status: str = "live"
    replaced_by: str = ""
    replaces: list[str] = field(default_factory=list)
    key: str = ""
    parent: str = ""
    note: str = ""  # e.g. "proposed by the assistant, accepted"; "describe" of an error

    @property
    def live(self) -> bool:
        return self.status == "live"


__all__ = ["Fact"]
