"""Two sides of ``bench/economy.py`` compared request by request (their ``requests.jsonl``).

Prints, for each side, whether it compacted exactly when pi's rule says so (the last turn
request's reported usage past ``window - reserve``: 32000 - 16384), then the first turn request
where the two contexts differ — messages compared by role, text and tool calls, so a user
content sent as a string or as text blocks is the same, and the summaries' text set aside —
and the prompt tokens of both around it.

    python bench/economy_compare.py /tmp/economy-no-prune-XXXX /tmp/economy-pi-XXXX
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

THRESHOLD = 32000 - 16384
SUMMARY = "compacted into the following summary"


def requests(side: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (side / "requests.jsonl").read_text().splitlines()]


def text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "\n".join(p.get("text", "") for p in content or [] if isinstance(p, dict))


def shape(message: dict[str, Any]) -> tuple[str, str, str]:
    """Role, text (a summary's text set aside) and tool calls of one request message."""
    calls = [
        (c["function"]["name"], json.loads(c["function"]["arguments"] or "{}"))
        for c in message.get("tool_calls") or []
    ]
    body = text(message.get("content"))
    return message["role"], "(summary)" if SUMMARY in body else body, json.dumps(calls)


def rule_mismatches(log: list[dict[str, Any]]) -> list[tuple[int, int, int]]:
    """Turn requests where compacting (summary requests before it) disagrees with the rule."""
    out, previous, summaries, turn = [], None, 0, 0
    for request in log:
        if request["kind"] == "summary":
            summaries += 1
            continue
        if previous is not None and (previous > THRESHOLD) != (summaries > 0):
            out.append((turn, previous, summaries))
        previous, summaries, turn = request["tokens"], 0, turn + 1
    return out


def first_difference(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> int | None:
    turns_a = [r for r in a if r["kind"] == "turn"]
    turns_b = [r for r in b if r["kind"] == "turn"]
    for index, (x, y) in enumerate(zip(turns_a, turns_b, strict=False)):
        if [shape(m) for m in x["messages"][1:]] != [shape(m) for m in y["messages"][1:]]:
            return index
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sides", nargs=2, type=Path)
    args = parser.parse_args()
    logs = [requests(side) for side in args.sides]
    for side, log in zip(args.sides, logs, strict=True):
        bad = rule_mismatches(log)
        print(f"{side.name}: compactions off pi's rule: {len(bad)} {bad[:5]}")
    at = first_difference(*logs)
    if at is None:
        print("the contexts are the same (summary text aside) in every turn request")
        return
    print(f"first turn request whose context differs (summary text aside): {at}")
    for side, log in zip(args.sides, logs, strict=True):
        turns = [r["tokens"] for r in log if r["kind"] == "turn"]
        print(f"  {side.name}: prompt tokens {turns[max(0, at - 3) : at + 1]}")


if __name__ == "__main__":
    main()
