"""A date format is a value of its own class (issue 23, item 2): a later format for the same
subject retires the earlier one with no change word, even where the subject stands in another
clause of the sentence than the format ("dates, all of them as dd.mm.yyyy")."""

from __future__ import annotations

from tests.ledger_helpers import ledger_of_said
from tether.builtin_plugins.memory.fact_ledger import Ledger


def shown(ledger: Ledger) -> str:
    return "\n".join(f.text for f in ledger.live())


def test_a_later_date_format_retires_one_said_in_another_clause() -> None:
    ledger = ledger_of_said(
        "Port the timesheet macro to the new workbook.",
        "Oh and dates, everything as dd/mm/yyyy please, we're a Kiwi firm and the payroll "
        "people get grumpy otherwise.",
        "One thing, the Xero uploader wants ISO dates it turns out, so yyyy-mm-dd",
    )
    assert "dd/mm/yyyy" not in shown(ledger)
    assert "yyyy-mm-dd" in shown(ledger)


def test_strftime_formats_of_two_subjects_keep_their_own() -> None:
    ledger = ledger_of_said(
        "Clean up the log pipeline.",
        "Log timestamps as %Y-%m-%d %H:%M:%S, the parser expects it.",
        "Invoice dates stay dd/mm/yyyy for the customers.",
    )
    assert "%Y-%m-%d %H:%M:%S" in shown(ledger)
    assert "dd/mm/yyyy" in shown(ledger)
