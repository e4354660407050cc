"""Identifier shapes users paste: a Maven coordinate whole, a commit hash, a variable with a
mixed-case tail — each kept verbatim, none cut in the middle."""

from __future__ import annotations

import pytest

from tether.builtin_plugins.memory.fact_ledger.identifiers import identifiers


@pytest.mark.parametrize(
    ("sentence", "identifier"),
    [
        (
            "it broke after we moved to org.jetbrains.kotlin:kotlin-stdlib:1.9.22",
            "org.jetbrains.kotlin:kotlin-stdlib:1.9.22",
        ),
        ("reverted in commit 7c41be2 last night", "7c41be2"),
        ("the runner sets GRADLE_OPTS_extraJvmArgs from the secret", "GRADLE_OPTS_extraJvmArgs"),
        ("call STM_UART_TransmitDMA instead of the blocking one", "STM_UART_TransmitDMA"),
    ],
)  # fmt: skip
def test_an_identifier_is_kept_whole(sentence: str, identifier: str) -> None:
    assert identifier in [text for text, _subject in identifiers(sentence)]


def test_words_made_of_hex_letters_are_no_hash() -> None:
    assert list(identifiers("a decade of facade work, deadbeef and cafe 2024")) == []


def test_a_coordinate_is_keyed_by_its_group_and_artifact() -> None:
    found = dict(identifiers("pin com.squareup.okhttp3:okhttp:4.12.0 for now"))
    assert found["com.squareup.okhttp3:okhttp:4.12.0"] == "pin:com.squareup.okhttp3:okhttp"


@pytest.mark.parametrize(
    ("sentence", "reference"),
    [
        ("does the cache fix from PR #2207 still hold on 3.12?", "PR #2207"),
        ("see issue #88 for the flaky upload", "issue #88"),
        ("that landed in MR !415 last week", "MR !415"),
        ("回归是 #4521 引入的", "#4521"),
    ],
)
def test_a_tracker_reference_is_an_identifier(sentence: str, reference: str) -> None:
    assert reference in [token for token, _ in identifiers(sentence)]


def test_a_colour_a_channel_or_a_small_number_is_no_reference() -> None:
    assert list(identifiers("make the header #1e90ff and post in #release-notes, item #3")) == []
