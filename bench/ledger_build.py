"""Benchmark: building the fact ledger over sessions heavy with tool output.

The ledger is built at compaction, over every message since the last one; a session of many
tool calls with long outputs is where a reader that looks at every line costs most. Three
shapes of output, each a 200-line log per call: clean lines; lines naming an error in prose
("retried after TimeoutError once"); lines naming an error as a log does ("KeyError: …")
that no prefix rule accepts. Prints the median seconds of ``build_ledger`` per shape and the
calls per second. Compare two trees by running it with each on ``PYTHONPATH``:

    PYTHONPATH=. python bench/ledger_build.py --calls 3000
    PYTHONPATH=/path/to/old/tree python bench/ledger_build.py --calls 3000
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from tether.builtin_plugins.memory.fact_ledger import build_ledger

SHAPES = {
    "clean": "line {i} ok, batch processed in {i} ms",
    "prose": "line {i} ok, retried after TimeoutError once",
    "refused": "step {i}: the docs say KeyError: 'sku' means a missing column",
}


def _session(calls: int, line: str) -> list[dict[str, Any]]:
    output = "\n".join(line.format(i=i) for i in range(200))
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": [{"type": "text", "text": "Keep the importer green."}]}
    ]
    for n in range(calls):
        call = {"type": "toolCall", "id": f"c{n}", "name": "bash",
                "arguments": {"command": f"cat logs/part{n % 50}.log"}}  # fmt: skip
        result = {"role": "toolResult", "toolCallId": f"c{n}", "toolName": "bash",
                  "content": [{"type": "text", "text": output}], "isError": False}  # fmt: skip
        messages += [{"role": "assistant", "content": [call], "stopReason": "toolUse"}, result]
    return messages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=3000, help="tool calls per session")
    parser.add_argument("--runs", type=int, default=5, help="runs per shape (median)")
    args = parser.parse_args()
    for shape, line in SHAPES.items():
        messages = _session(args.calls, line)
        ids = [f"e{i}" for i in range(len(messages))]
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            build_ledger(messages, ids)
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        print(f"{shape:8} median {median:.3f} s  ({args.calls / median:,.0f} calls/s)")


if __name__ == "__main__":
    main()
