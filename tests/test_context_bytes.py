"""``tether session context --json`` writes the messages and their LLM form byte for byte as
pi does (``JSON.stringify``: compact, ``1`` not ``1.0``, ``0.000001``, array-index keys first,
lone surrogates escaped, U+2028 raw), whichever of orjson or the standard path encodes them.

The goldens in tests/fixtures/pi/stringify/ are pi's own output, unchanged:
``node oracle.mjs context FILE | gzip -9n`` (the pi oracle, pi 0.73.1).
``tricky-values.jsonl`` holds the number and string forms where orjson and JS differ.
"""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import pytest

from tests.cli_in_process import run_in_process
from tests.harness_helpers import NO_THIRD_PARTY
from tests.store_helpers import run_tether

HERE = Path(__file__).resolve().parent / "fixtures" / "pi"
GOLDENS = sorted((HERE / "stringify").glob("*.context.json.gz"))


def session_of(golden: Path) -> Path:
    name = golden.name.removesuffix(".context.json.gz") + ".jsonl"
    own = golden.parent / name
    return own if own.exists() else HERE / "gen" / name


def messages_part(data: bytes) -> bytes:
    """From ``,"messages":[`` to the end: both outputs end with messages, then llmMessages."""
    start = data.index(b',"messages":[')
    return data[start:].rstrip(b"\n")


@pytest.mark.parametrize("golden", GOLDENS, ids=lambda p: p.name.split(".")[0])
def test_messages_are_written_byte_for_byte_as_pi_writes_them(golden: Path) -> None:
    run = run_tether if golden == GOLDENS[0] else run_in_process  # one real process
    done = run("session", "context", str(session_of(golden)), "--json", env=NO_THIRD_PARTY)
    assert done.returncode == 0, done.stderr
    ours = messages_part(done.stdout.encode("utf-8", "surrogatepass"))
    theirs = messages_part(gzip.decompress(golden.read_bytes()))
    assert ours == theirs


def test_there_are_goldens() -> None:
    assert len(GOLDENS) >= 9


def test_a_large_branch_streamed_equals_the_standard_path(tmp_path: Path) -> None:
    """Past FAST_PARSER_ROWS the branch is streamed through orjson; the bytes are still those
    of the whole context built and written by the standard library alone."""
    import json

    from tether.builtin_plugins.storage.format.fastjson import loads_std
    from tether.builtin_plugins.storage.format.stringify import dumps_record_std
    from tether.core.context.build import build_session_context
    from tether.core.context.convert import convert_to_llm

    lines = [
        '{"type":"session","version":3,"id":"big","timestamp":"2025-01-01T00:00:00.000Z",'
        '"cwd":"/tmp"}'
    ]
    parent = "null"
    odd = '{"n":123456789012345678901234567890,"f":0.0,"g":1e-6,"h":2.5e17,"1":"k","t":"\\ud83d"}'
    for n in range(3000):
        entry_id = f"{n:08x}"
        if n == 500:
            body = f'"summary":"sum {n}","firstKeptEntryId":"{n - 20:08x}","tokensBefore":{n}.0'
            kind = "compaction"
        elif n % 97 == 5:
            body = f'"customType":"note","content":"note {n}","display":true'
            kind = "custom_message"
        else:
            role = "user" if n % 2 else "assistant"
            body = (
                f'"message":{{"role":"{role}","content":[{{"type":"text","text":"m{n} é"}}],'
                f'"usage":{{"cost":{{"total":0.0,"input":3e-6}}}},"details":{odd},"timestamp":{n}}}'
            )
            kind = "message"
        lines.append(
            f'{{"type":"{kind}","id":"{entry_id}","parentId":{parent},'
            f'"timestamp":"2025-01-01T00:00:01.000Z",{body}}}'
        )
        parent = f'"{entry_id}"'
    path = tmp_path / "big.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = run_tether("session", "context", str(path), "--json", env=NO_THIRD_PARTY)
    assert done.returncode == 0, done.stderr
    entries = [loads_std(line.encode()) for line in lines[1:]]
    context = build_session_context(entries)
    expected = (
        ',"messages":'
        + dumps_record_std(context.messages)
        + ',"llmMessages":'
        + dumps_record_std(convert_to_llm(context.messages))
        + "}"
    )
    assert len(context.messages) > 2000
    assert messages_part(done.stdout.encode("utf-8", "surrogatepass")) == expected.encode()
    assert json.loads(done.stdout)["messageCount"] == len(context.messages)


def messages_and_output(head: str) -> tuple[list[dict[str, Any]], bytes]:
    """g09's context messages, and ``session context --json``'s output for them after the
    ``head`` keys (``'"n":1,'`` or none), by the standard library alone."""
    from tests.context_loader import load_entries
    from tether.builtin_plugins.storage.format.stringify import dumps_record_std
    from tether.core.context.build import build_session_context
    from tether.core.context.convert import convert_to_llm

    _, entries = load_entries(HERE / "gen" / "g09-bash-exec.jsonl")
    messages = build_session_context(entries).messages
    output = (
        "{"
        + head
        + '"messages":'
        + dumps_record_std(messages)
        + ',"llmMessages":'
        + dumps_record_std(convert_to_llm(messages))
        + "}\n"
    )
    return messages, output.encode()


def test_encoded_messages_spilled_to_a_temporary_file_write_the_same_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import io
    import sys

    from tether.builtin_plugins.storage.jsonl.context import encoded, output_copy
    from tether.core.context.convert import convert_to_llm

    messages, expected = messages_and_output('"n":1,')
    for spill in (10**9, 1000, 1):
        monkeypatch.setattr(output_copy, "_BATCH", 7)
        out = io.BytesIO()
        stdout = io.TextIOWrapper(out)
        monkeypatch.setattr(sys, "stdout", stdout)
        context = encoded.EncodedContext(iter(messages), spill_bytes=spill)
        context.write({"n": 1})
        monkeypatch.undo()
        assert bool(context._segments) == (spill < 10**9)
        assert out.getvalue() == expected, spill
        stdout.detach()
        assert context.message_count == len(messages)
        assert context.llm_count == len(convert_to_llm(messages))


def test_a_long_context_is_encoded_with_little_memory(tmp_path: Path) -> None:
    """A long branch's encoded messages go to a temporary file past ``SPILL_BYTES``: encoding
    a 16 MB context takes a few MB at most (it held them all up to 128 MB: 121 MB peak on the
    100k-entry one-branch session, issue 24)."""
    import json
    import tracemalloc

    from tether.builtin_plugins.storage.jsonl.context.batches import encode_context
    from tether.core.session.session import Session

    path = tmp_path / "long.jsonl"
    lines = [{"type": "session", "version": 3, "id": "s", "timestamp": "t", "cwd": "/"}]
    for n in range(4000):
        message = {"role": "user", "content": f"{n} " + "x" * 4000, "timestamp": n}
        parent = f"e{n - 1}" if n else None
        lines.append({"type": "message", "id": f"e{n}", "parentId": parent, "timestamp": "t"})
        lines[-1]["message"] = message
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    session = Session.open(path, readonly=True)
    tracemalloc.start()
    try:
        encoded, _ = encode_context(session, session.leaf_id)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert encoded.size > 15 << 20 and encoded.message_count == 4000
    assert peak < 4 << 20, peak
    assert encoded.read(0, 12) == b'{"role":"use'


def test_a_spilled_context_is_sent_to_a_file_by_the_kernel_byte_exact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """stdout a file: the spilled messages go by ``sendfile``, in order, none twice."""
    import io
    import os
    import sys

    from tether.builtin_plugins.storage.jsonl.context import encoded

    messages, expected = messages_and_output("")
    sent: list[int] = []
    real_sendfile = os.sendfile

    def sendfile(out_fd: int, in_fd: int, offset: int, count: int) -> int:
        done = real_sendfile(out_fd, in_fd, offset, min(count, 5))  # a few bytes a call
        sent.append(done)
        return done

    monkeypatch.setattr(os, "sendfile", sendfile)
    target = tmp_path / "out.json"
    with target.open("wb") as raw:
        stdout = io.TextIOWrapper(raw)
        monkeypatch.setattr(sys, "stdout", stdout)
        stdout.write("")
        encoded.EncodedContext(iter(messages), spill_bytes=300).write({})
        stdout.flush()
        monkeypatch.setattr(sys, "stdout", sys.__stdout__)
        stdout.detach()
    assert target.read_bytes() == expected
    assert sum(sent) > 300


@pytest.mark.parametrize("mode", ["wb", "ab", "pipe"])
def test_a_released_context_copies_its_llm_messages_from_its_own_output(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``write(release=True)`` (``session context --json``): to a regular file, the temporary
    files are emptied once ``messages`` is written and ``llmMessages`` is copied from the
    output itself — same bytes; to a pipe or a file opened to append, the files are read
    again, as without ``release``."""
    import io
    import os
    import sys
    import threading

    from tether.builtin_plugins.storage.jsonl.context import encoded

    messages, body = messages_and_output('"n":1,')
    context = encoded.EncodedContext(iter(messages), spill_bytes=300)
    spills = [s[0] for s in context._segments if not isinstance(s[0], (bytes, bytearray))]
    assert spills and all(os.fstat(f.fileno()).st_size > 0 for f in spills)
    target = tmp_path / "out.json"
    target.write_bytes(b"old\n")
    if mode == "pipe":
        read_end, write_end = os.pipe()
        got: list[bytes] = []
        reader = threading.Thread(target=lambda: got.append(os.fdopen(read_end, "rb").read()))
        reader.start()
        raw = os.fdopen(write_end, "wb")
    else:
        raw = target.open(mode)
    with raw:
        stdout = io.TextIOWrapper(raw)
        monkeypatch.setattr(sys, "stdout", stdout)
        context.write({"n": 1}, release=True)
        monkeypatch.setattr(sys, "stdout", sys.__stdout__)
        stdout.detach()
    if mode == "pipe":
        reader.join()
        assert got == [body]
    else:
        assert target.read_bytes() == (b"old\n" if mode == "ab" else b"") + body
    emptied = [os.fstat(f.fileno()).st_size == 0 for f in spills]
    assert emptied == [mode == "wb"] * len(spills)
