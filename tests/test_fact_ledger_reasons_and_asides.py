"""Changes weighed and set aside, replacements after their reason, faulty versions and
stamped log lines (issue 23: sessions nobody tuned for).

"we looked at X instead but that won't work here" changes nothing, "…, so Y it is" changes to
Y; "v2.8.1 has the bug. tag v2.8.2 has the fix, use that" leaves no fault shown as a rule;
"[14:02:11]: ▸ ❌  error: …" is the error a pasted log says, where no other line says one."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules

START = "We're tuning the nightly data jobs."


@pytest.mark.parametrize(
    "weighed",
    [
        "We looked at running it on Lambda instead but that won't work with 20-minute jobs, "
        "so Airflow it stays.",
        "I thought about switching to cron instead, though it doesn't work with our retries.",
        "本来想改用 cron，但是在集群上不行，所以还是用 Airflow。",
    ],
)
def test_a_change_weighed_and_set_aside_replaces_nothing(weighed: str) -> None:
    rule = "Schedule every job in Airflow, with retries on."
    assert rule in live_rules(ledger_of_said(START, rule, weighed))


def test_a_change_said_plainly_still_replaces_the_rule() -> None:
    rule = "Schedule every job in Airflow, with retries on."
    later = "switch to cron instead, Airflow is too heavy for four jobs"
    assert rule not in live_rules(ledger_of_said(START, rule, later))


def test_a_tool_named_beside_a_person_is_not_replaced_by_the_person() -> None:
    rule = "要求：比对用 BWA 0.7.17，版本不要动。"
    later = "那个 BWA 索引还没建好，先用 /data/refs/hg38/bwa_v3，是昨天 Chen 做的。"
    ledger = ledger_of_said("任务是把变异检测流程迁移到 Nextflow。", rule, later)
    assert any("BWA 0.7.17" in text for text in live_rules(ledger))


def test_a_reason_of_the_same_shape_still_names_the_replacement() -> None:
    ledger = ledger_of_said(START, "Pin the runner at v3.1.0.", "v3.1.0 leaks memory, go v3.2.1")
    assert "Pin the runner at v3.1.0." not in live_rules(ledger)


@pytest.mark.parametrize(
    "line",
    [
        '[09:41:07]: ▸ ❌  error: Provisioning profile "Kiosk Dev" has expired.',
        "2026-03-02 09:41:07 | ✖ error: cannot open /dev/ttyUSB0: Permission denied",
    ],
)
def test_an_error_after_a_time_stamp_and_marks_is_the_pasted_error(line: str) -> None:
    pasted = f"the build died again, end of the log:\n```\n{line}\n[09:41:07]: Exit status: 65\n```"
    ledger = ledger_of_said(START, pasted)
    said = line.split("error:", 1)[1].strip()
    assert any(said in f.text for f in ledger.live("error"))
    assert not any(said in f.text for f in ledger.live("identifier"))  # said once


@pytest.mark.parametrize(
    "message",
    [
        "3.4.1 has the cache eviction bug we keep hitting. 3.4.2 ships the fix, pin that.",
        "v0.9.3 regressed the retry logic. go with v0.9.4.",
    ],
)
def test_a_version_found_faulty_before_another_is_picked_is_the_reason(message: str) -> None:
    ledger = ledger_of_said(START, message)
    faulted = message.split(" ", 1)[0]
    assert not any(text.startswith(faulted) for text in live_rules(ledger))
    assert faulted not in {f.text for f in ledger.live("identifier")}


@pytest.mark.parametrize(
    "message",
    [
        "3.4.2 fixes the cache eviction bug. 3.4.3 is out as well.",
        "3.4.1 has the cache eviction bug. 3.4.2 has it too.",
    ],
)
def test_a_fixed_or_shared_defect_keeps_the_version_said(message: str) -> None:
    ledger = ledger_of_said(START, message)
    first = message.split(". ", 1)[0] + "."
    assert first in live_rules(ledger)


@pytest.mark.parametrize(
    ("rule", "change"),
    [
        ("Use npm for installs.", "Switch to pnpm, but if it doesn't work, tell me."),
        ("端口用 3000。", "改成 8080，但 3000 不行。"),
        (
            "Bundle with webpack.",
            "Use Vite instead, but it won't work with the old plugin so drop it.",
        ),
        (
            "Run on Node 18.",
            "Move to Node 20 instead, but that won't work with bcrypt, so use bcryptjs.",
        ),
    ],
)
def test_a_change_with_a_caveat_after_it_is_still_a_change(rule: str, change: str) -> None:
    assert rule not in live_rules(ledger_of_said(START, rule, change))


@pytest.mark.parametrize(
    ("log", "cause"),
    [
        (
            "[14:02:10] ERROR deploy: ImagePullBackOff: registry.example.com/api:1.4.2 not found\n"
            "[14:02:11]: ▸ ❌  error: rollout failed, see above",
            "ImagePullBackOff",
        ),
        (
            'Traceback (most recent call last):\n  File "load.py", line 12, in <module>\n'
            "KeyError: 'account_id'\n[02:00:01] ▸ error: task exited with code 1",
            "KeyError",
        ),
    ],
)
def test_a_stamped_wrapper_line_never_hides_the_cause(log: str, cause: str) -> None:
    ledger = ledger_of_said(START, f"it failed:\n```\n{log}\n```")
    assert any(cause in f.text for f in ledger.live("error"))


@pytest.mark.parametrize(
    "line", ["[12:00:01] ▸ lastError: none", "[03:12:44] » MeanAbsoluteError: 0.15"]
)
def test_a_stamped_line_naming_no_error_is_no_error(line: str) -> None:
    ledger = ledger_of_said(START, f"the run looks fine:\n```\n{line}\n```")
    assert not ledger.live("error")


@pytest.mark.parametrize(
    "message",
    [
        "React 18.2.0 has the hydration bug on Safari, so keep the workaround. "
        "Go with Next 14.1.0 for the app router.",
        "Postgres 15.4 has the replication bug, so test the failover on it. Go with 16.2 now.",
        "Bootloader 1.0.3 has a bug we need to fix before shipping. Use 1.1.0 for the app.",
        "v1.9.0 is buggy on ARM so we skip it on the Pi fleet. Use 2.0.1 on x86.",
        "4.2.1 的崩溃 bug 要先修复，给企业客户打补丁。4.3.0 也用同一个修复。",
        "The changelog for 2.4.0 must mention the regression. Use 2.5.0 for the next minor.",
        "React 18.2.0 has the hydration bug. Go with Next 14.1.0 for the app router.",
    ],
)
def test_a_fault_with_its_own_instruction_or_product_stays(message: str) -> None:
    ledger = ledger_of_said(START, message)
    first = ledger.facts[1]
    assert first.live, first.text


@pytest.mark.parametrize(
    ("rule", "change"),
    [
        (
            "Run everything on Node 18.",
            "I thought about it and we should move to Node 20, though it won't work for the "
            "legacy PDF lambda.",
        ),
        (
            "State lives in the S3 backend.",
            "Discussed with the team: switch to the Terraform Cloud backend, but it won't work "
            "for the sandbox account so keep S3 there.",
        ),
    ],
)
def test_a_decision_after_weighing_it_is_still_a_change(rule: str, change: str) -> None:
    assert rule not in live_rules(ledger_of_said(START, rule, change))


@pytest.mark.parametrize(
    "message",
    [
        "v2.8.1 has the idempotency-key bug. Upstream will fix it in v2.9.0, not released yet.",
        "The 6.1.0 kernel has the USB regression. Use busybox 1.36.1 for the initramfs.",
        "v1.9.0 has a memory leak bug. Use Retrofit 2.9.0 for the new client.",
        "1.2.0 is broken. The 1.3.0 fixtures need regenerating.",
    ],
)
def test_a_faulty_version_with_no_pick_of_its_own_stays(message: str) -> None:
    first = ledger_of_said(START, message).facts[1]
    assert first.live, first.text


@pytest.mark.parametrize(
    ("rule", "change", "kept"),
    [
        (
            "Use npm for installs.",
            "I looked at pnpm instead but it doesn't work with our hoisting, so yarn it is.",
            False,
        ),
        (
            "Sign with match, read-only on CI.",
            "We talked about automatic signing instead but that doesn't work on CI, "
            "so match it is.",
            True,
        ),
    ],
)
def test_a_pick_after_a_change_set_aside_replaces_only_another_rule(
    rule: str, change: str, kept: bool
) -> None:
    assert (rule in live_rules(ledger_of_said(START, rule, change))) is kept


@pytest.mark.parametrize(
    "change",
    [
        "v3.1.0 leaks memory, use `v3.2.1`",
        "v3.1.0 has the provider lock bug, pin it to v3.2.1",
        "v3.1.0 leaks memory, use the newer one, v3.2.1",
    ],
)
def test_a_replacement_after_its_reason_in_any_wrapping_replaces(change: str) -> None:
    assert "Pin the runner at v3.1.0." not in live_rules(
        ledger_of_said(START, "Pin the runner at v3.1.0.", change)
    )


@pytest.mark.parametrize(
    "log",
    [
        "12:00:01 | error: connection reset, retrying (1/3)\n12:00:03 | connected\n"
        "12:00:04 | migration complete",
        "[03:12:44] » epoch 3 loss=0.41\n[03:12:45] » error: 0.153 (val)",
        "[09:41:07]: ▸ Compiling Foo.swift\n[09:41:09]: ▸ error: none",
        "[14:02:11] ✖ error: gradle exited 1",
        "[02:00:06] ▸ error: job failed, see above",
        "12:00:01 | error: connection refused, retrying in 5s\n12:00:06 | retry 1 ok",
        "[10:00:01] error: TLS handshake timeout, retrying\n[10:00:04] Server listening on :8443",
    ],
)
def test_a_stamped_line_of_a_run_that_went_well_or_a_wrapper_is_no_error(log: str) -> None:
    ledger = ledger_of_said(START, f"log:\n```\n{log}\n```")
    assert not ledger.live("error")


def test_a_faulty_version_the_message_still_uses_stays() -> None:
    message = (
        "v0.9.3 regressed the retry logic. We still ship v0.9.3 to the legacy fleet. "
        "Use v0.9.4 elsewhere."
    )
    assert ledger_of_said(START, message).facts[1].live


def test_a_faulty_version_replaced_in_one_message_ends_its_pin_but_no_ban() -> None:
    ledger = ledger_of_said(
        START,
        "Pin the exporter at 4.2.0, and keep gzip on.",
        "never roll 4.2.0 out to the edge nodes",
        "4.2.0 has the buffer leak bug. 4.2.1 has the fix, use that.",
    )
    live = live_rules(ledger)
    assert "Pin the exporter at 4.2.0, and keep gzip on." not in live
    assert "keep gzip on" in live
    assert "never roll 4.2.0 out to the edge nodes" in live
    assert "4.2.0" not in {f.text for f in ledger.live("identifier")}


@pytest.mark.parametrize(
    "rule",
    ["Use npm for all packages.", "Use Jest for the unit tests."],
)
def test_a_pick_after_a_rejected_change_shares_words_yet_replaces(rule: str) -> None:
    tool = "npm" if "npm" in rule else "Jest"
    change = (
        f"We talked about moving off {tool} instead, but that doesn't work with our cache, "
        "so yarn for all packages and Mocha for the unit tests."
    )
    assert rule not in live_rules(ledger_of_said(START, rule, change))


def test_a_stamped_error_in_a_message_saying_it_works_now_is_no_open_error() -> None:
    log = "[09:41:07] ✖ error: target not halted\n[09:41:09] flashing 128 KB"
    assert not ledger_of_said(START, f"works now:\n```\n{log}\n```").live("error")


def test_a_replacement_named_inside_its_path_still_replaces() -> None:
    change = "v3.1.0 leaks memory, use ./bin/runner from the v3.2.1 tarball"
    ledger = ledger_of_said(START, "Pin the runner at v3.1.0.", change)
    assert "Pin the runner at v3.1.0." not in live_rules(ledger)


def test_a_faulty_version_the_pick_sentence_still_uses_stays() -> None:
    message = "v2.8.1 is buggy. Use v2.8.2, but the reporting job stays on v2.8.1 until Friday."
    assert ledger_of_said(START, message).facts[1].live
