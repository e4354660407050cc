"""HTTP header names and signal names are identifiers: "send Idempotency-Key with every
capture", "the proxy strips X-Request-Id", "stop it with SIGTERM first" — the summary gate
restores a sentence by its identifiers, so without a shape they were lost on the LLM track.
A hyphenated person's name or a compound word is none."""

from __future__ import annotations

import pytest

from tether.builtin_plugins.memory.fact_ledger.identifiers import identifiers


@pytest.mark.parametrize(
    ("sentence", "name"),
    [
        ("always send Idempotency-Key with a capture", "Idempotency-Key"),
        ("the gateway strips X-Correlation-Id, re-add it", "X-Correlation-Id"),
        ("Cache-Control must stay no-store on the invoice routes", "Cache-Control"),
        ("stop the worker with SIGTERM first, never SIGKILL", "SIGTERM"),
    ],
)
def test_a_header_or_signal_is_an_identifier(sentence: str, name: str) -> None:
    assert name in [text for text, _subject in identifiers(sentence)]


def test_hyphenated_names_and_words_are_not() -> None:
    for sentence in (
        "Mary-Ann reviewed it",
        "a long-running well-known job",
        "a read-only follow-up",
    ):
        assert list(identifiers(sentence)) == [], sentence
