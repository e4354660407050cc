"""Issue 9: the offline summarizer keeps goal, constraints, decisions and next step forever."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.test_offline_summarizer import assistant, result, section, summarize, user

ROOT = Path(__file__).resolve().parent.parent

WORDINGS = [
    "Never write outside the out/ directory.",
    "Always run the linter before a commit.",
    "The public API must stay importable from utils.",
    "Don't add new dependencies to requirements.txt.",
    "Only use the read-only replica for lookups.",
    "I prefer small commits, one per table.",
    "We target Python 3.9, so no match statements.",
    "Keep secrets in the .env file, not in the code.",
    "Constraint: amounts are Decimal.",
    "Handlers should return problem+json bodies.",
    "Avoid global state in the parser.",
    "Use pathlib, not os.path.",
    "Keep each module under 400 lines.",
]
DECISIONS = [
    "Let's go with reportlab rather than weasyprint for the PDF rendering.",
    "We'll use COPY FROM STDIN for the bulk load.",
    "Decided: partition the sales table by month.",
]
GOAL = "Build a CLI that converts CSV invoices to PDF files, one PDF per invoice."
NEXT = "Next, add a --currency flag to the CLI, defaulting to EUR."
ERROR = "ValueError: invoice 17: column 'amount' is not a decimal: '12,50'"


def filler(n: int) -> list[dict[str, Any]]:
    request = f"Continue (progress check {n}): keep going with the current task and report."
    return [user(request), assistant("Progress so far: the tests pass. " * 20)]


def first_span() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [user(GOAL), assistant("Understood.")]
    for line in [*WORDINGS, *DECISIONS]:
        out += [user(line), assistant("Noted.")]
    out += [
        user("Run python -m invoices broken.csv and show me what fails."),
        assistant("", ("b1", "bash", {"command": "python -m invoices broken.csv"})),
        result("b1", "bash", ERROR + "\n\nExit code 1", error=True),
        assistant("That run failed with the error above."),
        user(NEXT),
        assistant("Will do that next."),
    ]
    return out


@pytest.mark.parametrize("wording", WORDINGS)
def test_every_constraint_wording_reaches_its_section(wording: str) -> None:
    text = summarize([user(GOAL), assistant("Ok."), user(wording), assistant("Noted.")])
    assert f'- "{wording}"' in section(text, "## Constraints & Preferences")


def test_fillers_are_neither_constraints_nor_decisions_nor_goal() -> None:
    text = summarize([*filler(1), user(GOAL), assistant("Ok."), *filler(2)])
    assert "Continue" not in text
    assert section(text, "## Goal").strip() == f"- {GOAL}"


def test_decisions_reach_key_decisions() -> None:
    decisions = section(summarize(first_span()), "## Key Decisions")
    for line in DECISIONS:
        assert f'- "{line}"' in decisions
    assert "(none)" not in decisions


def test_next_step_is_the_users_stated_one() -> None:
    text = summarize(first_span())
    steps = section(text, "## Next Steps")
    assert steps.strip() == f'1. "{NEXT}"'
    assert "Wait for the next request" not in text
    assert "Resolve the failure" not in text  # the user ran it to see it fail
    assert ERROR in section(text, "### Blocked")  # the error itself stays


def test_carried_forward_across_five_compactions_without_repetition() -> None:
    text = summarize(first_span())
    sizes = []
    for k in range(5):
        text = summarize(filler(2 * k) + filler(2 * k + 1), previous_summary=text)
        sizes.append(len(text))
        assert section(text, "## Goal").strip() == f"- {GOAL}", k
        constraints = section(text, "## Constraints & Preferences")
        for line in WORDINGS:
            assert f'- "{line}"' in constraints, (k, line)
        decisions = section(text, "## Key Decisions")
        for line in DECISIONS:
            assert f'- "{line}"' in decisions, (k, line)
        assert section(text, "## Next Steps").strip() == f'1. "{NEXT}"', k
        assert ERROR in text
    assert len(set(sizes)) == 1, sizes  # nothing added per compaction
    assert text.count("Paths: ") == 1 and "omitted" not in text


def test_a_newer_next_step_replaces_the_old_one() -> None:
    text = summarize(first_span())
    later = "Next, write the README section for the --currency flag."
    text = summarize([user(later), assistant("Will do.")], previous_summary=text)
    assert section(text, "## Next Steps").strip() == f'1. "{later}"'


def test_the_cap_drops_progress_detail_never_the_protected_sections() -> None:
    messages = first_span()
    for i in range(120):
        call = (f"e{i}", "edit", {"path": f"src/module_{i}.py", "oldText": "a", "newText": "b"})
        messages += [assistant("", call), result(f"e{i}", "edit", "Successfully replaced.")]
    messages += [user(NEXT), assistant("Will do that next.")]
    budget = 700
    text = summarize(messages, max_tokens=budget)
    assert len(text) <= budget * 4
    assert re.search(r"### Done\n- … \d+ older items omitted to fit the budget", text)
    assert "- [x] Edited `src/module_119.py`" in text  # the newest progress stays longest
    assert GOAL in section(text, "## Goal")
    for line in [*WORDINGS, *DECISIONS, NEXT]:
        assert line in text, line
    # protected sections outgrowing the cap are kept whole; only they exceed it
    tiny = summarize(messages, max_tokens=100)
    for line in [GOAL, *WORDINGS, *DECISIONS, NEXT]:
        assert line in tiny, line
    assert "src/module_" not in tiny


def test_fidelity_benchmark_holds_every_fact_at_every_k() -> None:
    out = subprocess.run(
        [
            *(sys.executable, str(ROOT / "bench" / "fidelity.py"), "--json", "--reserve", "1024"),
            *("--kinds", "all", "--families", "none", "--summarizer", "offline"),  # runs[0] only
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    table = json.loads(out.stdout)["runs"][0]["summary"]
    assert len(table) == 15
    for entry in table:
        for key in ("goal", "constraints", "decisions", "files", "error", "next_step", "pinned"):
            assert entry[key] == 100.0, (entry["k"], key)
        for key in ("constraintsInSection", "decisionsInSection", "next_stepInSection"):
            assert entry[key] == 100.0, (entry["k"], key)
    assert {e["summaryCharsMax"] for e in table} == {table[0]["summaryCharsMax"]}
    assert table[0]["summaryCharsMax"] <= 1024 * 0.8 * 4
