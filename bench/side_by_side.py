"""Whole-process measurements, tether and pi side by side (helpers for the bench scripts).

Each command runs as its own process with stdout written to a file (the full output, as a
user would keep it); wall time is measured around the process, peak RSS is the child's
``ru_maxrss`` — or, while the process has children of its own (tether encodes a long branch
on two processes), the peak of their summed proportional set sizes (``Pss``: pages the
processes share are counted once), if that is higher. The two sides alternate run by run
(tether, pi, tether, pi, …) so that a burst of load on the shared machine hits both;
figures are medians. CPU time (user + sys of the process and its children, from ``wait4``) is
reported too: on a shared, loaded machine it says more than wall time, which moves with
everyone else's work. A side that fails (non-zero exit, out of memory, over the time limit)
is reported with its last line of stderr.
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

OUT_DIR = Path("/tmp/tether-bench-out")
SYNC_BEFORE_RUN = os.environ.get("BENCH_SYNC", "1") != "0"


def tether_env(builtin_only: bool, pythonpath: Path | None) -> dict[str, str | None]:
    """The environment of tether's side: as installed normally, so with bytecode caches
    (``PYTHONDONTWRITEBYTECODE`` unset: with it, every start compiles ~80 modules, ~0.1 s);
    ``builtin_only``: no installed third-party plugin; ``pythonpath``: another checkout of
    tether (e.g. the code before a change) in front of the installed one."""
    env: dict[str, str | None] = {"PYTHONDONTWRITEBYTECODE": None}
    if builtin_only:
        env["TETHER_LOAD_PLUGINS"] = ""
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    return env


@dataclass
class Side:
    """One side of a comparison: its command, where it runs, its samples."""

    name: str
    command: list[str]
    cwd: Path | None = None
    env: dict[str, str | None] | None = None  # laid over os.environ; None unsets
    walls: list[float] = field(default_factory=list)
    rss: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)  # user + sys seconds
    failure: str | None = None

    @property
    def out(self) -> Path:
        return OUT_DIR / f"{self.name}.out"

    def median(self) -> tuple[float, float]:
        return statistics.median(self.walls), statistics.median(self.rss)


def run_once(side: Side, timeout: float) -> None:
    """Run ``side`` once (stdout to its output file); record wall/RSS or the failure."""
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    for key, value in (side.env or {}).items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    with side.out.open("wb") as sink:
        if SYNC_BEFORE_RUN:  # the last run's output written back first: not this run's cost
            os.sync()
        started = time.perf_counter()
        child = subprocess.Popen(
            side.command, cwd=side.cwd, env=env, stdout=sink, stderr=subprocess.PIPE
        )
        timer = threading.Timer(timeout, lambda: os.kill(child.pid, signal.SIGKILL))
        timer.start()
        tree = TreeMemory(child.pid)
        assert child.stderr is not None
        stderr = child.stderr.read()
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - started
        timer.cancel()
        tree.stop()
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        lines = stderr.decode(errors="replace").strip().splitlines() or ["(no output)"]
        lines = [ln for ln in lines if "rror" in ln][:1] or lines  # the error, not a stack frame
        killed = child.returncode == -signal.SIGKILL
        why = f"killed after {timeout:.0f} s" if killed and wall >= timeout else lines[-1][:200]
        peak = usage.ru_maxrss / 1024
        side.failure = f"exit {child.returncode} after {wall:.1f} s, {peak:.0f} MB: {why}"
        return
    side.walls.append(wall)
    side.rss.append(max(usage.ru_maxrss, tree.peak_kb) / 1024)
    side.cpus.append(usage.ru_utime + usage.ru_stime)


class TreeMemory:
    """The peak of the summed ``Pss`` of a process and its children, sampled every 250 ms
    while it has children (0 if it never had any). Reading ``smaps_rollup`` walks the page
    tables (~7 ms for a 1.4 GB process): sampling more often would take a share of the
    CPUs the measured process runs on."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak_kb = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._done.set()
        self._thread.join()

    def _sample(self) -> None:
        while not self._done.wait(0.25):
            try:
                with open(f"/proc/{self.pid}/task/{self.pid}/children") as handle:
                    children = handle.read().split()
                if children:
                    total = sum(_pss_kb(pid) for pid in [str(self.pid), *children])
                    self.peak_kb = max(self.peak_kb, total)
            except OSError:  # the process ended, or no /proc: ru_maxrss stands
                pass


def _pss_kb(pid: str) -> int:
    with open(f"/proc/{pid}/smaps_rollup") as handle:
        for line in handle:
            if line.startswith("Pss:"):
                return int(line.split()[1])
    return 0


def compare(sides: list[Side], runs: int, timeout: float) -> None:
    """``runs`` alternating rounds over ``sides``; a failed side is not run again."""
    for _ in range(runs):
        for side in sides:
            if side.failure is None:
                run_once(side, timeout)


def line(side: Side) -> str:
    if side.failure is not None and not side.walls:
        return f"  {side.name:<10} FAILED: {side.failure}"
    wall, rss = side.median()
    cpu = statistics.median(side.cpus)
    return f"  {side.name:<10} {wall:8.3f} s  {rss:8.1f} MB  cpu {cpu:7.3f} s"


def ratio_line(ours: Side, pi: Side, target: float | None, rss_target: float | None) -> str:
    if not ours.walls or not pi.walls:
        return f"  {ours.name + '/pi':<10} n/a"
    (wall, rss), (pi_wall, pi_rss) = ours.median(), pi.median()
    goal = "" if target is None else f"  (target wall <= {target:.2f}"
    if goal and rss_target is not None:
        goal += f", RSS <= {rss_target:.2f}"
    goal += ")" if goal else ""
    label = f"{ours.name}/pi"
    cpu = statistics.median(ours.cpus) / statistics.median(pi.cpus)
    return f"  {label:<10} wall {wall / pi_wall:.2f}  RSS {rss / pi_rss:.2f}  cpu {cpu:.2f}{goal}"


SAME_OUTPUT = """
import sys, orjson
ours, theirs = (orjson.loads(open(p, "rb").read()) for p in sys.argv[1:3])
def at(value, path):
    for key in path.split("."):
        value = value.get(key) if isinstance(value, dict) else None
    return value
pairs = [pair.split("=") for pair in sys.argv[3].split(",")]
bad = [a for a, b in pairs if at(ours, a) != at(theirs, b)]
print(",".join(bad) if bad else "same")
"""


def same_output(ours: Side, pi: Side, keys: list[str]) -> str:
    """Whether the two last outputs agree on ``keys`` (``ours.path=theirs.path``, or one path
    for both), checked in a child process so that this process stays small (its peak RSS
    would carry into later children's)."""
    if not ours.walls or not pi.walls:
        return "not compared"
    pairs = ",".join(k if "=" in k else f"{k}={k}" for k in keys)
    args = [sys.executable, "-c", SAME_OUTPUT, str(ours.out), str(pi.out), pairs]
    answer = subprocess.run(args, capture_output=True, text=True)
    if answer.returncode != 0:
        return "could not compare: " + (answer.stderr.strip().splitlines() or ["?"])[-1]
    result = answer.stdout.strip()
    names = ", ".join(k.split("=")[0] for k in keys)
    return f"same {names}" if result == "same" else f"DIFFERENT: {result}"


def cleanup(sides: list[Side]) -> None:
    for side in sides:
        side.out.unlink(missing_ok=True)


def as_json(sides: list[Side]) -> dict[str, object]:
    return {
        s.name: {"failure": s.failure}
        if not s.walls
        else {
            **dict(zip(("wall", "rss"), s.median(), strict=True)),
            "cpu": statistics.median(s.cpus),
        }
        for s in sides
    }


__all__ = [
    "Side",
    "as_json",
    "cleanup",
    "compare",
    "json",
    "line",
    "ratio_line",
    "same_output",
    "tether_env",
]
