"""A message still as its JSON bytes: parsed when a ``context`` hook first reads it."""

from __future__ import annotations

from typing import Any, Protocol


class PendingSource(Protocol):
    """Where pending messages' bytes are (an encoded context), and how they are parsed."""

    def read(self, start: int, end: int) -> bytes: ...

    def parse(self, data: bytes) -> Any: ...


class Pending:
    """A message of an encoded context still as its bytes ``start``–``end`` in ``source``:
    :meth:`load` parses them (a new object each time), :meth:`data` gives them."""

    __slots__ = ("_encoded", "_start", "_end", "role")

    def __init__(self, source: PendingSource, start: int, end: int, role: str) -> None:
        self._encoded, self._start, self._end, self.role = source, start, end, role

    def data(self) -> bytes:
        return self._encoded.read(self._start, self._end)

    def load(self) -> dict[str, Any]:
        """The message as ``JSON.parse`` reads its bytes back."""
        value: dict[str, Any] = self._encoded.parse(self.data())
        return value


__all__ = ["Pending", "PendingSource"]
