"""Cut points of a compaction (pi 0.73's findCutPoint) on small hand-built branches.

Token counts are given explicitly per message (``tokens`` field read by a fake counter) so each
test states exactly where the budget is crossed.
"""

from __future__ import annotations

from typing import Any

from tether.builtin_plugins.memory.pi_strategy.cut_points import (
    CutPoint,
    find_cut_point,
    find_turn_start_index,
    find_valid_cut_points,
)


def msg(role: str, tokens: int = 10) -> dict[str, Any]:
    return {"type": "message", "message": {"role": role, "tokens": tokens}}


def other(kind: str) -> dict[str, Any]:
    return {"type": kind}


def count(messages: list[dict[str, Any]]) -> list[int]:
    return [m["tokens"] for m in messages]


def ids(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for i, entry in enumerate(entries):
        entry["id"] = f"e{i}"
    return entries


def test_tool_results_are_never_cut_points() -> None:
    entries = ids(
        [
            msg("user"),
            msg("assistant"),
            msg("toolResult"),
            msg("bashExecution"),
            other("custom_message"),
            other("branch_summary"),
            other("label"),
            other("compaction"),
            msg("custom"),
            other("unknown_type"),
        ]
    )
    assert find_valid_cut_points(entries, 0, len(entries)) == [0, 1, 3, 4, 5, 8]


def test_budget_crossing_at_a_tool_result_moves_the_cut_forward_to_the_next_cut_point() -> None:
    entries = ids([msg("user"), msg("assistant"), msg("toolResult", 50), msg("assistant", 5)])
    # walking back: 5, then 55 >= 40 at the tool result (index 2) -> next cut point is 3
    cut = find_cut_point(entries, 0, 4, 40, count)
    assert cut == CutPoint(3, 0, True)


def test_budget_never_reached_keeps_everything_from_the_first_cut_point() -> None:
    entries = ids(
        [other("model_change"), other("thinking_level_change"), msg("user"), msg("assistant")]
    )
    # extension moves the cut back over the two leading bookkeeping entries
    assert find_cut_point(entries, 0, 4, 10_000, count) == CutPoint(0, -1, False)


def test_no_cut_point_keeps_from_the_start() -> None:
    entries = ids([other("label"), msg("toolResult")])
    assert find_cut_point(entries, 0, 2, 1, count) == CutPoint(0, -1, False)


def test_cut_extends_back_over_bookkeeping_but_stops_at_messages_and_compactions() -> None:
    entries = ids(
        [
            msg("user"),
            msg("assistant", 100),
            other("compaction"),
            other("label"),
            msg("user", 30),
            msg("assistant", 30),
        ]
    )
    cut = find_cut_point(entries, 0, 6, 50, count)
    assert cut.first_kept_entry_index == 3  # over the label, not over the compaction


def test_split_turn_reports_where_the_turn_started() -> None:
    entries = ids(
        [
            msg("user"),
            msg("assistant", 40),
            msg("toolResult", 40),
            msg("assistant", 40),
            msg("toolResult", 40),
            msg("assistant", 40),
        ]
    )
    cut = find_cut_point(entries, 0, 6, 100, count)
    assert cut == CutPoint(3, 0, True)


def test_turn_start_search_stops_at_the_boundary() -> None:
    entries = ids([msg("user"), msg("assistant"), msg("toolResult"), msg("assistant")])
    assert find_turn_start_index(entries, 3, 1) == -1
    assert find_turn_start_index(entries, 3, 0) == 0
    cut = find_cut_point(entries, 1, 4, 5, count)
    assert cut == CutPoint(3, -1, False)


def test_fix_8_bookkeeping_before_a_user_message_is_not_a_split_turn() -> None:
    """§8.8: pi decides 'split turn' on the cut moved back over a model change, so the whole
    previous turn becomes a 'turn prefix'; tether decides on the real cut (a user message)."""
    entries = ids(
        [
            msg("user"),
            msg("assistant", 50),
            msg("toolResult", 50),
            msg("assistant", 50),
            other("model_change"),
            other("thinking_level_change"),
            msg("user", 40),
            msg("assistant", 40),
        ]
    )
    pi = find_cut_point(entries, 0, 8, 80, count, pi_quirks=True)
    ours = find_cut_point(entries, 0, 8, 80, count)
    assert pi == CutPoint(4, 0, True)
    assert ours == CutPoint(4, -1, False)


def test_fix_8_cut_at_a_bash_execution_or_custom_message_is_not_a_split_turn() -> None:
    """§8.8: pi flags a cut on a turn-starting bash/custom message as split (empty prefix)."""
    # a custom_message entry is not counted, so the budget is crossed at the assistant after it
    for starter, keep in ((msg("bashExecution", 40), 80), ({"type": "custom_message"}, 40)):
        entries = ids([msg("user"), msg("assistant", 50), starter, msg("assistant", 40)])
        pi = find_cut_point(entries, 0, 4, keep, count, pi_quirks=True)
        ours = find_cut_point(entries, 0, 4, keep, count)
        assert pi.first_kept_entry_index == 2
        assert pi.is_split_turn and pi.turn_start_index == pi.first_kept_entry_index
        assert ours == CutPoint(pi.first_kept_entry_index, -1, False)


def test_fix_8_custom_message_moved_over_starts_the_kept_turn() -> None:
    """A cut on an assistant whose turn starts at a custom_message just before it (the
    extension moves over it): the turn is kept whole, so it is not split."""
    entries = ids(
        [
            msg("user"),
            msg("assistant", 50),
            msg("toolResult", 50),
            {"type": "custom_message"},
            msg("assistant", 40),
        ]
    )
    ours = find_cut_point(entries, 0, 5, 30, count)
    assert ours == CutPoint(3, -1, False)


def test_only_the_walked_part_of_a_long_branch_is_counted() -> None:
    seen: list[int] = []

    def counting(messages: list[dict[str, Any]]) -> list[int]:
        seen.append(len(messages))
        return count(messages)

    entries = ids([msg("user" if i % 10 == 0 else "assistant", 10) for i in range(10_000)])
    cut = find_cut_point(entries, 0, len(entries), 200, counting)
    assert cut.first_kept_entry_index == 10_000 - 20
    assert sum(seen) <= 64


def reference_cut(entries: list[dict[str, Any]], start: int, end: int, keep: int) -> CutPoint:
    """The cut by the plain path: every valid cut point listed, the crossing bisected into
    them, then the same bookkeeping extension and split-turn rule."""
    from bisect import bisect_left

    points = find_valid_cut_points(entries, start, end)
    if not points:
        return CutPoint(start, -1, False)
    crossing, total = None, 0
    for i in range(end - 1, start - 1, -1):
        if entries[i]["type"] == "message":
            total += entries[i]["message"]["tokens"]
            if total >= keep:
                crossing = i
                break
    original = points[0]
    if crossing is not None and bisect_left(points, crossing) < len(points):
        original = points[bisect_left(points, crossing)]
    cut = original
    while cut > start and entries[cut - 1]["type"] not in ("message", "compaction"):
        cut -= 1
    turn_start = find_turn_start_index(entries, original, start)
    if turn_start == -1 or turn_start >= cut:
        return CutPoint(cut, -1, False)
    return CutPoint(cut, turn_start, True)


def test_the_cut_equals_the_plain_path_on_random_branches() -> None:
    """Only the tail past the budget is searched for the cut point; the answer is the one of
    the full list of cut points, whatever the branch."""
    import random

    rng = random.Random(8)
    roles = ["user", "assistant", "toolResult", "bashExecution", "custom", "branchSummary"]
    kinds = ["label", "model_change", "custom_message", "branch_summary", "compaction"]
    for _ in range(400):
        entries = ids(
            [
                msg(rng.choice(roles), rng.randint(0, 60))
                if rng.random() < 0.75
                else other(rng.choice(kinds))
                for _ in range(rng.randint(0, 30))
            ]
        )
        end = len(entries)
        start = rng.randint(0, end)
        keep = rng.choice([1, 20, 100, 400, 10_000])
        expected = reference_cut(entries, start, end, keep)
        assert find_cut_point(entries, start, end, keep, count) == expected, (entries, start, keep)
