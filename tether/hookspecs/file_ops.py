"""pi's file operations of a compaction (:class:`FileOps`, public as ``tether.FileOps``): the
``read``/``write``/``edit`` tool calls of assistant messages, the part of the contract a
:class:`~tether.hookspecs.events.CompactionPreparation` (as JSON) and a
:class:`~tether.hookspecs.branch.BranchPreparation` carry.

Only assistant tool calls named ``read``, ``write`` or ``edit`` with a non-empty string
``path`` count; paths are kept verbatim. The lists a summary carries are made from them by the
kernel (:func:`tether.file_lists`, :func:`tether.format_file_lists`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

_TOOL_TO_OPERATION = {"read": "read", "write": "written", "edit": "edited"}
_DETAILS_TO_OPERATION = (("readFiles", "read"), ("modifiedFiles", "edited"))


@dataclass
class FileOps:
    """Paths seen per operation (pi's three ``Set``s), in first-seen order.

    Dicts serve as ordered sets; :meth:`to_json` gives the ``{"read", "written", "edited"}``
    lists a :class:`~tether.hookspecs.events.CompactionPreparation` carries.
    """

    read: dict[str, None] = field(default_factory=dict)
    written: dict[str, None] = field(default_factory=dict)
    edited: dict[str, None] = field(default_factory=dict)

    def add_message(self, message: Mapping[str, Any]) -> None:
        """Add the read/write/edit tool calls of an assistant ``message``."""
        content = message.get("content")
        if message.get("role") != "assistant" or not isinstance(content, list):
            return
        for block in content:
            if not isinstance(block, dict) or block.get("type") != "toolCall":
                continue
            operation = _TOOL_TO_OPERATION.get(str(block.get("name")))
            args = block.get("arguments")
            if operation and isinstance(args, dict):
                path = args.get("path")
                if isinstance(path, str) and path:
                    getattr(self, operation)[path] = None

    def add_details(self, details: Any) -> None:
        """Fold an earlier summary's ``details`` lists in (read → read, modified → edited)."""
        if not isinstance(details, Mapping):
            return
        for key, operation in _DETAILS_TO_OPERATION:
            paths = details.get(key)
            if isinstance(paths, list):
                getattr(self, operation).update((p, None) for p in paths if isinstance(p, str))

    def to_json(self) -> dict[str, list[str]]:
        """``{"read": [...], "written": [...], "edited": [...]}``, as pi's oracle prints them."""
        return {"read": list(self.read), "written": list(self.written), "edited": list(self.edited)}

    @classmethod
    def from_json(cls, data: Mapping[str, Iterable[str]]) -> FileOps:
        """Inverse of :meth:`to_json`."""
        return cls(
            read=dict.fromkeys(data.get("read", ())),
            written=dict.fromkeys(data.get("written", ())),
            edited=dict.fromkeys(data.get("edited", ())),
        )


__all__ = ["FileOps"]
