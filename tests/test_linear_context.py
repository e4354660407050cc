"""A long one-branch file's context in one pass (``tether.core.context.linear``) gives the
bytes the usual way gives, or nothing: every file it takes is one it reads exactly as the
scanner and the session do, and every file that is not one clean branch (a branch, a
compaction, a duplicate id, a line the scanner would parse in full or skip…) goes the usual
way."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.harness_helpers import NO_THIRD_PARTY
from tests.test_context_bytes import HERE
from tether.core.context import linear, linear_pieces
from tether.core.context.linear import linear_context
from tether.core.session.session import Session

HEADER = {"type": "session", "version": 3, "id": "s1", "timestamp": "2025-01-01T00:00:00.000Z"}
STAMP = "2025-01-01T00:00:01.000Z"
FIXTURES = sorted((HERE / "gen").glob("*.jsonl")) + sorted((HERE / "stringify").glob("*.jsonl"))


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def entry(n: int, parent: str | None, **fields: Any) -> dict[str, Any]:
    """A pi-ordered entry: a user message, an assistant one with a tool call, or a tool
    result, by ``n``."""
    role = ("user", "assistant", "toolResult")[n % 3]
    message: dict[str, Any] = {"role": role, "content": f"text {n} — ünïcode", "timestamp": n}
    if role == "assistant":
        message["content"] = [
            {"type": "text", "text": f"answer {n}"},
            {"type": "toolCall", "id": f"call{n}", "name": "read", "arguments": {"n": n}},
        ]
        message["usage"] = {"input": n, "output": 2, "cost": {"input": 1.5e-7, "total": 0.25}}
        message["model"], message["provider"] = "m1", "p1"
    elif role == "toolResult":
        message["toolCallId"], message["toolName"] = f"call{n - 1}", "read"
        message["content"] = [{"type": "text", "text": f"result {n}"}]
    found = {"type": "message", "id": f"e{n:05d}", "parentId": parent, "timestamp": STAMP}
    found["message"] = message
    found.update(fields)
    return found


def settings(n: int, parent: str) -> list[dict[str, Any]]:
    """A thinking-level and a model change, a label, a session name, a custom entry and a
    custom message, chained after ``parent``."""
    ids = [f"s{n:05d}{k}" for k in range(6)]
    parents = [parent, *ids[:-1]]
    kinds: list[dict[str, Any]] = [
        {"type": "thinking_level_change", "thinkingLevel": "high"},
        {"type": "model_change", "provider": "p2", "modelId": f"m{n}"},
        {"type": "label", "targetId": parent, "label": "here"},
        {"type": "session_info", "name": "a name"},
    ]
    found = [  # pi's key order
        {"type": kind.pop("type"), "id": i, "parentId": p, "timestamp": STAMP, **kind}
        for kind, i, p in zip(kinds, ids, parents, strict=False)
    ]
    for kind, i, p in (("custom", ids[4], parents[4]), ("custom_message", ids[5], parents[5])):
        custom: dict[str, Any] = {"type": kind, "customType": "ext"}
        if kind == "custom":
            custom["data"] = {"k": 1}
        else:
            custom.update(content="injected", display=True)
        found.append({**custom, "id": i, "parentId": p, "timestamp": STAMP})
    return found


def branch_lines(count: int) -> list[str]:
    """The lines of a clean one-branch session of ``count`` messages and some settings."""
    lines, parent = [compact(HEADER)], None
    for n in range(count):
        if n and n % 50 == 0:
            for record in settings(n, parent):  # type: ignore[arg-type]
                lines.append(compact(record))
                parent = record["id"]
        record = entry(n, parent)
        lines.append(compact(record))
        parent = record["id"]
    return lines


def write(path: Path, lines: list[str]) -> Path:
    path.write_bytes(("\n".join(lines) + "\n").encode("utf-8"))
    return path


def rendered(encoded: Any, head: dict[str, Any], tmp_path: Path) -> bytes:
    """What ``session context --json`` writes of ``encoded``."""
    out = tmp_path / "out.json"
    saved = sys.stdout
    with out.open("wb") as raw:
        sys.stdout = io.TextIOWrapper(raw, encoding="utf-8")
        try:
            encoded.write(head, release=True)
            sys.stdout.flush()
        finally:
            sys.stdout = saved
    return out.read_bytes()


def usual(path: Path, tmp_path: Path) -> tuple[bytes, list[Any]]:
    session = Session.open(path, readonly=True)
    encoded, stream = session.encoded_context(workers=2)
    head = {
        "header": session.header,
        "leafId": session.leaf_id,
        "thinkingLevel": stream.thinking_level,
        "model": stream.model,
        "entryCount": len(session),
        "messageCount": encoded.message_count,
        "llmMessageCount": encoded.llm_count,
    }
    return rendered(encoded, head, tmp_path), [*session.problems, *session.notes]


def one_pass(path: Path, tmp_path: Path) -> bytes | None:
    found = linear_context(str(path), min_bytes=0)
    if found is None:
        return None
    head = {
        "header": found.header,
        "leafId": found.leaf_id,
        "thinkingLevel": found.stream.thinking_level,
        "model": found.stream.model,
        "entryCount": found.entry_count,
        "messageCount": found.encoded.message_count,
        "llmMessageCount": found.encoded.llm_count,
    }
    return rendered(found.encoded, head, tmp_path)


ENCODE = linear._Work.encode


def pieces_of(path: Path) -> list[tuple[int, int]]:
    """The pieces one pass cuts the file at ``path`` into."""
    fd = os.open(path, os.O_RDONLY)
    try:
        body = path.read_bytes().index(b"\n") + 1
        return linear._cut(fd, body, path.stat().st_size)
    finally:
        os.close(fd)


def log_tasks(monkeypatch: pytest.MonkeyPatch, log: Path) -> None:
    """Each task either process takes noted in ``log`` as ``PID TASK``."""

    def noting(self: Any, task: int, done: Any, file: Any) -> None:
        with log.open("a") as taken:  # the child's tasks too
            taken.write(f"{os.getpid()} {task}\n")
        ENCODE(self, task, done, file)

    monkeypatch.setattr(linear._Work, "encode", noting)


def tasks_taken(log: Path) -> dict[int, str]:
    """Task → the process that took it, from :func:`log_tasks`' log."""
    lines = log.read_text().splitlines() if log.exists() else []
    return {int(task): pid for pid, task in map(str.split, lines)}


def test_a_clean_branch_takes_one_pass_with_the_usual_bytes(tmp_path: Path) -> None:
    path = write(tmp_path / "s.jsonl", branch_lines(3000))
    expected, problems = usual(path, tmp_path)
    assert problems == []
    assert one_pass(path, tmp_path) == expected
    summary = json.loads(expected)
    assert summary["thinkingLevel"] == "high" and summary["entryCount"] == 3000 + 59 * 6
    assert summary["messageCount"] == 3000 + 59  # the custom messages too


def test_pieces_taken_by_both_processes_join_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path / "s.jsonl", branch_lines(4000))
    monkeypatch.setattr(linear, "PIECES", 200)  # many pieces: both processes take some
    monkeypatch.setattr(linear_pieces, "BLOCK_BYTES", 4096)  # many blocks, lines across them
    log = tmp_path / "taken"
    log_tasks(monkeypatch, log)
    noting, parent = linear._Work.encode, os.getpid()

    def parent_checks_slowly(self: Any, task: int, done: Any, file: Any) -> None:
        if os.getpid() == parent and task < 20:
            time.sleep(0.005)  # the child surely takes some, however busy the machine
        noting(self, task, done, file)

    monkeypatch.setattr(linear._Work, "encode", parent_checks_slowly)
    assert one_pass(path, tmp_path) == usual(path, tmp_path)[0]
    taken = tasks_taken(log)
    assert len(set(taken.values())) == 2
    assert sorted(taken) == list(range(len(taken)))


def lines_with(change: str) -> list[str]:
    """A clean branch with one thing changed (see :data:`CHANGES`)."""
    lines = branch_lines(600)
    middle = len(lines) // 2
    while not lines[middle].startswith('{"type":"message"'):
        middle += 1
    record = json.loads(lines[middle])
    before = json.loads(lines[middle - 1])
    if change == "branch":
        record["parentId"] = json.loads(lines[middle - 5])["id"]
    elif change == "second root":
        record["parentId"] = None
    elif change == "compaction":
        record = {
            "type": "compaction",
            "id": record["id"],
            "parentId": record["parentId"],
            "timestamp": STAMP,
            "summary": "before",
            "firstKeptEntryId": json.loads(lines[middle - 10])["id"],
            "tokensBefore": 10,
        }
    elif change == "duplicate id far apart":
        lines[-1] = lines[-1].replace(json.loads(lines[-1])["id"], json.loads(lines[3])["id"])
        return lines
    elif change == "duplicate id":
        record["id"] = before["id"]
    elif change == "blank line":
        return [*lines[:middle], "", *lines[middle:]]
    elif change == "malformed line":
        return [*lines[:middle], '{"type":"message","id":', *lines[middle:]]
    elif change == "glued line":
        lines[middle] = lines[middle][:40] + lines[middle]
        return lines
    elif change == "crlf":
        lines[middle] += "\r"
        return lines
    elif change == "trailing space":
        lines[middle] += " "
        return lines
    elif change == "other key order":
        record = {"id": record["id"], **record}
    elif change == "id given twice":
        lines[middle] = lines[middle][:-1] + ',"id":"other"}'
        return lines
    elif change == "type given twice":
        lines[middle] = lines[middle][:-1] + ',"type":"label"}'
        return lines
    elif change == "parent given twice":
        lines[middle] = lines[middle][:-1] + ',"parentId":null}'
        return lines
    elif change == "escaped id":
        record["id"] = 'e"quoted'
        nxt = json.loads(lines[middle + 1])
        nxt["parentId"] = record["id"]
        lines[middle + 1] = compact(nxt)
    elif change == "id not a string":
        lines[middle] = lines[middle].replace(f'"id":"{record["id"]}"', '"id":7', 1)
        return lines
    elif change == "second header":
        return [*lines[:middle], compact({**HEADER, "id": "s2"}), *lines[middle:]]
    elif change == "unknown type":
        record["type"] = "something_new"
    elif change == "leaf marker last":
        last = json.loads(lines[-1])
        marker = {"type": "custom", "customType": "tether.leaf", "data": {}, "id": "mk"}
        return [*lines, compact({**marker, "parentId": last["id"], "timestamp": STAMP})]
    elif change == "legacy header":
        lines[0] = compact({**HEADER, "version": 2})
        return lines
    elif change == "header not first":
        return ["", *lines]
    elif change == "byte order mark":
        lines[0] = "\ufeff" + lines[0]
        return lines
    elif change == "nested record start":
        args = {"type": "x", "id": "y", "parentId": "z"}
        record["message"]["content"] = [{"type": "text", "text": "t"}]
        record["message"]["details"] = args
    elif change == "numbers to fix":
        record["message"]["details"] = {"a": 1e21, "b": 1e-7, "c": 123456789.0, "d": -0.0}
    elif change == "index keys":
        record["message"]["details"] = {"b": 1, "10": 2, "2": 3}
    elif change in ("role given twice", "a nested assistant", "message given twice"):
        model_change = {"type": "model_change", "id": "mc", "parentId": record["parentId"]}
        model_change.update(timestamp=STAMP, provider="pX", modelId="mX")
        record["parentId"] = "mc"
        lines[middle:middle] = [compact(model_change)]
        middle += 1
        record["message"] = {"role": "assistant", "content": "x", "provider": "pA", "role2": 0}
        text = compact(record)
        if change == "role given twice":  # the last one counts, as JSON.parse reads it
            text = text.replace('"role2":0', '"role":"user"')
        elif change == "a nested assistant":  # a user message holding what looks like one
            record["message"] = {"content": "hi", "role": "user"}
            record["message"]["details"] = {"timestamp": "t", "message": {"role": "assistant"}}
            text = compact(record)
        else:
            text = text[:-1] + ',"message":"a string"}'
        lines[middle] = text
        return lines[: middle + 1]  # the last message: the model is the context's
    lines[middle] = compact(record)
    return lines


OTHER_CONTEXT = [
    "branch",
    "second root",
    "compaction",
    "duplicate id far apart",
    "duplicate id",
    "blank line",
    "malformed line",
    "glued line",
    "other key order",
    "id given twice",
    "type given twice",
    "parent given twice",
    "escaped id",
    "id not a string",
    "second header",
    "unknown type",
    "leaf marker last",
    "legacy header",
    "header not first",
    "byte order mark",
]
# lines the scanner parses in full, to the same entries: one pass reads them as they are
SAME_CONTEXT = [
    "crlf",
    "trailing space",
    "nested record start",
    "numbers to fix",
    "index keys",
    # which message set the model: read as JSON.parse reads the line (the index's quick look
    # at a line's role trusts only a line with one "role" and one "message" key)
    "role given twice",
    "a nested assistant",
    "message given twice",
]


@pytest.mark.parametrize("change", OTHER_CONTEXT)
def test_a_file_that_is_not_one_clean_branch_goes_the_usual_way(
    change: str, tmp_path: Path
) -> None:
    path = write(tmp_path / "s.jsonl", lines_with(change))
    assert one_pass(path, tmp_path) is None


@pytest.mark.parametrize("change", SAME_CONTEXT)
def test_what_the_usual_way_reads_the_same_takes_one_pass(change: str, tmp_path: Path) -> None:
    path = write(tmp_path / "s.jsonl", lines_with(change))
    expected, problems = usual(path, tmp_path)
    assert problems == []
    assert one_pass(path, tmp_path) == expected


def test_a_last_line_without_its_newline_goes_the_usual_way(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(write(path, branch_lines(300)).read_bytes().rstrip(b"\n"))
    assert one_pass(path, tmp_path) is None


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.name)
def test_every_pi_fixture_gives_the_usual_bytes_or_goes_the_usual_way(
    fixture: Path, tmp_path: Path
) -> None:
    found = one_pass(fixture, tmp_path)
    if found is not None:
        expected, problems = usual(fixture, tmp_path)
        assert problems == []
        assert found == expected


def test_the_pi_fixtures_one_pass_takes_are_the_one_branch_ones(tmp_path: Path) -> None:
    taken = {p.name[:3] for p in FIXTURES if one_pass(p, tmp_path) is not None}
    one_branch = {f"g{n:02d}" for n in range(1, 16)}  # g01-linear … g15-aborts
    assert one_branch <= taken <= {*one_branch, "e40", "g28"}  # no messages; mixed, one branch


def test_a_child_that_fails_sends_the_file_the_usual_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path / "s.jsonl", branch_lines(2000))
    parent = os.getpid()

    def failing_in_the_child(self: Any, index: int, done: Any, file: Any) -> None:
        if os.getpid() != parent:
            raise RuntimeError("the child fails")
        ENCODE(self, index, done, file)

    monkeypatch.setattr(linear._Work, "encode", failing_in_the_child)
    monkeypatch.setattr(linear, "PIECES", 100)
    assert one_pass(path, tmp_path) is None


def test_the_cli_takes_one_pass_for_a_large_branch_and_the_bytes_are_the_usual_ones(
    tmp_path: Path,
) -> None:
    """A file over ``LINEAR_BYTES``: its context at the leaf (one pass) and at the leaf
    named with ``--leaf`` (the usual way) are the same bytes."""
    lines = branch_lines(3000)
    filler = "x" * 800  # ~1 KB lines: 35k of them
    record_lines = []
    parent = json.loads(lines[-1])["id"]
    for n in range(3000, 3000 + linear.LINEAR_BYTES // 900):
        record = entry(n, parent)
        record["message"]["details"] = filler
        record_lines.append(compact(record))
        parent = record["id"]
    path = write(tmp_path / "big.jsonl", [*lines, *record_lines])
    assert path.stat().st_size >= linear.LINEAR_BYTES
    taken = tmp_path / "taken"
    traced = (  # the CLI as ``python -m tether``, noting each file one pass took
        "import sys, tether.core.context.linear as linear\n"
        "found = linear.linear_context\n"
        "def noting(path, **options):\n"
        "    result = found(path, **options)\n"
        f"    open({str(taken)!r}, 'a').write(f'{{result is not None}}\\n')\n"
        "    return result\n"
        "linear.linear_context = noting\n"
        "from tether.__main__ import main\n"
        "sys.argv[0] = 'tether'\n"
        "main()\n"
    )
    run = [sys.executable, "-c", traced, "session", "context", str(path), "--json"]
    env = {**os.environ, **NO_THIRD_PARTY}
    fast = subprocess.run(run, capture_output=True, env=env, check=True)
    assert taken.read_text() == "True\n"
    usual_way = subprocess.run([*run, "--leaf", parent], capture_output=True, env=env, check=True)
    assert taken.read_text() == "True\n"  # not asked: the usual way
    assert fast.stderr == usual_way.stderr == b""
    assert fast.stdout == usual_way.stdout
    assert json.loads(fast.stdout)["leafId"] == parent
    for form in (["--quiet", "--json"], ["--quiet"]):  # everything but the printing
        quiet = subprocess.run([*run, *form], capture_output=True, env=env, check=True)
        usual_quiet = subprocess.run([*run, *form, "--leaf", parent], capture_output=True, env=env)
        assert quiet.stdout == usual_quiet.stdout and quiet.stdout.count(b"\n") == 1
    assert taken.read_text() == "True\n" * 3


def test_a_branch_where_a_piece_starts_is_found_before_the_pieces_are_encoded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = branch_lines(3000)
    path = write(tmp_path / "s.jsonl", lines)
    pieces = pieces_of(path)
    data = path.read_bytes()
    at = pieces[3][0]  # the fourth piece's first line: its parent made an older entry
    line = data[at : data.index(b"\n", at)]
    record = json.loads(line)
    older = json.loads(lines[5])["id"]
    assert record["parentId"] is not None and len(older) == len(record["parentId"])
    changed = line.replace(
        f'"parentId":"{record["parentId"]}"'.encode(), f'"parentId":"{older}"'.encode()
    )
    path.write_bytes(data[:at] + changed + data[at + len(line) :])
    log = tmp_path / "taken"
    log_tasks(monkeypatch, log)
    monkeypatch.setattr(linear, "PROBE_BYTES", 4096)  # the probe does not see it
    assert one_pass(path, tmp_path) is None
    encoded = sum(task >= len(pieces) for task in tasks_taken(log))
    assert encoded < len(pieces)  # found by its check: not after encoding them all
    assert usual(path, tmp_path)[1] == []  # a valid file: the usual way reads its branch


def test_the_line_before_a_piece_is_found_however_long_it_is(tmp_path: Path) -> None:
    long_text = "y" * (300 << 10)  # over four of the 64 KB reads back
    lines = branch_lines(20)
    last = json.loads(lines[-1])
    lines.append(compact(entry(20, last["id"], note=long_text)))
    lines.append(compact(entry(21, "e00020")))
    path = write(tmp_path / "s.jsonl", lines)
    data = path.read_bytes()
    body = len(lines[0].encode()) + 1
    fd = os.open(path, os.O_RDONLY)
    try:
        for number in (1, 2, len(lines) - 2, len(lines) - 1):  # each line's, by its end
            start = len("\n".join(lines[: number + 1]).encode()) + 1
            before = linear_pieces.line_before(fd, start, body)
            assert before == lines[number].encode()
            assert data[start - len(before) - 1 : start - 1] == before
    finally:
        os.close(fd)


def test_a_file_ending_with_a_custom_entry_is_turned_away_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path / "s.jsonl", lines_with("leaf marker last"))
    pieces = len(pieces_of(path))
    for probe in (1 << 20, 64):  # seen by the probe; else by the last piece's check
        monkeypatch.setattr(linear, "PROBE_BYTES", probe)
        log = tmp_path / f"taken-{probe}"
        log_tasks(monkeypatch, log)
        assert one_pass(path, tmp_path) is None
        tasks = tasks_taken(log)
        assert (tasks == {}) == (probe > 64)
        assert sum(task >= pieces for task in tasks) < pieces  # not after encoding them all


def test_lines_longer_than_many_blocks_are_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(linear_pieces, "BLOCK_BYTES", 512)
    lines = branch_lines(10)
    last = json.loads(lines[-1])
    lines.append(compact(entry(10, last["id"], note="z" * 20_000)))
    lines.append(compact(entry(11, "e00010")))
    path = write(tmp_path / "s.jsonl", lines)
    fd = os.open(path, os.O_RDONLY)
    try:
        body = len(lines[0].encode()) + 1
        read = [
            line
            for block in linear_pieces.lines_of(fd, body, path.stat().st_size)
            for line in block
        ]
    finally:
        os.close(fd)
    assert read == [line.encode() for line in lines[1:]]
    assert one_pass(path, tmp_path) == usual(path, tmp_path)[0]


def test_many_roots_in_a_block_are_no_crash(tmp_path: Path) -> None:
    roots = [
        compact({"type": "label", "id": f"r{n}", "parentId": None, "timestamp": STAMP})
        for n in range(3000)
    ]
    path = write(tmp_path / "s.jsonl", [compact(HEADER), *roots])
    fd = os.open(path, os.O_RDONLY)
    try:
        body = len(compact(HEADER)) + 1
        with pytest.raises(linear_pieces.NotLinear):
            list(
                linear_pieces.piece_batches(
                    fd, body, path.stat().st_size, linear_pieces.EncodedPiece()
                )
            )
    finally:
        os.close(fd)
    assert one_pass(path, tmp_path) is None


def test_an_id_in_pieces_the_two_processes_checked_is_found_before_the_encoding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The parent compares the child's ids with its own (shared memory) before it encodes."""
    lines = branch_lines(3000)
    first, last = json.loads(lines[1])["id"], json.loads(lines[-1])["id"]
    lines[-1] = lines[-1].replace(f'"id":"{last}"', f'"id":"{first}"')  # the first piece's
    path = write(tmp_path / "s.jsonl", lines)
    pieces = len(pieces_of(path))
    for attempt in range(8):  # until the two pieces were checked by the two processes
        log = tmp_path / f"taken-{attempt}"
        log_tasks(monkeypatch, log)
        assert one_pass(path, tmp_path) is None
        taken = tasks_taken(log)
        parent = str(os.getpid())  # compares before its first piece, or found it checking
        assert sum(pid == parent for task, pid in taken.items() if task >= pieces) <= 1
        if taken.get(0) != taken.get(pieces - 1):
            return
    pytest.fail("the two processes never split the two pieces")


def test_cutting_a_file_with_one_very_long_line_reads_it_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = branch_lines(30)
    last = json.loads(lines[-1])
    lines.append(compact(entry(30, last["id"], note="w" * (3 << 20))))  # most of the file
    lines += [compact(entry(31, "e00030"))]
    path = write(tmp_path / "s.jsonl", lines)
    size = path.stat().st_size
    read = 0
    pread = os.pread

    def counting(fd: int, length: int, at: int) -> bytes:
        nonlocal read
        data = pread(fd, length, at)
        read += len(data)
        return data

    monkeypatch.setattr(linear.os, "pread", counting)
    monkeypatch.setattr(linear, "PIECES", 100)
    fd = os.open(path, os.O_RDONLY)
    try:
        pieces = linear._cut(fd, len(lines[0].encode()) + 1, size)
    finally:
        os.close(fd)
    assert read <= size + 100 * (64 << 10)
    starts = [start for start, _ in pieces]
    data = path.read_bytes()
    assert all(data[start - 1 : start] == b"\n" for start in starts)
    assert pieces[-1][1] == size and len(pieces) < 100
    monkeypatch.setattr(linear.os, "pread", pread)
    assert one_pass(path, tmp_path) == usual(path, tmp_path)[0]


def test_a_key_given_twice_stops_the_encoding_at_its_piece_whoever_checked_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read as a message by the check, as a label once parsed: the digests differ when its
    piece is encoded (published by the process that checked it)."""
    lines = branch_lines(3000)
    at = 40  # in the first piece: what comes after it is never encoded
    while not lines[at].startswith('{"type":"message"'):
        at += 1
    lines[at] = lines[at][:-1] + ',"type":"label"}'
    path = write(tmp_path / "s.jsonl", lines)
    monkeypatch.setattr(linear, "PIECES", 100)  # the rest: far more than one process can run
    pieces = len(pieces_of(path))
    for attempt in range(8):  # until the other process checked it
        log = tmp_path / f"taken-{attempt}"
        log_tasks(monkeypatch, log)
        assert one_pass(path, tmp_path) is None
        taken = tasks_taken(log)
        assert sum(task >= pieces for task in taken) < pieces  # stopped at its piece
        if taken.get(0) != taken.get(pieces):
            return
    pytest.fail("the same process always checked and encoded the piece")


def test_a_process_with_many_open_files_still_takes_one_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The parent waits for the child's checks (here slowed down) with descriptors past
    1023 open: ``select()`` would refuse them."""
    import resource

    parent = os.getpid()

    def slow_checks_in_the_child(self: Any, task: int, done: Any, file: Any) -> None:
        if os.getpid() != parent and task < len(self.ranges):
            time.sleep(0.01)
        ENCODE(self, task, done, file)

    monkeypatch.setattr(linear._Work, "encode", slow_checks_in_the_child)

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 1200
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    path = write(tmp_path / "s.jsonl", branch_lines(3000))
    opened = []
    try:
        while len(opened) < 1100:  # descriptors past 1023: select() would refuse them
            opened.append(os.open(os.devnull, os.O_RDONLY))
        found = one_pass(path, tmp_path)
    finally:
        for fd in opened:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert found == usual(path, tmp_path)[0]


def test_with_sigchld_ignored_nothing_is_forked(tmp_path: Path) -> None:
    import signal

    from tether.core.storage.jsonl_scan_split import can_fork

    path = write(tmp_path / "s.jsonl", branch_lines(300))
    before = signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # a host program's choice
    try:
        assert not can_fork()
        assert one_pass(path, tmp_path) is None
        assert usual(path, tmp_path)[1] == []
    finally:
        signal.signal(signal.SIGCHLD, before)
    assert can_fork()
