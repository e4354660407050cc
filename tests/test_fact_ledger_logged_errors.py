"""An error pasted as a log line (issue 23): a timestamp, an error level and a logger before
the message do not hide it; a line at another level is no error."""

from __future__ import annotations

import pytest

from tether.builtin_plugins.memory.fact_ledger.extract import pasted_error


@pytest.mark.parametrize(
    "row",
    [
        "2025-03-02T11:04:09Z ERROR billing.sync:214 TimeoutError: upstream ledger took 31s",
        "09:14:55.301 [ERROR] orders-db - OperationalError: could not connect to server",
        "2025-03-02 11:04:09,120 FATAL KeyError: 'tenant_id'",
    ],
)
def test_a_logged_error_is_the_pasted_error(row: str) -> None:
    pasted = f"the worker died again, from the pod:\n```\n{row}\n```\nany idea?"
    assert pasted_error(pasted) == row


def test_a_log_line_at_another_level_is_no_error() -> None:
    row = "2025-03-02T11:04:09Z WARN billing.sync:88 RetryError: attempt 1 of 5"
    assert pasted_error(f"just fyi:\n```\n{row}\n```") == ""


def test_the_first_worded_line_of_a_logged_fault_is_the_error() -> None:
    """A level alone opens each line ("E: "); the banner and the register dump after the
    line that says what happened are not the error."""
    pasted = (
        "QA flashed last night's image and got this:\n\n"
        "    E: ##### BUS FAULT #####\n"
        "    E:   Imprecise data access on the AHB\n"
        "    E: r2/a3:  0x00000010  r3/a4:  0x2000a1c4\n"
        "    E: Faulting instruction address (r15/pc): 0x00019f2e\n\n"
        "Can you look?"
    )
    assert pasted_error(pasted) == "E: Imprecise data access on the AHB"
