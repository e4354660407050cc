"""Benchmark: compaction preparation, tether and pi side by side.

For each session file, the whole process of ``tether session prepare FILE --json`` with its
full output (the ids, the serialized text to summarize) written to a file and, with
``--pi-oracle DIR``, pi's ``node oracle.mjs prepare FILE`` (its full output: the messages to
summarize), alternating run by run; medians of wall time and peak RSS, the ratios, and whether
both chose the same cut (``--quiet``: counts only, on both sides). ``--before DIR`` runs a
checkout of tether's older code too; ``--phases`` adds tether's in-process phases. Files as in
``bench/sessions.py`` (``--perf-dir``, generated, ``--file``).

    python bench/compaction.py --perf-dir /tmp/perf --pi-oracle ../oracle --builtin-only
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessions import count_entries, generate, in_process  # noqa: E402

SETTINGS = ["--reserve", "16384", "--keep", "20000", "--window", "200000"]

IN_PROCESS = """
import gc, json, resource, sys, time
gc.disable()
t0 = time.perf_counter()
from tether.builtin_plugins.memory.pi_strategy.prepare import prepare_compaction_entries
from tether.builtin_plugins.memory.serialize_json import serialized_json
from tether.builtin_plugins.memory.token_estimate import estimate_tokens
from tether.core.session.session import Session
from tether.hookspecs.events import CompactionSettings, NothingToCompact
t1 = time.perf_counter()
session = Session.open(sys.argv[1])
t2 = time.perf_counter()
branch = session.get_branch()
t3 = time.perf_counter()
settings = CompactionSettings(reserve_tokens=16384, keep_recent_tokens=20000)
prep = prepare_compaction_entries(branch, settings, lambda ms: [estimate_tokens(m) for m in ms])
t4 = time.perf_counter()
messages = [] if isinstance(prep, NothingToCompact) else prep.messages_to_summarize
text = serialized_json(messages)  # as prepare --json writes it
t5 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "open": t2 - t1, "branch": t3 - t2, "prepare": t4 - t3,
                  "serialize": t5 - t4, "total": t4 - t1, "branchLength": len(branch),
                  "summarized": len(messages),
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def report(path: Path, runs: int, pi_oracle: Path | None) -> None:
    """The in-process phases of tether's preparation (one process per run; medians)."""
    phases = in_process(runs, path, IN_PROCESS)
    if phases:
        detail = "  ".join(f"{k} {phases[k]:.3f}" for k in ("open", "branch", "prepare"))
        print(
            f"  tether in-proc   {phases['total']:7.3f} s  {phases['rss']:7.1f} MB  ({detail};"
            f" serialize {phases['summarized']:.0f} msgs {phases['serialize']:.3f})"
        )


TIMEOUT = 600.0
SAME = [
    "firstKeptEntryId=preparation.firstKeptEntryId",
    "isSplitTurn=preparation.isSplitTurn",
    "tokensBefore=preparation.tokensBefore",
    "summarizedEntryIds=derived.summarizedEntryIds",
    "turnPrefixEntryIds=derived.turnPrefixEntryIds",
]


def side_by_side(
    path: Path,
    runs: int,
    pi_oracle: Path | None,
    env: dict[str, Any],
    quiet: bool,
    before: Any = None,
) -> None:
    """``prepare`` with its whole output written to a file, tether and pi alternating."""
    from side_by_side import Side, cleanup, compare, line, ratio_line, same_output

    size_mb = path.stat().st_size / 1e6
    shown = "counts only (--quiet)" if quiet else "full output → file"
    print(f"\n{path.name}: {count_entries(path)} entries, {size_mb:.1f} MB  ({shown})")
    flags = [*SETTINGS, *(["--quiet"] if quiet else [])]
    file = str(path.resolve())
    command = [sys.executable, "-m", "tether", "session", "prepare", file, *flags, "--json"]
    neutral = Path("/")  # not a checkout: ``python -m`` puts the working directory first
    sides = [Side("tether", command, cwd=neutral, env=env)]
    if before is not None:
        sides.append(Side("before", command, cwd=neutral, env=before))
    if pi_oracle is not None:
        pi_command = ["node", "oracle.mjs", "prepare", file, *flags]
        sides.append(Side("pi", pi_command, cwd=pi_oracle))
    compare(sides, runs, TIMEOUT)
    for side in sides:
        print(line(side))
    if pi_oracle is not None:
        target = 0.3 if path.stem == "perf-linear-100k" else None
        for ours in sides[:-1]:
            print(ratio_line(ours, sides[-1], target, None))
        if not quiet:
            print(f"  output     {same_output(sides[0], sides[-1], SAME)}")
    cleanup(sides)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/tether-bench-sessions"))
    parser.add_argument("--runs", type=int, default=3, help="runs per measurement (median)")
    parser.add_argument("--sizes", default="all", help="comma list of generated files, or none")
    parser.add_argument("--file", type=Path, action="append", default=[], help="extra session file")
    parser.add_argument("--pi-oracle", type=Path, help="pi oracle directory (runs node oracle.mjs)")
    parser.add_argument(
        "--perf-dir",
        type=Path,
        help="the oracle's perf files (gen.py perf): perf-10k, perf-100k,"
        " perf-linear-100k, and perf-1m, perf-linear-1m (bench/scale_up.py) when present",
    )
    parser.add_argument("--quiet", action="store_true", help="counts only, on both sides")
    parser.add_argument("--phases", action="store_true", help="also tether's in-process phases")
    parser.add_argument(
        "--builtin-only", action="store_true", help="TETHER_LOAD_PLUGINS='' (no installed plugin)"
    )
    parser.add_argument(
        "--before", type=Path, help="a checkout of tether's code before a change: run it too"
    )
    args = parser.parse_args(argv)
    if args.perf_dir is not None:
        names = ("perf-10k", "perf-100k", "perf-linear-100k", "perf-1m", "perf-linear-1m")
        files = [args.perf_dir / f"{n}.jsonl" for n in names]
        files = [f for f in files if f.exists()]
    else:
        files = [] if args.sizes == "none" else generate(args.out)
    if args.sizes not in ("all", "none"):
        wanted = set(args.sizes.split(","))
        files = [f for f in files if f.stem in wanted]
    from side_by_side import tether_env

    env = tether_env(args.builtin_only, None)
    before = None if args.before is None else tether_env(args.builtin_only, args.before)
    plugins = "built-in plugins only" if args.builtin_only else "installed plugins loaded"
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, median of {args.runs} runs,")
    print(f"tether with {plugins}; tether and pi alternate run by run")
    for path in [*files, *args.file]:
        side_by_side(path, args.runs, args.pi_oracle, env, args.quiet, before)
        if args.phases:
            report(path, args.runs, args.pi_oracle)


if __name__ == "__main__":
    main()
