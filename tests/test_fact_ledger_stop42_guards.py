"""Guards from a hostile review of this stop's readings: each case is one the first version of
a reading got wrong, written again in other words (a value a message keeps, a call that is no
rename, a clause about another thing, a later complaint, a filler opening a report…)."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_chat, live_texts, note_of, status_of
from tether.builtin_plugins.memory.fact_ledger.errorline import error_line, failure_lines

START = ("u:Set up the services.", "a:ok")


def test_a_value_the_message_keeps_is_not_what_a_bare_value_changes() -> None:
    api = "Serve the API on 7000."
    ledger = ledger_of_chat(
        *START, "u:Prometheus stays on 9090.", "a:ok", f"u:{api}", "a:7000 is in use.",
        "u:Prometheus keeps 9090. 7001 then.",
    )  # fmt: skip
    assert status_of(ledger, "Prometheus stays on 9090.") == "live"


@pytest.mark.parametrize(
    "said",
    [
        "Actually, call list_users from the admin handler.",
        "Actually, name the new flag list_fast_path.",
    ],
)
def test_calling_or_naming_another_thing_is_no_rename(said: str) -> None:
    rule = "Cache list_orders results for 5 minutes."
    ledger = ledger_of_chat(*START, f"u:{rule}", "a:ok", f"u:{said}")
    assert status_of(ledger, rule) == "live"


def test_a_clause_giving_it_a_value_of_another_class_outlives_a_time_change() -> None:
    ledger = ledger_of_chat(
        *START, "u:Reindex at 03:00, bump it to 6 shards.", "a:ok", "u:move the reindex to 04:00."
    )
    assert "bump it to 6 shards" in live_texts(ledger)


def test_a_new_port_leaves_another_service_s_port_alone() -> None:
    ledger = ledger_of_chat(
        *START, "u:Web runs on web-1.lan, the exporter listens on port 9187.", "a:ok",
        "u:switch web to web-2.lan port 8443.",
    )  # fmt: skip
    assert any("9187" in said for said in live_texts(ledger))


def test_a_later_complaint_about_an_old_value_stays() -> None:
    complaint = "7000 still spams the log with refused connections, something points at it."
    ledger = ledger_of_chat(
        *START, "u:Serve on 7000.", "a:ok", "u:Serve on 7100 instead.", "a:ok", f"u:{complaint}"
    )
    assert status_of(ledger, complaint) == "live"


def test_a_take_back_note_names_what_goes_not_what_stays() -> None:
    said = "forget RabbitMQ, use NATS for the job queue."
    ledger = ledger_of_chat(*START, "u:Use RabbitMQ for the job queue.", "a:ok", f"u:{said}")
    assert note_of(ledger, said) == "no longer: RabbitMQ"


@pytest.mark.parametrize(
    "report",
    [
        "Continua dando erro 502 na tela de pagamento.",
        "Continua a dare errore 404 sulla pagina prodotti.",
        "계속 404 에러가 나요.",
    ],
)
def test_a_report_opening_like_a_filler_is_kept(report: str) -> None:
    ledger = ledger_of_chat(*START, f"u:{report}")
    assert report in live_texts(ledger)


@pytest.mark.parametrize(
    "report",
    [
        "Depois da atualização para Node 22, o build quebrou.",
        "Dopo il passaggio a Vite il dev server non parte più.",
    ],
)
def test_a_report_of_what_happened_after_is_no_next_step(report: str) -> None:
    ledger = ledger_of_chat(*START, f"u:{report}")
    assert report not in live_texts(ledger, "next_step")


@pytest.mark.parametrize(
    ("rule", "said"),
    [
        ("動画は R2 に置いてください。", "見出しは大きめに表示できるようにしてください。"),
        ("결제는 반드시 Stripe로.", "결제 화면은 밝은 테마로 바꿔 주세요."),
    ],
)
def test_a_polite_ending_or_a_shared_word_changes_no_other_rule(rule: str, said: str) -> None:
    ledger = ledger_of_chat("u:Build the shop.", "a:ok", f"u:{rule}", "a:ok", f"u:{said}")
    assert status_of(ledger, rule) == "live"


def test_a_retry_warning_is_not_the_error_line() -> None:
    output = "\n".join(
        [
            "WARN attempt 1: an error occurred: timeout, retrying in 2s",
            "WARN attempt 2: an error occurred: timeout, retrying in 4s",
            "ERROR: gave up on registry.example.com after 3 attempts",
        ]
    )
    assert error_line(output) == "ERROR: gave up on registry.example.com after 3 attempts"


@pytest.mark.parametrize(
    "step",
    [
        "nice 👍 next step 先把导出的集成测试写了，断网→录3条记录→恢复网络→确认服务器没有重复",
        "ok great, next: write the integration test for the upload queue with 3 records",
    ],
)
def test_a_next_step_after_an_acknowledgement_is_a_next_step(step: str) -> None:
    rule = "the API takes at most 500 records per push"
    ledger = ledger_of_chat(*START, f"u:{rule}", "a:ok", f"u:{step}")
    assert step in live_texts(ledger, "next_step")
    assert status_of(ledger, rule) == "live"


def test_a_numbered_check_that_failed_with_a_reason_is_the_error_line() -> None:
    output = "\n".join(
        [
            "Validating build/Gain.vst3",
            "Starting test: leaks / Handles during render...",
            "!!! Check 2 failed: 5 handles leaked during render",
            "    HandleTable::open (scratch)",
            "FAILED!!  1 test failed, out of a total of 12",
        ]
    )
    assert error_line(output) == "!!! Check 2 failed: 5 handles leaked during render"


def test_a_linker_s_missing_library_is_among_the_error_lines() -> None:
    output = "\n".join(
        [
            "   Compiling zstd-sys v2.0.9",
            "   Compiling ring v0.17.8",
            "   Compiling tracing v0.1.40",
            "   Compiling edgeproxy v1.4.0 (/src/edgeproxy)",
            "error: linking with `x86_64-linux-musl-gcc` failed: exit status: 1",
            "  |",
            "  = note: /opt/musl/bin/ld: cannot find -lzstd: No such file or directory",
            "          collect2: error: ld returned 1 exit status",
            'error: could not compile `edgeproxy` (bin "edgeproxy") due to 1 previous error',
        ]
    )
    lines = failure_lines(output)
    assert any("cannot find -lzstd" in line for line in lines)


def test_a_german_they_no_longer_need_it_takes_back() -> None:
    rule = "Die Spalte kunden_plz soll mit raus, der Vertrieb braucht sie."
    ledger = ledger_of_chat(
        "u:Baue den Export.", "a:ok", f"u:{rule}", "a:ok",
        "u:Der Vertrieb hat sich gemeldet: kunden_plz brauchen sie nicht mehr.",
    )  # fmt: skip
    assert status_of(ledger, rule) == "retired"


def test_the_words_of_a_take_back_cue_name_no_rule() -> None:
    other = "regola: niente CSS inline, solo classi di Pico e un po di JS se proprio serve"
    login = "poi un login con Authlib, utente e password semplice"
    ledger = ledger_of_chat(
        "u:Voglio una todo app in Flask.", "a:ok", f"u:{other}", "a:ok", f"u:{login}", "a:ok",
        "u:il login per ora non serve più, la uso solo io a casa. togli Authlib",
    )  # fmt: skip
    assert status_of(ledger, other) == "live"
    assert status_of(ledger, login) == "retired"


def test_a_subject_inside_a_gapped_change_cue_still_names_the_rule() -> None:
    ledger = ledger_of_chat(
        *START, "u:Use the EU region for logs.", "a:ok", "u:Use the US region for metrics.",
        "a:ok", "u:Move logs to the APAC region.",
    )  # fmt: skip
    assert status_of(ledger, "Use the EU region for logs.") == "retired"
    assert status_of(ledger, "Use the US region for metrics.") == "live"


def test_a_goal_note_names_a_channel_with_its_sign() -> None:
    ledger = ledger_of_chat(
        "u:帮我做一个 Slack bot：每周一早上把周报自动发到 #eng-digest 频道。"
        "内容包括上周的 incident 列表。",
        "a:好的",
        "u:我们换成 #eng-weekly 频道。",
    )
    assert '"#eng-digest" changed to "#eng-weekly"' in ledger.goal_note()
