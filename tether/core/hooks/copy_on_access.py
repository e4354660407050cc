"""A list whose items are deep-copied the first time they are read: context hooks pay only
for the messages they touch, and none of them can change the session's stored messages.

``context`` hooks used to get a deep copy of every message before each model call (a second
for 100k messages, whether a hook changed anything or not). :class:`CopyOnAccess` holds the
stored messages themselves; reading an item (indexing, slicing, iterating, ``pop``) replaces
it by its copy first (:func:`~tether.core.host.calls.copy_json`), once. Items a hook assigns,
appends or inserts are its own. :func:`plain` turns the list back into a ``list`` without
copying the items nobody read.

What stays possible: code that calls ``list``'s own methods on it directly
(``list.__getitem__(messages, 0)``) or hands it to C code that reads a list's storage without
going through its methods (``heapq``) sees the stored objects.

An item may also be a :class:`~tether.core.context.pending.Pending` message (its JSON bytes,
for a branch too large to hold parsed): it is parsed when first read, the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, SupportsIndex

from tether.core.context.pending import Pending
from tether.core.host.calls import copy_json

_CONTAINERS = (dict, list)


class CopyOnAccess(list):  # type: ignore[type-arg]
    """``list(items)`` whose items are copied when first read (see the module docstring)."""

    __slots__ = ("_originals", "_pinned")

    def __init__(self, items: Iterable[Any] = ()) -> None:
        pinned = tuple(items)
        super().__init__(pinned)
        self._pinned = pinned  # keeps the originals alive: their ids stay theirs
        self._originals = {id(item) for item in pinned if item.__class__ in _CONTAINERS}

    def _own(self, index: int) -> Any:
        item = list.__getitem__(self, index)
        if id(item) in self._originals:
            item = copy_json(item)
            list.__setitem__(self, index, item)
        elif item.__class__ is Pending:
            item = item.load()
            list.__setitem__(self, index, item)
        return item

    def _own_all(self) -> None:
        for index in range(len(self)):
            self._own(index)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self._own(i) for i in range(*index.indices(len(self)))]
        return self._own(index)

    def __iter__(self) -> Iterator[Any]:
        index = 0
        while index < len(self):
            yield self._own(index)
            index += 1

    def __reversed__(self) -> Iterator[Any]:
        index = len(self) - 1
        while index >= 0:
            if index < len(self):
                yield self._own(index)
            index -= 1

    def pop(self, index: SupportsIndex = -1) -> Any:
        item = self._own(int(index))
        list.pop(self, index)
        return item

    def copy(self) -> list[Any]:
        return list(self)

    def sort(self, *args: Any, **kwargs: Any) -> None:
        self._own_all()  # a key function sees the items
        list.sort(self, *args, **kwargs)

    def __add__(self, other: Any) -> list[Any]:  # type: ignore[override]
        return list(self) + list(other)

    def __radd__(self, other: Any) -> list[Any]:
        return list(other) + list(self)

    def __mul__(self, count: SupportsIndex) -> list[Any]:
        return list(self) * count

    __rmul__ = __mul__

    def __imul__(self, count: SupportsIndex) -> CopyOnAccess:
        self._own_all()
        list.__imul__(self, count)
        return self

    def __reduce_ex__(self, protocol: SupportsIndex) -> Any:
        return (list, (list(self),))


def plain(items: list[Any]) -> list[Any]:
    """``items`` as a plain ``list``: the items nobody read stay the stored objects."""
    if isinstance(items, CopyOnAccess):
        return list(list.__iter__(items))
    return items


__all__ = ["CopyOnAccess", "plain"]
