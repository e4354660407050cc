"""The JSONL store's fast context is byte-equal to the kernel's reference.

Fast: the store's ``context_batches`` (lines read again from the file in large reads, parsed
by orjson a batch at a time) encoded by :class:`EncodedContext` (orjson where its bytes are
JavaScript's). Reference: the kernel's :meth:`Session.build_context` (pi's rules once:
``context/build`` + ``kept`` + ``stream``) over entries parsed by ``json`` alone, written by
the standard-library ``JSON.stringify``. Over every fixture file, the pi goldens' sessions
and generated files (branched trees with compactions, one long branch, values orjson writes
otherwise), with the bulk thresholds as shipped and lowered to zero.
"""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.test_context_bytes import GOLDENS, session_of
from tests.test_context_runs import tricky_session
from tether.builtin_plugins.storage.format.stringify import dumps_record_std
from tether.builtin_plugins.storage.jsonl.context.batches import encode_context
from tether.builtin_plugins.storage.jsonl.scan import line_table
from tether.core.base.errors import SessionFileError
from tether.core.context.convert import convert_to_llm
from tether.core.session.session import Session

FIXTURES = Path(__file__).resolve().parent / "fixtures"
FILES = sorted(p for p in FIXTURES.rglob("*.jsonl") if p.stat().st_size > 0)
SESSIONS = sorted({*FILES, *(session_of(g) for g in GOLDENS)})


def fast_output(path: Path) -> tuple[bytes, list[str]]:
    """``session context --json``'s bytes the fast way, and the problems found."""
    session = Session.open(path, readonly=True)
    encoded, stream = encode_context(session, session.leaf_id)
    out = io.BytesIO()
    stdout = io.TextIOWrapper(out)
    real, sys.stdout = sys.stdout, stdout
    try:
        encoded.write({"thinkingLevel": stream.thinking_level, "model": stream.model})
    finally:
        sys.stdout = real
    data = out.getvalue()
    stdout.detach()
    return data, [str(p) for p in session.problems]


def reference_output(path: Path) -> tuple[bytes, list[str]]:
    """The same bytes by the kernel's reference: no fast parser, no store batches."""
    session = Session.open(path, readonly=True)
    session.table.fast = None  # json alone
    context = session.build_context(session.leaf_id)
    head = {"thinkingLevel": context.thinking_level, "model": context.model}
    messages = dumps_record_std(context.messages)
    llm = dumps_record_std(convert_to_llm(context.messages))
    text = dumps_record_std(head)[:-1] + f',"messages":{messages},"llmMessages":{llm}}}\n'
    return text.encode("utf-8", "surrogatepass"), [str(p) for p in session.problems]


def assert_same(path: Path) -> None:
    try:
        expected = reference_output(path)
    except SessionFileError as exc:
        with pytest.raises(SessionFileError) as caught:
            fast_output(path)
        assert str(caught.value) == str(exc)
        return
    assert fast_output(path) == expected


@pytest.fixture(params=["shipped", "bulk"])
def thresholds(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """As shipped, and with every branch on the bulk paths (orjson, batches, large reads)."""
    if request.param == "bulk":
        monkeypatch.setattr(line_table, "FAST_PARSER_ROWS", 0)


@pytest.mark.usefixtures("thresholds")
@pytest.mark.parametrize("path", SESSIONS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_fixture_and_golden_session_is_the_reference_byte_for_byte(path: Path) -> None:
    assert_same(path)


def generated(path: Path, seed: int, count: int, branched: bool) -> Path:
    """A seeded session: turns with tool calls, thinking-level and model changes, labels,
    compactions (their first kept entry anywhere on the branch), branches when ``branched``."""
    rng = random.Random(seed)
    stamp = "2026-01-01T00:00:00.000Z"
    lines = [{"type": "session", "version": 3, "id": f"s{seed}", "timestamp": stamp, "cwd": "/"}]
    ids: list[str] = []
    leaf: str | None = None
    for n in range(count):
        if branched and ids and rng.random() < 0.05:
            leaf = rng.choice(ids)  # a new branch from an earlier entry
        entry: dict[str, Any] = {"id": f"e{n}", "parentId": leaf, "timestamp": stamp}
        roll = rng.random()
        if roll < 0.03 and ids:
            kept = rng.choice(ids)
            entry = {"type": "compaction", **entry, "summary": f"summary {n} é\u2028"}
            entry |= {"firstKeptEntryId": kept, "tokensBefore": rng.randint(1, 10**6)}
        elif roll < 0.06:
            entry = {"type": "thinking_level_change", **entry, "thinkingLevel": "high"}
        elif roll < 0.09:
            entry = {"type": "model_change", **entry, "provider": "p", "modelId": f"m{n}"}
        elif roll < 0.11 and ids:
            entry = {"type": "label", **entry, "targetId": rng.choice(ids), "label": "l"}
        elif roll < 0.13:
            entry = {"type": "custom_message", "customType": "note", "content": f"c{n}"} | entry
            entry["display"] = True
        else:
            role = rng.choice(["user", "assistant", "toolResult", "bashExecution"])
            message: dict[str, Any] = {"role": role, "timestamp": n}
            if role == "user":
                message["content"] = rng.choice([f"u{n} 1.0", [{"type": "text", "text": "t"}]])
            elif role == "assistant":
                message |= {"content": [{"type": "text", "text": f"a{n}"}], "model": f"m{n}"}
                message["usage"] = {"input": n, "cost": {"total": rng.choice([0.0, 1e-06, 5])}}
            elif role == "toolResult":
                message |= {"toolCallId": f"c{n}", "content": [], "details": {"1": 1, "0": 2}}
            else:
                message |= {"command": "ls", "output": "x" * rng.randint(0, 300), "exitCode": 0}
            entry = {"type": "message", **entry, "message": message}
        lines.append(entry)
        ids.append(entry["id"])
        leaf = entry["id"]
    path.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n")
    return path


@pytest.mark.usefixtures("thresholds")
@pytest.mark.parametrize("seed", range(6))
def test_generated_sessions_are_the_reference_byte_for_byte(tmp_path: Path, seed: int) -> None:
    assert_same(generated(tmp_path / "g.jsonl", seed, 1500, branched=seed % 2 == 0))


@pytest.mark.usefixtures("thresholds")
def test_values_orjson_writes_otherwise_are_the_reference(tmp_path: Path) -> None:
    assert_same(tricky_session(tmp_path / "tricky.jsonl", 700))
    assert_same(tricky_session(tmp_path / "bad.jsonl", 700, bad_line=400))


def test_a_long_branch_left_in_its_file_is_the_reference(tmp_path: Path) -> None:
    """Past a megabyte the lines stay in the file and are read again in large reads."""
    path = generated(tmp_path / "long.jsonl", 7, 6000, branched=False)
    assert path.stat().st_size > 1 << 20
    assert_same(path)


def test_a_new_session_grown_in_memory_is_the_reference(tmp_path: Path) -> None:
    """A session the store opened new (no file yet) and then grown past FAST_PARSER_ROWS
    entries in memory: its table is the store's (bulk parser, batches), not the kernel's."""
    session = Session.open(tmp_path / "new.jsonl", create=True)
    assert isinstance(session.table, line_table.LineTable)
    for n in range(line_table.FAST_PARSER_ROWS + 100):
        session.append_message({"role": "user", "content": f"u{n} 1.0", "timestamp": n})
        text = [{"type": "text", "text": f"a{n}"}]
        session.append_message({"role": "assistant", "content": text, "timestamp": n})
        if n % 7 == 0:
            session.append_thinking_level_change("high" if n % 2 else "low")
    encoded, stream = encode_context(session, session.leaf_id)
    out = io.BytesIO()
    stdout = io.TextIOWrapper(out)
    real, sys.stdout = sys.stdout, stdout
    try:
        encoded.write({"thinkingLevel": stream.thinking_level, "model": stream.model})
    finally:
        sys.stdout = real
    stdout.detach()
    session.flush(force=True)
    assert (out.getvalue(), []) == reference_output(tmp_path / "new.jsonl")
