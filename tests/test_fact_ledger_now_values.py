"""What a thing is now, said as its new value ("the queue is q-batch-2 now", "the alerts
channel is #ops-billing now"): a rule, not a request; it replaces the earlier rule naming a
value of that kind beside the key's word, and the goal's old value gets a change note."""

from __future__ import annotations

from tests.ledger_helpers import ledger_of_said, live_rules
from tether.builtin_plugins.memory.fact_ledger.cues import default_cues
from tether.builtin_plugins.memory.fact_ledger.extract import classify
from tether.builtin_plugins.memory.fact_ledger.nowvalue import now_pairs

GOAL = (
    "Set up the render farm jobs. Send them to the render-a40-spot queue, 4 frames per task. "
    "Output goes to /mnt/renders/spring and failures page #farm-oncall in slack."
)


def test_a_value_said_as_what_holds_now_is_a_rule() -> None:
    cues = default_cues()
    assert classify("the queue is render-l40-batch now btw, spot got flaky", cues) == "constraint"
    assert classify("new bucket is s3://farm-out-2, same region", cues) == "constraint"
    assert classify("fix the build now, it is broken", cues) == "request"


def test_the_old_value_beside_the_keys_word_is_found() -> None:
    cues = default_cues()
    said = "the queue is render-l40-batch now btw, spot got flaky"
    assert now_pairs(said, GOAL, cues) == [("render-a40-spot", "render-l40-batch")]
    channel = "and the slack channel is #farm-alerts now, oncall got renamed"
    assert now_pairs(channel, GOAL, cues) == [("#farm-oncall", "#farm-alerts")]
    assert now_pairs("the output dir is /mnt/fast/spring now", GOAL, cues) == [
        ("/mnt/renders/spring", "/mnt/fast/spring")
    ]


def test_without_a_word_of_now_or_a_value_of_that_kind_nothing_changes() -> None:
    cues = default_cues()
    assert now_pairs("the queue is render-l40-batch", GOAL, cues) == []
    assert now_pairs("the queue is fine now", GOAL, cues) == []
    assert now_pairs("the printer is hp-4250 now", GOAL, cues) == []


def test_the_goal_notes_the_change_and_a_rule_retires() -> None:
    rule = "failed frames get retried on render-a40-spot-2 queue, twice"
    later = "the queue is render-l40-batch now btw, spot got flaky"
    ledger = ledger_of_said(GOAL, rule, later)
    assert ledger.goal_changes().get("render-a40-spot") == "render-l40-batch"
    rules = live_rules(ledger)
    assert rule not in rules and later in rules


def test_a_second_value_of_a_now_sentence_and_a_moved_location_reach_the_goal_note() -> None:
    goal = "Set up the nightly exports writing to s3://exp-dumps-eu in eu-west-1, one file a day."
    later = "legal says canada only. new bucket is s3://exp-dumps-ca, region ca-central-1."
    changes = ledger_of_said(goal, later).goal_changes()
    assert changes.get("s3://exp-dumps-eu") == "s3://exp-dumps-ca"
    assert changes.get("eu-west-1") == "ca-central-1"


def test_a_switch_of_another_key_leaves_what_a_key_is_now() -> None:
    rule = "the queue is render-l40-batch now btw, the l40 nodes are free all week"
    later = (
        "infra says the L40 nodes have a driver issue with fp8, so switch precision to bf16 "
        "for now."
    )
    rules = live_rules(ledger_of_said(GOAL, rule, later))
    assert rule in rules


def test_a_now_sentence_leaves_rules_without_a_value_of_its_kind() -> None:
    first = "need to redo the render setup for the spring cluster."
    later = "and the alerts channel is #spring-render-alerts now, the old one got archived."
    rules = live_rules(ledger_of_said(GOAL, first, later))
    assert first in rules


def test_a_thing_renamed_by_pronoun_after_its_key_retires_the_old_name() -> None:
    rule = "and gate the whole import queue behind the flag import_async_v1 so we can kill it"
    later = "and that feature flag, rename it to warehouse_import_queue since it stays past v1"
    rules = live_rules(ledger_of_said(GOAL, rule, later))
    assert rule not in rules


def test_a_location_said_of_it_moves_the_goals_location() -> None:
    goal = "Build the scanner app and point it at https://scan-api.staging.acme-wh.net for now."
    later = "the staging api moved, it's https://scan-api.stg.acmewarehouse.com now"
    changes = ledger_of_said(goal, later).goal_changes()
    assert changes == {
        "https://scan-api.staging.acme-wh.net": "https://scan-api.stg.acmewarehouse.com"
    }


def test_rename_the_thing_then_call_it_changes_its_name_in_the_goal() -> None:
    goal = "Run the sweep and log everything to the wandb project churn-model-sweeps."
    later = "oh and rename the wandb project, people mix it up with the old one, call it churn-q3"
    changes = ledger_of_said(goal, later).goal_changes()
    assert changes.get("churn-model-sweeps") == "churn-q3"


def test_rename_of_another_thing_changes_no_name() -> None:
    goal = "Run the sweep and log everything to the wandb project churn-model-sweeps."
    later = "rename the helper function, call it load-batch-v2"
    assert "churn-model-sweeps" not in ledger_of_said(goal, later).goal_changes()
