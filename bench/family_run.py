"""Run ``bench/fidelity.py``'s families: write each script as a session, compact it k = 1…max-k
times (fillers between) and judge the context after each compaction (``fidelity_judge``)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from factfree_server import MODEL as FACTFREE_MODEL
from family_format import Script, filler, messages
from fidelity_judge import judge

from tether.core.base.errors import TetherError
from tether.core.base.settings import Settings
from tether.core.hooks.facade import Hooks
from tether.core.host.manager import create_plugin_manager
from tether.core.memory.compaction import compact
from tether.core.session.session import Session

FILLERS_BETWEEN = 3
GROWTH_FROM = 5


def strings(value: Any) -> list[str]:
    """Every string inside ``value`` (message dicts, lists), depth first."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def observe(session: Session, script: Script) -> dict[str, Any]:
    """Judge the context the model would receive now."""
    context = session.build_context().messages
    summaries = [m for m in context if m.get("role") == "compactionSummary"]
    summary = str(summaries[-1].get("summary", "")) if summaries else ""
    return judge(summary, "\n".join(strings(context)), script)


def run_script(
    script: Script,
    directory: Path,
    keep: int,
    max_k: int,
    summarizer: str,
    reserve: int,
    gate: bool = True,
) -> list[dict[str, Any]]:
    """Write ``script``'s session, compact it ``max_k`` times; one judgement per k."""
    path = directory / f"{script.family}-{script.name}-{keep}.jsonl"
    path.unlink(missing_ok=True)
    session = Session.open(path, create=True, cwd=str(directory))
    for message in messages(script):
        session.append_message(message)
    environ = {"TETHER_LOAD_PLUGINS": ""} | (
        {} if gate else {"TETHER_DISABLE_PLUGINS": "summary_gate"}
    )
    hooks = Hooks(create_plugin_manager(environ=environ))
    block: dict[str, Any] = {
        "summarizer": summarizer,
        "keepRecentTokens": keep,
        "reserveTokens": reserve,
    }
    if summarizer == "llm":
        block["model"] = FACTFREE_MODEL
    settings = Settings.model_validate({"compaction": block})
    rows, check = [], 0
    for k in range(1, max_k + 1):
        for _ in range(FILLERS_BETWEEN):
            check += 1
            for message in filler(script, check):
                session.append_message(message)
        try:
            outcome = compact(session, hooks, settings)
            status, gate_report = outcome.status, outcome.gate
        except TetherError:
            status, gate_report = "failed", None
            session = Session.open(path)
        row = observe(session, script)
        row.update(k=k, status=status, gate=(gate_report or {}).get("verdict", "-"))
        rows.append(row)
    return rows


def growth(rows: list[dict[str, Any]]) -> float | None:
    """Summary chars at the last k over chars at k = 5 (None below k = 5 or without summary)."""
    if len(rows) < GROWTH_FROM or not rows[GROWTH_FROM - 1]["summaryChars"]:
        return None
    return round(rows[-1]["summaryChars"] / rows[GROWTH_FROM - 1]["summaryChars"], 3)


def family_totals(results: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Sums over a family's sessions and every k; growth: the largest ratio of its sessions."""
    rows = [row for rows in results.values() for row in rows]
    keys = ("held", "total", "stale", "inSection", "sectioned", "ticked", "steps")
    out: dict[str, Any] = {key: sum(r[key] for r in rows) for key in keys}
    by_kind: dict[str, list[int]] = {}
    for row in rows:
        for kind, (placed, total) in row["inSectionByKind"].items():
            pair = by_kind.setdefault(kind, [0, 0])
            pair[0], pair[1] = pair[0] + placed, pair[1] + total
    out["inSectionByKind"] = by_kind
    ratios = {name: growth(rows) for name, rows in results.items()}
    known = [r for r in ratios.values() if r is not None]
    out["growth"] = max(known) if known else None
    out["growthBySession"] = ratios
    out["summaryCharsMax"] = max((r["summaryChars"] for r in rows), default=0)
    out["failed"] = sum(r["status"] == "failed" for r in rows)
    return out


def frac(a: int, b: int) -> str:
    return f"{a}/{b} ({100 * a / b:.0f}%)" if b else "-"


def print_family(family: str, results: dict[str, list[dict[str, Any]]]) -> None:
    """Per session and k: held, stale, in section, ticked, summary size, gate verdict."""
    print(f"\nfamily {family}: held = facts verbatim in context; stale = retired values shown")
    print(
        f"  {'session':<20} {'k':>3} {'held':>7} {'stale':>5} {'§':>7} {'[x]':>5} {'chars':>6} gate"
    )
    for name, rows in results.items():
        for row in rows:
            held = f"{row['held']}/{row['total']}"
            placed = f"{row['inSection']}/{row['sectioned']}" if row["sectioned"] else "-"
            ticked = f"{row['ticked']}/{row['steps']}" if row["steps"] else "-"
            mark = "" if row["status"] == "compacted" else f" ({row['status']})"
            print(
                f"  {name:<20} {row['k']:>3} {held:>7} {row['stale']:>5} {placed:>7} "
                f"{ticked:>5} {row['summaryChars']:>6} {row['gate']}{mark}"
            )


def print_totals(totals: dict[str, dict[str, Any]], label: str) -> None:
    print(f"\nfamilies ({label}): sums over sessions and k")
    head = f"{'held':>16} {'stale':>6} {'in section':>16} {'ticked':>7} {'growth':>7}"
    print(f"  {'family':<12} {head} {'max chars':>9}")
    for family, t in totals.items():
        ratio = "-" if t["growth"] is None else f"{t['growth']:.2f}"
        ticked = f"{t['ticked']}/{t['steps']}" if t["steps"] else "-"
        print(
            f"  {family:<12} {frac(t['held'], t['total']):>16} {t['stale']:>6} "
            f"{frac(t['inSection'], t['sectioned']):>16} {ticked:>7} {ratio:>7} "
            f"{t['summaryCharsMax']:>9}"
        )
    held, total = (sum(t[key] for t in totals.values()) for key in ("held", "total"))
    stale = sum(t["stale"] for t in totals.values())
    print(f"  {'all':<12} {frac(held, total):>16} {stale:>6}")


def run_families(
    scripts: list[Script],
    directory: Path,
    keep: int,
    max_k: int,
    summarizer: str,
    reserve: int,
    gate: bool,
    quiet: bool,
) -> dict[str, Any]:
    """Every script on one track; printed unless ``quiet``."""
    directory.mkdir(parents=True, exist_ok=True)
    results: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for script in scripts:
        rows = run_script(script, directory, keep, max_k, summarizer, reserve, gate)
        results.setdefault(script.family, {})[script.name] = rows
    totals = {family: family_totals(r) for family, r in results.items()}
    track = "offline" if summarizer == "offline" else "llm (fact-free model)"
    label = f"{track}, keep {keep}, k = 1…{max_k}{', summary gate OFF' if not gate else ''}"
    if not quiet:
        ratio = (
            f"; growth = chars at k = {max_k} / k = {GROWTH_FROM}" if max_k >= GROWTH_FROM else ""
        )
        print(f"\nfamilies on track {label}{ratio}")
        for family, r in results.items():
            print_family(family, r)
        print_totals(totals, label)
    return {
        "summarizer": summarizer,
        "track": track,
        "keep": keep,
        "families": results,
        "totals": totals,
        "summaryTokensMax": math.ceil(
            max((t["summaryCharsMax"] for t in totals.values()), default=0) / 4
        ),
    }
