"""Scale a session file up: N renamed copies of its entries, each copy's roots hung under the
previous copy's last entry (so a one-branch file stays one branch, N times longer).

The oracle's generator (``gen.py``) takes hours for 1M entries; this gives the same profiles
at 1M from its 100k files in seconds:

    python bench/scale_up.py /tmp/perf/perf-linear-100k.jsonl /tmp/perf/perf-linear-1m.jsonl 10
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

_REF = re.compile(rb'("(?:id|parentId|firstKeptEntryId|targetId|fromId)":")([^"\\]+)"')
_ID = re.compile(rb'"id":"([^"\\]+)"')


class ScaleError(Exception):
    """A problem with the arguments or the source file: one line for the user."""


def scale(source: Path, target: Path, copies: int) -> None:
    try:
        header, *entries = source.read_bytes().splitlines()
    except FileNotFoundError:
        raise ScaleError(f"{source}: no such file") from None
    except ValueError:
        raise ScaleError(f"{source}: empty file (no session header)") from None
    except OSError as exc:
        raise ScaleError(f"{source}: cannot read: {exc.strerror}") from None
    last_id = _ID.search(entries[-1]) if entries else None
    if last_id is None:
        raise ScaleError(f'{source}: the last line has no "id" (expected a v2/v3 entry)')
    try:
        out = target.open("xb")
    except FileExistsError:
        raise ScaleError(f"{target}: already exists; refusing to overwrite") from None
    except OSError as exc:
        raise ScaleError(f"{target}: cannot write: {exc.strerror}") from None
    with out:
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


def _copies(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


_copies.__name__ = "copies (a whole number >= 1)"  # argparse names the type in its error


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="bench/scale_up.py",
        description="Write TARGET: COPIES renamed copies of SOURCE's entries, one after another.",
    )
    parser.add_argument("source", type=Path, help="a v2/v3 session file (.jsonl)")
    parser.add_argument("target", type=Path, help="the new file (must not exist)")
    parser.add_argument("copies", type=_copies, help="how many copies (1: the same entries)")
    args = parser.parse_args(argv)
    try:
        scale(args.source, args.target, args.copies)
    except ScaleError as exc:
        sys.stderr.write(f"scale_up: error: {exc}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
