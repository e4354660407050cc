"""A branched session written through :class:`Session` (a real file) for the tree and HTML tests.

Shape (``ids`` names every entry)::

    u1 a1 m1 … m10 lbl        a linear run of 13; lbl labels m5 "checkpoint"
      ├─ x1 x2                the older branch (x2: thinking, a tool call, HTML in its text)
      └─ y0 y1 … y11          the active branch: y0 a branch summary, y3 a compaction,
                              y11 the leaf
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tether.core.session.session import Session

NASTY = '</script><script>window.__pwned = 1</script><img src=x onerror="window.__pwned=2"> & <b>'


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": 1}


def assistant(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": list(blocks),
        "api": "openai-completions",
        "provider": "loop",
        "model": "test-model",
        "usage": {
            "input": 10,
            "output": 5,
            "cacheRead": 0,
            "cacheWrite": 0,
            "totalTokens": 15,
            "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0},
        },
        "stopReason": "stop",
        "timestamp": 2,
    }


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def tool_result(call_id: str, name: str, output: str) -> dict[str, Any]:
    return {
        "role": "toolResult",
        "toolCallId": call_id,
        "toolName": name,
        "content": [{"type": "text", "text": output}],
        "isError": False,
        "timestamp": 3,
    }


def build_branched(path: Path) -> dict[str, str]:
    """Write the session to ``path`` (must not exist); its entries' ids by name."""
    session = Session.open(path, create=True, cwd=str(path.parent), fsync=False)
    ids: dict[str, str] = {}
    ids["u1"] = session.append_message(user("start the work"))
    ids["a1"] = session.append_message(assistant(text("starting")))
    for n in range(1, 11):
        if n % 2:
            call = {"type": "toolCall", "id": f"c{n}", "name": "read", "arguments": {"n": n}}
            message = assistant(text(f"step {n}"), call)
        else:
            message = tool_result(f"c{n - 1}", "read", f"output {n}")
        ids[f"m{n}"] = session.append_message(message)
    ids["lbl"] = session.append_label_change(ids["m5"], "checkpoint")  # an entry of the run
    ids["x1"] = session.append_message(user("try the first idea"))
    ids["x2"] = session.append_message(
        assistant(
            {"type": "thinking", "thinking": "thinking about the first idea"},
            text(f"first idea answer {NASTY}"),
            {"type": "toolCall", "id": "cx", "name": "bash", "arguments": {"command": "ls"}},
        )
    )
    ids["y0"] = session.branch_with_summary(ids["lbl"], "explored the first idea, dropped it")
    ids["y1"] = session.append_message(user("try the second idea"))
    ids["y2"] = session.append_message(assistant(text("second idea, part one")))
    ids["y3"] = session.append_compaction("## Goal\nsecond idea so far", ids["y2"], 1234)
    for n in range(4, 12):
        message = user(f"more {n}") if n % 2 == 0 else assistant(text(f"answer {n}"))
        ids[f"y{n}"] = session.append_message(message)
    session.flush(force=True)
    return ids
