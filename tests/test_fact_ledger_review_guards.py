"""Guards from a hostile review of this stop's ledger readers: each case is a reading the first
version of a reader got wrong (an aside that opens a new topic, a standing instruction about
an old value, a clause a change never named…), in wording of its own."""

from __future__ import annotations

from typing import Any

import pytest

from tether.builtin_plugins.memory.fact_ledger import build_ledger


def _ledger(*turns: str) -> Any:
    messages: list[dict[str, Any]] = []
    for turn in turns:
        role, text = turn.split(":", 1)
        content = [{"type": "text", "text": text}]
        if role == "u":
            messages.append({"role": "user", "content": content})
        else:
            messages.append({"role": "assistant", "content": content, "stopReason": "stop"})
    return build_ledger(messages, [f"e{i}" for i in range(len(messages))])


def _live(ledger: Any, *kinds: str) -> list[str]:
    return [f.text for f in ledger.live(*kinds)]


def _status(ledger: Any, text: str) -> str:
    return next(f.status for f in ledger.facts if f.text == text)


START = ("u:Build the booking service.", "a:ok")


def test_an_aside_opening_a_sentence_starts_a_new_topic() -> None:
    rule = "Off topic, but from now on always write log times in UTC."
    switch = "Unrelated to the bug: we're switching to pnpm from now on."
    ledger = _ledger(*START, "u:Use Yarn for installs.", "a:ok", f"u:{rule}", "a:ok", f"u:{switch}")
    assert rule in _live(ledger, "constraint")
    assert _status(ledger, "Use Yarn for installs.") == "retired"


@pytest.mark.parametrize(
    "standing",
    [
        "Keep the old v2 endpoint for the mobile app.",
        "The old 8443 is still used by the gateway, leave it alone.",
        "旧的 v1.2 包还要保留在仓库里，不要删。",
    ],
)
def test_a_standing_instruction_about_an_old_value_stays(standing: str) -> None:
    ledger = _ledger(
        *START, "u:The API is v2 on port 8443, package v1.2.", "a:ok",
        "u:Move the API to v3 on port 9443, package v1.3.", "a:ok", f"u:{standing}",
    )  # fmt: skip
    assert standing in _live(ledger)


def test_a_change_keeps_the_clauses_it_never_named() -> None:
    ledger = _ledger(
        *START, "u:Keep bookings in Postgres, cache slots in Redis 7.", "a:ok",
        "u:Change the booking store to MySQL 8.",
    )  # fmt: skip
    assert any("Redis 7" in text for text in _live(ledger, "constraint"))


def test_two_new_numbers_for_two_parts_renumber_both() -> None:
    ledger = _ledger(
        *START, "u:The motor is on GPIO5.", "a:ok", "u:The LED is on GPIO6.", "a:ok",
        "u:Move the motor to GPIO20 and the LED to GPIO21.",
    )  # fmt: skip
    assert _status(ledger, "The motor is on GPIO5.") == "retired"
    assert _status(ledger, "The LED is on GPIO6.") == "retired"


def test_a_take_back_names_an_identifier_whatever_its_case_or_dashes() -> None:
    ledger = _ledger(
        *START, "u:Set MAX_RETRIES=5 on the client.", "a:ok",
        "u:We no longer need max_retries, the client retries by itself.",
    )  # fmt: skip
    assert _status(ledger, "Set MAX_RETRIES=5 on the client.") == "retired"


def test_a_short_capitalised_name_is_no_foreign_stop_word() -> None:
    kafka = "The Kafka cluster runs on kafka1.internal."
    ledger = _ledger(
        *START, "u:The ES cluster runs on es1.internal.", "a:ok", f"u:{kafka}", "a:ok",
        "u:Move the ES cluster to es2.internal.",
    )  # fmt: skip
    assert kafka in _live(ledger, "constraint")
    assert _status(ledger, "The ES cluster runs on es1.internal.") == "retired"


def test_yes_and_a_symptom_is_no_option_taken() -> None:
    ledger = _ledger(
        *START, "u:The cache is Redis.", "a:Deployed.", "u:Yes, the cache is slow again."
    )  # fmt: skip
    assert "The cache is Redis." in _live(ledger, "constraint")
    assert "Yes, the cache is slow again." not in _live(ledger, "decision")


def test_a_request_for_work_after_a_label_of_rules_stays_a_request() -> None:
    said = "A few rules: no regex in the tokenizer. Errors carry line numbers. Can you start"
    ledger = _ledger(*START, f"u:{said} with the lexer")
    assert "Errors carry line numbers." in _live(ledger, "constraint")
    assert not any("start with the lexer" in text for text in _live(ledger, "constraint"))


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        ("Then add a test for the parser, don't mock the DB.", "next_step"),
        ("Luego no uses polling, usa interrupciones.", "constraint"),
        ("Then never push directly to main, always open a PR.", "constraint"),
    ],
)
def test_then_opens_a_step_unless_a_rule_follows_it(said: str, kind: str) -> None:
    ledger = _ledger(*START, f"u:{said}")
    assert said in _live(ledger, kind)


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        ("[10:30] standup moved, always post the summary at 11:00 from now on.", "constraint"),
        ("Screenshots please.", "request"),
        ("Der Container startet nicht, kannst du das fixen?", "request"),
    ],
)
def test_a_chat_time_a_bare_please_and_a_german_question(said: str, kind: str) -> None:
    ledger = _ledger(*START, f"u:{said}")
    assert said in _live(ledger, kind)
