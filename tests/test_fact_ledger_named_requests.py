"""A short request for work that names how to do it ("dedupe on event_uuid", "add a /readyz
that fails while the cache warms") states a preference the summary must keep: the summary
gate restores it against a summary that dropped it, as the offline summary shows it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.gate_helpers import assistant, text, tool_turn, user
from tests.ledger_helpers import LOG, compacted, ledger_of_said
from tether.builtin_plugins.memory.fact_ledger.cues import default_cues
from tether.builtin_plugins.memory.fact_ledger.recall import kept_requests

REQUESTS = ["dedupe on event_uuid", "add a /readyz that fails while the cache warms, then ship it"]


def _messages() -> list[dict]:
    out = [user("Clean up the events pipeline in the warehouse."), assistant([text("On it.")])]
    for n, request in enumerate(REQUESTS):
        out += tool_turn(f"c{n}", "bash", {"command": "pytest -q"}, LOG, False)
        out += [user(request), assistant([text("Will do.")]), user("continue")]
        out += [assistant([text("Working.")])]
    return out


@pytest.mark.parametrize("track", ["offline", "factfree"])
def test_a_request_naming_how_survives_on_both_tracks(tmp_path: Path, track: str) -> None:
    for entry in compacted(tmp_path, _messages(), track, k=3):
        for request in REQUESTS:
            assert request in entry["summary"], (track, request)


def test_a_bare_task_is_still_not_required() -> None:

    ledger = ledger_of_said("Clean up the events pipeline.", "refactor the loader please")
    assert "refactor the loader please" not in [
        f.text for f in kept_requests(ledger, default_cues())
    ]
