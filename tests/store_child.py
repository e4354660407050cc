"""A second process for the store conformance tests (tests/store_backends.py runs it).

``store_child.py append REF N``  — append N user/assistant pairs one at a time, print
                                   ``ok I`` after each (killed with -9 by the test meanwhile);
``store_child.py hold REF``      — take the session's lease, print ``held``, sleep;
``store_child.py stale REF``     — read the session, print ``read``, wait for a line on stdin,
                                   then append once: print ``ok`` or ``refused: <message>``.
The store is ``TETHER_STORE`` (unset: REF is a JSONL file).
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tests.store_helpers import assistant_message, user_message  # noqa: E402


def open_session(ref: str) -> Any:
    uri = os.environ.get("TETHER_STORE")
    if uri:
        from tether.builtin_plugins.commands.store_select import open_database, open_stored_session

        return open_stored_session(open_database(uri), ref, readonly=False)
    from tether.core.session.session import Session

    return Session.open(ref)


def main(mode: str, ref: str, *rest: str) -> None:
    session = open_session(ref)
    if mode == "append":
        for i in range(int(rest[0])):
            session.append_message(user_message(f"m{i}"))
            session.append_message(assistant_message(f"a{i}"))
            print(f"ok {i}", flush=True)
    elif mode == "hold":
        from tether.core.session.opening import lease_session

        lease_session(session)
        print("held", flush=True)
        time.sleep(120)
    elif mode == "stale":
        print("read", flush=True)
        sys.stdin.readline()
        from tether.core.base.errors import SessionChangedError

        try:
            session.append_message(user_message("from the stale writer"))
            print("ok", flush=True)
        except SessionChangedError as exc:
            print(f"refused: {exc}", flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
