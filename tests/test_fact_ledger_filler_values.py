"""A message opening with a filler word ("ok", "嗯") that states a number states a fact: it
is never dropped as a bare acknowledgement (issue 23: casual wording, any language)."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said


@pytest.mark.parametrize(
    ("old", "reply"),
    [
        ("另外缓冲区设成 64 KB", "嗯 在弱网环境下试了一下 64 太小了，缓冲区 256 KB"),
        ("the buffer is 64 KB", "ok tried it, 64 is too small on the slow link, buffer 256 KB"),
    ],
)
def test_a_filler_message_with_a_value_is_filed(old: str, reply: str) -> None:
    ledger = ledger_of_said("Build the uploader.", old, reply)
    assert reply in {f.text for f in ledger.live()}
    assert old not in {f.text for f in ledger.live()}


@pytest.mark.parametrize("reply", ["嗯 继续", "ok go on then", "好的，继续吧"])
def test_a_filler_message_without_a_value_files_nothing(reply: str) -> None:
    ledger = ledger_of_said("Build the uploader.", reply)
    assert [f.text for f in ledger.facts if f.kind != "goal"] == []
