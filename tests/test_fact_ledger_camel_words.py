"""A camel-case key ("MaxRetries", "ListenPort") is about the same thing as its words said
apart ("max retries", "the listen port"): a change naming them that way changes it."""

from __future__ import annotations

from tests.ledger_helpers import ledger_of_said, live_rules
from tether.builtin_plugins.memory.fact_ledger.words import words_of


def test_a_camel_case_name_counts_its_parts() -> None:
    assert {"idle", "timeout"} <= words_of("- IdleTimeout 300")
    assert {"getusername"} <= words_of("call getUserName first")
    assert "http" not in words_of("HTTPServer")  # no lower-to-upper step: one word


def test_a_change_naming_a_camel_key_in_words_retires_it() -> None:
    rule = "- IdleTimeout 300"
    ledger = ledger_of_said(
        "Template the proxy config.",
        f"defaults:\n{rule}\n- Workers 4",
        "use 120 for the idle timeout instead.",
    )
    assert rule not in live_rules(ledger)
    assert "- Workers 4" in live_rules(ledger)
