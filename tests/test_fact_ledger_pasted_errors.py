"""A line of an error the user pastes states a problem, not a rule: it never replaces a rule
that names the same service ("…and Redis for sessions" stays after a Redis traceback)."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules

RULE = "Store jobs in Postgres and use Redis for the rate limiter."


@pytest.mark.parametrize(
    "paste",
    [
        "the worker dies right away:\n\nTraceback (most recent call last):\n"
        '  File "worker.py", line 12, in <module>\n    limiter.hit(key)\n'
        "redis.exceptions.ConnectionError: Error 111 connecting to 127.0.0.1:6379. "
        "Connection refused.",
        "got this from the API pod\nERROR: redis.exceptions.TimeoutError: Timeout reading "
        "from socket",
    ],
)
def test_a_pasted_error_line_retires_no_rule(paste: str) -> None:
    ledger = ledger_of_said("Build the job queue.", RULE, paste)
    assert RULE in live_rules(ledger)
    errors = [f.text for f in ledger.live("error")]
    assert any("redis.exceptions." in e for e in errors), errors
