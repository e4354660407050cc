"""The session format: JS-exact serialization, ids, timestamps, key orders, models."""

from __future__ import annotations

import json
import re
import uuid

import pytest

from tests.store_helpers import CORPUS, STORE_PI, golden
from tether import storage as ids
from tether.builtin_plugins.storage.format import stringify as fmt
from tether.core.storage import records as rec


def test_dumps_record_is_javascripts_json_stringify() -> None:
    # node's JSON.stringify(JSON.parse(input)) for floats, exponents, big ints, escapes,
    # lone surrogates, array-index keys… (tests/fixtures/store_pi/make_fixtures.mjs)
    cases = json.loads((STORE_PI / "stringify.json").read_text(encoding="utf-8"))
    assert len(cases) > 30
    for case in cases:
        assert fmt.dumps_record(json.loads(case["input"])) == case["output"], case["input"]


def test_python_json_would_differ_where_it_matters() -> None:
    # the reason dumps_record exists: Python's own output is not pi's
    assert json.dumps(6e-05) != fmt.dumps_record(6e-05)
    assert json.dumps(1.0) != fmt.dumps_record(1.0)


def test_every_corpus_record_round_trips_through_the_models() -> None:
    checked = 0
    for path in CORPUS:
        if path.stem.startswith("e35"):  # v1 records have no ids until migrated
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if record.get("type") == "session":
                model = fmt.validate_header(record)
            else:
                model = fmt.validate_entry(record)
            dumped = model.to_record()
            assert list(dumped) == list(record)
            assert fmt.dumps_record(dumped) == fmt.dumps_record(record)
            checked += 1
    assert checked > 10000


def test_unknown_entry_types_and_fields_round_trip_unchanged() -> None:
    record = {
        "type": "future_thing",
        "id": "abcd1234",
        "parentId": None,
        "timestamp": "2025-01-01T00:00:00.000Z",
        "payload": {"z": 1, "a": [1.5]},
    }
    model = fmt.validate_entry(record)
    assert type(model).__name__ == "UnknownEntry"
    assert fmt.dumps_record(model.to_record()) == fmt.dumps_record(record)
    extra = rec.make_label("abcd1234", None, "t1", "x")
    extra["newField"] = True
    assert fmt.validate_entry(extra).to_record() == extra


def test_validation_names_the_field() -> None:
    with pytest.raises(ValueError, match="thinkingLevel"):
        fmt.validate_entry(
            {"type": "thinking_level_change", "id": "a", "parentId": None, "timestamp": "t"}
        )
    with pytest.raises(ValueError, match="message.role"):
        fmt.validate_entry(rec.make_message_entry("a", None, {"role": "robot"}))


def test_each_record_type_validates_by_its_tag_alone() -> None:
    from tether.builtin_plugins.storage.format import schema

    assert list(schema._ENTRY_MODELS) == list(fmt.ENTRY_TYPES)
    assert schema._MESSAGE_MODELS["hookMessage"] is schema.CustomMessage
    assert list(schema.CompactionEntry.model_fields)[:2] == ["type", "id"]  # pi's key order
    assert schema.ImageContent(data="AA==", mimeType="image/png").type == "image"
    label = rec.make_label("a", None, "t", "x")
    with pytest.raises(ValueError, match="type"):
        schema.LabelEntry.model_validate({**label, "type": "session_info"})
    custom = {"role": "hookMessage", "customType": "x", "content": "hi", "timestamp": 1}
    assert fmt.validate_message(custom).to_record() == custom
    with pytest.raises(ValueError, match="message.content"):  # a block by its type literal
        fmt.validate_message({"role": "user", "content": [{"type": "image"}], "timestamp": 1})


def test_constructors_write_pis_key_orders() -> None:
    made = {
        "message": rec.make_message_entry("i", "p", {"role": "user"}),
        "thinking_level_change": rec.make_thinking_level_change("i", "p", "high"),
        "model_change": rec.make_model_change("i", "p", "anthropic", "claude"),
        "compaction": rec.make_compaction("i", "p", "s", "k", 5, {"readFiles": []}, False),
        "branch_summary": rec.make_branch_summary("i", "p", "p", "s", {"readFiles": []}, True),
        "custom": rec.make_custom("i", "p", "ext", {"n": 1}),
        "custom_message": rec.make_custom_message("i", "p", "ext", "hi", True, {"d": 1}),
        "label": rec.make_label("i", "p", "t", "x"),
        "session_info": rec.make_session_info("i", "p", "  name  "),
    }
    # every record pi wrote in the corpus orders the keys it shares with ours the same way
    compared: set[str] = set()
    for path in CORPUS:
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            ours = made.get(record.get("type"))
            if ours is None or "id" not in record:
                continue
            assert [k for k in record if k in ours] == [k for k in ours if k in record], line
            compared.add(record["type"])
    assert compared == set(made)
    assert made["session_info"]["name"] == "name"


def test_unset_optionals_are_omitted_and_null_parent_is_kept() -> None:
    entry = rec.make_compaction("i", None, "s", "k", 5)
    assert "details" not in entry and "fromHook" not in entry
    assert '"parentId":null' in fmt.dumps_record(entry)
    assert rec.make_compaction("i", None, "s", "k", 5, from_hook=False)["fromHook"] is False
    assert "label" not in rec.make_label("i", "p", "t")
    assert "data" not in rec.make_custom("i", "p", "x")
    assert "parentSession" not in rec.make_header("/p")
    assert rec.make_header("/p", parent_session="/a.jsonl")["parentSession"] == "/a.jsonl"


def test_entry_ids_are_8_hex_and_really_avoid_collisions() -> None:
    existing: set[str] = set()
    for _ in range(2000):
        new = ids.new_entry_id(existing)
        assert re.fullmatch(r"[0-9a-f]{8}", new)
        assert new not in existing
        existing.add(new)

    class Everything:
        def __contains__(self, item: object) -> bool:
            return len(str(item)) == 8  # every 8-hex id is taken

    fallback = ids.new_entry_id(Everything())
    assert uuid.UUID(fallback).version == 4


def test_session_ids_are_time_ordered_uuid7() -> None:
    first, second = ids.new_session_id(), ids.new_session_id()
    assert uuid.UUID(first).version == 7 and uuid.UUID(second).version == 7
    ms = int(first.replace("-", "")[:12], 16)
    assert abs(ms - ids.now_ms()) < 5000
    assert first[:8] <= second[:8]


def test_iso_timestamps_and_date_parse_agree_with_the_goldens() -> None:
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", ids.iso_now())
    # compactionSummary timestamps in pi's context goldens are Date.parse of entry timestamps
    context = golden("g21-compaction-multi", "context")
    summary = context["messages"][0]
    assert summary["role"] == "compactionSummary"
    stamps = {
        json.loads(line)["timestamp"]
        for line in next(p for p in CORPUS if p.stem == "g21-compaction-multi").open()
        if '"type":"compaction"' in line
    }
    parsed = {ids.date_parse_ms(s) for s in stamps}
    assert summary["timestamp"] in parsed
    for ms in parsed:
        assert ms is not None and ids.date_parse_ms(ids.iso_from_ms(ms)) == ms
    assert ids.date_parse_ms("not a date") is None
    assert ids.date_parse_ms("2025-13-01T00:00:00.000Z") is None
