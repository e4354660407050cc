"""Changes that name their thing in passing (issue 23): a later "we use X" in a sentence, a
key word written short, "rename the X to Y", "scrap X", "forget X, …", "next bit is messy",
a switch away from what "will wear out"."""

from __future__ import annotations

from tests.ledger_helpers import ledger_of_said, ledger_of_turns, live_rules
from tether.builtin_plugins.memory.fact_ledger import Ledger
from tether.builtin_plugins.memory.fact_ledger.cues import default_cues
from tether.builtin_plugins.memory.fact_ledger.nowvalue import now_values
from tether.builtin_plugins.memory.fact_ledger.recall import kept_requests

START = "We're building the ingest service for the telemetry team."


def test_a_thing_used_late_in_a_sentence_is_a_value_an_accepted_switch_replaces() -> None:
    rule = "yaml loading is slow, we use pyyaml today"
    ledger = ledger_of_turns(
        ("user", START),
        ("user", rule),
        ("assistant", "Would it make sense to switch to ruamel? It streams large files."),
        ("user", "sure, go with ruamel"),
    )
    assert rule not in live_rules(ledger)


def test_a_prefixed_word_is_no_name_a_bucket_shares() -> None:
    kept = "I told them one runner is fine for non-prod."
    ledger = ledger_of_said(
        START, kept, "cache bucket is acme-cache-prod btw, the other one was the test bucket."
    )
    assert kept in live_rules(ledger)


def test_a_thing_said_to_live_somewhere_now_moves_it() -> None:
    first = "Put the charts under deploy/charts for now."
    later = "Platform feedback: charts live under platform/helm/charts now, one place for all."
    ledger = ledger_of_said(START, first, later)
    assert first not in live_rules(ledger)


def test_a_key_word_written_short_is_the_same_key() -> None:
    first = "settings: retransmission interval 200 ms, log level INF"
    ledger = ledger_of_said(START, first, "make the ret interval 50 ms")
    rules = live_rules(ledger)
    assert first not in rules
    assert "log level INF" in rules


def test_renaming_a_thing_to_a_new_name_replaces_the_old_name() -> None:
    first = "stm32, the board def is gateway_rev1 in boards/."
    later = "the new rev is in, so rename the board to gateway_rev2, rev1 is gone"
    ledger = ledger_of_said(START, first, later)
    assert first not in live_rules(ledger)


def test_scrap_takes_a_setting_back() -> None:
    first = "we turned on CONFIG_FAST_BOOT for the demo"
    ledger = ledger_of_said(START, first, "scrap CONFIG_FAST_BOOT entirely, boot time is fine")
    assert first not in live_rules(ledger)


def test_an_accepted_switch_away_from_what_wears_out_replaces_it() -> None:
    rule = "readings get buffered in EEPROM until the uplink is back."
    ledger = ledger_of_turns(
        ("user", START),
        ("user", rule),
        (
            "assistant",
            "The EEPROM buffer is rewritten on every reading, which will wear out those cells "
            "within a year. FRAM would not. Want me to switch the buffer over?",
        ),
        ("user", "yeah FRAM, go with that"),
    )
    assert rule not in live_rules(ledger)


def test_announcing_the_next_bit_is_no_next_step() -> None:
    ledger = ledger_of_said(
        START,
        "the worker pool has 6 nodes.",
        "next bit is messy, sorry this is long. finance refused the bigger budget, so the "
        "pool's 3 nodes now. also the app role's timeout goes to idle_timeout=20s.",
        "next: rerun the soak test tonight",
    )
    rules = live_rules(ledger)
    assert "finance refused the bigger budget, so the pool's 3 nodes now." in rules
    assert "the worker pool has 6 nodes." not in rules
    assert any("idle_timeout=20s" in rule for rule in rules)


def test_forgetting_a_named_thing_retires_the_rule_naming_it() -> None:
    named = "oh and Priya wanted the fluentbit sidecar for log shipping"
    other = "plan: native journald forwarding into the new cluster, target host logs-a.internal."
    later = "actually forget fluentbit, native journald forwarding is enough for now"
    ledger = ledger_of_said(START, other, named, later)
    rules = live_rules(ledger)
    assert named not in rules
    assert other in rules


def test_a_numbered_name_is_a_value_said_now() -> None:
    said = "licensing fell through, so the target's TS13 now, same hardware."
    assert [value for _key, value in now_values(said, default_cues())] == ["TS13"]


CN_START = "帮我整理一下这个排班系统的配置。"


def test_a_short_chinese_change_after_an_ok_is_kept_and_swaps_one_character() -> None:
    ledger = ledger_of_said(CN_START, "导出任务每周执行，结果发到群里。", "行，改成每日执行")
    rules = live_rules(ledger)
    assert "行，改成每日执行" in rules
    assert not any("每周执行" in rule for rule in rules)


def test_a_chinese_key_said_to_be_something_now_replaces_its_value() -> None:
    ledger = ledger_of_said(
        CN_START, "参数：时区 UTC+8，税率百分之六。", "财务说税率现在是百分之九了"
    )
    assert not any("百分之六" in rule for rule in live_rules(ledger))


def test_a_benchmark_named_in_either_language_is_one_subject() -> None:
    ledger = ledger_of_said(CN_START, "benchmark 用 HSI 2000", "有道理，基准换成 HSTECH 500")
    assert "benchmark 用 HSI 2000" not in live_rules(ledger)


def test_a_ban_is_not_replaced_by_the_choice_made_within_it() -> None:
    ban = "不要引入 Redis，缓存用进程内的就行，lru_cache 能用就用"
    ledger = ledger_of_said(CN_START, ban, "那就 cachetools 吧，直接替换 lru_cache")
    assert any("不要引入 Redis" in rule for rule in live_rules(ledger))


def test_an_opening_adverb_is_no_key_of_two_choices() -> None:
    first = "那就 Caddy 吧，直接替换 nginx，少一层"
    ledger = ledger_of_said(CN_START, first, "直接 Postgres 按月分区，主键用 (tenant, id)")
    assert first in live_rules(ledger)


def test_identifiers_in_a_quoted_mail_are_read() -> None:
    message = (
        "pasting what Ana sent:\n\n> From: Ana\n> I pushed 1.4.0-rc1 to the kiosk fleet, it "
        "adds\n> HKLM\\SOFTWARE\\Acme\\Kiosk\\Watchdog so restarts survive\n> reboots.\n\n"
        "can you check it?"
    )
    ledger = ledger_of_said(START, message)
    assert "HKLM\\SOFTWARE\\Acme\\Kiosk\\Watchdog" in {f.text for f in ledger.facts if f.live}


def test_a_chinese_question_without_its_mark_is_no_rule() -> None:
    ledger = ledger_of_said(CN_START, "重试上限3次是不是太少了 线上一般要几次")
    assert not live_rules(ledger) - {f.text for f in ledger.live("request")}


def test_clauses_joined_by_bingqie_change_apart() -> None:
    ledger = ledger_of_said(
        CN_START,
        "上传这块 单个文件上限 20MB 超过的直接拒绝 并且记录到 upload_rejects 这个表。",
        "上限改成 50MB",
    )
    assert any("upload_rejects" in rule for rule in live_rules(ledger))


def test_a_value_said_to_stay_is_no_swap() -> None:
    first = "限流这块 单用户上限 100次 超过的直接拒绝 并且记录到 rate_limit_hits 这个 kafka topic。"
    later = (
        "会上定了几件事 1 超时从30秒改成60秒 2 表换个名字 叫 shift_archive 3 记录的 topic 保持不变"
    )
    ledger = ledger_of_said(CN_START, first, later)
    assert any("rate_limit_hits" in rule for rule in live_rules(ledger))


def test_an_accepted_chinese_proposal_of_a_new_limit_changes_it() -> None:
    ledger = ledger_of_turns(
        ("user", CN_START),
        ("user", "每个班次 人数上限 12人 超过的不让报名"),
        ("assistant", "看了下历史数据，高峰期经常 14 人。建议上限设为 15 人。"),
        ("user", "行 就按你说的来"),
    )
    assert "每个班次 人数上限 12人 超过的不让报名" not in live_rules(ledger)


def test_a_standing_wish_for_anything_touched_is_kept_by_the_gate() -> None:
    said = "screenshots for anything visual you change pls, QA looks there before the diff."
    ledger = Ledger()
    ledger.new_fact("request", said, "e1")
    assert said in {f.text for f in kept_requests(ledger, default_cues())}


def test_a_dotted_upper_case_name_is_one_identifier() -> None:
    ledger = ledger_of_said(START, "check the job property, it's env.DEPLOY_TARGET_REGION in ci")
    assert "env.DEPLOY_TARGET_REGION" in {f.text for f in ledger.live("identifier")}


def test_a_cjk_cue_is_found_where_it_first_stands_whatever_the_hash_seed() -> None:
    import os
    import subprocess
    import sys

    probe = (
        "from tether.builtin_plugins.memory.fact_ledger.cues import default_cues;"
        "print(default_cues().find('decision', '我们决定 extent 就用默认的 4096'))"
    )
    found = {
        subprocess.run(
            [sys.executable, "-c", probe],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
        ).stdout.strip()
        for seed in (1, 2, 3, 4, 5)
    }
    assert found == {"(2, 4)"}


def test_a_short_form_of_a_word_ending_in_ing_is_the_same_key() -> None:
    first = "settings: recording interval 500 ms, log level WRN"
    ledger = ledger_of_said(START, first, "make the rec interval 100 ms")
    assert first not in live_rules(ledger)
