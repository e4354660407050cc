"""Terse users: a bare answer to the assistant's either/or question, a key and its value said
as a whole message or a list line, a short statement with no cue word — all facts the user
stated, kept verbatim through compactions; a bare acknowledgement is none.

Once, read sentence by sentence, "valkey. clustering is overkill, nothing fancy" became a bare
"valkey." (a request the gate never restores) and a fragment: the answer, whole, was gone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.gate_helpers import assistant, text, user
from tests.ledger_helpers import compacted, ledger_of
from tether.builtin_plugins.memory.fact_ledger import build_ledger, stored_ledger
from tether.builtin_plugins.memory.fact_ledger.answers import offers_choice
from tether.builtin_plugins.memory.fact_ledger.cues import cues_for
from tether.builtin_plugins.memory.fact_ledger.terse import (
    bare_ack,
    terse_setting,
    terse_statement,
)

GOAL = "Help me move the nightly report job onto the new cluster."
#: (assistant's question, the user's terse answer)
ANSWERS = [
    ("Should the cache be Redis or Valkey?", "valkey. clustering is overkill, nothing fancy"),
    ("Do you want the tokens in Vault or in env files?", "env files. they sit in deploy/env/"),
    ("Parquet or CSV for the export?", "csv. not changing formats mid-quarter"),
    (
        "Two ways to schedule it:\n1. a cron line on the box\n2. a k8s CronJob\nWhich one?",
        "the second one, but with a concurrency limit",
    ),
    ("报表用增量还是全量？", "增量。全量太慢了"),
    ("有两个方案：1 用队列，2 直接写库。选哪个？", "选 2，但是要加重试"),
]
SETTINGS = ["retries 4", "poll interval 30s", "workers: 6", "并发 先 8", "keep --dry-run"]
LINES = ["chunk size 512", "overlap 64", "top_k 8"]  # one message, one a line, no bullets
STATEMENTS = ["the report is still semicolon separated", "grafana is what the team reads"]
ACKS = ["k", "ok", "go on", "继续", "ok thanks", "👍"]
#: a short statement between acknowledgements, and one inside a long message of requests
BETWEEN = "looks right. the export is still semicolon separated. carry on"
STATED = "the staging bucket lives in the EU account"
LONG = (
    "Please go through the loader module and tidy up the retry helper, the logging calls and "
    f"the docstrings while you are in there. {STATED}. Also look over the README section on "
    "scheduling and fix whatever reads stale after the move to the new cluster."
)


def _messages() -> list[dict[str, Any]]:
    out = [user(GOAL), assistant([text("Looking at the job now.")])]
    for question, reply in ANSWERS:
        out += [assistant([text(question)]), user(reply)]
    out.append(user("- " + "\n- ".join(SETTINGS[:3])))
    out.append(assistant([text("Noted.")]))
    for said in [*SETTINGS[3:], *STATEMENTS, *ACKS, BETWEEN, LONG, "\n".join(LINES)]:
        out += [user(said), assistant([text("Noted.")])]
    return out


def _ledger() -> Any:
    return ledger_of(_messages())


def test_an_answer_to_an_either_or_question_is_one_decision_verbatim() -> None:
    ledger = _ledger()
    rules = [f.text for f in ledger.live("decision", "constraint")]
    for _, reply in ANSWERS:
        assert reply in rules, reply
    decisions = [f.text for f in ledger.live("decision")]
    for _, reply in ANSWERS[:3] + ANSWERS[4:5]:  # a bare choice, then why: one decision
        assert reply in decisions, reply
    assert not [f for f in ledger.live("request") if f.text in ("valkey.", "csv.")]


def test_a_key_and_its_value_is_a_constraint_and_acknowledgements_are_no_facts() -> None:
    ledger = _ledger()
    rules = [f.text for f in ledger.live("constraint")]
    for setting in SETTINGS + LINES:
        assert any(rule.endswith(setting) for rule in rules), (setting, rules)
    texts = {f.text for f in ledger.live()}
    assert not texts & {*ACKS, "looks right.", "carry on"}
    assert "the export is still semicolon separated." in rules


def test_terse_shapes_and_what_they_are_not() -> None:
    cues = cues_for(None)
    for said in ["lr 0.02", "batch 128", "timeout 5m", "keep -v", "- seed: 3", "阈值 0.6"]:
        assert terse_setting(said, cues), said
    for said in ["Turn 8", "run 3 times", "Error: 502", "what is 5", "option 2", "fix 2 tests"]:
        assert not terse_setting(said, cues), said
    for said in ACKS:
        assert bare_ack(said, cues), said
    for said in ["ok, the port is 8080", "no tabs", "好，用 8 个进程"]:
        assert not bare_ack(said, cues), said
    assert offers_choice("Docker or Podman for the runners?")
    assert offers_choice("Options:\n1) keep it\n2) drop it\nThoughts?")
    assert not offers_choice("I ran the tests. Anything else?")
    assert not offers_choice("Docker or Podman would both work here.")
    assert terse_statement("the cache lives on the NAS box", cues)
    assert terse_statement("pnpm is what the monorepo uses", cues)
    for said in ["it is what it is", "Fix the parser so it is strict", "is it still running"]:
        assert not terse_statement(said, cues), said


def test_a_new_value_for_a_terse_key_and_a_changed_answer_retire_the_old() -> None:
    messages = [
        user(GOAL),
        user("retries 4"),
        assistant([text("Redis or Valkey for the cache?")]),
        user("valkey. clustering is overkill"),
        user("retries 6"),
        user("redis after all, the ops team only runs that"),
        assistant([text("报表用增量还是全量？")]),
        user("增量。全量太慢了"),
        user("改用全量吧，数据量其实不大"),
        assistant([text("Should the tokens sit in Vault or in env files?")]),
        user("vault. rotation matters here"),
        assistant([text("Vault or env files for the staging tokens, then?")]),
        user("env files, staging is throwaway"),
    ]
    ledger = build_ledger(messages, [f"e{i}" for i in range(len(messages))])
    live = [f.text for f in ledger.live("constraint", "decision")]
    assert "retries 6" in live and "retries 4" not in live
    assert "valkey. clustering is overkill" not in live
    assert "redis after all, the ops team only runs that" in live
    assert "增量。全量太慢了" not in live
    assert "改用全量吧，数据量其实不大" in live
    assert "vault. rotation matters here" not in live  # the same choice asked again
    assert "env files, staging is throwaway" in live


def test_terse_facts_survive_fifteen_compactions_on_both_summarizers(tmp_path: Path) -> None:
    wanted = [reply for _, reply in ANSWERS] + SETTINGS[3:] + STATEMENTS + SETTINGS[:3]
    wanted += ["the export is still semicolon separated", STATED, *LINES]
    for summarizer in ("offline", "factfree"):
        entries = compacted(tmp_path / summarizer, _messages(), summarizer)
        for entry in (entries[0], entries[-1]):
            for fact in wanted:
                assert fact in entry["summary"], (summarizer, fact)
            for ack in ("- k\n", '"k"', '"go on"', '"继续"'):
                assert ack not in entry["summary"], (summarizer, ack)
        ledger = stored_ledger(entries[-1]["details"])
        assert ledger is not None
        sizes = [len(e["summary"]) for e in entries]
        assert sizes[-1] <= sizes[4] * 1.10, sizes
