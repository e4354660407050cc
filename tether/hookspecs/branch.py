"""What the ``prepare_branch_summary`` hook answers: what a branch summary is made of."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tether.hookspecs.events import Message

if TYPE_CHECKING:
    from tether.builtin_plugins.memory.file_ops import FileOps


def _no_file_ops() -> FileOps:
    from tether.builtin_plugins.memory.file_ops import FileOps

    return FileOps()


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
    file_ops: FileOps = field(default_factory=_no_file_ops)


__all__ = ["BranchPreparation"]
