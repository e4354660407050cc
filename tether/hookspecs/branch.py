"""What the ``prepare_branch_summary`` hook answers: what a branch summary is made of."""

from __future__ import annotations

from dataclasses import dataclass, field

from tether.hookspecs.events import Message
from tether.hookspecs.file_ops import FileOps


@dataclass
class BranchPreparation:
    """What a branch summary is made of (the ``prepare_branch_summary`` hook's answer).

    ``messages`` to summarize (agent messages, chronological), ``entry_ids`` the entries they
    came from (same order), ``total_tokens`` their estimated size, ``file_ops`` the
    ``tether.FileOps`` whose ``<read-files>``/``<modified-files>`` lists follow the summary.
    """

    messages: list[Message] = field(default_factory=list)
    entry_ids: list[str] = field(default_factory=list)
    total_tokens: int = 0
    file_ops: FileOps = field(default_factory=FileOps)


__all__ = ["BranchPreparation"]
