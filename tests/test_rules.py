"""pi's rules a strategy needs are names of ``tether`` (``tether.rules``) and behave as the
built-in strategy's own."""

from __future__ import annotations

import tether
from tether.builtin_plugins.memory.pi_strategy.prepare import prepare_compaction_entries

USER = {"role": "user", "content": "abcdefgh", "timestamp": 1}
CALL = {
    "role": "assistant",
    "content": [{"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "a.py"}},
                {"type": "toolCall", "id": "c2", "name": "edit", "arguments": {"path": "b.py"}}],
    "stopReason": "toolUse",
    "timestamp": 2,
}  # fmt: skip
RESULT = {"role": "toolResult", "toolCallId": "c1", "toolName": "read", "content": [],
          "isError": False, "timestamp": 3}  # fmt: skip


def entry(n: int, message: dict) -> dict:
    return {"type": "message", "id": f"e{n}", "parentId": f"e{n - 1}" if n else None,
            "timestamp": "2026-01-01T00:00:00.000Z", "message": message}  # fmt: skip


def test_entry_to_message_and_token_estimate() -> None:
    summary = {"type": "branch_summary", "id": "b", "summary": "gone", "fromId": "x",
               "timestamp": "2026-01-01T00:00:00.000Z"}  # fmt: skip
    assert tether.message_from_entry(entry(0, USER)) is USER
    assert tether.message_from_entry(summary)["role"] == "branchSummary"
    assert tether.context_message({**summary, "summary": ""}) is None
    assert tether.estimate_tokens(USER) == 2  # ceil(8 / 4)


def test_file_operations_as_the_built_in_strategy_collects_them() -> None:
    ops = tether.file_operations([USER, CALL], previous_details={"readFiles": ["old.py"]})
    assert ops == {"read": ["old.py", "a.py"], "written": [], "edited": ["b.py"]}
    assert tether.file_lists(ops) == (["a.py", "old.py"], ["b.py"])
    assert "<read-files>\na.py\nold.py\n</read-files>" in tether.format_file_lists(
        *tether.file_lists(ops)
    )
    path = [entry(0, USER), entry(1, CALL), entry(2, RESULT), entry(3, USER)]
    settings = tether.CompactionSettings(keep_recent_tokens=1)
    pi = prepare_compaction_entries(path, settings, lambda ms: [1] * len(ms))
    assert pi.file_ops == tether.file_operations(pi.messages_to_summarize + pi.turn_prefix_messages)


def test_cut_points_never_a_tool_result() -> None:
    path = [entry(0, USER), entry(1, CALL), entry(2, RESULT), entry(3, USER)]
    assert tether.find_valid_cut_points(path, 0, len(path)) == [0, 1, 3]
    assert not tether.is_cut_point(path[2])
    assert tether.cut_problem(path, "e3") is None
    assert "toolResult" in tether.cut_problem(path, "e2")
    assert "not on the branch" in tether.cut_problem(path, "zz")


def test_is_image_is_the_test_the_kernel_and_the_providers_use() -> None:
    from tether import convert_to_llm
    from tether.providers import prepare_for_provider
    from tether.rules import is_image

    image = {"type": "image", "data": "AA==", "mimeType": "image/png"}
    assert is_image(image) and not is_image({"type": "text", "text": "x"})
    assert not is_image("image") and not is_image(None)
    message = {"role": "user", "content": [image, {"type": "text", "text": "hi"}], "timestamp": 1}
    blocked = convert_to_llm([message], block_images=True)[0]["content"]
    omitted = prepare_for_provider([message], supports_images=False)[0]["content"]
    for content in (blocked, omitted):
        assert not any(is_image(b) for b in content) and content[-1]["text"] == "hi"
