"""RPC mode's own costs: start-up, a command's round trip, a whole prompt on the faux model.

Starts ``tether --mode rpc --provider faux`` (built-in plugins only, a session in a temporary
home) and times, from this client's side: the first response after the process starts, N
``get_state`` round trips, and N prompts from ``prompt`` sent to ``agent_end`` read (the
faux model answers at once, so this is tether's per-prompt cost: hooks, the system prompt,
two appends, the events). Prints medians.

    python bench/rpc.py [--count N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=50)
    count = parser.parse_args().count
    home = Path(tempfile.mkdtemp())
    env = {**os.environ, "TETHER_HOME": str(home), "TETHER_LOAD_PLUGINS": "", "TETHER_FSYNC": "0"}
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tether", "--mode", "rpc", "--provider", "faux"],
        cwd=home,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None

    def send(command: dict[str, object]) -> None:
        proc.stdin.write(json.dumps(command) + "\n")  # type: ignore[union-attr]
        proc.stdin.flush()  # type: ignore[union-attr]

    def read_until(kind: str) -> None:
        for line in proc.stdout:  # type: ignore[union-attr]
            if json.loads(line).get("type") == kind:
                return

    send({"type": "get_state", "id": "first"})
    read_until("response")
    startup = time.perf_counter() - started
    round_trips, prompts = [], []
    for i in range(count):
        t = time.perf_counter()
        send({"type": "get_state", "id": f"s{i}"})
        read_until("response")
        round_trips.append(time.perf_counter() - t)
    for i in range(count):
        t = time.perf_counter()
        send({"type": "prompt", "id": f"p{i}", "message": f"hello {i}"})
        read_until("agent_end")
        prompts.append(time.perf_counter() - t)
    proc.stdin.close()
    proc.wait(30)
    print(f"start-up to the first response: {startup * 1000:.0f} ms")
    print(
        f"get_state round trip, median of {count}: {statistics.median(round_trips) * 1000:.2f} ms"
    )
    print(
        f"prompt → agent_end (faux), median of {count}: {statistics.median(prompts) * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
