"""Review of the tuned ledger rules on sessions they were not fitted to: where a rule retired
a fact the user still wants, the narrower rule that keeps it."""

from __future__ import annotations

from tests.ledger_helpers import ledger_of_said, ledger_of_turns, live_rules

GOAL = "Build the nightly export job for the billing service."


def test_a_switch_to_a_region_keeps_the_kept_protocol() -> None:
    """ "switch to the EU region" names a region: no product takes "keep JSON-RPC"'s place."""
    first = "Keep the API on v2 for now, and keep JSON-RPC."
    later = "We'll bump the API to v3 and switch to the EU region."
    rules = live_rules(ledger_of_said(GOAL, first, later))
    assert "keep JSON-RPC" in rules, rules
    assert first not in rules


def test_a_switch_of_a_named_thing_keeps_another_tool() -> None:
    """ "switch the formatter to Biome" switches the formatter, not the kept linter."""
    first = "Use Node 18 for now and keep ESLint."
    later = "Actually move to Node 20, and switch the formatter to Biome."
    rules = live_rules(ledger_of_said(GOAL, first, later))
    assert "keep ESLint" in rules, rules
    assert first not in rules


def test_a_switch_to_a_bare_name_still_ends_the_kept_one() -> None:
    first = "Keep the build on Java11 for now, and keep Maven-3."
    later = "We'll move the build to Java17 and switch to Gradle-8."
    rules = live_rules(ledger_of_said(GOAL, first, later))
    assert not [rule for rule in rules if "Maven" in rule], rules


def test_a_contrast_of_another_setting_keeps_the_rule() -> None:
    """ "Timeout is 30s, not 10s" sets the timeout: the 10s backoff of retries stays."""
    first = "Retry 5 times with a 10s backoff."
    later = "Timeout is 30s, not 10s, for the PDF call."
    rules = live_rules(ledger_of_said(GOAL, first, later))
    assert first in rules and later in rules


def test_a_contrast_of_the_same_setting_still_replaces() -> None:
    first = "The export timeout is 10s."
    later = "Make the export timeout 30s, not 10s."
    rules = live_rules(ledger_of_said(GOAL, first, later))
    assert first not in rules and later in rules, rules


def test_a_change_after_its_subject_is_no_bare_change() -> None:
    """ "The legacy gateway is being retired, switch to ingress-nginx": the switch takes its
    subject from the clause before it, so the rule naming the gateway is changed."""
    first = "Expose reports through the legacy gateway gw-old.example.com and log to stdout."
    later = "The legacy gateway is being retired, switch to ingress-nginx."
    rules = live_rules(ledger_of_said(GOAL, first, later))
    assert not [rule for rule in rules if "gw-old" in rule], rules
    assert later in rules


def test_a_chinese_change_after_its_subject_is_no_bare_change() -> None:
    first = "报表通过旧网关 gw-old.example.com 暴露，日志写到 /var/log/report.log。"
    later = "旧网关要下线了，改用 ingress。"
    rules = live_rules(ledger_of_said("把报表服务迁移到新集群。", first, later))
    assert not [rule for rule in rules if "gw-old" in rule], rules
    assert "日志写到 /var/log/report.log" in rules


def test_the_tail_of_a_log_timestamp_is_no_host_and_port() -> None:
    """ "[02:00:01] INFO …" holds a time of day, not the host "00" on port 01."""
    ledger = ledger_of_said(GOAL, "The run printed:\n[02:00:01] INFO connecting to warehouse")
    assert [f.text for f in ledger.facts if f.kind == "identifier"] == []


def test_a_symptom_going_away_retires_no_rule() -> None:
    """ "X goes away after/if …" says a symptom ends, not that X is gone."""
    rules = ["Keep the nginx proxy in front of the API on port 8080.", "Pin numpy 1.26."]
    said = [
        "The 502 from the nginx proxy goes away after a restart.",
        "The warning about numpy goes away if I set NPY_DISABLE=1.",
    ]
    for rule, symptom in zip(rules, said, strict=True):
        assert rule in live_rules(ledger_of_said(GOAL, rule, symptom)), symptom


def test_a_thing_going_away_but_kept_until_then_stays() -> None:
    rule = "Send CI alerts to the #ci Slack channel."
    later = "The #ci Slack channel is going away next month; keep posting there until then."
    assert rule in live_rules(ledger_of_said(GOAL, rule, later))


def test_a_named_thing_going_away_still_retires_its_rule() -> None:
    rule = "Use the legacy runner pool runners-old for ARM builds."
    later = "The legacy runner pool is going away in Q3."
    assert rule not in live_rules(ledger_of_said(GOAL, rule, later))


def test_a_size_change_leaves_a_rule_held_for_now_without_a_size() -> None:
    """ "上传限制改为 50MB" shares 上传 with the log path held for now, but changes the cap."""
    held = "暂时把上传日志写到 /tmp/upload.log。"
    cap = "上传文件大小限制 20MB。"
    rules = live_rules(ledger_of_said("加固上传服务。", held, cap, "上传限制改为 50MB。"))
    assert held in rules and cap not in rules, rules


def test_a_symptom_reported_gone_takes_back_no_rule() -> None:
    """ "No more warnings in the log after the upgrade" reports a problem gone: the rules
    naming warnings or failed requests still hold."""
    cases = [
        ("Log warnings to warnings.log and errors to Sentry.", "No more warnings in the log."),
        ("Retry failed requests 3 times.", "No more failed requests overnight."),
        ("上传失败时重试 3 次。", "不再报错了，上传都成功。"),
    ]
    for rule, report in cases:
        assert rule in live_rules(ledger_of_said(GOAL, rule, report)), report


def test_no_more_of_a_thing_still_takes_back_its_rule() -> None:
    rule = "Send a Slack message on each deploy."
    assert rule not in live_rules(ledger_of_said(GOAL, rule, "No more Slack messages on deploy."))


def test_an_answer_before_a_bare_change_leaves_it_bare() -> None:
    """ "yes do it, switch to postgres-16": the leading answer gives the change no subject, so
    the change stays bare, and a later take-back of another thing that shares a word with it
    ("drop the --trace flag, I read postgres logs") does not end it."""
    ledger = ledger_of_turns(
        ("user", "We are moving the reporting service off MySQL. Target is postgres-15 for now."),
        ("assistant", "postgres-16 has the MERGE fix we need. Want me to move us to postgres-16?"),
        ("user", "yes do it, switch to postgres-16"),
        ("user", "And the --trace flag, drop it, I read the postgres logs directly anyway."),
    )
    assert "yes do it, switch to postgres-16" in live_rules(ledger)
