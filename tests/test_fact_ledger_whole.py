"""A short message of several sentences is kept whole, word for word, while its parts are live.

Read sentence by sentence, "sqlite. the box has no room for a server" filed a bare "sqlite."
as a request and the reason as a rule: each half was kept, the answer as said was not. The
ledger now also keeps such a message whole (kind ``said``, history under Done); once a later
message changes one of its parts, the whole retires and its live parts stay on their own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.gate_helpers import assistant, text, user
from tests.ledger_helpers import compacted, ledger_of, section
from tether.builtin_plugins.memory.fact_ledger import stored_ledger

GOAL = "Help me put the field-station logger on the new board."
#: short messages whose meaning spans their sentences: each must reach the model as said
WHOLE = [
    "sqlite. the box has no room for a server",
    "ntfy. no mail relay up there, and no thanks to twilio",
    "udp. the link drops every few minutes anyway",
    "先用 json。以后再看 protobuf",
    "tabs, sure. The old files mix both.",
]
CHANGING = "batch 200. the raw frames get stored too"


def _messages() -> list[dict[str, Any]]:
    out = [user(GOAL), assistant([text("Reading the logger now.")])]
    for said in WHOLE:
        out += [assistant([text("Which way for that part?")]), user(said)]
    out += [assistant([text("The frames are batched now.")]), user(CHANGING)]
    out += [user("batch 500 now"), assistant([text("Batching 500.")])]
    return out


def _ledger() -> Any:
    return ledger_of(_messages())


def test_a_short_message_is_kept_whole_until_one_of_its_parts_changes() -> None:
    ledger = _ledger()
    said = [f.text for f in ledger.live()]  # a whole reply may be a decision of its own
    for message in WHOLE:
        assert message in said, message
    assert CHANGING not in said  # its batch size changed: the whole would show 200 as current
    assert len(ledger.live("said")) >= 2
    retired = [f for f in ledger.facts if f.kind == "said" and f.status == "retired"]
    assert [f.text for f in retired] == [CHANGING]
    live = [f.text for f in ledger.live()]
    assert "the raw frames get stored too" in live  # the part that did not change stays
    assert GOAL not in [f.text for f in ledger.live("said")]  # the goal, not a remark


def test_whole_messages_reach_the_model_on_both_summarizers(tmp_path: Path) -> None:
    for summarizer in ("offline", "factfree"):
        entries = compacted(tmp_path / summarizer, _messages(), summarizer)
        for entry in (entries[0], entries[-1]):
            done = section(entry["summary"], "### Done")
            for message in WHOLE:
                assert message in entry["summary"], (summarizer, message)
            assert CHANGING not in entry["summary"], summarizer
            assert "batch 200" not in done, summarizer
        ledger = stored_ledger(entries[-1]["details"])
        assert ledger is not None and ledger.live("said")
        sizes = [len(e["summary"]) for e in entries]
        assert sizes[-1] <= sizes[4] * 1.10, sizes
