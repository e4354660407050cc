"""Identifiers in what users paste around their prose: a fenced block of settings whose value
is a list ("FLAGS=a_v2,b"), kept on both tracks (a pasted setting line is one word, but it
states something), and a line quoted from someone else ("> please set X-Api-Key …"), read
as prose, not as a test's "> assert" line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.gate_helpers import assistant, text, user
from tests.ledger_helpers import compacted
from tether.builtin_plugins.memory.fact_ledger.extract import sentences

PASTED = (
    "this is what the worker box has, straight from the env file:\n\n```\n"
    "QUEUE_URL=amqp://mq-2.internal:5672/jobs\n"
    "ENABLED_JOBS=reindex_v3,purge_tmp\n```\n\nthe other box has the same minus purge."
)
QUOTED = (
    "the payment provider replied:\n"
    "> you must send Idempotency-Key with every capture and use the sandbox at "
    "pay.sbx.example.io/v2\n"
    "so that is how we call them for now."
)


@pytest.mark.parametrize("track", ["offline", "factfree"])
def test_pasted_settings_and_quoted_lines_survive(tmp_path: Path, track: str) -> None:
    messages = [user("Keep the billing workers stable."), assistant([text("ok")])]
    messages += [user(PASTED), assistant([text("Noted.")]), user(QUOTED), assistant([text("ok")])]
    summary = compacted(tmp_path, messages, track, k=2)[-1]["summary"]
    for value in ("reindex_v3", "amqp://mq-2.internal:5672/jobs", "pay.sbx.example.io/v2"):
        assert value in summary, (track, value)
    if track == "offline":
        assert "Idempotency-Key" in summary


def test_a_quoted_prose_line_is_a_sentence_and_test_output_is_not() -> None:
    said = sentences("see:\n> please keep the retries at three for the nightly\n> assert x == 1")
    assert "please keep the retries at three for the nightly" in said
    assert not [s for s in said if "assert" in s]
