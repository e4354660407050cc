"""Context economy, tether against pi's real CLI, on the same scripted session.

A session of about 120 turns — most with a large tool output: 30 KB files read whole, long
command outputs, failing test logs, of varied sizes — runs through ``pi --mode rpc`` and
through ``tether --mode rpc`` (default settings: pruning on; and ``--no-prune``), each against
the loopback model of :mod:`economy_server` (usage reported, every request logged). Six facts
stated in the first turns must survive to the end. Window 32k, ``keepRecentTokens`` 8000.

Printed per side: input tokens over all requests (turn and summarization), requests (turn +
summary), compactions, prune steps, cache breaks (a turn request that does not start with the
previous turn request's messages) and the early facts still verbatim in the last request.

Measured (pi 0.73.1 from the oracle's npm install; 2 shared cores; default seed 7):

    side       input      requests (turn + summary)  compactions  prune steps  breaks  facts
    pi         2,785,223  281 (207 + 74)             37           0            37      6/6
    tether     1,606,431  233 (207 + 26)             8            36           36      6/6
    no-prune   2,840,034  332 (207 + 125)            38           0            38      6/6

tether's default spends 0.577x pi's input (a pruned output reaches the summarizer as its
placeholder: summary requests 118k -> 49k tokens). ``--no-prune`` applies pi's rules: each side
compacts exactly when its last turn request's reported usage passes 32000 - 16384, with the
same cuts; the points drift by one because the requests differ in size (tether's system
prompt and tools are ~100 tokens smaller; the summary gate restores the facts the loopback
summarizer drops, and the summary names its replaced entries for ``recall``): 38 compactions,
36 with ``--tether-args '--disable-plugin summary_gate'``.

Other scripts (``--seed``, ``--shape random``): the default's ratio is 0.55-0.68 (seed 3:
0.665, 31 breaks to pi's 32; seed 1: 0.680, 33 to 32; seed 13: 0.602; random: 0.593, 0.564).
tether's total stays near 1.6M while pi's moves with where its compactions fall (2.33M-2.81M).

``requests.jsonl`` in each side's temporary directory holds every request (kind, prompt
tokens, messages): ``python bench/economy_compare.py DIR_A DIR_B`` checks each side's
compactions against pi's rule and finds the first turn request whose context differs.

    python bench/economy.py [--pi PATH/TO/pi] [--turns 121] [--sides tether,no-prune,pi]
                            [--prune '{"keepToolTokens": 4000}'] [--seed 7]
                            [--shape cycle|random] [--tether-args '--disable-plugin X']
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from economy_server import Server, text_of  # noqa: E402

WINDOW, KEEP_RECENT = 32000, 8000
FACTS = [
    "FACT-1: the staging database listens on port 6433",
    "FACT-2: release branches are named rel/YYYY.MM",
    "FACT-3: never run migrations on Fridays",
    "FACT-4: the on-call alias is ops-rota@example.org",
    "FACT-5: the flaky test is test_sync_retry, owned by Mira",
    "FACT-6: use ruff, never black, for formatting",
]
PI_CANDIDATES = (
    os.environ.get("PI_BIN", ""),
    "/tmp/pt-prune/oracle/node_modules/.bin/pi",
    str(Path(__file__).resolve().parents[1] / "node_modules/.bin/pi"),
)


def write_workdir(work: Path, seed: int = 7) -> None:
    """Files the session reads: sources (30 KB), test logs, a noisy command."""
    rng = random.Random(seed)
    (work / "src").mkdir(parents=True)
    (work / "logs").mkdir()
    for k in range(12):
        lines = [
            f"def handler_{k}_{i}(request, retries={rng.randint(1, 9)}):  # module {k}\n"
            f"    return dispatch(request, 'route/{k}/{i}', timeout={rng.randint(5, 90)})\n"
            for i in range(400)
        ]
        (work / "src" / f"module_{k}.py").write_text(
            "".join(lines)[: 30_000 - rng.randint(0, 6000)]
        )
    for k in range(12):
        size = rng.randint(6_000, 16_000)
        body = []
        while sum(map(len, body)) < size:
            n = len(body)
            body.append(
                f"FAILED tests/test_mod{k}.py::test_case_{n} - AssertionError: expected "
                f"{rng.randint(0, 999)} got {rng.randint(0, 999)}\n  at line {n * 7}\n"
            )
        (work / "logs" / f"test_{k}.log").write_text("".join(body))
    (work / "noisy.py").write_text(
        "import sys\nn = int(sys.argv[1])\n"
        "for i in range(n):\n    print(f'step {i}: compiled unit {i * 37 % 1009} ok')\n"
    )


def script(turns: int, seed: int = 11, shape: str = "cycle") -> list[str]:
    """The prompts: six facts first, then work turns. ``cycle``: three in four with a big
    output, in a fixed order; ``random``: each turn's kind drawn (a quiet turn one in five)."""
    rng = random.Random(seed)
    prompts = [f"Please remember this. {fact}\n@reply Noted." for fact in FACTS]
    for i in range(len(prompts), turns):
        kind = i % 4 if shape == "cycle" else rng.choice((0, 1, 1, 2, 3))
        if kind == 0:
            prompts.append(f"Turn {i}: what should we look at next?\n@reply Let us continue.")
            continue
        if kind == 1:
            path = f"src/module_{rng.randrange(12)}.py"
            call = f'@tool read {{"path": "{path}"}}'
        elif kind == 2:
            call = f'@tool bash {{"command": "cat logs/test_{rng.randrange(12)}.log"}}'
        else:
            call = f'@tool bash {{"command": "python3 noisy.py {rng.randint(80, 500)}"}}'
        prompts.append(f"Turn {i}: check this output.\n{call}\n@reply Looked at it.")
    return prompts


class Rpc:
    """One agent process in RPC mode (pi's protocol, spoken by both)."""

    def __init__(self, command: list[str], cwd: Path, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            command, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        self.events: queue.Queue[dict[str, Any]] = queue.Queue()
        self.stderr: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._err, daemon=True).start()
        self.n = 0

    def _read(self) -> None:
        for line in self.proc.stdout:  # type: ignore[union-attr]
            if line.strip():
                self.events.put(json.loads(line))

    def _err(self) -> None:
        for line in self.proc.stderr:  # type: ignore[union-attr]
            self.stderr.append(line)

    def wait(self, match: Any, timeout: float = 120) -> dict[str, Any]:
        end = time.time() + timeout
        while time.time() < end:
            try:
                event = self.events.get(timeout=max(0.01, end - time.time()))
            except queue.Empty:
                break
            if match(event):
                return event
        raise TimeoutError("".join(self.stderr[-5:]) or "no answer")

    def send(self, command: dict[str, Any]) -> dict[str, Any]:
        self.n += 1
        command = {"id": f"c{self.n}", **command}
        self.proc.stdin.write(json.dumps(command) + "\n")  # type: ignore[union-attr]
        self.proc.stdin.flush()  # type: ignore[union-attr]
        return self.wait(lambda e: e.get("type") == "response" and e.get("id") == command["id"])

    def prompt(self, text: str) -> None:
        self.send({"type": "prompt", "message": text})
        self.wait(lambda e: e.get("type") == "agent_end")
        for _ in range(600):  # pi compacts after agent_end
            state = self.send({"type": "get_state"}).get("data") or {}
            if not state.get("isStreaming") and not state.get("isCompacting"):
                return
            time.sleep(0.05)

    def close(self) -> str:
        state = self.send({"type": "get_state"}).get("data") or {}
        self.proc.stdin.close()  # type: ignore[union-attr]
        self.proc.wait(30)
        return str(state.get("sessionFile") or "")


def models(base_url: str) -> dict[str, Any]:
    model = {"id": "fake-a", "name": "Fake A", "reasoning": False, "input": ["text"]}
    model.update({"contextWindow": WINDOW, "maxTokens": 4096})
    provider = {"baseUrl": base_url, "api": "openai-completions", "apiKey": "k"}
    return {"providers": {"fake": {**provider, "models": [model]}}}


def run_side(
    side: str, prompts: list[str], server: Server, pi: str | None, args: argparse.Namespace
) -> dict[str, Any]:
    base = Path(tempfile.mkdtemp(prefix=f"economy-{side}-"))
    work, home = base / "work", base / "home"
    write_workdir(work, args.seed)
    prune = json.loads(args.prune)
    home.mkdir()
    (home / "models.json").write_text(json.dumps(models(server.base_url)))
    settings = {"compaction": {"keepRecentTokens": KEEP_RECENT}, "retry": {"enabled": False}}
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    if side == "pi":
        settings.update({"defaultProvider": "fake", "defaultModel": "fake-a", "quietStartup": True})
        (home / "settings.json").write_text(json.dumps(settings))
        env.update({"HOME": str(base), "PI_CODING_AGENT_DIR": str(home), "PI_OFFLINE": "1"})
        env.update({"PI_SKIP_VERSION_CHECK": "1", "PI_TELEMETRY": "0"})
        command = [pi or "pi", "--mode", "rpc", "--offline", "--no-skills", "--no-extensions"]
        command += ["--no-prompt-templates", "--no-themes", "--provider", "fake"]
        command += ["--model", "fake-a", "--tools", "read,bash,edit,write,grep,find,ls"]
    else:
        if prune:
            settings["compaction"]["prune"] = prune  # type: ignore[index]
        (home / "settings.json").write_text(json.dumps(settings))
        env.update({"TETHER_HOME": str(home), "TETHER_LOAD_PLUGINS": "", "TETHER_FSYNC": "0"})
        command = [sys.executable, "-m", "tether", "--mode", "rpc", "--provider", "fake"]
        command += ["--model", "fake-a", *(["--no-prune"] if side == "no-prune" else [])]
        command += args.tether_args.split()
    server.reset()
    rpc = Rpc(command, work, env)
    started = time.perf_counter()
    for text in prompts:
        rpc.prompt(text)
    file = rpc.close()
    with (base / "requests.jsonl").open("w") as out:  # every request, for comparing sides
        for r in server.model.log:
            out.write(
                json.dumps({"kind": r.kind, "tokens": r.prompt_tokens, "messages": r.messages})
                + "\n"
            )
    return measure(side, server, file, time.perf_counter() - started)


def measure(side: str, server: Server, file: str, seconds: float) -> dict[str, Any]:
    log = server.model.log
    turns = [r for r in log if r.kind == "turn"]
    breaks = sum(
        1
        for before, after in zip(turns, turns[1:], strict=False)
        if json.dumps(after.messages[: len(before.messages)]) != json.dumps(before.messages)
    )
    last = json.dumps([text_of(m.get("content")) for m in turns[-1].messages]) if turns else ""
    entries = [json.loads(line) for line in Path(file).read_text().splitlines()[1:]] if file else []
    return {
        "side": side,
        "input": sum(r.prompt_tokens for r in log),
        "turn_input": sum(r.prompt_tokens for r in turns),
        "requests": f"{len(log)} ({len(turns)} + {len(log) - len(turns)})",
        "compactions": sum(1 for e in entries if e.get("type") == "compaction"),
        "prune_steps": sum(1 for e in entries if e.get("customType") == "tether.prune"),
        "cache_breaks": breaks,
        "facts": f"{sum(1 for f in FACTS if f in last)}/{len(FACTS)}",
        "seconds": round(seconds, 1),
    }


def find_pi(given: str | None) -> str | None:
    for candidate in (given or "", *PI_CANDIDATES):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pi", help="pi's CLI (default: $PI_BIN, node_modules/.bin/pi)")
    parser.add_argument("--turns", type=int, default=121)
    parser.add_argument("--sides", default="tether,no-prune,pi")
    parser.add_argument("--prune", default="{}", help="compaction.prune settings (JSON)")
    parser.add_argument("--seed", type=int, default=7, help="files' seed (the script's: +4)")
    parser.add_argument("--shape", choices=("cycle", "random"), default="cycle")
    parser.add_argument("--tether-args", default="", help="more tether flags, e.g. "
                        "'--disable-plugin summary_gate'")  # fmt: skip
    args = parser.parse_args()
    pi = find_pi(args.pi)
    prompts = script(args.turns, args.seed + 4, args.shape)
    server = Server()
    rows = []
    try:
        for side in args.sides.split(","):
            if side == "pi" and pi is None:
                print("pi: not found (give --pi or PI_BIN); skipped", file=sys.stderr)
                continue
            rows.append(run_side(side, prompts, server, pi, args))
            print(json.dumps(rows[-1]), flush=True)
    finally:
        server.close()
    theirs = next((r for r in rows if r["side"] == "pi"), None)
    if theirs:
        for row in rows:
            print(f"{row['side']}: input ratio to pi {row['input'] / theirs['input']:.3f}")


if __name__ == "__main__":
    main()
