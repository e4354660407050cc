"""A name written in code style in the opening message (issue 23): "ingest-api", "billing_v2"
is a value of the goal, so a later rename cuts it out of the goal as shown."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said
from tether.builtin_plugins.memory.fact_ledger.goal import goal_shown


@pytest.mark.parametrize(
    ("old", "new"),
    [("ingest-api", "data-gateway"), ("billing_core", "ledger_svc")],
)
def test_a_renamed_name_leaves_the_goal(old: str, new: str) -> None:
    ledger = ledger_of_said(
        "Hi! Can you help me with our ingest service? What we want is a faster ingest. "
        f"The service is named {old} and lives in the platform repo.",
        f"From now on the service is named {new}, the team voted on it.",
    )
    shown = goal_shown(ledger)
    assert "What we want is a faster ingest." in shown
    assert old not in shown
