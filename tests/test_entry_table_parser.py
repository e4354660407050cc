"""``EntryTable.iter_entries`` with a store's faster parser (``_row_parser``): the one loop of
the kernel uses it, and an answer that is not the entry the index knows (id and type), or
``None``, goes to the reference parser, which finds what is wrong."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from tether.core.storage.entry_table import EntryTable, StaleRow

LINES = [
    {"type": "message", "id": "a1", "parentId": None, "message": {"role": "user"}},
    {"type": "message", "id": "b2", "parentId": "a1", "message": {"role": "assistant"}},
    {"type": "label", "id": "c3", "parentId": "b2", "label": "x"},
]


class Told(EntryTable):
    """A table whose parser answers from ``answers`` (by line), recording what it was asked."""

    def __init__(self, answers: dict[bytes, Any]) -> None:
        super().__init__()
        self.answers = answers
        self.asked: list[tuple[int, bool]] = []

    def _row_parser(self, count: int, to_write: bool) -> Callable[[bytes], Any] | None:
        self.asked.append((count, to_write))
        return self.answers.get


def _unparsed(table: EntryTable, records: list[dict[str, Any]]) -> list[bytes]:
    """Rows of ``records`` left as their lines, as a store's scanner leaves them."""
    raws = [json.dumps(record).encode() for record in records]
    for lineno, (record, raw) in enumerate(zip(records, raws, strict=True), start=2):
        table.ids.append(record["id"])
        table.parents.append(record["parentId"])
        table.types.append(record["type"])
        table.linenos.append(lineno)
        table.offsets.append(-1)
        table._raw.append(raw)
        table.by_id[record["id"]] = len(table.ids) - 1
    table.complete_columns()
    return raws


def test_a_store_parser_answers_and_a_wrong_answer_goes_to_the_reference() -> None:
    table = Told({})
    raws = _unparsed(table, LINES)
    fast = {"type": "message", "id": "a1", "parentId": None, "fast": True}
    table.answers = {raws[0]: fast, raws[1]: {"type": "label", "id": "b2"}}  # b2: wrong type
    got = list(table.iter_entries([0, 1, 2], to_write=True))
    assert table.asked == [(3, True)]
    assert got[0] is fast  # the store's parse, taken as it is
    assert got[1:] == LINES[1:]  # the wrong answer and the unsure one (None): the reference
    assert all(table.raw_line(row) is not None for row in range(3))  # nothing cached


def test_a_line_the_reference_refuses_is_still_dropped() -> None:
    table = Told({})
    _unparsed(table, LINES)
    table._raw[1] = b'{"type":"message","id":"b2"'  # cut short
    assert "b2" in table.by_id
    with pytest.raises(StaleRow):
        list(table.iter_entries([0, 1, 2]))
    assert "b2" not in table.by_id and table.problems
