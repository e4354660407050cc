"""The fact ledger on how people lay a message out (issue 23, a second blind set): items of a
list under a heading that states rules, ``label: value`` settings inside long messages, a
value reverted to an earlier one, ``path:line`` locations, code spans around a setting, and a
change for one subject that must not retire a value of the same shape for another."""

from __future__ import annotations

from tether.builtin_plugins.memory.fact_ledger import Ledger, build_ledger
from tether.builtin_plugins.memory.fact_ledger.cues import cues_for
from tether.builtin_plugins.memory.fact_ledger.identifiers import identifiers


def ledger_of(*said: str) -> Ledger:
    turns = ["We are getting the billing export ready for the audit.", *said]
    messages = [{"role": "user", "content": [{"type": "text", "text": t}]} for t in turns]
    return build_ledger(messages, [f"e{i}" for i in range(len(messages))])


def kinds(ledger: Ledger) -> dict[str, str]:
    return {f.text: f.kind for f in ledger.live() if f.kind != "identifier"}


def test_items_under_a_heading_that_states_rules_are_rules() -> None:
    said = "Ground rules:\n- every export is UTF-8 with a BOM\n- amounts in cents, as integers"
    found = kinds(ledger_of(said))
    assert found["- every export is UTF-8 with a BOM"] == "constraint"
    assert found["- amounts in cents, as integers"] == "constraint"
    zh = kinds(ledger_of("要求如下：\n- 金额一律按分存整数\n- 导出文件带 BOM"))
    assert zh["- 金额一律按分存整数"] == "constraint" and zh["- 导出文件带 BOM"] == "constraint"
    assert "Ground rules:" not in found and "要求如下：" not in zh  # a heading is no fact
    # a heading that states no rule gives its items nothing
    said = "Before lunch I looked at:\n- the export job logs\n- the queue depth\n- the bucket"
    plain = kinds(ledger_of(said))
    assert plain.get("- the export job logs") == "request"


def test_a_setting_inside_a_long_message_is_a_rule_and_changes_the_old_one() -> None:
    ledger = ledger_of(
        "Sync window: 02:00 UTC. The export job runs after it. I checked the logs already.",
        "Nothing new on the dashboard. Final answer on the sync window: 04:30 UTC.",
    )
    live = kinds(ledger)
    assert "Final answer on the sync window: 04:30 UTC." in live
    assert "Sync window: 02:00 UTC." not in live


def test_a_value_reverted_to_an_earlier_one_retires_the_one_in_between() -> None:
    ledger = ledger_of(
        "Job timeout `timeout_seconds=600`, please.",
        "e2e is slow, raise the job timeout to `timeout_seconds=900` for now",
        "The cache fix landed, so revert the job timeout to `timeout_seconds=600`.",
    )
    live = " ".join(f.text for f in ledger.live())
    assert "timeout_seconds=900" not in live
    assert "revert the job timeout to `timeout_seconds=600`" in live


def test_a_code_span_closes_a_setting_and_a_path_keeps_its_line() -> None:
    found = [token for token, _ in identifiers("request timeout `HTTP_TIMEOUT=30`.")]
    assert found == ["HTTP_TIMEOUT=30"]
    found = [token for token, _ in identifiers("It fails at crates/scan/src/avx.rs:112. Fix it.")]
    assert found == ["crates/scan/src/avx.rs:112"]
    found = [token for token, _ in identifiers("see src/app.py:12:5, and config.yaml")]
    assert found == ["src/app.py:12:5", "config.yaml"]


def test_a_change_for_one_subject_keeps_a_host_of_another() -> None:
    ledger = ledger_of(
        "Staging API is api-stg.example.dev and prod API is api.example.io.",
        "The mail relay is fine. 那台机器要下线了，Redis 换成 cache-07.int:6379。",
    )
    live = kinds(ledger)
    assert "Staging API is api-stg.example.dev and prod API is api.example.io." in live


def test_a_service_port_names_the_port_subject_in_chinese() -> None:
    """ "服务端口" is a service port (服务 + 端口), not the server side (服务端) + 口."""
    concepts = cues_for(None).concepts
    assert concepts.keys("麻烦把服务端口换成 9090", "subject:") == {"port"}
    assert not concepts.keys("麻烦把服务端口换成 9090", "part:")
    ledger = ledger_of("服务先监听 8080 端口就可以。", "不好意思，麻烦把服务端口换成 9090。")
    assert "服务先监听 8080 端口就可以。" not in kinds(ledger)


def test_an_exception_class_named_by_its_condition_starts_an_error_line() -> None:
    said = "Straight out of the logs: psycopg2.errors.UniqueViolation: duplicate key — twice a day."
    found = [token for token, _ in identifiers(said)]
    assert "psycopg2.errors.UniqueViolation: duplicate key" in found
