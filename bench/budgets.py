"""Wall-clock budgets that used to be timed tests: start-up and two long-input paths.

A timed test fails whenever the machine is busy, and passes a slow change on a fast one; these
figures are measured here instead, as medians of several runs, each beside its budget:

- ``tether session context SMALL --quiet`` in a new process (interpreter, plugin discovery
  and loading, typer, the command), the built-in plugins only: budget 0.3 s;
  ``tether --version`` and ``tether --help`` beside it for scale;
- the path to the root and the context of a 100k-entry one-branch list, in process
  (``path_to_root`` + ``build_session_context``; a quadratic step would show here): 1.0 s;
- the offline summary of a 10k-message session (the test suite's generated one), in process:
  1.0 s.

    python bench/budgets.py [--runs 9]

The tests keep what these paths must give (tests/test_context.py, tests/test_context_cli.py,
tests/test_offline_summarizer.py); only the clock moved here.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SMALL = ROOT / "tests" / "fixtures" / "pi" / "gen" / "g01-tiny-linear.jsonl"


def median_seconds(action: Callable[[], Any], runs: int) -> float:
    timings = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        timings.append(time.perf_counter() - started)
    return statistics.median(timings)


def tether_process(*args: str | Path) -> Callable[[], None]:
    env = {**os.environ, "TETHER_LOAD_PLUGINS": ""}  # the built-ins only

    def run() -> None:
        done = subprocess.run(
            [sys.executable, "-m", "tether", *map(str, args)],
            capture_output=True,
            stdin=subprocess.DEVNULL,
            env=env,
        )
        if done.returncode != 0:
            said = done.stderr.decode(errors="replace").strip()
            raise SystemExit(f"tether {' '.join(map(str, args))}: exit {done.returncode}: {said}")

    return run


def long_chain() -> Callable[[], None]:
    from tether.core.context.build import build_session_context, path_to_root

    def user(entry_id: str, parent: str | None) -> dict[str, Any]:
        message = {"role": "user", "content": [{"type": "text", "text": entry_id}], "timestamp": 0}
        return {"type": "message", "id": entry_id, "parentId": parent, "message": message}

    entries = [user("e0", None)] + [user(f"e{i}", f"e{i - 1}") for i in range(1, 100_000)]
    by_id = {e["id"]: e for e in entries}

    def run() -> None:
        path_to_root(entries[-1], by_id.get)
        build_session_context(entries, by_id=by_id)

    return run


def offline_summary_of_10k() -> Callable[[], None]:
    import json
    import tempfile

    from tests.test_offline_summarizer import generated_session
    from tether.builtin_plugins.memory.offline_summarizer import offline_summary
    from tether.hookspecs.events import SummarizeRequest

    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / "big.jsonl"
        generated_session(file)
        lines = file.read_text(encoding="utf-8").splitlines()[1:]
    messages = [json.loads(line)["message"] for line in lines]

    def run() -> None:
        request = SummarizeRequest(kind="compaction", messages=messages, max_tokens=13107)
        offline_summary(request)

    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--runs", type=int, default=9, help="runs per figure (median)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs takes a whole number from 1 up")
    rows = [
        ("tether --version", tether_process("--version"), None),
        ("tether --help", tether_process("--help"), None),
        (
            "session context SMALL --quiet",
            tether_process("session", "context", str(SMALL), "--quiet"),
            0.3,
        ),
        ("100k-entry path + context", long_chain(), 1.0),
        ("offline summary, 10k messages", offline_summary_of_10k(), 1.0),
    ]
    failed = 0
    for name, action, budget in rows:
        action()  # warm: the page cache, imports
        seconds = median_seconds(action, args.runs)
        verdict = ""
        if budget is not None:
            ok = seconds <= budget
            failed += not ok
            verdict = (
                f"  budget {budget:.1f} s  ratio {seconds / budget:.2f}  {'ok' if ok else 'OVER'}"
            )
        print(f"{name:<34}{seconds:8.3f} s (median of {args.runs}){verdict}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
