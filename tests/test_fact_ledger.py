"""The fact ledger (issue 23): real sessions written with tether's Session API, compacted
in-process with the offline summarizer and with a summarizer whose checkpoints hold no facts
(only the summary gate can keep them), in English and Chinese, with varied wording."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.compaction_helpers import hooks_with, settings
from tests.ledger_helpers import FactFree, compactions, filler, section, write_turns
from tether.builtin_plugins.memory.fact_ledger import stored_ledger
from tether.core.memory.compaction import compact
from tether.core.session.session import Session
from tether.hookspecs import hookimpl

CHINESE = [
    "帮我写一个把 CSV 发票批量转换成 PDF 的命令行工具。",
    "代码里的注释一律用英文。千万别把客户数据写进日志。每个函数不超过五十行。",
    "我们决定用 reportlab 生成 PDF，不用 weasyprint。",
    "接下来先把 --currency 参数加上，默认值是 EUR。",
]
ZH_CONSTRAINTS = [
    "代码里的注释一律用英文。",
    "千万别把客户数据写进日志。",
    "每个函数不超过五十行。",
]
ZH_NEXT = "接下来先把 --currency 参数加上，默认值是 EUR。"

CHANGES = [
    "We're building an internal dashboard for the billing team.",
    "Deploy it to staging.internal.example.com for the demo.",
    "Use Flask for the web layer.",
    "Cap the page size at 50 rows.",
    "Python 3.10 is what the servers run.",
    "Actually, scratch that host: deploy to demo.internal.example.com instead.",
    "Let's switch to FastAPI for the web layer.",
    "数据库用 MySQL。",
    "每页最多显示 20 条。",
    "Cap the page size at 200 rows.",
    "数据库改用 PostgreSQL。",
    "Hmm, no: cap the page size at 100 rows after all.",
    "以后每页最多显示 50 条。",
]
LIVE = [
    "Actually, scratch that host: deploy to demo.internal.example.com instead.",
    "Let's switch to FastAPI for the web layer.",
    "Hmm, no: cap the page size at 100 rows after all.",
    "Python 3.10 is what the servers run.",
    "数据库改用 PostgreSQL。",
    "以后每页最多显示 50 条。",
]
STALE = ["staging.internal.example.com", "Use Flask", "50 rows", "200 rows", "MySQL", "20 条"]

IDENTIFIERS = (
    "Quick context before you start. The bug report is PAY-1187 and it reproduces on my machine. "
    "I'm on numpy==1.26.4 because the wheels for 2.x broke our build. "
    "Config lives in deploy/settings/prod.toml, not the one in the repo root. "
    "Export BILLING_REGION=eu-west-1 before running anything. "
    "Run the suite with --maxfail=2 so it stops early. "
    "You must not touch the migrations folder."
)
IDS = ["PAY-1187", "numpy==1.26.4", "deploy/settings/prod.toml", "BILLING_REGION=eu-west-1",
       "--maxfail=2"]  # fmt: skip


def live_texts(entry: dict[str, Any]) -> dict[str, str]:
    ledger = stored_ledger(entry["details"])
    assert ledger is not None
    return {f.text: f.kind for f in ledger.live()}


def test_chinese_facts_land_in_their_sections_every_compaction(tmp_path: Path) -> None:
    file = tmp_path / "zh.jsonl"
    write_turns(file, CHINESE, reply="好的。")
    for entry in compactions(file, 3):
        summary = entry["summary"]
        assert CHINESE[0] in section(summary, "## Goal")
        constraints = section(summary, "## Constraints & Preferences")
        for rule in ZH_CONSTRAINTS:
            assert f'"{rule}"' in constraints
        assert "reportlab" in section(summary, "## Key Decisions")
        assert ZH_NEXT in section(summary, "## Next Steps")
        assert ZH_NEXT not in section(summary, "### Done")  # never ticked done
        assert '[x] Request: "代码里' not in summary


@pytest.mark.parametrize("summarizer", ["offline", "factfree"])
def test_changed_values_retire_the_old_ones(tmp_path: Path, summarizer: str) -> None:
    file = tmp_path / "changes.jsonl"
    write_turns(file, CHANGES, reply="Noted.")
    plugins = [("factfree", FactFree())] if summarizer == "factfree" else []
    for entry in compactions(file, 3, *plugins, summarizer=summarizer):
        summary = entry["summary"]
        for fact in LIVE:
            assert fact in summary, (summarizer, fact)
        for stale in STALE:
            assert stale not in summary, (summarizer, stale)
        live = live_texts(entry)
        assert "Use Flask for the web layer." not in live
        assert "Cap the page size at 200 rows." not in live  # changed twice: the last one only
    assert "`recall" in compactions(file, 1)[0]["summary"]  # names what recall finds


def test_every_identifier_of_a_long_message_is_kept(tmp_path: Path) -> None:
    file = tmp_path / "ids.jsonl"
    write_turns(file, ["Fix the rounding bug in the invoice totals.", IDENTIFIERS])
    for entry in compactions(file, 3, ("factfree", FactFree()), summarizer="factfree"):
        for identifier in IDS:
            assert identifier in entry["summary"], identifier
        assert "You must not touch the migrations folder." in entry["summary"]
    for entry in compactions(file, 2):
        for identifier in IDS:
            assert identifier in entry["summary"], identifier


def test_the_ledger_travels_in_details_and_the_summary_is_not_reparsed(tmp_path: Path) -> None:
    file = tmp_path / "s.jsonl"
    write_turns(file, CHANGES[:5])
    first = compactions(file, 1)[0]
    ledger = first["details"]["gate"]["ledger"]
    assert {f["text"] for f in ledger["facts"]} >= {"Use Flask for the web layer."}
    assert all(f.get("source") for f in ledger["facts"])  # each fact names its entry
    # a tampered summary text changes nothing: the next compaction reads the ledger
    records = [json.loads(line) for line in file.read_text().splitlines()]
    for record in records:
        if record.get("type") == "compaction":
            record["summary"] = "## Goal\nSomething else entirely."
    file.write_text("".join(json.dumps(r) + "\n" for r in records))
    second = compactions(file, 1)[0]["summary"]
    assert "Use Flask for the web layer." in second and "Something else" not in second


def test_a_pi_written_compaction_is_read_from_its_summary_once(tmp_path: Path) -> None:
    file = tmp_path / "pi.jsonl"
    session = write_turns(file, ["Port the exporter to Rust."])
    keep = session.append_message({"role": "user", "content": "continue", "timestamp": 1})
    session.append_compaction(
        "## Goal\nPort the exporter to Rust.\n\n## Constraints & Preferences\n"
        "- Never use unsafe blocks.\n\n## Next Steps\n1. Port the CSV reader",
        keep, 500, details={"readFiles": [], "modifiedFiles": []},
    )  # fmt: skip
    entry = compactions(file, 1)[0]
    assert "Never use unsafe blocks." in section(entry["summary"], "## Constraints & Preferences")
    assert "Never use unsafe blocks." in live_texts(entry)


def test_the_gate_restores_live_facts_and_never_a_retired_one(tmp_path: Path) -> None:
    file = tmp_path / "gate.jsonl"
    write_turns(file, [*CHINESE, *CHANGES[1:4], CHANGES[6]])
    entry = compactions(file, 1, ("factfree", FactFree()), summarizer="factfree")[0]
    gate, summary = entry["details"]["gate"], entry["summary"]
    assert gate["verdict"] == "carried_forward"
    for rule in [*ZH_CONSTRAINTS, ZH_NEXT, CHANGES[6]]:
        assert rule in summary, rule
    assert "Use Flask" not in summary


@pytest.mark.parametrize(
    "reply",
    [
        "## Goal\n[The outcome the user wants; several lines]\n\n## Constraints & Preferences\n"
        "- [Rules, requirements and preferences the user stated]",
        "You write context checkpoints. You are shown the transcript of a working session "
        "between a user and an AI coding assistant, and your only job is to condense it into "
        "the structured summary that the instructions describe.",
    ],
)
def test_a_template_or_prompt_echo_is_not_a_summary(tmp_path: Path, reply: str) -> None:
    file = tmp_path / "echo.jsonl"
    write_turns(file, CHANGES[:4])
    summarizer = FactFree(reply)
    entry = compactions(file, 1, ("factfree", summarizer), summarizer="factfree")[0]
    assert entry["details"]["gate"]["verdict"] == "fallback"
    assert entry["details"]["gate"]["missing"][0].startswith("reply: ")
    assert "[The outcome" not in entry["summary"] and "You write context" not in entry["summary"]
    assert "Use Flask for the web layer." in entry["summary"]


class German:
    @hookimpl
    def register_fact_cues(self, register: Any) -> None:
        register("de", {"constraint": ["immer", "niemals"], "change": ["stattdessen"]})


def test_a_plugin_adds_a_language(tmp_path: Path) -> None:
    file = tmp_path / "de.jsonl"
    write_turns(file, ["Schreib ein Exporttool.", "Logge niemals Kundendaten.", "Benutze Port 80.",
                       "Benutze stattdessen Port 8080."])  # fmt: skip
    entry = compactions(file, 1, ("german", German()))[0]
    constraints = section(entry["summary"], "## Constraints & Preferences")
    assert '"Logge niemals Kundendaten."' in constraints
    assert "Port 8080" in entry["summary"] and "Port 80." not in entry["summary"]


def test_the_summary_stops_growing_once_facts_stop_changing(tmp_path: Path) -> None:
    file = tmp_path / "grow.jsonl"
    write_turns(file, [*CHANGES, *CHINESE[1:], IDENTIFIERS])
    sizes = [len(e["summary"]) for e in compactions(file, 15)]
    assert sizes[14] <= sizes[4] * 1.10, sizes


def test_extraction_runs_at_compaction_only(tmp_path: Path) -> None:
    """Building the context of a session (every model call) never reads facts."""
    from tether.builtin_plugins.memory.fact_ledger import build as ledger_build

    file = tmp_path / "turns.jsonl"
    write_turns(file, CHANGES)
    calls = []
    original = ledger_build.build_ledger
    ledger_build.build_ledger = lambda *a, **k: calls.append(1) or original(*a, **k)  # type: ignore[assignment]
    try:
        Session.open(file).build_context()
    finally:
        ledger_build.build_ledger = original  # type: ignore[assignment]
    assert calls == []
    assert compact(Session.open(file), hooks_with(), settings(keepRecentTokens=10)).status


@pytest.mark.parametrize(
    ("old", "new", "stale"),
    [
        (
            "Cache results in Redis.",
            "Let's not use Redis anymore, plain files are enough.",
            "Cache",
        ),
        ("We'll go with Postgres 16.", "Bump Postgres to 17, ops upgraded the cluster.", "16"),
        ("端口用 8080。", "端口改成 9090。", "8080"),
        ("Target Node 18.", "Actually target Node 20.", "18"),
        ("Line length limit is 88.", "Make the line length limit 100.", "88"),
        ("The retry loop gets max_retries=8.", "max_retries=3, eight was too many.", "=8"),
        (
            "Metrics go to statsd.local:8125.",
            "metrics go to otel.svc:4317 now, statsd is gone.",
            "8125",
        ),
    ],
)
def test_a_change_in_other_words_retires_the_old_value(
    tmp_path: Path, old: str, new: str, stale: str
) -> None:
    file = tmp_path / "c.jsonl"
    write_turns(file, ["Set up the service.", old, "Unrelated: the README needs a badge.", new])
    summary = compactions(file, 1)[0]["summary"]
    assert new in summary and old not in summary
    assert stale not in summary.split("## Progress")[0]


def test_a_request_dropped_for_size_is_recorded_in_the_ledger(tmp_path: Path) -> None:
    file = tmp_path / "big.jsonl"
    asks = [f"Add a regression test for parser case {n} with the fixture from ticket QA-{n}."
            for n in range(40)]  # fmt: skip
    write_turns(file, ["Harden the parser.", *asks, "Never change the public API."])
    session = Session.open(file)
    for n in range(2):
        filler(session, n)
    tight = settings(keepRecentTokens=300, reserveTokens=600, summarizer="offline")
    entry = compact(Session.open(file), hooks_with(), tight).entry
    summary, ledger = entry["summary"], stored_ledger(entry["details"])
    assert ledger is not None and "omitted to fit the budget" in summary
    dropped = {d["text"] for d in ledger.dropped}
    assert dropped and all(text not in summary for text in dropped)
    assert ledger.dropped_count == len([f for f in ledger.facts if f.status == "dropped"])
    assert "Never change the public API." in summary  # a constraint is never dropped
