"""A take-back about a narrower or another thing leaves the broader rule standing: one that
opens with its own topic ("as for the door lock, …", "门锁那个…") the rule does not name, and
one naming a plain word with a qualifier the rule does not say ("uncompressed csv" is not the
"raw CSV" of the goal); and a prohibition is never replaced by a value said after its reason."""

from __future__ import annotations

from tests.ledger_helpers import ledger_of_said, live_rules
from tether.builtin_plugins.memory.fact_ledger.cues import default_cues
from tether.builtin_plugins.memory.fact_ledger.keychange import swapped
from tether.builtin_plugins.memory.fact_ledger.reasoned import reasoned

BUS = "The message bus is NATS at nats.lab.lan."


def test_a_take_back_about_another_topic_keeps_the_rule() -> None:
    rule = "AMQP broker 在 amqp.lab.lan，端口 5672"
    later = "门锁那个我们就用 Zigbee 直连，不走 AMQP 了"
    rules = live_rules(ledger_of_said("搭一个门禁网关。", rule, "端口换成 5671，走 TLS", later))
    assert "AMQP broker 在 amqp.lab.lan" in rules and later in rules


def test_an_english_topic_naming_the_rules_key_still_ends_it() -> None:
    rule = "Deploy to us-east-1 on ECS."
    later = "as for the region, no more us-east-1, go eu-west-1"
    assert rule not in live_rules(ledger_of_said("Build the door gateway.", rule, later))


def test_a_take_back_on_the_rules_own_topic_still_ends_it() -> None:
    later = "as for the message bus, no NATS anymore, the gateway talks MQTT"
    rules = live_rules(ledger_of_said("Build the door gateway.", BUS, later))
    assert BUS not in rules


def test_a_swap_for_another_topic_is_no_swap_of_the_rule() -> None:
    cues = default_cues()
    rule = "AMQP broker 在 amqp.lab.lan"
    assert swapped("门锁那个我们就用 Zigbee 直连，不走 AMQP 了", rule, cues) == []
    assert swapped("broker 那个我们就用 Zigbee 直连，不走 AMQP 了", rule, cues) != []


GOAL_ZH = "hi，这个项目做 CSV 导出的清洗。goal: 把 raw CSV 里 amount<0 的行筛掉"


def test_a_qualified_word_takes_back_no_goal_part_without_that_qualifier() -> None:
    ledger = ledger_of_said(GOAL_ZH, "还有输出格式：不再输出未压缩的 csv，统一 gzip")
    assert "goal: 把 raw CSV 里 amount<0 的行筛掉" in live_rules(ledger)


def test_a_plain_adjective_is_no_qualifier() -> None:
    rule = "Write results as CSV."
    later = "no more plain csv output please, parquet only"
    assert rule not in live_rules(ledger_of_said("Set up the nightly export.", rule, later))


def test_a_qualified_word_keeps_an_english_rule_without_that_qualifier() -> None:
    rule = "Read the raw CSV drops from /data/in every night."
    later = "no longer write uncompressed csv, gzip everything"
    rules = live_rules(ledger_of_said("Set up the nightly export.", rule, later))
    assert rule in rules


def test_the_same_qualifier_in_the_rule_still_takes_it_back() -> None:
    rule = "Write uncompressed CSV files to /data/out every night."
    later = "no longer write uncompressed csv, gzip everything"
    assert rule not in live_rules(ledger_of_said("Set up the nightly export.", rule, later))


def test_a_prohibition_has_no_replacement_said_after_its_reason() -> None:
    cues = default_cues()
    rule = "- 不要用 SDK 的 UploadSync 同步接口，之前被它坑过"
    assert reasoned("我建议绕开 SDK 的上传接口，直接调 REST API，这样也快。", rule, cues) == []
    said = "v2.3.4 has the migration bug, go v2.4.0-rc2"
    assert reasoned(said, "never deploy v2.3.4 to prod", cues) == []
    assert reasoned(said, "pin the chart at v2.3.4", cues) == [("v2.3.4", "v2.4.0")]


def test_a_value_added_beside_another_replaces_nothing() -> None:
    rule = "We're on llvm-17, target is x86_64-unknown-linux-gnu for now."
    added = "Also we're adding another target: aarch64-unknown-linux-gnu, behind a --target flag."
    rules = live_rules(ledger_of_said("Build the compiler backend.", rule, added))
    assert rule in rules and added in rules


def test_a_number_of_seconds_is_no_second_thing() -> None:
    rule = "poll timeout is 10 seconds"
    assert rule not in live_rules(
        ledger_of_said("Build the poller.", rule, "make it a 30 second timeout")
    )


def test_an_additive_word_in_another_clause_or_without_a_verb_of_adding_still_replaces() -> None:
    for rule, later in [
        ("Deploy target is prod-eu.", "Deploy target is prod-us; we may add a second target later"),
        ("Use the orders-v1 queue.", "use another queue: orders-v2"),
    ]:
        assert rule not in live_rules(ledger_of_said("Set up CI.", rule, later)), later


def test_a_stop_for_one_environment_only_ends_nothing() -> None:
    rule = "Send errors to Sentry and traces to Honeycomb."
    later = "stop sending to Sentry for the staging env only"
    assert rule in live_rules(ledger_of_said("Build the CLI.", rule, later))


def test_a_number_said_again_of_another_unit_is_no_change_of_it() -> None:
    rule = "Keep 100 connections max."
    later = "bump it to 200 since the 100 users test failed"
    rules = live_rules(ledger_of_said("Tune the service.", "Retry 5 times.", rule, later))
    assert rule in rules
