"""A split turn's two summaries, over the loopback OpenAI-compatible server (issue 25, item 4).

The history and the turn prefix are requested at the same time, as pi does: the server logs
when each request arrived and when its answer left, and the two overlap. When the summary gate
finds an item missing, its retry asks again only for the part that lacked it — one request,
not two — and the part that was complete is kept as it was.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.compaction_helpers import settings
from tests.gate_helpers import CONSTRAINT, checkpoint, fact_messages, tool_turn, user, write_session
from tests.servers import OpenAIServer, Reply
from tests.servers.base import is_turn_prefix_request, request_texts
from tether.core.base.errors import TetherError
from tether.core.hooks.facade import Hooks
from tether.core.host.manager import create_plugin_manager
from tether.core.memory.compaction import compact
from tether.core.session.session import Session

PREFIX_RULE = "Never touch the vendor directory while refactoring the exporter."
ASK = "Now refactor the exporter."
PREFIX_SUMMARY = (
    f"## Original Request\n{ASK} {PREFIX_RULE}\n\n"
    "## Early Progress\n- Read the exporter modules.\n\n"
    "## Context for Suffix\n- The modules are being read one by one."
)
DELAY = 0.4  # seconds each answer takes: two requests in a row cannot overlap


def split_turn_messages() -> list[dict[str, Any]]:
    """The gate's facts, then one long turn whose first part will be summarized."""
    out = fact_messages()
    out.append(user(f"{ASK} {PREFIX_RULE}"))
    for n in range(12):
        body = f"module {n}: " + "def export(row): return row  # unchanged\n" * 40
        out += tool_turn(f"call_r{n}", "read", {"path": f"exporter/m{n}.py"}, body, False)
    return out


def project(tmp_path: Path, server: OpenAIServer, monkeypatch: pytest.MonkeyPatch) -> Session:
    home = tmp_path / "home"
    home.mkdir()
    model = {"id": "summarizer-1", "contextWindow": 64000, "maxTokens": 4096}
    provider = {"baseUrl": server.base_url, "api": "openai-completions", "models": [model]}
    (home / "models.json").write_text(json.dumps({"providers": {"loop": provider}}), "utf-8")
    monkeypatch.setenv("TETHER_HOME", str(home))
    return Session.open(write_session(tmp_path / "s.jsonl", split_turn_messages()))


def run(session: Session) -> Any:
    budgets = settings(model="loop/summarizer-1", summarizer="llm", keepRecentTokens=1500)
    outcome = compact(session, Hooks(create_plugin_manager(environ={})), budgets)
    assert outcome.status == "compacted", outcome.reason
    assert outcome.preparation.is_split_turn and outcome.preparation.messages_to_summarize
    return outcome


def answer(server: OpenAIServer, history: list[str], prefix: list[str]) -> None:
    """Answer the history requests with ``history`` in turn, the prefix ones with ``prefix``."""

    def respond(body: Any) -> Reply:
        texts = prefix if is_turn_prefix_request(body) else history
        return Reply(texts.pop(0) if len(texts) > 1 else texts[0], headers_delay=DELAY)

    server.responder = respond


def test_the_two_summaries_of_a_split_turn_are_requested_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with OpenAIServer() as server:
        session = project(tmp_path, server, monkeypatch)
        answer(server, [checkpoint()], [PREFIX_SUMMARY])
        outcome = run(session)
        first, second = server.requests
    assert outcome.gate["verdict"] == "passed", outcome.gate["missing"]
    assert sorted(is_turn_prefix_request(r.body) for r in (first, second)) == [False, True]
    assert first.overlaps(second), (first.started, first.finished, second.started)
    summary = outcome.entry["summary"]
    assert summary.startswith(checkpoint() + "\n\n---\n\n**Turn Context (split turn):**\n\n")
    assert PREFIX_SUMMARY in summary


@pytest.mark.parametrize("lacking", ["history", "prefix"])
def test_a_gate_retry_asks_again_only_for_the_part_that_missed_a_fact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lacking: str
) -> None:
    partial_prefix = PREFIX_SUMMARY.replace(f" {PREFIX_RULE}", "")
    history = (
        [checkpoint(drop="constraint"), checkpoint()] if lacking == "history" else [checkpoint()]
    )
    prefix = [partial_prefix, PREFIX_SUMMARY] if lacking == "prefix" else [PREFIX_SUMMARY]
    missing = CONSTRAINT if lacking == "history" else PREFIX_RULE
    with OpenAIServer() as server:
        session = project(tmp_path, server, monkeypatch)
        answer(server, history, prefix)
        outcome = run(session)
        requests = list(server.requests)
    assert outcome.gate["verdict"] == "retried", outcome.gate["missing"]
    assert len(requests) == 3  # both parts, then the one that missed a fact: not both again
    retry = requests[-1]
    assert is_turn_prefix_request(retry.body) == (lacking == "prefix")
    assert f'"{missing}"' in request_texts(retry.body)  # the retry note names what was missing
    merged = checkpoint() + "\n\n---\n\n**Turn Context (split turn):**\n\n" + PREFIX_SUMMARY
    assert outcome.entry["summary"].startswith(merged)  # the complete part kept as it was


def test_a_failing_turn_prefix_request_fails_the_compaction_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with OpenAIServer() as server:
        session = project(tmp_path, server, monkeypatch)
        before = session.file.read_bytes()
        server.responder = lambda body: (
            Reply(status=400, error_message="prefix refused")
            if is_turn_prefix_request(body)
            else Reply(checkpoint(), headers_delay=DELAY)
        )
        budgets = settings(model="loop/summarizer-1", summarizer="llm", keepRecentTokens=1500)
        with pytest.raises(TetherError, match="prefix refused"):
            compact(session, Hooks(create_plugin_manager(environ={})), budgets)
        assert len(server.requests) == 2  # the history's answer was waited for
    assert session.file.read_bytes() == before
