"""pi's chars/4 estimate and the usage-anchored context size (spec §4, §5.2)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tether.builtin_plugins.commands.context.threshold import threshold_check
from tether.builtin_plugins.memory.context_usage import (
    context_usage,
    estimate_context_tokens,
    get_last_assistant_usage,
)
from tether.builtin_plugins.memory.token_estimate import (
    count_tokens,
    estimate_tokens,
    js_json_length,
    js_length,
)
from tether.core.choices.running import token_counter
from tether.core.context.tokens import calculate_context_tokens, should_compact
from tether.core.host.manager import create_plugin_manager
from tether.hookspecs.events import CompactionSettings


def usage(total: int = 0, **parts: int) -> dict[str, Any]:
    base = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": total}
    return {**base, **parts}


def reply(tokens: int, stop: str = "stop", timestamp: int = 10) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": [{"type": "text", "text": "ok"}],
        "usage": usage(tokens),
        "stopReason": stop,
        "timestamp": timestamp,
    }


def ask(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text, "timestamp": 1}


# --- lengths ----------------------------------------------------------------------------------


def test_lengths_are_utf16_code_units() -> None:
    assert js_length("abc") == 3
    assert js_length("héllo") == 5  # BMP: one unit each
    assert js_length("漢字") == 2
    assert js_length("😀") == 2  # astral: a surrogate pair
    assert js_length("a\ud83d") == 2  # a lone surrogate is one unit


def test_json_length_matches_javascript_stringify_rules() -> None:
    # Python writes 1.0, 1e-07, a 24-digit int; JavaScript: 1, 1e-7, 1.2345678901234569e+23
    assert js_json_length({"a": 1.0}) == len('{"a":1}')
    assert js_json_length([1e-7, 0.000001]) == len("[1e-7,0.000001]")
    assert js_json_length(123456789012345678901234) == len("1.2345678901234569e+23")
    assert js_json_length([1e16, 1.5e22]) == len("[10000000000000000,1.5e+22]")
    assert js_json_length({"k": "\ud800"}) == len('{"k":"\\ud800"}')  # lone surrogate escaped
    assert js_json_length({"e": "😀é"}) == len('{"e":""}') + 3  # raw, UTF-16 units
    assert js_json_length({"q": 'a"\n'}) == len(json.dumps({"q": 'a"\n'}, separators=(",", ":")))


# --- estimate_tokens --------------------------------------------------------------------------


def test_user_text_counts_and_user_images_are_ignored() -> None:
    assert estimate_tokens(ask("x" * 9)) == 3  # ceil(9 / 4)
    content = [{"type": "text", "text": "abcd"}, {"type": "image", "data": "A" * 9999}]
    assert estimate_tokens({"role": "user", "content": content}) == 1
    assert estimate_tokens(ask("😀" * 4)) == 2


def test_tool_results_and_custom_messages_charge_4800_chars_per_image() -> None:
    content = [{"type": "text", "text": "abcd"}, {"type": "image", "data": "A"}]
    assert estimate_tokens({"role": "toolResult", "content": content}) == 1201
    assert estimate_tokens({"role": "custom", "content": content}) == 1201
    assert estimate_tokens({"role": "custom", "content": "abcde"}) == 2


def test_assistant_counts_text_thinking_and_compact_tool_call_json() -> None:
    arguments = {"path": "a.txt", "limit": 2.0}
    message = {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "abc"},
            {"type": "thinking", "thinking": "defg"},
            {"type": "toolCall", "id": "1", "name": "read", "arguments": arguments},
        ],
    }
    chars = 3 + 4 + len("read") + len('{"path":"a.txt","limit":2}')
    assert estimate_tokens(message) == -(-chars // 4)


def test_bash_summaries_and_unknown_roles() -> None:
    bash = {
        "role": "bashExecution",
        "command": "ls",
        "output": "123456",
        "excludeFromContext": True,
    }
    assert estimate_tokens(bash) == 2  # counted even when excluded from the context
    assert estimate_tokens({"role": "compactionSummary", "summary": "x" * 8}) == 2
    assert estimate_tokens({"role": "branchSummary", "summary": "x" * 9}) == 3
    assert estimate_tokens({"role": "mystery", "content": "x" * 100}) == 0


def test_builtin_chars_counter_answers_through_the_plugin_manager() -> None:
    pm = create_plugin_manager(environ={"TETHER_LOAD_PLUGINS": ""})  # built-ins only
    messages = [ask("x" * 8), ask("y" * 12)]
    assert token_counter(pm, flag="chars")(messages) == [2, 3]
    assert token_counter(pm)(messages) == count_tokens(messages, None)  # the built-in default


# --- usage-anchored numbers -------------------------------------------------------------------


def test_calculate_context_tokens_falls_back_when_total_is_zero_or_missing() -> None:
    assert calculate_context_tokens(usage(500, input=1)) == 500
    assert calculate_context_tokens(usage(0, input=1, output=2, cacheRead=3, cacheWrite=4)) == 10
    assert calculate_context_tokens({"input": 5, "output": 1, "cacheRead": 0, "cacheWrite": 0}) == 6


def test_estimate_context_tokens_anchors_on_the_last_valid_usage() -> None:
    messages = [ask("a"), reply(100), ask("b"), reply(900, stop="aborted"), ask("c")]
    counts = [7, 1, 11, 13, 17]
    assert estimate_context_tokens(messages, counts) == {
        "tokens": 100 + 11 + 13 + 17,
        "usageTokens": 100,
        "trailingTokens": 41,
        "lastUsageIndex": 1,
    }
    assert estimate_context_tokens([ask("a"), ask("b")], [3, 4]) == {
        "tokens": 7,
        "usageTokens": 0,
        "trailingTokens": 7,
        "lastUsageIndex": None,
    }


def test_last_assistant_usage_skips_error_and_aborted_responses() -> None:
    good = reply(10)
    entries = [
        {"type": "message", "message": good},
        {"type": "message", "message": reply(20, stop="error")},
        {"type": "custom", "customType": "x"},
        {"type": "message", "message": reply(30, stop="aborted")},
    ]
    assert get_last_assistant_usage(entries) is good["usage"]
    assert get_last_assistant_usage(entries[1:]) is None


@pytest.mark.parametrize(
    ("tokens", "window", "expected"),
    [(100, 200, False), (101, 200, True), (84, 100, False), (85, 100, True)],
)
def test_should_compact_is_strictly_greater_than_window_minus_reserve(
    tokens: int, window: int, expected: bool
) -> None:
    reserve = 100 if window == 200 else 16
    assert should_compact(tokens, window, {"enabled": True, "reserveTokens": reserve}) is expected
    settings = CompactionSettings(reserve_tokens=reserve)
    assert should_compact(tokens, window, settings) is expected
    assert should_compact(tokens, window, CompactionSettings(enabled=False)) is False


def test_context_usage_is_unknown_after_a_compaction_until_a_new_usage() -> None:
    before = {"type": "message", "message": reply(50)}
    compaction = {"type": "compaction", "timestamp": "2025-01-01T00:00:00.000Z", "summary": "s"}
    after = {"type": "message", "message": reply(70)}
    messages = [{"role": "compactionSummary", "summary": "s"}, after["message"]]
    unknown = context_usage([before, compaction], messages[:1], [1], 1000)
    assert unknown == {"tokens": None, "contextWindow": 1000, "percent": None}
    known = context_usage([before, compaction, after], messages, [1, 1], 200)
    assert known == {"tokens": 70, "contextWindow": 200, "percent": 35.0}
    assert context_usage([before], [before["message"]], [1], 0) is None


def test_threshold_check_uses_last_usage_or_estimate_after_an_error() -> None:
    settings = {"enabled": True, "reserveTokens": 100}
    ok = {"type": "message", "message": reply(950)}
    check = threshold_check([ok], [ok["message"]], [1], 1000, settings)
    assert check == {
        "contextTokens": 950,
        "shouldCompact": True,
        "reason": "threshold (last usage)",
    }
    failed = {"type": "message", "message": reply(0, stop="error", timestamp=20)}
    messages = [ok["message"], ask("x"), failed["message"]]
    check = threshold_check([ok, failed], messages, [1, 30, 2], 1000, settings)
    assert check["contextTokens"] == 950 + 30 + 2 and check["shouldCompact"] is True
    aborted = {"type": "message", "message": reply(999, stop="aborted")}
    assert threshold_check([aborted], [], [], 1000, settings)["reason"] == "aborted"
    assert threshold_check([], [], [], 1000, settings)["reason"] == "no assistant message"
    old = {"type": "compaction", "timestamp": "2025-01-01T00:00:00.000Z"}
    stale = {"type": "message", "message": reply(999, timestamp=1)}
    reason = threshold_check([stale, old], [], [], 1000, settings)["reason"]
    assert reason == "assistant older than latest compaction"
