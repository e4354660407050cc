"""Errors a successful call shows are kept verbatim (issue 23): a grep of a CI log or a log
read names the failure under study; the call succeeded, so nothing is open, and running it
again replaces what it showed. Code that raises or catches an error is no error seen."""

from __future__ import annotations

from tests.gate_helpers import tool_turn, user
from tests.ledger_helpers import ledger_of
from tether.builtin_plugins.memory.fact_ledger.seen import seen_errors

LOG = """412: [main] INFO  starting settlement batch 88
419: [main] ERROR io.lettuce.core.RedisCommandTimeoutException: Command timed out after 1 minute(s)
420:     at io.lettuce.core.internal.ExceptionFactory.create(ExceptionFactory.java:59)
431: [main] ERROR io.lettuce.core.RedisCommandTimeoutException: Command timed out after 1 minute(s)
502: [main] WARN  java.lang.IllegalStateException: batch 88 left 3 rows unsettled
"""
CODE = """src/settle.py:41:        raise SettlementError: never reached
src/settle.py:57:    except RedisTimeoutError: pass
"""


def test_a_successful_log_read_keeps_the_errors_it_shows() -> None:
    lines = seen_errors(LOG)
    assert lines == [LOG.splitlines()[1].strip(), LOG.splitlines()[4].strip()]
    assert seen_errors(CODE) == []
    prose = "4be1d09 fix KeyError: 'sku' in the importer\nIf you see `PermissionError: x`, chmod"
    assert seen_errors(prose) == []  # a commit subject, a line of docs


def test_seen_errors_are_identifiers_and_a_rerun_replaces_them() -> None:
    start = [user("Find out why settlement batch 88 stalls.")]
    grep = {"command": "grep -n Exception logs/settle.log"}
    first = [*start, *tool_turn("c1", "bash", grep, LOG, False)]
    ledger = ledger_of(first)
    kept = {f.text for f in ledger.live("identifier")}
    assert LOG.splitlines()[1].strip() in kept
    assert not ledger.live("error")  # the grep succeeded: nothing is open
    again = "618: [main] ERROR java.lang.OutOfMemoryError: Java heap space\n"
    ledger = ledger_of([*first, *tool_turn("c2", "bash", grep, again, False)])
    kept = {f.text for f in ledger.live("identifier")}
    assert again.strip() in kept
    assert LOG.splitlines()[1].strip() not in kept
    clean = "618: [main] INFO  settlement batch 88 done\n"
    ledger = ledger_of([*first, *tool_turn("c3", "bash", grep, clean, False)])
    assert not [f for f in ledger.live("identifier") if "Exception" in f.text]  # none now
