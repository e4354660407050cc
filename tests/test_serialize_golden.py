"""Summarizer text (pi's serializeConversation) and file lists against pi's goldens.

The goldens' own messages (``prepare`` golden: messagesToSummarize / turnPrefixMessages;
``context`` golden: the context) are serialized and compared with the ``serialize`` golden's
``summarizeText`` / ``turnPrefixText`` / ``activePathText``. tether's text equals pi's except for
tool results longer than the cut (design §8.12), where it keeps the head *and* the tail.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.context_loader import fixture_names, golden
from tether.builtin_plugins.memory.serialize import (
    TOOL_RESULT_MAX_CHARS,
    serialize_conversation,
    serialize_messages,
    truncate_head,
    truncate_head_tail,
)
from tether.builtin_plugins.storage.format.jscompat import (
    js_len,
    js_slice,
    js_sort_key,
    js_stringify,
)
from tether.core.context.convert import convert_to_llm
from tether.core.context.file_tracking import file_lists, format_file_lists
from tether.hookspecs.file_ops import FileOps

WITH_PREPARATION = [n for n in fixture_names() if golden(n, "prepare")["preparation"]]


def _tool_text(message: dict[str, Any]) -> str:
    return "".join(b.get("text") or "" for b in message["content"] if b.get("type") == "text")


def _is_long_tool_result(message: dict[str, Any]) -> bool:
    return (
        message.get("role") == "toolResult" and js_len(_tool_text(message)) > TOOL_RESULT_MAX_CHARS
    )


def _texts(name: str) -> list[tuple[str, list[dict[str, Any]], str]]:
    prepare, serialize = golden(name, "prepare"), golden(name, "serialize")
    prep = prepare["preparation"]
    return [
        ("summarizeText", prep["messagesToSummarize"], serialize["summarizeText"]),
        ("turnPrefixText", prep["turnPrefixMessages"], serialize["turnPrefixText"]),
        ("activePathText", golden(name, "context")["messages"], serialize["activePathText"]),
    ]


@pytest.mark.parametrize("name", WITH_PREPARATION)
def test_pi_mode_serialization_equals_pi(name: str) -> None:
    for field, messages, expected in _texts(name):
        assert serialize_messages(messages, keep_tail=False) == expected, field


@pytest.mark.parametrize("name", WITH_PREPARATION)
def test_tether_serialization_equals_pi_except_long_tool_results(name: str) -> None:
    """§8.12 — message by message: identical, except a long tool result keeps its tail."""
    for field, messages, expected in _texts(name):
        llm = convert_to_llm(messages)
        ours = serialize_conversation(llm)
        if not any(_is_long_tool_result(m) for m in llm):
            assert ours == expected, field
            continue
        assert ours != expected, field
        pi_parts, our_parts = [], []
        for message in llm:
            pi_part = serialize_conversation([message], keep_tail=False)
            our_part = serialize_conversation([message])
            if _is_long_tool_result(message):
                text = _tool_text(message)
                assert pi_part == "[Tool result]: " + truncate_head(text)
                assert our_part == "[Tool result]: " + truncate_head_tail(text)
                # a surrogate pair on a boundary is kept whole, so compare one unit less
                assert our_part.endswith(js_slice(text, js_len(text) - 499))
                assert our_part.startswith("[Tool result]: " + js_slice(text, 0, 1499))
            else:
                assert our_part == pi_part
            pi_parts += [pi_part] if pi_part else []
            our_parts += [our_part] if our_part else []
        assert "\n\n".join(pi_parts) == expected, field
        assert "\n\n".join(our_parts) == ours, field


def test_the_corpus_has_long_tool_results_to_show_the_difference() -> None:
    long_results = [
        n
        for n in WITH_PREPARATION
        for _, messages, _ in _texts(n)
        if any(_is_long_tool_result(m) for m in messages)
    ]
    assert "g08-long-outputs" in long_results


def test_fix_12_long_tool_result_keeps_head_and_tail() -> None:
    """§8.12: pi keeps the first 2000 chars only, so an error at the end is lost."""
    output = "line of build output\n" * 500 + "error: missing semicolon at src/app.ts:42"
    message = {
        "role": "toolResult",
        "toolCallId": "c1",
        "toolName": "bash",
        "content": [{"type": "text", "text": output}],
        "isError": True,
    }
    pi = serialize_conversation([message], keep_tail=False)
    ours = serialize_conversation([message])
    assert "missing semicolon" not in pi
    assert pi.endswith(f"[... {len(output) - 2000} more characters truncated]")
    assert ours.endswith("error: missing semicolon at src/app.ts:42")
    assert f"[... {len(output) - 2000} characters omitted ...]" in ours
    assert ours.startswith("[Tool result]: line of build output\n")


def test_head_tail_cut_never_splits_a_surrogate_pair() -> None:
    text = "😀" * 3000  # 6000 UTF-16 units
    pi = truncate_head(text)
    ours = truncate_head_tail(text)
    assert pi.startswith("😀" * 1000) and "[... 4000 more characters truncated]" in pi
    assert all(not "\ud800" <= ch <= "\udfff" for ch in ours)
    head, tail = ours.split("\n\n[... ")[0], ours.split(" ...]\n\n")[1]
    assert js_len(head) + js_len(tail) == 2000
    assert ours.count("characters omitted") == 1
    odd = "a" + "😀" * 1500  # the head boundary falls inside a pair
    cut = truncate_head_tail(odd)
    assert all(not "\ud800" <= ch <= "\udfff" for ch in cut)
    assert "\ud83d" == truncate_head(odd)[-len("\n\n[... 1001 more characters truncated]") - 1]


def test_serialization_parts_and_tool_call_arguments() -> None:
    messages = [
        {"role": "user", "content": "Fix bug"},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "a"},
                {"type": "image"},
                {"type": "text", "text": "b"},
            ],
        },
        {"role": "user", "content": []},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "t1"},
                {"type": "text", "text": "ok"},
                {"type": "thinking", "thinking": "t2"},
                {"type": "toolCall", "name": "read", "arguments": {"path": "a.ts", "offset": 3}},
                {"type": "toolCall", "name": "calc", "arguments": {"x": 1.0, "y": 1e-7, "2": "z"}},
            ],
        },
        {
            "role": "toolResult",
            "content": [{"type": "text", "text": "abc"}, {"type": "text", "text": "def"}],
        },
        {"role": "toolResult", "content": [{"type": "image"}]},
    ]
    assert serialize_conversation(messages) == (
        "[User]: Fix bug\n\n[User]: ab\n\n[Assistant thinking]: t1\nt2\n\n[Assistant]: ok\n\n"
        '[Assistant tool calls]: read(path="a.ts", offset=3); calc(x=1, y=1e-7, 2="z")\n\n'
        "[Tool result]: abcdef"
    )


def test_js_stringify_matches_json_stringify() -> None:
    assert js_stringify({"a": [1.5, 2.0, 1e21, 1e-7, 123e-20]}) == (
        '{"a":[1.5,2,1e+21,1e-7,1.23e-18]}'
    )
    assert js_stringify({"b": 1, "10": 2, "2": 3}) == '{"2":3,"10":2,"b":1}'
    assert js_stringify("é😀\n\ud83d") == '"é😀\\n\\ud83d"'


@pytest.mark.parametrize("name", WITH_PREPARATION)
def test_file_lists_and_format_equal_pi(name: str) -> None:
    prep = golden(name, "prepare")["preparation"]
    read, modified = file_lists(prep["fileOps"])
    assert [read, modified] == [prep["fileLists"]["readFiles"], prep["fileLists"]["modifiedFiles"]]
    assert format_file_lists(read, modified) == prep["fileOpsText"]


def test_file_ops_rules() -> None:
    ops = FileOps()
    ops.add_details({"readFiles": ["old.md"], "modifiedFiles": ["x.py"]})
    ops.add_message(
        {
            "role": "assistant",
            "content": [
                {"type": "toolCall", "name": "read", "arguments": {"path": "b.py"}},
                {"type": "toolCall", "name": "read", "arguments": {"path": "x.py"}},
                {"type": "toolCall", "name": "write", "arguments": {"path": "é.py"}},
                {"type": "toolCall", "name": "edit", "arguments": {"path": "😀.py"}},
                {"type": "toolCall", "name": "edit", "arguments": {"path": "\uff21.py"}},
                {"type": "toolCall", "name": "bash", "arguments": {"path": "ignored"}},
                {"type": "toolCall", "name": "read", "arguments": {"path": ""}},
                {"type": "toolCall", "name": "read", "arguments": {"path": 3}},
            ],
        }
    )
    ops.add_message(
        {
            "role": "user",
            "content": [{"type": "toolCall", "name": "read", "arguments": {"path": "user.py"}}],
        }
    )
    read, modified = file_lists(ops)
    assert read == ["b.py", "old.md"]
    # JS sorts by UTF-16 code units: the astral 😀 (0xD83D…) sorts before U+FF21
    assert modified == ["x.py", "é.py", "😀.py", "\uff21.py"]
    assert sorted(["\uff21", "😀"], key=js_sort_key) == ["😀", "\uff21"]
    assert format_file_lists(read, []) == "\n\n<read-files>\nb.py\nold.md\n</read-files>"
    assert format_file_lists([], []) == ""


@pytest.mark.parametrize("name", WITH_PREPARATION)
def test_plain_texts_and_string_arguments_take_the_short_path(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pi's text, without the general helpers for string content blocks, short ASCII tool
    results and ASCII string arguments (a 100k-message compaction serializes in one pass)."""
    import tether.builtin_plugins.memory.serialize as serialize

    def general(value: Any, *args: Any) -> str:
        if isinstance(value, str) and value.isascii() and js_len(value) <= TOOL_RESULT_MAX_CHARS:
            raise AssertionError(f"general path for a plain string: {value[:40]!r}")
        return real[general_name](value, *args)  # type: ignore[no-any-return]

    for general_name in ("js_stringify", "js_len"):
        real = {general_name: getattr(serialize, general_name)}
        monkeypatch.setattr(serialize, general_name, general)
        for field, messages, expected in _texts(name):
            assert serialize_messages(messages, keep_tail=False) == expected, field
            serialize_messages(messages, keep_tail=True)
        monkeypatch.undo()
