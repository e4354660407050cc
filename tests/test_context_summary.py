"""The lean paths of ``tether session context``: counting a batch at a time, the bulk scanner,
streamed output and the copy made for ``context`` hooks. Each is checked against the plain path
it stands in for, on real session files."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import tether.builtin_plugins.storage.jsonl.scan.scanner as jsonl_scan
from tests.context_loader import GEN, fixture_names
from tests.harness_helpers import NO_THIRD_PARTY
from tests.store_helpers import run_tether
from tether.builtin_plugins.storage.format.stringify import dumps_record_std
from tether.builtin_plugins.storage.jsonl.context.batches import encode_context
from tether.builtin_plugins.storage.jsonl.scan.line_table import FAST_PARSER_ROWS
from tether.builtin_plugins.storage.jsonl.store import JsonlStore
from tether.core.context.convert import convert_to_llm
from tether.core.host.calls import copy_json
from tether.core.session.session import Session

HEADER = {"type": "session", "version": 3, "id": "s1", "timestamp": "2025-01-01T00:00:00.000Z"}


def _entry(index: int, parent: str | None, role: str = "user", **extra: Any) -> dict[str, Any]:
    message = {"role": role, "content": [{"type": "text", "text": f"m{index}"}], "timestamp": 1}
    if role == "assistant":
        message.update(provider="p", model=f"model-{index}", stopReason="stop")
    message.update(extra)
    return {
        "type": "message",
        "id": f"e{index}",
        "parentId": parent,
        "timestamp": "2025-01-01T00:00:01.000Z",
        "message": message,
    }


def _write(path: Path, lines: list[str], end: str = "\n") -> Path:
    path.write_text("\n".join(lines) + end, encoding="utf-8")
    return path


def _long_session(path: Path, count: int, broken: dict[int, str] | None = None) -> Path:
    """A linear session long enough for the bulk paths (more than FAST_PARSER_ROWS rows);
    ``broken`` replaces some lines (by entry index) with other text."""
    lines = [json.dumps(HEADER, separators=(",", ":"))]
    for index in range(count):
        role = ("user", "assistant", "toolResult")[index % 3]
        parent = f"e{index - 1}" if index else None
        entry = _entry(index, parent, role)
        if index % 97 == 5:
            entry["message"] = {
                "role": "bashExecution",
                "command": "ls",
                "output": "",
                "excludeFromContext": index % 2 == 0,
                "timestamp": 1,
            }
        line = json.dumps(entry, separators=(",", ":"), ensure_ascii=False)
        lines.append((broken or {}).get(index, line))
    return _write(path, lines)


def _summary_and_build(
    path: Path, building: Session, leaf: Any
) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """What ``session context --quiet`` counts (the encoded context of a freshly opened
    ``path``, a batch at a time) and the context ``building`` builds at ``leaf``: the plain
    build, the reference, needs no fresh session of its own for each leaf."""
    if leaf is None:  # the command's own case: no entry, nothing to read
        counted, stream = None, None
    else:
        counted, stream = encode_context(Session.open(path, readonly=True), leaf)
    built = building.build_context(leaf)
    expected = (
        built.thinking_level,
        built.model,
        len(built.messages),
        len(convert_to_llm(built.messages)),
    )
    if counted is None or stream is None:
        return ("off", None, 0, 0), expected
    got = (stream.thinking_level, stream.model, counted.message_count, counted.llm_count)
    return got, expected


@pytest.mark.parametrize("name", fixture_names())
def test_summary_counts_what_the_full_build_builds_at_every_leaf(name: str) -> None:
    path = GEN / f"{name}.jsonl"
    session = Session.open(path, readonly=True)
    leaves = [None, *session.table.ids]
    if len(leaves) > 60:  # the big fixtures: a sample, the same one every run
        leaves = [None, session.leaf_id, *random.Random(name).sample(leaves, 60)]
    for leaf in leaves:  # the reference builds all on one session
        got, expected = _summary_and_build(path, session, leaf)
        assert got == expected, f"{name} at {leaf}"


def test_summary_keeps_no_entry_and_drops_a_broken_line_like_the_build(tmp_path: Path) -> None:
    count = FAST_PARSER_ROWS + 500
    broken = {
        700: json.dumps(_entry(700, "e699"), separators=(",", ":"))[:-30] + "}",  # cut short
        900: json.dumps(_entry(900, "e899"), separators=(",", ":")).replace('"m900"', "NaN"),
        950: json.dumps(_entry(950, "e949"), separators=(",", ":")).replace('"m950"', '"\\x"'),
    }
    path = _long_session(tmp_path / "long.jsonl", count, broken)
    session = Session.open(path, readonly=True)
    counted, _stream = encode_context(session, session.leaf_id)
    assert not any(session.table.is_parsed(row) for row in range(len(session)))  # nothing kept
    built = Session.open(path, readonly=True)
    context = built.build_context()
    assert counted.message_count == len(context.messages)
    assert counted.llm_count == len(convert_to_llm(context.messages))
    # the three broken lines are skipped (pi cannot parse them) and named, the same either way
    assert [p.line for p in session.problems] == [p.line for p in built.problems] == [702, 902, 952]
    assert len(session) == len(built) == count - 3


SCAN_CASES = {
    "plain": lambda lines: lines,
    "blank lines and spaces": lambda lines: [lines[0], "", *lines[1:3], "   ", *lines[3:]],
    "glued": lambda lines: [*lines[:3], lines[3][:40] + lines[4], *lines[5:]],
    "custom key order": lambda lines: [
        *lines[:2],
        '{"type":"custom","customType":"x","data":{"parentId":1},"id":"c1","parentId":"e0",'
        '"timestamp":"2025-01-01T00:00:02.000Z"}',
        *lines[2:],
    ],
    "crlf": lambda lines: [line + "\r" for line in lines],
    "bom": lambda lines: ["\ufeff" + lines[0], "", *lines[1:]],
    "duplicate header": lambda lines: [*lines[:4], lines[0], *lines[4:]],
    "torn tail": lambda lines: [*lines[:-1], lines[-1][:50]],
}


@pytest.mark.parametrize("case", sorted(SCAN_CASES))
@pytest.mark.parametrize("ending", ["\n", ""])
def test_scanning_in_blocks_of_any_size_gives_the_same_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str, ending: str
) -> None:
    source = (GEN / "g16-branched.jsonl").read_text(encoding="utf-8").splitlines()
    path = _write(tmp_path / "s.jsonl", SCAN_CASES[case](source), ending)

    def scanned() -> tuple[Any, ...]:
        loaded = JsonlStore(path).load(readonly=True)
        table = loaded.table
        rows = list(range(len(table)))
        return (
            loaded.header,
            table.ids,
            table.parents,
            table.types,
            list(table.linenos),
            [table.stamp(row) for row in rows],
            sorted(str(p) for p in table.problems),
            table.entries(rows) if not table.problems else None,
        )

    whole = scanned()
    assert whole[1], "entries were found"
    for size in (1, 7, 300, 4096):
        monkeypatch.setattr(jsonl_scan, "BLOCK_SIZE", size)
        assert scanned() == whole, size


def test_json_output_is_streamed_byte_for_byte(tmp_path: Path) -> None:
    path = GEN / "g06-unicode.jsonl"
    done = run_tether("session", "context", str(path), "--json", env=NO_THIRD_PARTY)
    assert done.returncode == 0, done.stderr
    # the stream is the whole value as JSON.stringify writes it, by the standard path
    assert done.stdout == dumps_record_std(json.loads(done.stdout)) + "\n"
    quiet = run_tether("session", "context", str(path), "--quiet", "--json", env=NO_THIRD_PARTY)
    full = json.loads(done.stdout)
    counts = json.loads(quiet.stdout)
    assert counts["messageCount"] == len(full["messages"])
    assert counts["llmMessageCount"] == len(full["llmMessages"])
    assert (counts["model"], counts["thinkingLevel"]) == (full["model"], full["thinkingLevel"])


def test_copy_for_context_hooks_is_deep_and_shares_only_immutable_values() -> None:
    original = [{"role": "user", "content": [{"type": "text", "text": "hi"}], "n": 1.5}]
    copied = copy_json(original)
    assert copied == original
    copied[0]["content"][0]["text"] = "changed"
    copied[0]["content"].append({"type": "text"})
    assert original == [{"role": "user", "content": [{"type": "text", "text": "hi"}], "n": 1.5}]
    odd = [{"pair": (1, [2])}]  # not JSON-shaped: deepcopy semantics
    odd_copy = copy_json(odd)
    assert odd_copy == odd and odd_copy[0]["pair"][1] is not odd[0]["pair"][1]
    cyclic: list[Any] = []
    cyclic.append(cyclic)
    assert copy_json(cyclic)[0] is not cyclic
