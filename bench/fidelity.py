"""Benchmark: what survives compaction — facts in the context after k = 1…15 compactions.

Five scripted sessions (``bench/fidelity_sessions.py``: a CSV-to-PDF CLI, a web API, an ETL
pipeline, a refactor, a frontend feature) are written as v3 JSONL with tether's own
``Session`` API. Each states a goal, constraints in many wordings ("never", "always", "must",
"don't", "only", "I prefer", "we target", "keep X in Y", "Constraint:"), decisions ("let's go
with X rather than Y"), modified files (write/edit tool calls), an exact error from a bash run
and a next step; one fact is only pinned (``pin_text``), never said. Each session is then
compacted k = 1…max-k times in-process (the kernel's ``compact`` with the chosen summarizer,
keep ``--sizes`` tokens), with 3 filler turns
("Continue (progress check N)") appended between compactions; after each compaction the
context the model would see (summary + kept entries) is searched for every fact, verbatim.

Two summarizers run by default: ``offline``, and ``llm`` against a loopback OpenAI-compatible
server whose model drops facts on purpose (``bench/dropping_server.py``: a constraint, the
decisions, the error, the next step, the files, the goal, a tool-call reply, a reply cut at the
output limit) — the summary gate (plugin ``summary_gate``) must restore them. Each row also
shows the gate's verdict (p passed, r retried, c carried forward, f offline fallback).

Families (``bench/fidelity_families.py``, several sessions each, worded differently):
``chinese`` (a Chinese-speaking user: goal, three constraints, a decision, a next step),
``changed`` (values changed later, explicitly in English and Chinese or implicitly, some twice),
``identifiers`` (ids, pins, paths, env vars, flags, error lines inside long messages) and
``casual`` (preferences said in passing among 6–12 KB test logs and bare "continue" turns, ~40
turns), ``shapes`` (changes told by a value's shape, subjects named in two languages, casual
cues, look-alike values for two parts), ``revisions`` (identifiers revoked, an opening message's
values changed later, one key set three times, Chinese rules without punctuation, a next step
waiting on someone else), ``robust`` (a hostile user: subjects no table lists, one value of a
several-value sentence changed, remarks on an old value, cue-less statements), ``unseen`` (a
registry path moved to another host, an opening message's values changed one by one, error
lines after a header in failing tool output, terse Chinese acceptances, a schedule changed).
Their ``llm`` track uses a model whose summaries are well formed but hold no fact
(``bench/factfree_server.py``): what survives there, the gate kept. Per family and track, at
each k: facts held verbatim in the context (summary + kept entries), retired values shown as
current in the summary (errors; defined in ``bench/fidelity_judge.py``), facts under their
section, next steps ticked done, summary chars, and the growth ratio chars(k = max) / chars(k =
5) (target ≤ 1.10).

``--sessions-dir DIR`` adds private scripts: every ``DIR/*.json`` holds one session object or a
list of them, ``{"family", "name", "turns": [{"user"|"assistant": text} | {"tool", "args",
"result", "isError"} | {"log": bytes}], "facts": [{"text", "kind", "section"?}], "retired":
[{"value", "by": new value or null}], "fillers"?, "acks"?}`` (full description in
``bench/family_format.py``); a malformed file is one error line and exit status 2.

Naming only ``--kinds`` runs only kinds, naming only ``--families`` (or ``--sessions-dir``)
only families; no selection runs everything.

    python bench/fidelity.py                          # all kinds and families, k = 1…15
    python bench/fidelity.py --kinds invoices --max-k 5 --json
    python bench/fidelity.py --summarizer llm --sizes 1000,4000
    python bench/fidelity.py --families chinese,changed --summarizer offline
    python bench/fidelity.py --sessions-dir ~/private-sessions --json
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import factfree_server  # noqa: E402
from dropping_server import MODEL, start  # noqa: E402
from family_format import ScriptError, load  # noqa: E402
from family_run import run_families  # noqa: E402
from fidelity_families import FAMILIES  # noqa: E402
from fidelity_families import NAMES as FAMILY_NAMES  # noqa: E402
from fidelity_sessions import KINDS, Kind, filler, script  # noqa: E402

from tether.builtin_plugins.memory.pins.pinning import pin_text  # noqa: E402
from tether.core.base.errors import TetherError  # noqa: E402
from tether.core.base.settings import Settings  # noqa: E402
from tether.core.hooks.facade import Hooks  # noqa: E402
from tether.core.host.manager import create_plugin_manager  # noqa: E402
from tether.core.memory.compaction import compact  # noqa: E402
from tether.core.session.session import Session  # noqa: E402

CATEGORIES = ["goal", "constraints", "decisions", "files", "error", "next_step", "pinned"]
FILLERS_BETWEEN = 3
# where a fact belongs in pi's checkpoint format (also counted: found in that section)
SECTIONS = {
    "constraints": "Constraints & Preferences",
    "decisions": "Key Decisions",
    "next_step": "Next Steps",
}


def strings(value: Any) -> list[str]:
    """Every string inside ``value`` (message dicts, lists), depth first."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def section(summary: str, heading: str) -> str:
    """The body of ``## heading`` in ``summary`` (up to the next ``## ``)."""
    start = summary.find(f"## {heading}")
    if start < 0:
        return ""
    end = summary.find("\n## ", start + 3)
    return summary[start : end if end >= 0 else len(summary)]


def measure(session: Session, kind: Kind) -> dict[str, Any]:
    """Facts found verbatim in the context, per category, and the summary's size."""
    messages = session.build_context().messages
    haystack = "\n".join(strings(messages))
    summaries = [m for m in messages if m.get("role") == "compactionSummary"]
    summary = str(summaries[-1].get("summary", "")) if summaries else ""
    found = {cat: [f in haystack for f in facts] for cat, facts in kind.facts().items()}
    placed = {
        cat: sum(f in section(summary, heading) for f in kind.facts()[cat])
        for cat, heading in SECTIONS.items()
    }
    return {
        "found": {cat: sum(hits) for cat, hits in found.items()},
        "total": {cat: len(hits) for cat, hits in found.items()},
        "missing": {
            cat: [f for f, hit in zip(kind.facts()[cat], hits, strict=True) if not hit]
            for cat, hits in found.items()
            if not all(hits)
        },
        "inSection": placed,
        "summaryChars": len(summary),
        "summaryTokens": math.ceil(len(summary) / 4),
        "contextMessages": len(messages),
    }


def run_kind(
    kind: Kind,
    directory: Path,
    keep: int,
    max_k: int,
    summarizer: str,
    reserve: int,
    gate: bool = True,
) -> list[dict]:
    """Write ``kind``'s session, compact it ``max_k`` times; one measurement per k."""
    path = directory / f"{kind.name}-{keep}.jsonl"
    path.unlink(missing_ok=True)
    session = Session.open(path, create=True, cwd=str(directory))
    for message in script(kind):
        session.append_message(message)
    pin_text(session, kind.pinned)  # survives through the ## Pinned section only
    environ = {"TETHER_LOAD_PLUGINS": ""} | (
        {} if gate else {"TETHER_DISABLE_PLUGINS": "summary_gate"}
    )
    hooks = Hooks(create_plugin_manager(environ=environ))
    block = {"summarizer": summarizer, "keepRecentTokens": keep, "reserveTokens": reserve}
    if summarizer == "llm":
        block["model"] = MODEL
    settings = Settings.model_validate({"compaction": block})
    rows, check = [], 0
    for k in range(1, max_k + 1):
        for _ in range(FILLERS_BETWEEN):
            check += 1
            for message in filler(check):
                session.append_message(message)
        try:
            outcome = compact(session, hooks, settings)
            status, name, gate_report = outcome.status, outcome.summarizer, outcome.gate
        except TetherError:  # without the gate, a reply that is no summary fails the compaction
            status, name, gate_report = "failed", summarizer, None
            session = Session.open(path)
        row = measure(session, kind)
        verdict = (gate_report or {}).get("verdict", "-")
        row.update(k=k, status=status, summarizer=name, gate=verdict)
        rows.append(row)
    return rows


def ratio(found: int, total: int) -> str:
    return f"{found}/{total}"


SECTION_COLUMNS = {"constraints": "§constr", "decisions": "§decis", "next_step": "§next"}


def print_kind(name: str, rows: list[dict]) -> None:
    print(f"\n{name}: facts in context (§: in their summary section)")
    head = " ".join(f"{c:>11}" for c in [*CATEGORIES, *SECTION_COLUMNS.values()])
    print(f"  {'k':>3} {head} {'summary':>15} gate")
    for row in rows:
        cells = " ".join(f"{ratio(row['found'][c], row['total'][c]):>11}" for c in CATEGORIES)
        placed = " ".join(
            f"{ratio(row['inSection'][c], row['total'][c]):>11}" for c in SECTION_COLUMNS
        )
        size = f"{row['summaryChars']} ch/{row['summaryTokens']} t"
        mark = "" if row["status"] == "compacted" else f"  ({row['status']})"
        gate = row.get("gate", "-")
        print(f"  {row['k']:>3} {cells} {placed} {size:>15} {gate}{mark}")


def aggregate(results: dict[str, list[dict]], max_k: int) -> list[dict[str, Any]]:
    """Per k: % of each category surviving over all kinds, and the mean/max summary size."""
    out = []
    for k in range(1, max_k + 1):
        rows = [rows[k - 1] for rows in results.values()]
        entry: dict[str, Any] = {"k": k}
        for cat in CATEGORIES:
            total = sum(r["total"][cat] for r in rows)
            entry[cat] = round(100 * sum(r["found"][cat] for r in rows) / total, 1)
            if cat in SECTIONS:
                placed = sum(r["inSection"][cat] for r in rows)
                entry[f"{cat}InSection"] = round(100 * placed / total, 1)
        entry["summaryCharsMean"] = round(sum(r["summaryChars"] for r in rows) / len(rows))
        entry["summaryCharsMax"] = max(r["summaryChars"] for r in rows)
        entry["summaryTokensMax"] = max(r["summaryTokens"] for r in rows)
        entry["compacted"] = sum(r["status"] == "compacted" for r in rows)
        verdicts = [r.get("gate", "-") for r in rows]
        entry["gate"] = {v: verdicts.count(v) for v in sorted(set(verdicts))}
        out.append(entry)
    return out


def print_summary(table: list[dict[str, Any]], label: str) -> None:
    print(f"\nall kinds ({label}): % of facts in context (§: in their summary section)")
    head = " ".join(f"{c:>11}" for c in [*CATEGORIES, *SECTION_COLUMNS.values()])
    print(f"  {'k':>3} {head} {'chars mean/max':>15} {'tok max':>7} gate")
    for e in table:
        cells = " ".join(f"{e[c]:>10.0f}%" for c in CATEGORIES)
        placed = " ".join(f"{e[f'{c}InSection']:>10.0f}%" for c in SECTION_COLUMNS)
        size = f"{e['summaryCharsMean']}/{e['summaryCharsMax']}"
        gate = " ".join(f"{v[0]}{n}" for v, n in e["gate"].items())
        print(f"  {e['k']:>3} {cells} {placed} {size:>15} {e['summaryTokensMax']:>7} {gate}")


def select(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> tuple[list[Kind], list[Any]]:
    """The kinds and family scripts the flags name (see the module docstring)."""
    names = [k.name for k in KINDS]
    named_families = args.families is not None or args.sessions_dir is not None
    kinds_arg = args.kinds or ("none" if named_families else "all")
    families_arg = args.families or ("none" if args.kinds or args.sessions_dir else "all")
    wanted = [] if kinds_arg == "none" else names if kinds_arg == "all" else kinds_arg.split(",")
    unknown = sorted(set(wanted) - set(names))
    fams = {
        "none": [],
        "all": FAMILY_NAMES,
    }.get(families_arg, families_arg.split(","))
    unknown += sorted(set(fams) - set(FAMILY_NAMES))
    if unknown or args.max_k < 1:
        parser.error(
            f"unknown kind(s)/family(ies): {', '.join(unknown)}" if unknown else "--max-k < 1"
        )
    scripts = [s for s in FAMILIES if s.family in fams]
    if args.sessions_dir is not None:
        try:
            scripts += load(args.sessions_dir)
        except ScriptError as exc:
            print(f"fidelity.py: {exc}", file=sys.stderr)  # one line, no usage dump
            raise SystemExit(2) from None
    return [k for k in KINDS if k.name in wanted], scripts


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    names = [k.name for k in KINDS]
    parser.add_argument("--kinds", help=f"comma list of {', '.join(names)}, all or none")
    parser.add_argument("--families", help=f"comma list of {', '.join(FAMILY_NAMES)}, all or none")
    parser.add_argument(
        "--sessions-dir", type=Path, help="extra session scripts: DIR/*.json (format above)"
    )
    parser.add_argument("--max-k", type=int, default=15, help="compactions per session")
    parser.add_argument("--sizes", default="1000", help="comma list of keepRecentTokens budgets")
    parser.add_argument(
        "--reserve", type=int, default=16384, help="reserveTokens (summary cap: 0.8 × it × 4 chars)"
    )
    parser.add_argument(
        "--summarizer",
        default="offline,llm",
        help="comma list: offline, llm (kinds: fact-dropping model; families: fact-free model)",
    )
    parser.add_argument(
        "--no-gate", action="store_true", help="block the summary gate (what pi would keep)"
    )
    parser.add_argument("--out", type=Path, help="directory for the session files (default tmp)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args(argv)
    kinds, scripts = select(parser, args)
    sizes = [int(s) for s in args.sizes.split(",")]
    summarizers = args.summarizer.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        directory = args.out or Path(tmp)
        directory.mkdir(parents=True, exist_ok=True)
        servers = []
        if "llm" in summarizers:
            os.environ["TETHER_HOME"] = str(Path(tmp) / "home")
            servers.append(start(kinds, Path(tmp) / "home")[0])
            servers.append(factfree_server.start(Path(tmp) / "home")[0])
        document: dict[str, Any] = {"summarizers": summarizers, "runs": [], "familyRuns": []}
        try:
            for summarizer in summarizers:
                for keep in sizes:
                    if kinds:
                        document["runs"].append(
                            run_all(kinds, directory / summarizer, keep, args, summarizer)
                        )
                    if scripts:
                        document["familyRuns"].append(
                            run_families(
                                scripts,
                                directory / f"{summarizer}-families",
                                keep,
                                args.max_k,
                                summarizer,
                                args.reserve,
                                not args.no_gate,
                                args.json,
                            )
                        )
        finally:
            for server in servers:
                server.stop()
    if args.json:
        print(json.dumps(document, indent=1, ensure_ascii=False))


def summary_cap(reserve: int) -> int:
    """The documented cap of a summary's text: the summarizer's budget (pi's history budget,
    0.8 × reserveTokens tokens, × 4 characters) plus the gate's carried-forward block."""
    from tether.builtin_plugins.memory.summary_gate.carry import CARRY_MAX_CHARS

    return math.floor(0.8 * reserve) * 4 + CARRY_MAX_CHARS


def run_all(
    kinds: list[Kind], directory: Path, keep: int, args: argparse.Namespace, summarizer: str
) -> dict[str, Any]:
    """Every kind with one summarizer and keep budget; printed unless ``--json``."""
    directory.mkdir(parents=True, exist_ok=True)
    start_time = time.perf_counter()
    results = {
        k.name: run_kind(
            k, directory, keep, args.max_k, summarizer, args.reserve, gate=not args.no_gate
        )
        for k in kinds
    }
    seconds = time.perf_counter() - start_time
    table = aggregate(results, args.max_k)
    cap = summary_cap(args.reserve)
    label = (
        f"{summarizer}, keep {keep}, reserve {args.reserve}, {FILLERS_BETWEEN} fillers between;"
        f" summary cap {cap} chars{'; summary gate OFF' if args.no_gate else ''}"
    )
    if not args.json:
        print(f"summarizer {label}: {len(kinds)} kinds, k = 1…{args.max_k}")
        for name, rows in results.items():
            print_kind(name, rows)
        print_summary(table, label)
        print(f"\n{seconds:.1f} s\n")
    return {
        "summarizer": summarizer,
        "keep": keep,
        "reserve": args.reserve,
        "seconds": round(seconds, 2),
        "summaryCap": cap,
        "kinds": results,
        "summary": table,
    }


if __name__ == "__main__":
    main()
