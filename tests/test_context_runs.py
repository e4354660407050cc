"""A long branch's context encoded the JSONL store's fast way writes the same bytes as pi: pi's
own output for every fixture (thresholds lowered so that small files take the long-branch
paths: the bulk parser, lines read again from the file), a malformed line found on the way,
context hooks' items as the kernel's reference gives them, and the CLI on a long branch."""

from __future__ import annotations

import gzip
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.harness_helpers import NO_THIRD_PARTY
from tests.store_helpers import run_tether
from tests.test_context_bytes import GOLDENS, messages_part, session_of
from tether.builtin_plugins.storage.format.stringify import dumps_record_std
from tether.builtin_plugins.storage.jsonl.context import batches
from tether.builtin_plugins.storage.jsonl.context.batches import encode_context
from tether.builtin_plugins.storage.jsonl.scan import line_table as jsonl_index
from tether.core.context.convert import convert_to_llm
from tether.core.session.session import Session


@pytest.fixture
def long_branch_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every branch takes the long-branch paths: the bulk parser, lines read again."""
    monkeypatch.setattr(jsonl_index, "FAST_PARSER_ROWS", 0)


def written(session: Session, keep_items: bool = False, fast: bool = True) -> tuple[bytes, Any]:
    """The bytes ``session context --json`` writes from ``encode_context``, and the encoded
    context; ``fast=False``: from the kernel's reference entries (no ``context_batches``)."""
    if not fast:  # a store without context_batches: the kernel's reference entries
        session._store = type("NoBatches", (), {})()
    encoded, stream = encode_context(session, session.leaf_id, keep_items=keep_items)
    out = io.BytesIO()
    stdout = io.TextIOWrapper(out)
    real = sys.stdout
    sys.stdout = stdout
    try:
        head = {"thinkingLevel": stream.thinking_level, "model": stream.model}
        encoded.write(head)
    finally:
        sys.stdout = real
    data = out.getvalue()
    stdout.detach()
    return data, encoded


@pytest.mark.usefixtures("long_branch_paths")
@pytest.mark.parametrize("golden", GOLDENS, ids=lambda p: p.name.split(".")[0])
def test_runs_write_pis_bytes(golden: Path) -> None:
    session = Session.open(session_of(golden), readonly=True)
    data, encoded = written(session)
    pis = gzip.decompress(golden.read_bytes())
    assert messages_part(data) == messages_part(pis)
    theirs = json.loads(pis)
    ours = json.loads(data)
    assert (ours["thinkingLevel"], ours["model"]) == (theirs["thinkingLevel"], theirs["model"])


HEADER = {"type": "session", "version": 3, "id": "s", "timestamp": "t", "cwd": "/"}


def tricky_session(path: Path, count: int, bad_line: int | None = None) -> Path:
    """A one-branch session of ``count`` entries whose values orjson and JS write apart
    (integral floats, exponents, index keys, escaped backslashes), written non-canonically
    on some lines (spaces, Python's float forms); ``bad_line``: that entry is invalid JSON
    past its prefix (a trailing comma)."""
    lines = [json.dumps(HEADER, separators=(",", ":"))]
    parent = None
    for n in range(count):
        kind = n % 7
        if kind == 0:
            message: dict[str, Any] = {"role": "user", "content": f"say {n}.0, then \\\\ ok"}
        elif kind == 1:
            usage = {"input": 10, "cost": {"input": 0.0, "output": 4.2e-05, "total": 1e21}}
            message = {"role": "assistant", "content": [], "usage": usage, "model": f"m{n}"}
        elif kind == 2:
            message = {"role": "toolResult", "toolCallId": "c", "details": {"1": 1, "0": [1.0]}}
        elif kind == 3:
            message = {"role": "bashExecution", "command": "ls", "output": "a", "exitCode": 0}
        elif kind == 4:
            message = {"role": "user", "content": [{"type": "text", "text": "e+10, e-6,"}]}
        elif kind == 5:
            message = {"role": "assistant", "content": [{"type": "text", "text": "x"}]}
        else:
            message = {"role": "toolResult", "toolCallId": "d", "value": 12345678901234567890}
        entry = {
            "type": "message",
            "id": f"e{n}",
            "parentId": parent,
            "timestamp": "2026-01-01T00:00:00.000Z",
            "message": message,
        }
        if n == count * 3 // 4:  # in the child's half
            entry = {"type": "thinking_level_change", "id": f"e{n}", "parentId": parent}
            entry |= {"timestamp": "2026-01-01T00:00:00.000Z", "thinkingLevel": "high"}
        separators = (", ", ": ") if n % 5 == 0 else (",", ":")
        line = json.dumps(entry, separators=separators, ensure_ascii=n % 3 == 0)
        if n == bad_line:
            line = line[:-2] + ",}}"
        lines.append(line)
        parent = entry["id"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def expected_bytes(path: Path) -> tuple[bytes, bytes]:
    """The messages and llmMessages as the standard path writes them (one process, parsed)."""
    context = Session.open(path, readonly=True).build_context()
    messages = dumps_record_std(context.messages).encode()
    return messages, dumps_record_std(convert_to_llm(context.messages)).encode()


@pytest.mark.usefixtures("long_branch_paths")
def test_values_orjson_writes_otherwise_take_the_exact_path(tmp_path: Path) -> None:
    path = tricky_session(tmp_path / "tricky.jsonl", 60)
    data, _ = written(Session.open(path, readonly=True))
    messages, llm = expected_bytes(path)
    assert messages_part(data) == b',"messages":' + messages + b',"llmMessages":' + llm + b"}"
    context = Session.open(path, readonly=True).build_context()
    ours = json.loads(data)
    assert (ours["thinkingLevel"], ours["model"]) == ("high", context.model)
    assert context.thinking_level == "high"


@pytest.mark.usefixtures("long_branch_paths")
@pytest.mark.parametrize("bad_line", [3, 50])  # in the first batch, in a later one
def test_a_malformed_line_is_skipped_as_by_the_reference(tmp_path: Path, bad_line: int) -> None:
    path = tricky_session(tmp_path / "bad.jsonl", 60, bad_line=bad_line)
    session = Session.open(path, readonly=True)
    data, encoded = written(session)
    assert [p.line for p in session.problems] == [bad_line + 2]  # the header is line 1
    messages, llm = expected_bytes(path)
    assert messages_part(data) == b',"messages":' + messages + b',"llmMessages":' + llm + b"}"
    context = Session.open(path, readonly=True).build_context()
    assert encoded.message_count == len(context.messages) > 0


@pytest.mark.usefixtures("long_branch_paths")
def test_hooks_get_the_same_items_the_fast_way_and_the_reference_way(tmp_path: Path) -> None:
    path = tricky_session(tmp_path / "items.jsonl", 40)
    _, one = written(Session.open(path, readonly=True), keep_items=True, fast=False)
    _, two = written(Session.open(path, readonly=True), keep_items=True)

    def loaded(items: list[Any]) -> list[Any]:
        return [item if isinstance(item, dict) else item.load() for item in items]

    assert len(two.items) == 39  # one entry sets the thinking level
    assert loaded(two.items) == loaded(one.items)
    assert [type(i).__name__ for i in two.items] == [type(i).__name__ for i in one.items]


def test_the_cli_writes_a_long_branch_as_the_reference_would(tmp_path: Path) -> None:
    count = 22_000
    path = tricky_session(tmp_path / "long.jsonl", count)
    done = run_tether("session", "context", str(path), "--json", env=NO_THIRD_PARTY)
    assert done.returncode == 0, done.stderr
    messages, llm = expected_bytes(path)
    data = done.stdout.encode("utf-8", "surrogatepass").rstrip(b"\n")
    assert messages_part(data) == b',"messages":' + messages + b',"llmMessages":' + llm + b"}"
    summary = json.loads(data)
    context = Session.open(path, readonly=True).build_context()
    assert (summary["model"], summary["thinkingLevel"]) == (context.model, context.thinking_level)
    # stdout a file, as a shell's ">" opens it: llmMessages copied from the output itself
    import os
    import subprocess
    import sys

    target = tmp_path / "out.json"
    with target.open("wb") as out:
        to_file = subprocess.run(
            [sys.executable, "-m", "tether", "session", "context", str(path), "--json"],
            stdout=out,
            stderr=subprocess.PIPE,
            env={**os.environ, **NO_THIRD_PARTY},
            timeout=120,
        )
    assert to_file.returncode == 0, to_file.stderr
    assert target.read_bytes().rstrip(b"\n") == data


@pytest.mark.parametrize("name", ["g16-branched", "g31-mixed-long", "e37-malformed-lines"])
def test_lines_are_read_again_from_the_file(name: str) -> None:
    session = Session.open(session_of(Path(name + ".context.json.gz")), readonly=True)
    table = session.table
    rows = list(range(len(table)))
    lines = batches.read_lines(table, rows)
    assert lines is not None and len(lines) == len(rows)
    assert lines == [table.raw_line(row) for row in rows]
    assert any(line is not None for line in lines)


def test_lines_are_not_read_again_from_another_file_at_that_path(tmp_path: Path) -> None:
    path = tricky_session(tmp_path / "replaced.jsonl", 30)
    session = Session.open(path, readonly=True)
    rows = list(range(len(session.table)))
    assert batches.read_lines(session.table, rows) is not None
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes(path.read_bytes())
    copy.replace(path)  # same bytes, another inode
    assert batches.read_lines(session.table, rows) is None
    again = Session.open(path, readonly=True)
    assert batches.read_lines(again.table, rows) is not None
    path.write_bytes(path.read_bytes()[:-100])  # the same inode, shorter than when it was read
    assert batches.read_lines(again.table, rows) is None


@pytest.mark.usefixtures("long_branch_paths")
def test_a_replaced_file_is_encoded_from_the_lines_loaded(tmp_path: Path) -> None:
    path = tricky_session(tmp_path / "gone.jsonl", 80)
    messages, llm = expected_bytes(path)
    session = Session.open(path, readonly=True)
    path.write_text("not the same session\n")  # the same inode, other bytes
    data, _ = written(session)
    assert messages_part(data) == b',"messages":' + messages + b',"llmMessages":' + llm + b"}"


@pytest.mark.usefixtures("long_branch_paths")
def test_a_database_session_is_encoded_from_its_lines_in_this_process(tmp_path: Path) -> None:
    """A database's lines come through its connection, fetched by this process."""
    import os

    from tether.builtin_plugins.storage.sql.rows import import_session_bytes
    from tether.builtin_plugins.storage.sqlite.database import SqliteDatabase

    path = tmp_path / "stored.jsonl"
    lines = [json.dumps(HEADER, separators=(",", ":"))]
    for n in range(80):  # pi's key order, compact: every line on the scanner's fast path
        role = "user" if n % 2 == 0 else "assistant"
        message = {"role": role, "content": [{"type": "text", "text": f"m{n}"}], "timestamp": n}
        entry = {"type": "message", "id": f"e{n}", "parentId": f"e{n - 1}" if n else None}
        entry |= {"timestamp": "2026-01-01T00:00:00.000Z", "message": message}
        lines.append(json.dumps(entry, separators=(",", ":")))
    path.write_text("\n".join(lines) + "\n")
    database = SqliteDatabase(f"sqlite:///{tmp_path}/sessions.db")
    session_id = import_session_bytes(database, path.read_bytes(), str(path), "")
    store = database.session_store(session_id)
    session = Session.open(path, store=store, readonly=True)
    source = session.table.line_source
    assert source is not None and not getattr(source, "fork_safe", False)
    calls = tmp_path / "calls"
    load = source.load

    def noted(table: Any, rows: list[int]) -> None:
        if table.unloaded(rows):  # lines to fetch from the database
            with calls.open("a") as out:
                out.write(f"{os.getpid()}\n")
        load(table, rows)

    source.load = noted
    data, _ = written(session)
    messages, llm = expected_bytes(path)
    assert messages_part(data) == b',"messages":' + messages + b',"llmMessages":' + llm + b"}"
    assert set(calls.read_text().split()) == {str(os.getpid())}  # the parent alone


@pytest.mark.usefixtures("long_branch_paths")
def test_an_assistant_message_before_the_kept_entries_sets_the_model_and_adds_no_message(
    tmp_path: Path,
) -> None:
    """A compaction keeps entries from a user message on; the assistant message before it
    is read only for the model: the batch paths must not add it to the context."""
    stamp = "2025-01-01T00:00:00.000Z"
    usage = {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2}

    def message(entry_id: str, parent: str | None, body: dict[str, Any]) -> dict[str, Any]:
        return {"type": "message", "id": entry_id, "parentId": parent, "timestamp": stamp,
                "message": body}  # fmt: skip

    def user(text: str) -> dict[str, Any]:
        return {"role": "user", "content": text, "timestamp": 1}

    assistant = {
        "role": "assistant",
        "content": [{"type": "text", "text": "a1"}],
        "api": "openai-completions",
        "provider": "p",
        "model": "m1",
        "usage": usage,
        "stopReason": "stop",
        "timestamp": 2,
    }
    entries = [
        {"type": "session", "version": 3, "id": "s", "timestamp": stamp, "cwd": "/tmp"},
        message("e1", None, user("u1")),
        message("e2", "e1", assistant),
        message("e3", "e2", user("u2")),
        {
            "type": "compaction",
            "id": "e4",
            "parentId": "e3",
            "timestamp": stamp,
            "summary": "S",
            "firstKeptEntryId": "e3",
            "tokensBefore": 100,
        },  # fmt: skip
        message("e5", "e4", user("u3")),
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in entries))
    session = Session.open(path, readonly=True)
    context = session.build_context()
    data, _ = written(session)
    whole = json.loads(data)
    assert whole["messages"] == context.messages
    assert whole["llmMessages"] == convert_to_llm(context.messages)
    assert [m["role"] for m in context.messages] == ["compactionSummary", "user", "user"]
    assert whole["model"] == context.model == {"provider": "p", "modelId": "m1"}
