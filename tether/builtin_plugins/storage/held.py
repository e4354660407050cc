"""The leases this process holds, shared and counted (no hooks here): a second taker of a lease
the process already holds joins the first one's lock instead of waiting for itself, and the
last one to give it back frees the lock. Any store's lease can keep its locks here."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")
OnWait = Callable[[Any], None]  # a lease's ``on_wait``: called with the holder when waiting starts


@dataclass
class _Shared(Generic[T]):
    lock: T
    holders: int = 1


class Held(Generic[T]):
    """Locks by key (a session), each with how many leases of this process share it."""

    def __init__(self) -> None:
        self._shared: dict[Hashable, _Shared[T]] = {}
        self._guard = threading.Lock()

    def join(self, key: Hashable) -> bool:
        """Share the lock on ``key`` if this process holds it (``False``: it does not)."""
        with self._guard:
            shared = self._shared.get(key)
            if shared is not None:
                shared.holders += 1
            return shared is not None

    def add(self, key: Hashable, lock: T) -> None:
        """``lock``, just taken, is this process's lock on ``key`` (one holder)."""
        with self._guard:
            self._shared[key] = _Shared(lock)

    def get(self, key: Hashable) -> T | None:
        with self._guard:
            shared = self._shared.get(key)
        return None if shared is None else shared.lock

    def leave(self, key: Hashable) -> T | None:
        """One holder fewer; the lock to free when that was the last one, else ``None``."""
        with self._guard:
            shared = self._shared.get(key)
            if shared is None or shared.holders > 1:
                if shared is not None:
                    shared.holders -= 1
                return None
            del self._shared[key]
        return shared.lock


__all__ = ["Held", "OnWait"]
