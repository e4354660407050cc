"""The append side every built-in store shares: records become pi's JSONL lines in one place."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tether.builtin_plugins.storage.format.stringify import dumps_record


class LineStore:
    """Base of the built-in stores (the JSONL file, the SQL databases): :meth:`append` is
    :meth:`tether.hookspecs.store.SessionStore.append` (see its contract) with each record as
    the line pi writes for it; a store writes the lines in :meth:`append_lines`."""

    def append(
        self,
        records: Sequence[Mapping[str, Any]],
        *,
        header: Mapping[str, Any],
        header_written: bool = False,
    ) -> None:
        """Append ``records``, one line each (see :meth:`append_lines`)."""
        self.append_lines([dumps_record(record) for record in records], header, header_written)

    def append_lines(
        self, lines: list[str], header: Mapping[str, Any], header_written: bool
    ) -> None:
        """Store ``lines`` (records as text, without newlines), ``header`` first if the storage
        holds none yet; ``header_written`` (the session was read from this storage) makes an
        empty storage an error."""
        raise NotImplementedError


__all__ = ["LineStore"]
