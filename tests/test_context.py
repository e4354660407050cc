"""Building the context (pi's buildSessionContext) and converting it for the model."""

from __future__ import annotations

from typing import Any

from tether.builtin_plugins.providers.transform import prepare_for_provider
from tether.core.context.build import (
    UNSET,
    build_context_from_path,
    build_session_context,
    path_to_root,
)
from tether.core.context.convert import bash_execution_to_text, convert_to_llm
from tether.core.context.entry_messages import (
    custom_message_from_entry,
    message_from_entry,
    timestamp_ms,
)

TS = "2025-01-02T03:04:05.678Z"
TS_MS = 1735787045678


def entry(kind: str, entry_id: str, parent: str | None, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "id": entry_id, "parentId": parent, "timestamp": TS, **fields}


def user(entry_id: str, parent: str | None, text: str = "hi") -> dict[str, Any]:
    message = {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": 1}
    return entry("message", entry_id, parent, message=message)


def assistant(entry_id: str, parent: str | None, model: str = "m1", **extra: Any) -> dict[str, Any]:
    message = {
        "role": "assistant",
        "content": [{"type": "text", "text": f"answer {entry_id}"}],
        "provider": "p",
        "model": model,
        "stopReason": "stop",
        "timestamp": 2,
        **extra,
    }
    return entry("message", entry_id, parent, message=message)


def texts(messages: list[dict[str, Any]]) -> list[str]:
    out = []
    for m in messages:
        if m["role"] in ("user", "assistant"):
            out.append(m["content"][0]["text"])
        else:
            out.append(m["role"])
    return out


# --- leaf selection -------------------------------------------------------------------------


def test_leaf_defaults_to_last_entry_and_unknown_or_empty_leaf_falls_back() -> None:
    entries = [user("a", None, "one"), assistant("b", "a"), user("c", "a", "two")]
    for leaf in (UNSET, "nope", ""):
        ctx = build_session_context(entries, leaf)
        assert texts(ctx.messages) == ["one", "two"]  # c's branch, not b
    assert texts(build_session_context(entries, "b").messages) == ["one", "answer b"]


def test_null_leaf_and_no_entries_give_the_empty_context() -> None:
    entries = [entry("thinking_level_change", "t", None, thinkingLevel="high"), user("a", "t")]
    for ctx in (build_session_context(entries, None), build_session_context([])):
        assert (ctx.messages, ctx.thinking_level, ctx.model) == ([], "off", None)


def test_orphan_chain_yields_only_the_orphan_part() -> None:
    entries = [user("a", None, "root"), user("b", "missing", "orphan"), assistant("c", "b")]
    assert texts(build_session_context(entries).messages) == ["orphan", "answer c"]


def test_a_parent_cycle_terminates() -> None:
    entries = [user("a", "c", "x"), user("b", "a", "y"), user("c", "b", "z")]
    ctx = build_session_context(entries, "c")
    assert texts(ctx.messages) == ["x", "y", "z"]


def test_path_to_root_is_root_first_on_long_chains() -> None:
    # no recursion on a 100k-entry chain; its time is measured by bench/budgets.py
    entries = [user("e0", None)] + [user(f"e{i}", f"e{i - 1}") for i in range(1, 100_000)]
    by_id = {e["id"]: e for e in entries}
    path = path_to_root(entries[-1], by_id.get)
    ctx = build_session_context(entries, by_id=by_id)
    assert path[0]["id"] == "e0" and path[-1]["id"] == "e99999" and len(path) == 100_000
    assert len(ctx.messages) == 100_000 and ctx.messages[0] is entries[0]["message"]


# --- what enters the context ------------------------------------------------------------------


def test_thinking_level_and_model_come_from_the_whole_path_last_wins() -> None:
    entries = [
        entry("model_change", "m", None, provider="openai", modelId="gpt"),
        entry("thinking_level_change", "t", "m", thinkingLevel="high"),
        user("u", "t"),
        assistant("a", "u", model="claude"),
        entry("compaction", "c", "a", summary="S", firstKeptEntryId="a", tokensBefore=9),
        entry("model_change", "m2", "c", provider="google", modelId="gemini"),
    ]
    ctx = build_session_context(entries)
    assert ctx.thinking_level == "high"
    assert ctx.model == {"provider": "google", "modelId": "gemini"}
    ctx = build_session_context(entries, "c")  # the assistant after the model change wins
    assert ctx.model == {"provider": "p", "modelId": "claude"}


def test_non_message_entries_and_empty_branch_summaries_are_left_out() -> None:
    entries = [
        user("u", None, "q"),
        entry("label", "l", "u", targetId="u", label="x"),
        entry("custom", "x", "l", customType="state", data={}),
        entry("session_info", "s", "x", name="n"),
        entry("branch_summary", "b0", "s", fromId="u", summary=""),
        entry("branch_summary", "b1", "b0", fromId="u", summary="went elsewhere"),
        entry("mystery", "y", "b1", payload=1),
        entry("custom_message", "cm", "y", customType="note", content="hello", display=True),
    ]
    messages = build_session_context(entries).messages
    assert [m["role"] for m in messages] == ["user", "branchSummary", "custom"]
    assert messages[1] == {
        "role": "branchSummary",
        "summary": "went elsewhere",
        "fromId": "u",
        "timestamp": TS_MS,
    }
    assert messages[2] == {
        "role": "custom",
        "customType": "note",
        "content": "hello",
        "display": True,
        "timestamp": TS_MS,
    }


def test_compaction_keeps_from_first_kept_entry_then_everything_after() -> None:
    entries = [
        user("u1", None, "old"),
        assistant("a1", "u1"),
        user("u2", "a1", "kept"),
        entry("compaction", "c1", "u2", summary="first", firstKeptEntryId="u2", tokensBefore=5),
        assistant("a2", "c1"),
        entry("compaction", "c2", "a2", summary="second", firstKeptEntryId="u2", tokensBefore=7),
        user("u3", "c2", "after"),
    ]
    messages = build_session_context(entries).messages
    assert messages[0] == {
        "role": "compactionSummary",
        "summary": "second",
        "tokensBefore": 7,
        "timestamp": TS_MS,
    }
    # the older compaction inside the kept range contributes nothing
    assert texts(messages) == ["compactionSummary", "kept", "answer a2", "after"]


def test_compaction_with_unknown_first_kept_entry_keeps_nothing_before_it() -> None:
    entries = [
        user("u1", None, "old"),
        entry("compaction", "c", "u1", summary="S", firstKeptEntryId="gone", tokensBefore=1),
        user("u2", "c", "new"),
    ]
    assert texts(build_session_context(entries).messages) == ["compactionSummary", "new"]


def test_build_from_path_equals_build_from_entries() -> None:
    entries = [user("a", None), assistant("b", "a"), user("c", "b")]
    assert build_context_from_path(entries) == build_session_context(entries)


def test_message_from_entry_includes_summaries_that_the_context_skips() -> None:
    empty = entry("branch_summary", "b", None, fromId="root", summary="")
    assert message_from_entry(empty) == {
        "role": "branchSummary",
        "summary": "",
        "fromId": "root",
        "timestamp": TS_MS,
    }
    compaction = entry("compaction", "c", None, summary="s", firstKeptEntryId="x", tokensBefore=3)
    assert message_from_entry(compaction)["role"] == "compactionSummary"
    assert message_from_entry(entry("label", "l", None, targetId="x")) is None


def test_timestamps_follow_javascript_date_parsing() -> None:
    assert timestamp_ms(TS) == TS_MS
    assert timestamp_ms("2025-01-02T03:04:05Z") == 1735787045000
    assert timestamp_ms("2025-01-02T05:04:05.678+02:00") == TS_MS
    assert timestamp_ms(1234) == 1234
    assert timestamp_ms("not a date") is None and timestamp_ms(None) is None
    # custom details are kept only when present (pi leaves them undefined)
    with_details = entry("custom_message", "x", None, customType="t", content=[], details={"k": 1})
    assert custom_message_from_entry(with_details)["details"] == {"k": 1}
    bad = custom_message_from_entry({"type": "custom_message", "timestamp": "garbage"})
    assert bad == {"role": "custom", "timestamp": None}


# --- convert_to_llm ---------------------------------------------------------------------------


def bash(**fields: Any) -> dict[str, Any]:
    base = {"role": "bashExecution", "command": "ls", "output": "a\nb", "exitCode": 0}
    return {**base, "cancelled": False, "truncated": False, "timestamp": 5, **fields}


def test_bash_execution_text_variants() -> None:
    assert bash_execution_to_text(bash()) == "Ran `ls`\n```\na\nb\n```"
    assert bash_execution_to_text(bash(output="")) == "Ran `ls`\n(no output)"
    assert bash_execution_to_text(bash(exitCode=2)).endswith("```\n\nCommand exited with code 2")
    assert bash_execution_to_text(bash(exitCode=None)) == "Ran `ls`\n```\na\nb\n```"
    cancelled = bash(exitCode=1, cancelled=True)
    assert bash_execution_to_text(cancelled).endswith("\n\n(command cancelled)")
    truncated = bash(truncated=True, fullOutputPath="/tmp/out.txt")
    assert bash_execution_to_text(truncated).endswith(
        "\n\n[Output truncated. Full output: /tmp/out.txt]"
    )
    assert "[Output truncated" not in bash_execution_to_text(bash(truncated=True))


def test_convert_to_llm_roles() -> None:
    user_message = {"role": "user", "content": "x", "timestamp": 1}
    messages = [
        user_message,
        bash(excludeFromContext=True),
        bash(),
        {"role": "custom", "customType": "t", "content": "note", "display": False, "timestamp": 3},
        {"role": "custom", "customType": "t", "content": [{"type": "image"}], "timestamp": 4},
        {"role": "branchSummary", "summary": "B", "fromId": "x", "timestamp": 6},
        {"role": "compactionSummary", "summary": "C", "tokensBefore": 1, "timestamp": 7},
        {"role": "somethingElse", "timestamp": 8},
    ]
    out = convert_to_llm(messages)
    assert out[0] is user_message  # passed through, not copied
    assert [m["role"] for m in out] == ["user"] * 6
    assert out[1]["content"][0]["text"].startswith("Ran `ls`") and out[1]["timestamp"] == 5
    assert out[2] == {"role": "user", "content": [{"type": "text", "text": "note"}], "timestamp": 3}
    assert out[3]["content"] == [{"type": "image"}]
    assert out[4]["content"][0]["text"] == (
        "The following is a summary of a branch that this conversation came back from:\n\n"
        "<summary>\nB</summary>"
    )
    assert out[5]["content"][0]["text"] == (
        "The conversation history before this point was compacted into the following summary:"
        "\n\n<summary>\nC\n</summary>"
    )


def test_block_images_replaces_and_collapses_consecutive_placeholders() -> None:
    image = {"type": "image", "data": "AAAA", "mimeType": "image/png"}
    text = {"type": "text", "text": "look"}
    message = {"role": "toolResult", "content": [image, image, text, image], "timestamp": 1}
    assistant_message = {"role": "assistant", "content": [text], "timestamp": 2}
    out = convert_to_llm([message, assistant_message], block_images=True)
    blocked = {"type": "text", "text": "Image reading is disabled."}
    assert out[0]["content"] == [blocked, text, blocked]
    assert message["content"][0] is image  # the stored message is not modified
    assert out[1] is assistant_message


# --- prepare_for_provider ---------------------------------------------------------------------


def call(call_id: str, name: str = "read") -> dict[str, Any]:
    return {"type": "toolCall", "id": call_id, "name": name, "arguments": {}}


def llm_assistant(*blocks: dict[str, Any], stop: str = "toolUse", **extra: Any) -> dict[str, Any]:
    return {"role": "assistant", "content": list(blocks), "stopReason": stop, **extra}


def result(call_id: str) -> dict[str, Any]:
    return {"role": "toolResult", "toolCallId": call_id, "toolName": "read", "content": []}


def synthetic(call_id: str, name: str = "read") -> dict[str, Any]:
    return {
        "role": "toolResult",
        "toolCallId": call_id,
        "toolName": name,
        "content": [{"type": "text", "text": "No result provided"}],
        "isError": True,
        "timestamp": 42,
    }


def test_errored_and_aborted_assistants_are_dropped() -> None:
    ok = llm_assistant({"type": "text", "text": "fine"}, stop="stop")
    messages = [
        {"role": "user", "content": "q"},
        llm_assistant(call("x"), stop="error"),
        llm_assistant(call("y"), stop="aborted"),
        ok,
    ]
    out = prepare_for_provider(messages, now_ms=42)
    assert out == [messages[0], ok]  # no synthetic results for dropped calls


def test_missing_tool_results_are_synthesized_before_the_next_turn_and_at_the_end() -> None:
    user_message = {"role": "user", "content": "next"}
    first = llm_assistant(call("a"), call("b", "bash"))
    second = llm_assistant(call("c"))
    third = llm_assistant(call("d"))
    messages = [first, result("a"), user_message, second, third]
    out = prepare_for_provider(messages, now_ms=42)
    assert out == [
        first,
        result("a"),
        synthetic("b", "bash"),
        user_message,
        second,
        synthetic("c"),
        third,
        synthetic("d"),
    ]


def test_complete_tool_turns_are_passed_through_unchanged() -> None:
    messages = [llm_assistant(call("a")), result("a"), llm_assistant(stop="stop")]
    out = prepare_for_provider(messages, now_ms=1)
    assert out == messages and all(o is m for o, m in zip(out, messages, strict=True))


def test_images_are_replaced_for_models_without_image_input() -> None:
    image = {"type": "image", "data": "AA", "mimeType": "image/png"}
    user_message = {"role": "user", "content": [image, image, {"type": "text", "text": "see"}]}
    tool = {"role": "toolResult", "toolCallId": "a", "toolName": "read", "content": [image]}
    messages = [llm_assistant(call("a")), tool, user_message]
    model = {"provider": "p", "api": "x", "id": "m", "input": ["text"]}
    out = prepare_for_provider(messages, model)
    omitted = "(image omitted: model does not support images)"
    assert out[2]["content"] == [{"type": "text", "text": omitted}, {"type": "text", "text": "see"}]
    tool_omitted = "(tool image omitted: model does not support images)"
    assert out[1]["content"] == [{"type": "text", "text": tool_omitted}]
    assert prepare_for_provider(messages, {**model, "input": ["text", "image"]})[2] is user_message
    assert prepare_for_provider(messages, supports_images=False)[2]["content"][0]["text"] == omitted


def test_thinking_from_another_model_becomes_text_and_signatures_go() -> None:
    blocks = [
        {"type": "thinking", "thinking": "hmm", "thinkingSignature": "sig"},
        {"type": "thinking", "thinking": "  "},
        {"type": "thinking", "thinking": "secret", "redacted": True},
        {"type": "text", "text": "done", "textSignature": "t"},
        {**call("a"), "thoughtSignature": "g"},
    ]
    message = llm_assistant(*blocks, provider="p", api="x", model="old")
    messages = [message, result("a")]
    other = prepare_for_provider(messages, {"provider": "p", "api": "x", "id": "new"})[0]
    assert other["content"] == [
        {"type": "text", "text": "hmm"},
        {"type": "text", "text": "done"},
        call("a"),
    ]
    same = prepare_for_provider(messages, {"provider": "p", "api": "x", "id": "old"})[0]
    assert same["content"] == [blocks[0], blocks[2], blocks[3], blocks[4]]
