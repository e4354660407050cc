"""Per-turn overhead of the harness at 100, 10k and 100k entries (design §7).

Measures everything a turn costs except the model and the tools: input and start hooks, the
system prompt (assembled again each turn), the compaction checks, the agent loop, the
conversion of the context, two durable appends (user + assistant) and the event plumbing.
The model is an in-process provider that answers at once.

Sessions are generated like long real ones: one linear branch, a compaction every 400 entries
(the context stays bounded, as it does in a long session), tool calls every few turns. Each
session is opened once; then N turns are timed one by one. Prints medians (target: under
5 ms per turn at 100k entries, fsync off) and the same with fsync on.

    python bench/turns.py [--turns N] [--sizes 100,10000,100000]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tether.builtin_plugins.providers.messages import new_assistant_message  # noqa: E402
from tether.core.base.settings import load_settings  # noqa: E402
from tether.core.harness.harness import Harness  # noqa: E402
from tether.core.host.manager import create_plugin_manager  # noqa: E402
from tether.core.session.session import Session  # noqa: E402
from tether.hookspecs import hookimpl  # noqa: E402
from tether.hookspecs.providers import StreamEvent

COMPACT_EVERY = 400
KEEP_ENTRIES = 30


class InstantProvider:
    """Answers every call at once with a short text and a small usage (api ``faux``)."""

    api = "faux"

    def stream(self, model: Any, context: Any, options: Any) -> Any:
        message = new_assistant_message(model)
        message["content"] = [{"type": "text", "text": "ok"}]
        message["usage"].update(input=2000, output=2, totalTokens=2002)
        yield StreamEvent("start", partial=message)
        yield StreamEvent("done", message=message)


class InstantPlugin:
    @hookimpl
    def register_providers(self, register: Any) -> None:
        register(InstantProvider())


def _iso(ms: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms / 1000)) + f".{ms % 1000:03d}Z"


def generate(path: Path, entries: int, cwd: str) -> None:
    """A linear pi-format session of ``entries`` entries with periodic compactions."""
    start = 1_700_000_000_000
    lines = [
        json.dumps(
            {"type": "session", "version": 3, "id": "bench", "timestamp": _iso(start), "cwd": cwd}
        )
    ]
    ids: list[str] = []
    parent = None
    for n in range(entries):
        ms = start + 1000 * (n + 1)
        entry_id = f"{n:08x}"
        base = {"id": entry_id, "parentId": parent, "timestamp": _iso(ms)}
        if n and n % COMPACT_EVERY == 0:
            record = {
                "type": "compaction",
                **base,
                "summary": "## Goal\n" + "summary of earlier work " * 40,
                "firstKeptEntryId": ids[-KEEP_ENTRIES],
                "tokensBefore": 90000,
            }
        elif n % 2 == 0:
            text = f"user request {n}: " + "please look at the module and explain it " * 4
            message = {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": ms}
            record = {"type": "message", **base, "message": message}
        else:
            message = {
                "role": "assistant",
                "content": [{"type": "text", "text": "here is what I found " * 10}],
                "api": "faux",
                "provider": "faux",
                "model": "faux-1",
                "usage": {
                    "input": 3000,
                    "output": 50,
                    "cacheRead": 0,
                    "cacheWrite": 0,
                    "totalTokens": 3050,
                    "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0},
                },
                "stopReason": "stop",
                "timestamp": ms,
            }
            record = {"type": "message", **base, "message": message}
        lines.append(json.dumps(record, separators=(",", ":")))
        ids.append(entry_id)
        parent = entry_id
    path.write_text("\n".join(lines) + "\n")


def measure(path: Path, cwd: str, turns: int, fsync: bool) -> dict[str, float]:
    pm = create_plugin_manager(
        environ={"TETHER_LOAD_PLUGINS": ""}, plugins=[("instant", InstantPlugin())]
    )
    settings = load_settings(cwd)
    began = time.perf_counter()
    session = Session.open(path, fsync=fsync)
    harness = Harness(pm, session, settings=settings, model="faux/faux-1", cwd=cwd)
    opened = time.perf_counter() - began
    harness.start()
    for n in range(5):  # warm up (imports, caches)
        harness.prompt(f"warm up {n}")
    samples = []
    for n in range(turns):
        began = time.perf_counter()
        result = harness.prompt(f"turn {n}")
        samples.append(time.perf_counter() - began)
        assert result.text == "ok"
    harness.close()
    samples.sort()
    return {
        "open_s": opened,
        "median_ms": statistics.median(samples) * 1000,
        "p90_ms": samples[int(len(samples) * 0.9)] * 1000,
        "context": len(harness.agent.state.messages),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--sizes", default="100,10000,100000")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["TETHER_HOME"] = str(Path(tmp) / "home")
        cwd = str(Path(tmp) / "project")
        os.makedirs(cwd)
        print(f"{'entries':>8} {'fsync':>5} {'open s':>7} {'median ms':>9} {'p90 ms':>7} ctx")
        for size in (int(s) for s in args.sizes.split(",")):
            path = Path(tmp) / f"bench-{size}.jsonl"
            generate(path, size, cwd)
            for fsync in (False, True):
                copy = Path(tmp) / f"run-{size}-{fsync}.jsonl"
                copy.write_bytes(path.read_bytes())
                r = measure(copy, cwd, args.turns, fsync)
                print(
                    f"{size:>8} {'on' if fsync else 'off':>5} {r['open_s']:>7.2f} "
                    f"{r['median_ms']:>9.2f} {r['p90_ms']:>7.2f} {r['context']}"
                )


if __name__ == "__main__":
    main()
