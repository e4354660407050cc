"""The public toolkit for store plugins: the store contract, its records, errors and helpers.

A store plugin answers the ``open_store`` hook with a :class:`SessionStore` (see
docs/plugins.md). Everything a store returns and raises is here: :class:`LoadedSession` with
its :class:`EntryTable` (the entry index every store fills and the session tree reads), the
:class:`Problem` records of skipped lines, :class:`StoreError` for one clear line, and the
entry constructors and ids pi's format uses. :func:`open_store` opens any URI through the
installed store plugins; :class:`Held` shares a lease's lock among the leases of one process;
:func:`check_store` runs the contract's conformance checks on a store plugin.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tether._store_checks import check_store
from tether.core.base.errors import (
    SessionBusyError,
    SessionChangedError,
    SessionFileError,
    UsageError,
)
from tether.core.context.pending import Pending
from tether.core.context.stream import ContextStream
from tether.core.session.opening import (
    PluginScope,
    default_plugins,
    lease_session,
    lease_store,
    open_store,
)
from tether.core.storage.entry_rules import loads_std
from tether.core.storage.entry_table import (
    BadRef,
    BrokenLine,
    EntryTable,
    Problem,
    StaleRow,
    entry_problem,
    json_error,
    parent_of,
    parse_json_line,
    parse_json_object,
)
from tether.core.storage.errors import (
    REOPEN,
    StoreConnectionError,
    StoreError,
    describe_uri,
)
from tether.core.storage.ids import (
    CURRENT_SESSION_VERSION,
    date_parse_ms,
    iso_from_ms,
    iso_now,
    new_entry_id,
    new_session_id,
    now_ms,
)
from tether.core.storage.records import (
    make_branch_summary,
    make_compaction,
    make_custom,
    make_custom_message,
    make_header,
    make_label,
    make_message_entry,
    make_model_change,
    make_session_info,
    make_thinking_level_change,
)
from tether.hookspecs.store import ContextBatches, EntryBatch, LoadedSession, SessionStore

if TYPE_CHECKING:
    from tether.builtin_plugins.storage.held import Held
    from tether.builtin_plugins.storage.uris import uri_without_password


def __getattr__(name: str) -> Any:
    """``Held`` and ``uri_without_password`` are imported on first use (a session that takes
    no lease never loads the one, a command that shows no URI the other)."""
    if name == "Held":
        from tether.builtin_plugins.storage.held import Held

        return Held
    if name == "uri_without_password":
        from tether.builtin_plugins.storage.uris import uri_without_password

        return uri_without_password
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CURRENT_SESSION_VERSION",
    "ContextStream",
    "Held",
    "Pending",
    "SessionBusyError",
    "SessionChangedError",
    "SessionFileError",
    "UsageError",
    "check_store",
    "PluginScope",
    "default_plugins",
    "loads_std",
    "make_branch_summary",
    "make_compaction",
    "make_custom",
    "make_custom_message",
    "make_label",
    "make_message_entry",
    "make_model_change",
    "make_session_info",
    "make_thinking_level_change",
    "REOPEN",
    "BadRef",
    "BrokenLine",
    "ContextBatches",
    "EntryBatch",
    "EntryTable",
    "LoadedSession",
    "Problem",
    "SessionStore",
    "StaleRow",
    "StoreConnectionError",
    "StoreError",
    "date_parse_ms",
    "describe_uri",
    "entry_problem",
    "iso_from_ms",
    "iso_now",
    "json_error",
    "lease_session",
    "lease_store",
    "make_header",
    "new_entry_id",
    "new_session_id",
    "now_ms",
    "open_store",
    "parent_of",
    "parse_json_line",
    "parse_json_object",
    "uri_without_password",
]
