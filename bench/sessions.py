"""Benchmark: open a session and write its whole context, tether and pi side by side.

For each session file, the whole process — open, build, LLM conversion, the full context
(messages and llmMessages) written as JSON to a file — of ``tether session context FILE
--json`` and, with ``--pi-oracle DIR``, of pi's ``node oracle.mjs context FILE`` (without
``--quiet``), alternating run by run; medians of wall time and peak RSS, the ratios, and
whether both wrote the same messages (``bench/side_by_side.py``). ``--before DIR`` runs a
checkout of tether's older code as a third side. Files: ``--perf-dir DIR`` (the oracle's
``gen.py perf`` files, plus the 1M-entry ones ``bench/scale_up.py`` makes), or seeded files
this script generates (branched trees with compactions, and one long branch: everything in
the context — the worst case), or ``--file``. ``--phases`` adds the in-process phases.

    python bench/sessions.py --perf-dir /tmp/perf --pi-oracle ../oracle --builtin-only
    python bench/sessions.py --perf-dir /tmp/perf --pi-oracle ../oracle --before /tmp/old-tether
    python bench/sessions.py --file some.jsonl --sizes none --phases
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

WORDS = (
    "the a session branch leaf tree token window summary compaction context model provider "
    "request response stream buffer parse render build test fix refactor import export async "
    "await promise function class module config value index path file directory line column "
    "error output input map list set key object array byte theme editor component"
).split()
TOOLS = ("read", "bash", "edit", "write", "grep", "find", "ls")
SIZES = {
    "branched-1k": (1_000, True),
    "branched-10k": (10_000, True),
    "branched-100k": (100_000, True),
    "linear-10k": (10_000, False),
    "linear-100k": (100_000, False),
}


class SessionWriter:
    """A seeded generator of pi v3 session files (key order as pi writes them)."""

    def __init__(self, seed: int, branched: bool) -> None:
        self.rng = random.Random(seed)
        self.branched = branched
        self.clock = 1_736_000_000_000 + seed * 1000
        self.lines: list[str] = []
        self.ids: list[str] = []
        self.used: set[str] = set()
        self.leaf: str | None = None
        self.context_tokens = 2000
        self.since_compaction = 0

    def _iso(self) -> str:
        self.clock += self.rng.randint(5, 30_000)
        seconds, ms = divmod(self.clock, 1000)
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{ms:03d}Z"

    def _id(self) -> str:
        while True:
            candidate = f"{self.rng.getrandbits(32):08x}"
            if candidate not in self.used:
                self.used.add(candidate)
                return candidate

    def _text(self, lo: int, hi: int) -> str:
        return " ".join(self.rng.choice(WORDS) for _ in range(self.rng.randint(lo, hi)))

    def _emit(self, record: dict[str, Any]) -> None:
        self.lines.append(json.dumps(record, ensure_ascii=False, separators=(",", ":")))

    def append(self, kind: str, **fields: Any) -> str:
        entry_id = self._id()
        base = {"type": kind, "id": entry_id, "parentId": self.leaf, "timestamp": self._iso()}
        if kind in ("custom", "custom_message"):  # pi writes these with the base keys last
            self._emit({"type": kind, **fields, **{k: v for k, v in base.items() if k != "type"}})
        else:
            self._emit({**base, **fields})
        self.ids.append(entry_id)
        self.leaf = entry_id
        self.since_compaction += 1
        return entry_id

    def message(self, message: dict[str, Any]) -> str:
        message["timestamp"] = self.clock
        return self.append("message", message=message)

    def _usage(self, output: int) -> dict[str, Any]:
        self.context_tokens += output + self.rng.randint(50, 900)
        total = self.context_tokens
        cost = {"input": total * 3e-6, "output": output * 15e-6, "cacheRead": 0, "cacheWrite": 0}
        cost["total"] = cost["input"] + cost["output"]
        return {
            "input": total - output,
            "output": output,
            "cacheRead": 0,
            "cacheWrite": 0,
            "totalTokens": total,
            "cost": cost,
        }

    def assistant(self, blocks: list[dict[str, Any]], stop: str) -> str:
        return self.message(
            {
                "role": "assistant",
                "content": blocks,
                "api": "anthropic-messages",
                "provider": "anthropic",
                "model": "claude-sonnet-4-5",
                "usage": self._usage(self.rng.randint(20, 600)),
                "stopReason": stop,
            }
        )

    def turn(self) -> None:
        text = self._text(5, 60)
        self.message({"role": "user", "content": [{"type": "text", "text": text}]})
        for _ in range(self.rng.choice((0, 1, 1, 2, 3))):
            calls = [self._tool_call() for _ in range(self.rng.choice((1, 1, 2)))]
            blocks: list[dict[str, Any]] = []
            if self.rng.random() < 0.4:
                blocks.append({"type": "thinking", "thinking": self._text(10, 80)})
            blocks.append({"type": "text", "text": self._text(3, 30)})
            self.assistant(blocks + calls, "toolUse")
            for call in calls:
                self.message(self._tool_result(call))
        stop = self.rng.choices(("stop", "aborted", "error"), (20, 1, 1))[0]
        self.assistant([{"type": "text", "text": self._text(10, 150)}], stop)

    def _tool_call(self) -> dict[str, Any]:
        name = self.rng.choice(TOOLS)
        path = f"src/{self.rng.choice(WORDS)}/{self.rng.choice(WORDS)}.ts"
        arguments: dict[str, Any] = {"path": path}
        if name == "bash":
            arguments = {"command": f"npm run {self.rng.choice(WORDS)}", "timeout": 60}
        elif name == "write":
            arguments["content"] = self._text(20, 200)
        elif name == "edit":
            arguments["edits"] = [{"oldText": self._text(2, 12), "newText": self._text(2, 12)}]
        call_id = f"toolu_{self.rng.getrandbits(64):016x}"
        return {"type": "toolCall", "id": call_id, "name": name, "arguments": arguments}

    def _tool_result(self, call: dict[str, Any]) -> dict[str, Any]:
        lines = self.rng.choice((1, 2, 4, 8, 16, 30)) if self.rng.random() < 0.95 else 120
        body = "\n".join(f"{i + 1:6d}\t{self._text(2, 12)}" for i in range(lines))
        content: list[dict[str, Any]] = [{"type": "text", "text": body}]
        if self.rng.random() < 0.01:
            content.append({"type": "image", "data": "iVBORw0KGgo" * 40, "mimeType": "image/png"})
        return {
            "role": "toolResult",
            "toolCallId": call["id"],
            "toolName": call["name"],
            "content": content,
            "isError": self.rng.random() < 0.05,
        }

    def misc(self) -> None:
        kind = self.rng.choice(("model", "thinking", "label", "info", "custom", "note", "bash"))
        if kind == "model":
            self.append("model_change", provider="openai", modelId="gpt-4o")
        elif kind == "thinking":
            level = self.rng.choice(("off", "low", "medium", "high"))
            self.append("thinking_level_change", thinkingLevel=level)
        elif kind == "label":
            self.append("label", targetId=self.rng.choice(self.ids), label=self.rng.choice(WORDS))
        elif kind == "info":
            self.append("session_info", name=self._text(1, 4))
        elif kind == "custom":
            self.append("custom", customType="bench-state", data={"n": len(self.ids)})
        elif kind == "note":
            self.append(
                "custom_message", customType="note", content=self._text(5, 40), display=True
            )
        else:
            output = "\n".join(self._text(3, 10) for _ in range(self.rng.randint(0, 15)))
            bash = {"role": "bashExecution", "command": "make test", "output": output}
            self.message({**bash, "exitCode": 0, "cancelled": False, "truncated": False})

    def navigate(self) -> None:
        target = self.rng.choice(self.ids)
        self.leaf = target
        if self.rng.random() < 0.5:
            self.append("branch_summary", fromId=target, summary=self._text(20, 120))

    def compaction(self) -> None:
        kept = self.ids[-min(len(self.ids), self.rng.randint(4, 30))]
        details = {"readFiles": ["src/a.ts"], "modifiedFiles": ["src/b.ts"]}
        self.append(
            "compaction",
            summary=self._text(100, 400),
            firstKeptEntryId=kept,
            tokensBefore=self.context_tokens,
            details=details,
            fromHook=False,
        )
        self.context_tokens = 4000
        self.since_compaction = 0

    def build(self, entries: int) -> list[str]:
        stamp = self._iso()
        header = {"type": "session", "version": 3, "id": f"bench-{self.rng.getrandbits(64):016x}"}
        self._emit({**header, "timestamp": stamp, "cwd": "/home/dev/project"})
        while len(self.ids) < entries:
            roll = self.rng.random()
            if self.branched and self.ids and roll < 0.04:
                self.navigate()
            elif roll < 0.12:
                self.misc()
            elif self.branched and self.since_compaction > 600 and roll < 0.2:
                self.compaction()
            else:
                self.turn()
        return self.lines[: entries + 1]


def generate(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for index, (name, (entries, branched)) in enumerate(SIZES.items()):
        path = out / f"{name}.jsonl"
        if not path.exists():
            lines = SessionWriter(seed=7100 + index, branched=branched).build(entries)
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def run_measured(
    command: list[str], cwd: Path | None = None, *, discard: bool = False
) -> tuple[float, float, str]:
    """Wall seconds, peak RSS (MB, ``ru_maxrss`` of the child) and stdout of one process
    (``discard``: stdout goes to /dev/null).

    Linux carries the parent's peak RSS into a forked child's ``ru_maxrss``, so this process
    stays small: sessions are generated in a separate process.
    """
    env = {**os.environ, "TETHER_LOAD_PLUGINS": ""}  # built-in plugins only
    started = time.perf_counter()
    out = subprocess.DEVNULL if discard else subprocess.PIPE
    child = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.PIPE)
    assert child.stderr is not None
    stdout = child.stdout.read() if child.stdout is not None else b""
    stderr = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{stderr.decode(errors='replace')}")
    return wall, usage.ru_maxrss / 1024, stdout.decode()


IN_PROCESS = """
import json, resource, sys, time
t0 = time.perf_counter()
from tether.core.context.build import build_context_from_path, convert_to_llm
from tether.core.session.session import Session
t1 = time.perf_counter()
session = Session.open(sys.argv[1], readonly=True)
t2 = time.perf_counter()
context = session.build_context()
t3 = time.perf_counter()
llm = convert_to_llm(context.messages)
t4 = time.perf_counter()
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
branch = session.get_branch()
t5 = time.perf_counter()
pure = build_context_from_path(branch)
t6 = time.perf_counter()
assert pure.messages == context.messages
print(json.dumps({"import": t1 - t0, "open": t2 - t1, "context": t3 - t2, "convert": t4 - t3,
                  "total": t4 - t1, "rss": rss, "branch": t5 - t4, "pure": t6 - t5,
                  "messages": len(context.messages)}))
"""


def median_of(
    runs: int, command: list[str], cwd: Path | None = None, *, discard: bool = False
) -> dict[str, float]:
    walls, rss = [], []
    for _ in range(runs):
        wall, peak, _ = run_measured(command, cwd, discard=discard)
        walls.append(wall)
        rss.append(peak)
    return {"wall": statistics.median(walls), "rss": statistics.median(rss)}


def in_process(runs: int, path: Path, script: str = IN_PROCESS) -> dict[str, float] | None:
    """Median phases printed (as JSON) by ``script`` run on ``path``; one process per run."""
    samples = []
    for _ in range(runs):
        try:
            _, _, out = run_measured([sys.executable, "-c", script, str(path)])
        except SystemExit as exc:
            print(f"  in-process: skipped ({str(exc).strip().splitlines()[-1]})")
            return None
        samples.append(json.loads(out))
    return {key: statistics.median(s[key] for s in samples) for key in samples[0]}


def count_entries(path: Path) -> int:
    with path.open("rb") as f:
        return sum(1 for _ in f) - 1


def _ratio_line(ours: dict[str, float], pi: dict[str, float]) -> str:
    return (
        f"  ratio tether/pi  time {ours['wall'] / pi['wall']:.2f}"
        f"  memory {ours['rss'] / pi['rss']:.2f}  (target <= 0.50)"
    )


def report(path: Path, runs: int, pi_oracle: Path | None) -> None:
    size_mb = path.stat().st_size / 1e6
    print(f"\n{path.name}: {count_entries(path)} entries, {size_mb:.1f} MB")
    command = [sys.executable, "-m", "tether", "session", "context", str(path), "--quiet"]
    ours = median_of(runs, command)
    print(f"  tether process   {ours['wall']:7.3f} s  {ours['rss']:7.1f} MB")
    phases = in_process(runs, path)
    if phases:
        detail = "  ".join(f"{k} {phases[k]:.3f}" for k in ("open", "context", "convert"))
        print(f"  tether in-proc   {phases['total']:7.3f} s  {phases['rss']:7.1f} MB  ({detail})")
        print(
            f"    {phases['messages']:.0f} messages; parse whole branch {phases['branch']:.3f} s,"
            f" build_context_from_path on it {phases['pure']:.3f} s"
        )
    if pi_oracle is not None:
        pi_command = ["node", "oracle.mjs", "context", str(path.resolve()), "--quiet"]
        pi = median_of(runs, pi_command, cwd=pi_oracle)
        print(f"  pi process       {pi['wall']:7.3f} s  {pi['rss']:7.1f} MB")
        print(_ratio_line(ours, pi))


TIMEOUT = 600.0  # seconds per process (pi on 1M entries may run out of memory or time)


def side_by_side(
    path: Path, runs: int, pi_oracle: Path | None, env: dict[str, Any], before: Any = None
) -> None:
    """The full context written as JSON to a file, tether and pi alternating; medians."""
    from side_by_side import Side, cleanup, compare, line, ratio_line, same_output

    size_mb = path.stat().st_size / 1e6
    print(f"\n{path.name}: {count_entries(path)} entries, {size_mb:.1f} MB  (full context → file)")
    file = str(path.resolve())
    command = [sys.executable, "-m", "tether", "session", "context", file, "--json"]
    neutral = Path("/")  # not a checkout: ``python -m`` puts the working directory first
    sides = [Side("tether", command, cwd=neutral, env=env)]
    if before is not None:
        sides.append(Side("before", command, cwd=neutral, env=before))
    if pi_oracle is not None:
        sides.append(Side("pi", ["node", "oracle.mjs", "context", file], cwd=pi_oracle))
    compare(sides, runs, TIMEOUT)
    for side in sides:
        print(line(side))
    if pi_oracle is not None:
        target, rss_target = TARGETS.get(path.stem, (None, None))
        for ours in sides[:-1]:
            print(ratio_line(ours, sides[-1], target, rss_target))
        keys = ["messages", "llmMessages"]
        print(f"  output     {same_output(sides[0], sides[-1], keys)}")
    cleanup(sides)


# targets (wall, peak RSS) for the oracle's perf files (gen.py perf): issue 12, and
# issue 24's peak RSS <= 0.35x pi on the mixed file too
TARGETS = {
    "perf-10k": (0.5, None),
    "perf-100k": (0.2, 0.35),
    "perf-linear-100k": (0.3, 0.35),
}


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
    parser.add_argument(
        "--phases", action="store_true", help="also the --quiet process and in-process phases"
    )
    parser.add_argument(
        "--builtin-only", action="store_true", help="TETHER_LOAD_PLUGINS='' (no installed plugin)"
    )
    parser.add_argument(
        "--before", type=Path, help="a checkout of tether's code before a change: run it too"
    )
    parser.add_argument("--generate-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.generate_only:
        generate(args.out)
        return
    files = []
    if args.perf_dir is not None:
        names = ("perf-10k", "perf-100k", "perf-linear-100k", "perf-1m", "perf-linear-1m")
        files = [args.perf_dir / f"{n}.jsonl" for n in names]
        files = [f for f in files if f.exists()]
    elif args.sizes != "none":
        generator = [sys.executable, __file__, "--generate-only", "--out", str(args.out)]
        subprocess.run(generator, check=True)
        files = [args.out / f"{name}.jsonl" for name in SIZES]
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
        side_by_side(path, args.runs, args.pi_oracle, env, before)
        if args.phases:
            report(path, args.runs, args.pi_oracle)


if __name__ == "__main__":
    main()
