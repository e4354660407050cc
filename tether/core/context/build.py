"""What the model sees: the active branch projected into messages (pi's ``buildSessionContext``).

Entries and messages are plain JSON dicts in pi's session format. Nothing here copies a message
that it does not change: a context over 100k entries is one linear walk plus one list.

- :func:`build_session_context` — entries + leaf → :class:`SessionContext` (pi's fallbacks).
- :func:`build_context_from_path` — the same from a root-first path (what ``Session`` uses).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any, Final

from tether.core.context.kept import plan, stream_order
from tether.core.context.stream import ContextStream

Message = dict[str, Any]
Entry = dict[str, Any]


class _Unset:
    """Marker for "no leaf given": use the last entry (``None`` means "before the root")."""

    _instance: _Unset | None = None

    def __new__(cls) -> _Unset:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Final = _Unset()


@dataclass
class SessionContext:
    """The messages of the active branch plus the thinking level and model in force at its leaf."""

    messages: list[Message] = field(default_factory=list)
    thinking_level: str = "off"
    model: dict[str, Any] | None = None


# ---------------------------------------------------------------------------------------------
# Paths and the context
# ---------------------------------------------------------------------------------------------


def path_to_root(leaf: Entry, get_entry: Callable[[Any], Entry | None]) -> list[Entry]:
    """Entries from the root down to ``leaf`` (inclusive), following ``parentId``.

    Stops at a missing parent (an orphan chain yields only its own part) and at a cycle (where
    pi would loop forever). Linear: appends, then reverses once; cycles are looked for at
    doubling lengths.
    """
    path = [leaf]
    append = path.append
    current = leaf
    check_at = 64
    while True:
        parent_id = current.get("parentId")
        if not parent_id:
            break
        current = get_entry(parent_id)
        if current is None:
            break
        append(current)
        if len(path) >= check_at:
            if _cut_at_cycle(path):
                break
            check_at *= 2
    path.reverse()
    return path


def _cut_at_cycle(path: list[Entry]) -> bool:
    """Truncate ``path`` before its first repeated entry; True if there was one."""
    if len({id(entry) for entry in path}) == len(path):
        return False
    seen: set[int] = set()
    for index, entry in enumerate(path):
        if id(entry) in seen:
            del path[index:]
            return True
        seen.add(id(entry))
    return False  # pragma: no cover - the set sizes said there is a repeat


def build_session_context(
    entries: Sequence[Entry],
    leaf_id: str | None | _Unset = UNSET,
    by_id: Mapping[Any, Entry] | None = None,
) -> SessionContext:
    """pi's ``buildSessionContext``: the context of the branch ending at ``leaf_id``.

    ``leaf_id=None`` → empty context (navigated before the first entry). Unset, empty or unknown
    → the last element of ``entries``. ``by_id`` is the id index (built when not given).
    """
    if leaf_id is None:
        return SessionContext()
    if by_id is None:
        by_id = {entry.get("id"): entry for entry in entries}
    leaf = by_id.get(leaf_id) if isinstance(leaf_id, str) and leaf_id else None
    if leaf is None:
        if not entries:
            return SessionContext()
        leaf = entries[-1]
    return build_context_from_path(path_to_root(leaf, by_id.get))


def build_context_from_path(path: Sequence[Entry]) -> SessionContext:
    """The context of a root-first ``path`` (steps 4–8 of pi's ``buildSessionContext``).

    Thinking level and model come from the whole path; the last compaction on it starts the
    messages with its summary, then the kept entries from ``firstKeptEntryId`` up to it, then
    everything after it. The same rules as a session's context: the entries
    :func:`~tether.core.context.kept.plan` picks, read by a
    :class:`~tether.core.context.stream.ContextStream`.
    """
    kept, settings_only, compaction = plan(
        list(map(dict.get, path, repeat("type"))),
        lambda i: _is_assistant(path[i]),
        lambda c: [entry.get("id") for entry in path[:c]],
        lambda c: path[c].get("firstKeptEntryId"),
    )
    only = set(kept[:settings_only])
    order = stream_order(kept, compaction)
    setting_only = [i in only for i in order] if only else None
    stream = ContextStream([(list(map(path.__getitem__, order)), setting_only)])
    messages = stream.messages()
    return SessionContext(messages, stream.thinking_level, stream.model)


def _is_assistant(entry: Entry) -> bool:
    message = entry.get("message")
    return isinstance(message, dict) and message.get("role") == "assistant"


__all__ = [
    "UNSET",
    "SessionContext",
    "build_context_from_path",
    "build_session_context",
    "path_to_root",
]
