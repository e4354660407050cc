"""Guards from a hostile review of this stop's ledger readers: each case is a reading the first
version of a reader got wrong (an aside that opens a new topic, a standing instruction about
an old value, a clause a change never named…), in wording of its own."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_chat, live_texts, status_of

START = ("u:Build the booking service.", "a:ok")


def test_an_aside_opening_a_sentence_starts_a_new_topic() -> None:
    rule = "Off topic, but from now on always write log times in UTC."
    switch = "Unrelated to the bug: we're switching to pnpm from now on."
    ledger = ledger_of_chat(
        *START, "u:Use Yarn for installs.", "a:ok", f"u:{rule}", "a:ok", f"u:{switch}"
    )
    assert rule in live_texts(ledger, "constraint")
    assert status_of(ledger, "Use Yarn for installs.") == "retired"


@pytest.mark.parametrize(
    "standing",
    [
        "Keep the old v2 endpoint for the mobile app.",
        "The old 8443 is still used by the gateway, leave it alone.",
        "旧的 v1.2 包还要保留在仓库里，不要删。",
    ],
)
def test_a_standing_instruction_about_an_old_value_stays(standing: str) -> None:
    ledger = ledger_of_chat(
        *START, "u:The API is v2 on port 8443, package v1.2.", "a:ok",
        "u:Move the API to v3 on port 9443, package v1.3.", "a:ok", f"u:{standing}",
    )  # fmt: skip
    assert standing in live_texts(ledger)


def test_a_change_keeps_the_clauses_it_never_named() -> None:
    ledger = ledger_of_chat(
        *START, "u:Keep bookings in Postgres, cache slots in Redis 7.", "a:ok",
        "u:Change the booking store to MySQL 8.",
    )  # fmt: skip
    assert any("Redis 7" in text for text in live_texts(ledger, "constraint"))


def test_two_new_numbers_for_two_parts_renumber_both() -> None:
    ledger = ledger_of_chat(
        *START, "u:The motor is on GPIO5.", "a:ok", "u:The LED is on GPIO6.", "a:ok",
        "u:Move the motor to GPIO20 and the LED to GPIO21.",
    )  # fmt: skip
    assert status_of(ledger, "The motor is on GPIO5.") == "retired"
    assert status_of(ledger, "The LED is on GPIO6.") == "retired"


def test_a_take_back_names_an_identifier_whatever_its_case_or_dashes() -> None:
    ledger = ledger_of_chat(
        *START, "u:Set MAX_RETRIES=5 on the client.", "a:ok",
        "u:We no longer need max_retries, the client retries by itself.",
    )  # fmt: skip
    assert status_of(ledger, "Set MAX_RETRIES=5 on the client.") == "retired"


def test_a_short_capitalised_name_is_no_foreign_stop_word() -> None:
    kafka = "The Kafka cluster runs on kafka1.internal."
    ledger = ledger_of_chat(
        *START, "u:The ES cluster runs on es1.internal.", "a:ok", f"u:{kafka}", "a:ok",
        "u:Move the ES cluster to es2.internal.",
    )  # fmt: skip
    assert kafka in live_texts(ledger, "constraint")
    assert status_of(ledger, "The ES cluster runs on es1.internal.") == "retired"


def test_yes_and_a_symptom_is_no_option_taken() -> None:
    ledger = ledger_of_chat(
        *START, "u:The cache is Redis.", "a:Deployed.", "u:Yes, the cache is slow again."
    )  # fmt: skip
    assert "The cache is Redis." in live_texts(ledger, "constraint")
    assert "Yes, the cache is slow again." not in live_texts(ledger, "decision")


def test_a_request_for_work_after_a_label_of_rules_stays_a_request() -> None:
    said = "A few rules: no regex in the tokenizer. Errors carry line numbers. Can you start"
    ledger = ledger_of_chat(*START, f"u:{said} with the lexer")
    assert "Errors carry line numbers." in live_texts(ledger, "constraint")
    assert not any("start with the lexer" in text for text in live_texts(ledger, "constraint"))


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        ("Then add a test for the parser, don't mock the DB.", "next_step"),
        ("Luego no uses polling, usa interrupciones.", "constraint"),
        ("Then never push directly to main, always open a PR.", "constraint"),
    ],
)
def test_then_opens_a_step_unless_a_rule_follows_it(said: str, kind: str) -> None:
    ledger = ledger_of_chat(*START, f"u:{said}")
    assert said in live_texts(ledger, kind)


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        ("[10:30] standup moved, always post the summary at 11:00 from now on.", "constraint"),
        ("Screenshots please.", "request"),
        ("Der Container startet nicht, kannst du das fixen?", "request"),
    ],
)
def test_a_chat_time_a_bare_please_and_a_german_question(said: str, kind: str) -> None:
    ledger = ledger_of_chat(*START, f"u:{said}")
    assert said in live_texts(ledger, kind)


@pytest.mark.parametrize(
    ("remark", "kept"),
    [
        ("the old Vuetify theme was always slow anyway.", False),
        ("Keep the old Vuetify export for the PDF report.", True),
    ],
)
def test_a_remark_on_an_old_name_goes_a_standing_rule_stays(remark: str, kept: bool) -> None:
    ledger = ledger_of_chat(
        *START, "u:Use Vuetify for the components.", "a:ok", "u:Switch the components to PrimeVue.",
        "a:ok", f"u:{remark}",
    )  # fmt: skip
    assert (remark in live_texts(ledger)) is kept
    assert "Switch the components to PrimeVue." in live_texts(ledger, "constraint")
