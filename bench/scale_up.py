"""Scale a session file up: N renamed copies of its entries, each copy's roots hung under the
previous copy's last entry (so a one-branch file stays one branch, N times longer).

The oracle's generator (``gen.py``) takes hours for 1M entries; this gives the same profiles
at 1M from its 100k files in seconds:

    python bench/scale_up.py /tmp/perf/perf-linear-100k.jsonl /tmp/perf/perf-linear-1m.jsonl 10
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

_REF = re.compile(rb'("(?:id|parentId|firstKeptEntryId|targetId|fromId)":")([^"\\]+)"')
_ID = re.compile(rb'"id":"([^"\\]+)"')


def scale(source: Path, target: Path, copies: int) -> None:
    header, *entries = source.read_bytes().splitlines()
    last_id = _ID.search(entries[-1])
    assert last_id is not None, "the last line has no id"
    with target.open("wb") as out:
        out.write(header + b"\n")
        for copy in range(copies):
            prefix = b"" if copy == 0 else b"c%d-" % copy
            previous = b"c%d-" % (copy - 1) if copy > 1 else b""
            root = b'"parentId":"' + previous + last_id.group(1) + b'"'
            renamed = rb"\1" + prefix + rb'\2"'
            for line in entries:
                if prefix:
                    line = _REF.sub(renamed, line)
                    line = line.replace(b'"parentId":null', root, 1)
                out.write(line + b"\n")


if __name__ == "__main__":
    scale(Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]))
