"""A writer process for the fault tests: appends N messages to a session, printing each id
after ``append`` returned (so the test knows what must be on disk).

Usage: python tests/store_writer.py FILE COUNT TAG

With ``STORE_WRITER_BLIND=1`` it forgets before each append what it last saw of the file, as a
writer that ignores the grew-since-read check would (an older tether): the store's lock alone
must then keep lines whole.
"""

from __future__ import annotations

import os
import sys


def main() -> None:
    path, count, tag = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    from tether.core.session.session import Session

    session = Session.open(path)
    blind = os.environ.get("STORE_WRITER_BLIND") == "1"
    filler = ("x" * 61 + "\n") * 32  # ~2 KB per line: big enough to tear
    for index in range(count):
        message = {
            "role": "user",
            "content": [{"type": "text", "text": f"{tag} {index}\n{filler}"}],
            "timestamp": 1735689600000 + index,
        }
        if blind:
            session.store.known = None  # type: ignore[union-attr]
        entry_id = session.append_message(message)
        sys.stdout.write(entry_id + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
