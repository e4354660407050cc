"""The store contract's conformance checks, for store plugin authors (``tether.storage``).

:func:`check_store` opens a new session URI through the installed store plugins, as every
tether command does, and checks what the kernel relies on: what a new URI loads as, that
appended records come back equal and in order (a tree with a branch, values JSON keeps only
with care) also from ``load(validate_all=True)``, that an append on a stale read is refused
with :class:`~tether.SessionChangedError` and writes nothing, and that a lease (when the store
has one) can be taken, given back and taken again. It raises ``AssertionError`` naming the
first check that failed.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

ODD_VALUES: dict[str, Any] = {
    "text": 'naïve \u2028 line \u2029 end \U0001f600 "quoted" \\ back',
    "numbers": [0, -1, 2**53, 1.5, -0.25, 1e21, 1e-7],
    "nested": {"": None, "0": [True, False, {"deep": []}]},
}
"""A custom entry's data that must come back as written."""


def _user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": 1}


def _assistant(text: str) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": [{"type": "text", "text": text}],
        "api": "faux",
        "provider": "faux",
        "model": "faux",
        "usage": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2},
        "stopReason": "stop",
        "timestamp": 2,
    }


def check_store(uri: str | os.PathLike[str], *, plugins: Any = None) -> list[str]:
    """Run the conformance checks on ``uri``, a session that does not exist yet, opened through
    the ``open_store`` hook of ``plugins`` (default: the installed plugins). Returns the names
    of the checks passed; raises ``AssertionError`` at the first failure."""
    from tether.core.base.errors import SessionChangedError
    from tether.core.session.opening import default_plugins, lease_store, open_store
    from tether.core.session.session import Session
    from tether.hookspecs.store import SessionStore

    pm = plugins if plugins is not None else default_plugins()
    passed: list[str] = []

    def check(name: str, ok: bool, why: str) -> None:
        if not ok:
            raise AssertionError(f"check_store: {name}: {why}")
        passed.append(name)

    store = _opener(os.fspath(uri), pm, open_store)

    first = store()
    check("contract", isinstance(first, SessionStore), f"{first!r} is not a SessionStore")
    loaded = first.load()
    check(
        "new session",
        loaded.header is None and not loaded.exists and len(loaded.table) == 0,
        "a URI that holds nothing must load as header None, exists False, no entries",
    )

    session = Session.from_store(first)
    root = session.append_message(_user("first question"))
    session.append_message(_assistant("first answer"))
    session.append_model_change("faux", "other")
    session.append_custom_entry("conformance", ODD_VALUES)
    session.branch(root)  # a second branch from the first message
    session.append_message(_assistant("another answer"))
    session.append_label_change(root, "start")
    written = session.entries()

    again = Session.from_store(store(), readonly=True)
    check("header", again.header == session.header, f"{again.header} != {session.header}")
    version = session.header.get("version")
    check(
        "version_on_disk",
        again.version_on_disk == version,
        f"LoadedSession.version_on_disk is {again.version_on_disk!r}, the header's is {version!r}",
    )
    check("entries", again.entries() == written, "the entries read back differ from those written")
    check("no problems", not again.problems, f"problems on load: {again.problems}")
    check("leaf", again.leaf_id == session.leaf_id, f"leaf {again.leaf_id} != {session.leaf_id}")
    try:
        validated = store().load(readonly=True, validate_all=True)
    except TypeError as exc:
        raise AssertionError(f"check_store: validate_all: load() must take it: {exc}") from None
    check("validate_all", len(validated.table) == len(written), "entries lost when validating")

    _stale_append(check, store, Session, SessionChangedError, written)
    lease = lease_store(store())
    if lease is not None:
        lease.release()
        second = lease_store(store())
        check("lease", second is not None, "a lease given back could not be taken again")
        second.release()
    return passed


def _opener(uri: str, pm: Any, open_store: Callable[..., Any]) -> Callable[[], Any]:
    """Opens the session of ``uri``: the store ``open_store`` answers, or for a URI of many
    sessions (an answer with ``session_store(id)``) a new session of that database."""
    from tether.core.storage.ids import new_session_id

    answer = pm.hook.open_store(uri=uri, settings=None)
    if answer is not None and not hasattr(answer, "load") and hasattr(answer, "session_store"):
        session_id = new_session_id()
        return lambda: answer.session_store(session_id)
    return lambda: open_store(uri, plugins=pm)


def _stale_append(
    check: Callable[[str, bool, str], None],
    store: Callable[[], Any],
    session_type: Any,
    changed_error: type[Exception],
    written: list[dict[str, Any]],
) -> None:
    """Two readers of the same session; the first appends; the second's append is refused."""
    one, two = session_type.from_store(store()), session_type.from_store(store())
    one.append_message(_user("the first writer"))
    expected = one.entries()
    try:
        two.append_message(_user("a stale writer"))
    except changed_error:
        refused = True
    else:
        refused = False
    check("stale append", refused, "an append on a stale read was not refused")
    after = session_type.from_store(store(), readonly=True).entries()
    check("nothing written", after == expected, "the refused append wrote something")
    check("appended", after[: len(written)] == written, "earlier entries changed")


__all__ = ["ODD_VALUES", "check_store"]
