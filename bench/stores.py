"""Benchmark: the session stores side by side — JSONL files, SQLite, PostgreSQL.

For each store it prints medians of: open + context of a 100k-entry session (in process:
open, then ``build_session_context`` of the active branch; and the whole
``tether session context REF --quiet`` and ``--json`` processes), append latency (p50/p99
of single-message appends, durable: fsync / ``synchronous=FULL`` / a committed transaction),
and listing 10k sessions (most recent first). Ratios are against JSONL. The sessions are
generated here (``bench/sessions.py``'s seeded generator). PostgreSQL: ``--postgresql URI``
(an empty database), else a throwaway cluster like the tests' (``tests/pg_cluster.py``; it runs with
``fsync=off``, so its append figures are the protocol's cost, not the disk's).

    python bench/stores.py                       # all three, 100k entries, 10k sessions
    python bench/stores.py --entries 20000 --sessions 2000 --runs 3 --stores jsonl,sqlite
    python bench/stores.py --chunk-bytes 1       # one stored chunk per entry (live appends)

A database keeps a session's lines in chunks, one per append (at most 8 MB): an imported
session is a few large chunks, a session written turn by turn many small ones;
``--chunk-bytes 1`` stores the big session as the latter would be (one entry per chunk).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from sessions import SessionWriter  # noqa: E402

from tether.core.context.build import build_session_context  # noqa: E402
from tether.core.session.session import Session  # noqa: E402


def median_time(runs: int, work: Callable[[], Any]) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


class Store:
    """One backend: where sessions go and how they are opened."""

    def __init__(self, name: str, folder: Path, uri: str | None) -> None:
        self.name, self.folder, self.uri = name, folder, uri
        self.database: Any = None
        if uri is not None:
            from tether.builtin_plugins.commands.store_select import open_database

            self.database = open_database(uri)

    def add(self, path: Path) -> str:
        if self.database is None:
            return str(path)
        return str(self.database.import_session(path.read_bytes(), str(path)))

    def open(self, ref: str) -> Any:
        if self.database is None:
            return Session.open(ref, fsync=True)
        from tether.builtin_plugins.commands.store_select import open_stored_session

        return open_stored_session(self.database, ref, readonly=False)

    def context_process(self, ref: str, runs: int, mode: str = "--quiet") -> float:
        env = {**os.environ, "TETHER_LOAD_PLUGINS": ""}
        env.pop("TETHER_STORE", None)
        if self.uri is not None:
            env["TETHER_STORE"] = self.uri
        command = [sys.executable, "-m", "tether", "session", "context", ref, mode]
        return median_time(
            runs, lambda: subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
        )

    def list_all(self, folder: Path) -> int:
        if self.database is None:
            from tether.builtin_plugins.storage.jsonl.listing import list_sessions

            return len(list_sessions([folder]))
        return len(self.database.list_sessions())


def small_session(folder: Path, index: int) -> Path:
    """A two-message session of its own id and time."""
    stamp = f"2026-01-{1 + index % 28:02d}T{index % 24:02d}:00:{index % 60:02d}.000Z"
    sid = f"{index:08x}-0000-7000-8000-{index:012x}"
    records = [
        {"type": "session", "version": 3, "id": sid, "timestamp": stamp, "cwd": "/p"},
        {
            "type": "message",
            "id": "a1",
            "parentId": None,
            "timestamp": stamp,
            "message": user(f"task {index}"),
        },
        {
            "type": "message",
            "id": "a2",
            "parentId": "a1",
            "timestamp": stamp,
            "message": ASSISTANT,
        },
    ]
    path = folder / f"s{index:05d}.jsonl"
    lines = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)
    path.write_text(lines, encoding="utf-8")
    return path


ASSISTANT = {
    "role": "assistant",
    "content": [{"type": "text", "text": "ok"}],
    "api": "openai-completions",
    "provider": "bench",
    "model": "bench",
    "usage": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2},
    "stopReason": "stop",
    "timestamp": 2,
}


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": 1}


def measure(
    store: Store, big: Path, smalls: list[Path], args: argparse.Namespace
) -> dict[str, Any]:
    out: dict[str, Any] = {"store": store.name}
    ref = store.add(big)

    def open_and_context() -> None:
        session = store.open(ref)
        build_session_context(session.get_branch())

    out["open+context s"] = median_time(args.runs, open_and_context)
    out["context process s"] = store.context_process(ref, args.runs)
    out["json process s"] = store.context_process(ref, args.runs, "--json")

    session = store.open(store.add(smalls[0]))
    latencies = []
    for i in range(args.appends):
        started = time.perf_counter()
        session.append_message(user(f"append {i}"))
        latencies.append((time.perf_counter() - started) * 1000)
    out["append p50 ms"] = percentile(latencies, 0.5)
    out["append p99 ms"] = percentile(latencies, 0.99)

    folder = smalls[0].parent
    if store.database is not None:
        for path in smalls[1:]:
            store.add(path)
    out["list s"] = median_time(args.runs, lambda: store.list_all(folder))
    out["listed"] = store.list_all(folder)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--appends", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--stores", default="jsonl,sqlite,postgresql")
    parser.add_argument(
        "--chunk-bytes", type=int, help="store the big session in chunks of this size at most"
    )
    parser.add_argument(
        "--postgresql", metavar="URI", help="an empty database (default: a throwaway cluster)"
    )
    args = parser.parse_args(argv)
    if args.chunk_bytes:
        from tether.builtin_plugins.storage.sql import database

        database.CHUNK_BYTES = args.chunk_bytes
    work = Path(tempfile.mkdtemp(prefix="tether-bench-stores-"))
    big = work / "big.jsonl"
    big.write_text("\n".join(SessionWriter(seed=7102, branched=True).build(args.entries)) + "\n")
    smalls_dir = work / "small"
    smalls_dir.mkdir()
    smalls = [small_session(smalls_dir, i) for i in range(args.sessions)]
    cluster = None
    results = []
    try:
        for name in args.stores.split(","):
            if name == "jsonl":
                store = Store(name, work, None)
            elif name == "sqlite":
                store = Store(name, work, f"sqlite:///{work}/sessions.db")
            else:
                uri = args.postgresql
                if uri is None:
                    from tests.pg_cluster import PgCluster

                    cluster = PgCluster().start()
                    uri = cluster.uri()
                store = Store(name, work, uri)
            results.append(measure(store, big, smalls, args))
            print(json.dumps(results[-1]), flush=True)
    finally:
        if cluster is not None:
            cluster.stop()
        shutil.rmtree(work, ignore_errors=True)
    base = results[0] if results and results[0]["store"] == "jsonl" else None
    chunks = f", chunks of at most {args.chunk_bytes} bytes" if args.chunk_bytes else ""
    print(
        f"\n{args.entries} entries, {args.sessions} sessions, medians of {args.runs} runs{chunks}"
    )
    print(
        f"{'store':<11}{'open+context':>14}{'':9}{'--quiet':>9}{'':9}{'--json':>8}{'':9}"
        f"{'append p50':>12}{'p99':>9}{'list':>9}"
    )
    for row in results:
        ratio = f" ({row['open+context s'] / base['open+context s']:.2f}x)" if base else ""
        quiet = f"({row['context process s'] / base['context process s']:.2f}x)" if base else ""
        json_ratio = f"({row['json process s'] / base['json process s']:.2f}x)" if base else ""
        print(
            f"{row['store']:<11}{row['open+context s']:>10.3f} s{ratio:<9}"
            f"{row['context process s']:>7.3f} s {quiet:<8}{row['json process s']:>6.3f} s "
            f"{json_ratio:<8}"
            f"{row['append p50 ms']:>9.2f} ms"
            f"{row['append p99 ms']:>7.2f} ms{row['list s']:>7.3f} s"
        )


if __name__ == "__main__":
    main()
