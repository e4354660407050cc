"""The numbered list of ``--resume``: the answer is a number of the list, or nothing is
resumed (one line says why) — never a traceback, whatever is typed."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from tether.builtin_plugins.commands.agent.setup import pick_from_list


def sessions(count: int) -> list[SimpleNamespace]:
    return [
        SimpleNamespace(
            name=f"s{n}", first_message="", modified="2026-01-01T00:00:00", path=f"/p/{n}.jsonl"
        )
        for n in range(count)
    ]


@pytest.mark.parametrize(
    ("answer", "picked"), [("", "0.jsonl"), ("2", "1.jsonl"), (" 3 ", "2.jsonl")]
)
def test_a_number_of_the_list_picks_that_session(answer: str, picked: str) -> None:
    said: list[str] = []
    found = pick_from_list(sessions(3), ask=lambda _: answer, say=said.append)
    assert found == Path("/p") / picked
    assert len(said) == 3  # the list, nothing else


@pytest.mark.parametrize("answer", ["0", "4", "x", "-1", "\u00b2", "1.5"])  # "²": no crash
def test_anything_else_resumes_nothing_and_says_so(answer: str) -> None:
    said: list[str] = []
    assert pick_from_list(sessions(3), ask=lambda _: answer, say=said.append) is None
    assert said[-1] == "not a number between 1 and 3"
