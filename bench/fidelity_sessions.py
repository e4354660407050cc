"""Scripted sessions for ``bench/fidelity.py``: five kinds of work, each with a goal,
constraints in many wordings, decisions, modified files, an exact error and a stated next step.

Every fact is a string the session states verbatim; the benchmark looks for it, verbatim, in
the context the model sees after each compaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

USAGE = {
    "input": 100,
    "output": 20,
    "cacheRead": 0,
    "cacheWrite": 0,
    "totalTokens": 120,
    "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0},
}
FILLER_REPLY = (
    "Progress so far: the tests pass, the last change is in place and nothing is blocked. "
    "I re-ran the checks, reviewed the diff for style and left the remaining work as it was. "
) * 8


@dataclass
class Kind:
    """One scripted session: ``constraints`` are stated one per user turn, in the given words."""

    name: str
    goal: str
    constraints: list[str]
    decisions: list[str]
    files: dict[str, str]  # path -> "write" | "edit"
    command: str
    error: str
    next_step: str
    extra: list[str] = field(default_factory=list)

    @property
    def pinned(self) -> str:
        """A fact that is only pinned (``tether session pin --text``), never said in a message:
        it reaches the context through the summaries' ``## Pinned`` section alone."""
        return f"Release checklist for {self.name}: tag, changelog, announce (in that order)."

    def facts(self) -> dict[str, list[str]]:
        """Category -> the verbatim strings that must survive."""
        return {
            "goal": [self.goal],
            "constraints": self.constraints,
            "decisions": self.decisions,
            "files": list(self.files),
            "error": [self.error],
            "next_step": [self.next_step],
            "pinned": [self.pinned],
        }


KINDS = [
    Kind(
        name="invoices",
        goal="Build a CLI that converts CSV invoices to PDF files, one PDF per invoice.",
        constraints=[
            "Never write outside the out/ directory.",
            "We target Python 3.9, so no match statements.",
            "Constraint: amounts are Decimal, never float.",
        ],
        decisions=["Let's go with reportlab rather than weasyprint for the PDF rendering."],
        files={
            "invoices/cli.py": "write",
            "invoices/parse.py": "write",
            "invoices/render.py": "write",
            "invoices/money.py": "write",
            "tests/test_parse.py": "write",
            "tests/test_render.py": "write",
            "pyproject.toml": "edit",
        },
        command="python -m invoices samples/broken.csv",
        error="ValueError: invoice 17: column 'amount' is not a decimal: '12,50'",
        next_step="Next, add a --currency flag to the CLI, defaulting to EUR.",
    ),
    Kind(
        name="web-api",
        goal="Add a REST endpoint GET /orders/{id} to the shop service that returns JSON.",
        constraints=[
            "Always return errors as RFC 7807 problem+json bodies.",
            "You must keep the handlers in api/handlers.py.",
            "Don't add new dependencies to requirements.txt.",
        ],
        decisions=["Let's go with FastAPI's APIRouter rather than a Flask blueprint."],
        files={
            "api/handlers.py": "edit",
            "api/models.py": "write",
            "api/routes.py": "edit",
            "tests/test_orders.py": "write",
        },
        command="pytest -q tests/test_orders.py",
        error="AssertionError: assert 500 == 404 (GET /orders/999999)",
        next_step="Next, add pagination to GET /orders with a ?page= parameter.",
    ),
    Kind(
        name="pipeline",
        goal="Write an ETL job that loads the daily sales parquet files into Postgres.",
        constraints=[
            "Only use the read-only replica for lookups.",
            "I prefer small commits, one per table.",
            "Keep secrets in the .env file, not in the code.",
        ],
        decisions=[
            "Let's go with COPY FROM STDIN rather than batched INSERT statements.",
            "We decided to partition the sales table by month instead of by day.",
        ],
        files={
            "etl/load.py": "write",
            "etl/schema.sql": "write",
            "etl/config.py": "edit",
            "tests/test_load.py": "write",
        },
        command="python -m etl.load --date 2024-03-01",
        error='psycopg.errors.UndefinedTable: relation "sales_2024_03" does not exist',
        next_step="Next, add a --dry-run flag that prints the row counts without loading.",
    ),
    Kind(
        name="refactor",
        goal="Split the 2000-line utils.py into a utils package with one module per concern.",
        constraints=[
            "The public API must stay importable from utils.",
            "Never change behaviour while moving code.",
            "Keep each module under 400 lines.",
        ],
        decisions=["Let's go with re-exports in utils/__init__.py rather than deprecation shims."],
        files={
            "utils/__init__.py": "write",
            "utils/text.py": "write",
            "utils/dates.py": "write",
            "utils/paths.py": "write",
            "utils.py": "edit",
        },
        command="python -c 'import app.main'",
        error="ImportError: cannot import name 'slugify' from partially initialized module 'utils'",
        next_step="Next, move the date helpers' tests into tests/utils/test_dates.py.",
    ),
    Kind(
        name="frontend",
        goal="Add a dark mode toggle to the settings page of the React dashboard.",
        constraints=[
            "Don't use inline styles; use CSS variables.",
            "We target Safari 15 and newer.",
            "Constraint: the toggle state persists in localStorage under 'theme'.",
            "Always run npm run lint before a commit.",
        ],
        decisions=["Let's go with a ThemeContext rather than a Redux slice."],
        files={
            "src/theme/ThemeContext.tsx": "write",
            "src/settings/SettingsPage.tsx": "edit",
            "src/styles/variables.css": "edit",
            "src/theme/ThemeContext.test.tsx": "write",
        },
        command="npm test -- ThemeContext",
        error="TypeError: Cannot read properties of undefined (reading 'matches')",
        next_step="Next, add a 'system' option that follows prefers-color-scheme.",
    ),
]


def user(text: str, t: int) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": t}


def assistant(content: list[dict[str, Any]], t: int, stop: str = "stop") -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": content,
        "api": "openai-completions",
        "provider": "faux",
        "model": "faux-1",
        "usage": USAGE,
        "stopReason": stop,
        "timestamp": t,
    }


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def tool_turn(
    call_id: str, name: str, args: dict[str, Any], result: str, t: int, *, error: bool = False
) -> list[dict[str, Any]]:
    """An assistant tool call and its result."""
    call = {"type": "toolCall", "id": call_id, "name": name, "arguments": args}
    return [
        assistant([text(f"Running {name}."), call], t, "toolUse"),
        {
            "role": "toolResult",
            "toolCallId": call_id,
            "toolName": name,
            "content": [text(result)],
            "isError": error,
            "timestamp": t,
        },
    ]


def script(kind: Kind) -> list[dict[str, Any]]:
    """The session's messages, in order, before any filler turn."""
    t = 1_700_000_000_000
    out: list[dict[str, Any]] = [user(kind.goal, t), assistant([text("Understood.")], t)]
    for line in kind.constraints:
        out += [user(line, t), assistant([text("Noted, I will follow that.")], t)]
    for line in kind.decisions:
        out += [user(line, t), assistant([text("Agreed, going with that.")], t)]
    for n, (path, op) in enumerate(kind.files.items()):
        if op == "write":
            args: dict[str, Any] = {"path": path, "content": f"# {path}\n"}
            result = f"Successfully wrote 14 bytes to {path}"
        else:
            args = {"path": path, "edits": [{"oldText": "old", "newText": "new"}]}
            result = f"Successfully replaced 1 block(s) in {path}."
        out += tool_turn(f"call_f{n}", op, args, result, t)
    out += [user(f"Run {kind.command} and show me what fails.", t)]
    out += tool_turn(
        "call_bash",
        "bash",
        {"command": kind.command},
        f"{kind.error}\n\nExit code 1",
        t,
        error=True,
    )
    out += [assistant([text("That run failed with the error above.")], t)]
    out += [user(kind.next_step, t), assistant([text("Will do that next.")], t)]
    return out


def filler(n: int) -> list[dict[str, Any]]:
    """One filler turn: ``Continue (progress check N)`` and a progress reply."""
    t = 1_700_000_000_000 + n
    request = f"Continue (progress check {n}): keep going with the current task and report."
    return [user(request, t), assistant([text(FILLER_REPLY)], t)]
