"""The fast JSON of the summarizer text against the plain path, byte for byte.

``tether session prepare --json`` writes the serialized texts from their parts, a batch of
messages at a time, never joining the text (``memory/serialize_json.py``). The plain path is
``serialize_messages`` encoded by the standard library alone (``dumps_record_std``, JS's
``JSON.stringify``). Both must give the same bytes on every fixture session, on texts built to
trip the fast path (quotes around commas, backslashes, lone surrogates, batch edges), and in
the command's whole output.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tether.builtin_plugins.memory.serialize import serialize_messages
from tether.builtin_plugins.memory.serialize_json import (
    BATCH_MESSAGES,
    json_inside,
    serialized_json,
)
from tether.builtin_plugins.storage.format.stringify import dumps_record_std
from tether.core.context.entry_messages import message_from_entry

FIXTURES = Path(__file__).parent / "fixtures"
SESSIONS = sorted(FIXTURES.rglob("*.jsonl"))


def plain(messages: list[dict[str, Any]], keep_tail: bool = True) -> bytes:
    return dumps_record_std(serialize_messages(messages, keep_tail=keep_tail)).encode("utf-8")


def fast(messages: list[dict[str, Any]], keep_tail: bool = True, batch: int = 2048) -> bytes:
    return b"".join(serialized_json(messages, keep_tail=keep_tail, batch=batch))


def file_messages(path: Path) -> list[dict[str, Any]]:
    """Every message a line of ``path`` stands for (all branches; bad lines skipped)."""
    out = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict) and entry.get("type") != "session":
            message = message_from_entry(entry)
            if isinstance(message, dict):
                out.append(message)
    return out


def test_fixture_sessions_have_messages() -> None:
    assert len(SESSIONS) > 40
    assert sum(len(file_messages(p)) for p in SESSIONS) > 1000


@pytest.mark.parametrize("path", SESSIONS, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fast_json_equals_plain_on_fixtures(path: Path) -> None:
    messages = file_messages(path)
    for keep_tail in (True, False):
        expected = plain(messages, keep_tail)
        for batch in (1, 3, BATCH_MESSAGES):
            assert fast(messages, keep_tail, batch) == expected, (keep_tail, batch)


def text_message(role: str, text: str) -> dict[str, Any]:
    return {"role": role, "content": [{"type": "text", "text": text}], "timestamp": 1}


def call(name: str, arguments: Any) -> dict[str, Any]:
    return {"type": "toolCall", "id": "c", "name": name, "arguments": arguments}


TRICKY_TEXTS = [
    '","',
    '"," and "," again',
    '\\","\\"',
    "ends with a backslash \\",
    '\\"',
    "tab\tnewline\nreturn\rnul\x00 bell\x07 del\x7f",
    "line sep \u2028 para sep \u2029",
    "emoji 🇩🇪 👨‍👩‍👧‍👦 漢字 façade",
    "lone high \ud83d in the middle",
    "lone low \ude00",
    "",
    "x" * 2500 + "🎉" * 10,
    "🎉" * 1500,
]


def tricky_messages() -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    for text in TRICKY_TEXTS:
        messages.append(text_message("user", text))
        messages.append(
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": text},
                    {"type": "text", "text": text},
                    call("edit", {"path": text, "n": 1.0, "f": 1e21, "g": 1e-7, "0": [text]}),
                ],
            }
        )
        messages.append({"role": "assistant", "content": []})  # no part at all
        messages.append(
            {"role": "toolResult", "toolCallId": "c", "content": [{"type": "text", "text": text}]}
        )
        messages.append({"role": "bashExecution", "command": text, "output": text, "exitCode": 1})
    return messages


@pytest.mark.parametrize("batch", [1, 2, 5, 7, BATCH_MESSAGES])
def test_fast_json_equals_plain_on_tricky_texts(batch: int) -> None:
    messages = tricky_messages()
    for keep_tail in (True, False):
        assert fast(messages, keep_tail, batch) == plain(messages, keep_tail)
    assert fast([], batch=batch) == plain([]) == b'""'
    empty = [{"role": "assistant", "content": []}] * 5
    assert fast(empty, batch=batch) == plain(empty) == b'""'


def test_the_inside_of_a_batch() -> None:
    assert json_inside(["a", "b"]) == b"a\\n\\nb"
    assert json_inside(['","', '\\"']) == b'\\",\\"\\n\\n\\\\\\"'
    # orjson refuses a lone surrogate: the standard path escapes it as JavaScript does
    assert json_inside(["\ud83d", "b"]) == b"\\ud83d\\n\\nb"


def write_session(path: Path, messages: list[dict[str, Any]]) -> None:
    header = {"type": "session", "version": 3, "id": "s1", "timestamp": "2025-01-01T00:00:00.000Z"}
    lines = [json.dumps({**header, "cwd": "/w"})]
    parent = None
    for i, message in enumerate(messages):
        entry_id = f"{i + 1:08x}"
        entry = {
            "type": "message",
            "id": entry_id,
            "parentId": parent,
            "timestamp": "2025-01-01T00:00:01.000Z",
            "message": message,
        }
        lines.append(json.dumps(entry))  # ASCII: lone surrogates as escapes
        parent = entry_id
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def long_session() -> list[dict[str, Any]]:
    """More than two batches of messages, the tricky ones spread across the batch edges."""
    tricky = tricky_messages()
    messages = []
    for i in range(BATCH_MESSAGES * 2 + 500):
        if i % 97 == 0:
            messages.append(tricky[(i // 97) % len(tricky)])
        elif i % 2:
            messages.append(text_message("user", f"question {i} about \u00e9t\u00e9 🎉"))
        else:
            messages.append(
                {
                    "role": "assistant",
                    "content": [
                        {"type": "text", "text": f"answer {i}"},
                        call("read", {"path": "a"}),
                    ],
                    "stopReason": "toolUse",
                }
            )
    messages.append(text_message("user", "the last question"))
    return messages


def plain_command_output(file: Path, keep: int) -> bytes:
    """``prepare --json``'s output by the plain path: texts joined, whole report encoded by the
    standard library."""
    from tether.builtin_plugins.commands.compaction import open_branch
    from tether.builtin_plugins.commands.compaction.preview import prepare_report
    from tether.core.host.manager import create_plugin_manager

    _, _, branch = open_branch(file, None)
    report = prepare_report(create_plugin_manager(), branch, keep=keep, reserve=100, window=1000)
    assert "serialized" in report and report["serialized"]["summarizeText"]
    return (dumps_record_std(report) + "\n").encode("utf-8")


def test_prepare_command_output_equals_the_plain_path(tmp_path: Path) -> None:
    file = tmp_path / "long.jsonl"
    write_session(file, long_session())
    args = ["session", "prepare", str(file), "--keep", "50", "--reserve", "100", "--window", "1000"]
    proc = subprocess.run(
        [sys.executable, "-m", "tether", *args, "--json"], capture_output=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == plain_command_output(file, 50)
    report = json.loads(proc.stdout)
    assert len(report["summarizedEntryIds"]) > BATCH_MESSAGES * 2


@pytest.mark.parametrize("path", SESSIONS, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_prepare_command_output_on_fixtures(path: Path, capsys: Any) -> None:
    from tether.builtin_plugins.commands.compaction import open_branch
    from tether.builtin_plugins.commands.compaction.preview import prepare_report
    from tether.core.cli.app import main
    from tether.core.host.manager import create_plugin_manager

    pm = create_plugin_manager()
    args = ["session", "prepare", str(path), "--keep", "1", "--reserve", "100", "--window", "1000"]
    code = main([*args, "--json"], pm=pm)
    out, err = capsys.readouterr()
    assert code == 0, err
    _, _, branch = open_branch(path, None)
    report = prepare_report(pm, branch, keep=1, reserve=100, window=1000)
    assert out == dumps_record_std(report) + "\n"


TRICKY_VALUES: list[Any] = [
    1,
    1.0,
    -0.0,
    1e21,
    1e16,
    1e-6,
    1.5e-6,
    -1e-7,
    0.1,
    2**53,
    2**70,
    True,
    None,
    "\ud83d",
    "😀 \u2028",
    [1.0, {"0": 1, "a": 2.5}],
    {"10": "y", "2": "x", "a": [1e21, "\udc00"]},
    {"nested": {"deep": [[], {}, 3.0]}},
]


def argument_values() -> list[Any]:
    values = list(TRICKY_VALUES)
    for path in SESSIONS:
        for message in file_messages(path):
            content = message.get("content")
            for block in content if isinstance(content, list) else ():
                arguments = block.get("arguments") if isinstance(block, dict) else None
                if isinstance(arguments, dict):
                    values.extend(arguments.values())
    return values


def test_tool_call_arguments_by_orjson_equal_js_stringify() -> None:
    """A tool call's non-string arguments are written by orjson where its text is JS's; the
    plain path is ``js_stringify`` (JSON.stringify)."""
    from tether.builtin_plugins.memory.serialize import _argument_json
    from tether.builtin_plugins.storage.format.jscompat import js_stringify

    values = argument_values()
    assert len(values) > 100
    for value in values:
        assert _argument_json(value) == js_stringify(value), value
