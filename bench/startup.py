"""CPU time of common ``python -m tether`` starts, optionally against a second checkout.

    python bench/startup.py [--runs 20] [--base /tmp/startup-base] [--session FILE]

Each command runs ``--runs`` times in a fresh process; the figure is the child's user +
system CPU (``os.wait4``), median over runs, in milliseconds. With ``--base DIR`` every run
of this checkout is followed by one with ``PYTHONPATH=DIR`` (a pristine copy of another
revision), so both see the same load on a shared machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
SESSION = HERE / "tests" / "fixtures" / "pi" / "gen" / "g21-compaction-multi.jsonl"


def commands(session: str) -> dict[str, list[str]]:
    return {
        "--help": ["--help"],
        "session show": ["session", "show", session],
        "session context --json": ["session", "context", session, "--json"],
        "run faux": ["run", "--provider", "faux", "hi"],
    }


def cpu_ms(args: list[str], env: dict[str, str], cwd: str) -> float:
    """User + system CPU of one ``python -m tether ARGS`` process, in ms."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tether", *args],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"tether {' '.join(args)}: exit {proc.returncode}")
    return (usage.ru_utime + usage.ru_stime) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--base", help="a checkout of another revision to compare with")
    parser.add_argument("--session", default=str(SESSION))
    parser.add_argument("--only", action="append", help="a command's label (repeatable)")
    ns = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="tether-startup-"))
    try:
        session = str(work / "session.jsonl")
        shutil.copyfile(ns.session, session)
        drop = ("TETHER_DEBUG", "PYTHONPATH", "PYTHONDONTWRITEBYTECODE")  # warm bytecode caches
        env = {k: v for k, v in os.environ.items() if k not in drop}
        env.update(TETHER_HOME=str(work / "home"), TETHER_FSYNC="0", TETHER_LOAD_PLUGINS="")
        sides = {"this": env}
        if ns.base:
            sides["base"] = {**env, "PYTHONPATH": str(Path(ns.base).resolve())}
        for label, args in commands(session).items():
            if ns.only and label not in ns.only:
                continue
            times: dict[str, list[float]] = {side: [] for side in sides}
            for side_env in sides.values():  # writes the bytecode caches, not counted
                cpu_ms(args, side_env, str(work))
            for _ in range(ns.runs):
                for side, side_env in sides.items():
                    times[side].append(cpu_ms(args, side_env, str(work)))
            line = "  ".join(f"{s} {statistics.median(t):6.1f} ms" for s, t in times.items())
            if ns.base:
                change = statistics.median(times["this"]) / statistics.median(times["base"]) - 1
                line += f"  ({change:+.0%})"
            print(f"{label:<24} {line}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
