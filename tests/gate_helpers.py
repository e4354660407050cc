"""Helpers for the summary gate's tests: a session stating one fact of every kind the gate
checks, a complete checkpoint holding them all, and that checkpoint with one thing left out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tether.core.session.session import Session
from tether.hookspecs.providers import empty_usage

GOAL = "Build a CLI that converts CSV invoices to PDF files, one PDF per invoice."
CONSTRAINT = "Never write outside the out/ directory."
DECISION = "Let's go with reportlab rather than weasyprint for the PDF rendering."
FILE = "invoices/cli.py"
COMMAND = "python -m invoices samples/broken.csv"
ERROR = "ValueError: invoice 17: column 'amount' is not a decimal: '12,50'"
NEXT_STEP = "Next, add a --currency flag to the CLI, defaulting to EUR."
FILLER = "The checks pass and nothing is blocked; I reviewed the diff and kept going. " * 12
USAGE = {**empty_usage(), "input": 100, "output": 20, "totalTokens": 120}
SECTIONS = [
    "Goal",
    "Constraints & Preferences",
    "Progress",
    "Key Decisions",
    "Next Steps",
    "Critical Context",
]
#: rule → (the item as the gate names it, the text a summary must contain)
ITEMS = {
    "goal": ("goal", GOAL),
    "constraint": ("constraint", CONSTRAINT),
    "decision": ("decision", DECISION),
    "next_step": ("next step", NEXT_STEP),
    "error": ("error", ERROR),
}


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": 1}


def assistant(content: list[dict[str, Any]], stop: str = "stop") -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": content,
        "api": "openai-completions",
        "provider": "faux",
        "model": "faux-1",
        "usage": USAGE,
        "stopReason": stop,
        "timestamp": 1,
    }


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def tool_turn(call_id: str, name: str, args: dict[str, Any], result: str, error: bool) -> list:
    call = {"type": "toolCall", "id": call_id, "name": name, "arguments": args}
    return [
        assistant([text(f"Running {name}."), call], "toolUse"),
        {
            "role": "toolResult",
            "toolCallId": call_id,
            "toolName": name,
            "content": [text(result)],
            "isError": error,
            "timestamp": 1,
        },
    ]


def fact_messages() -> list[dict[str, Any]]:
    """Goal, constraint, decision, a written file, a failing command, the next step."""
    out = [user(GOAL), assistant([text("Understood.")])]
    out += [user(CONSTRAINT), assistant([text("Noted.")])]
    out += [user(DECISION), assistant([text("Agreed.")])]
    out += tool_turn("call_w", "write", {"path": FILE, "content": "x"}, "Wrote 1 byte", False)
    out += [user(f"Run {COMMAND} and show me what fails.")]
    out += tool_turn("call_b", "bash", {"command": COMMAND}, f"{ERROR}\n\nExit code 1", True)
    out += [assistant([text("That run failed.")]), user(NEXT_STEP), assistant([text("Will do.")])]
    return out


def filler_turns(count: int, start: int = 0) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for n in range(start, start + count):
        out += [user(f"Progress check {n}, the log: {FILLER}"), assistant([text("Looks fine.")])]
    return out


def write_session(path: Path, messages: list[dict[str, Any]] | None = None) -> Path:
    """A session file with the facts, then three filler turns (kept by ``--keep 400``)."""
    session = Session.open(path, create=True, cwd=str(path.parent))
    for message in messages if messages is not None else fact_messages() + filler_turns(3):
        session.append_message(message)
    return path


def checkpoint(*, drop: str | None = None) -> str:
    """A complete checkpoint holding every fact; ``drop`` leaves out one rule's item
    (``goal``, ``constraint``, ``decision``, ``next_step``, ``error``), the file
    (``file``) or a section's heading (a name of :data:`SECTIONS`; its items stay)."""

    def item(rule: str, value: str, prefix: str = "- ") -> str:
        return "- (none)" if drop == rule else f"{prefix}{value}"

    body = {
        "Goal": item("goal", GOAL),
        "Constraints & Preferences": item("constraint", CONSTRAINT),
        "Progress": "### Done\n"
        + item("file", f"Wrote {FILE}")
        + "\n\n### In Progress\n- (none)\n\n### Blocked\n"
        + item("error", ERROR),
        "Key Decisions": item("decision", DECISION),
        "Next Steps": item("next_step", NEXT_STEP, "1. "),
        "Critical Context": f"- The failing command: `{COMMAND}`",  # the user's identifiers
    }
    # a dropped section keeps its items under a heading the gate does not know
    return "\n\n".join(
        f"## {'Notes' if name == drop else name}\n{value}" for name, value in body.items()
    )


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
