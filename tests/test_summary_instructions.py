"""Persistent summary instructions (issue 25, item 5), seen in the requests the loopback
OpenAI-compatible server receives from the ``llm`` summarizer.

``compaction.instructions`` (``--instructions`` of run/chat/rpc) is added to the built-in
prompt where pi adds ``/compact`` instructions — ``\\n\\nAdditional focus: …`` after the
history's and a branch summary's instructions, not in the turn-prefix request — for automatic
and manual compactions (a manual compaction's own text follows it) and for branch summaries.
``compaction.replaceInstructions: true`` sends the instructions instead of the built-in prompt.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.compaction_helpers import settings
from tests.gate_helpers import checkpoint, write_session
from tests.harness_helpers import run_tether
from tests.servers import OpenAIServer, Reply
from tests.servers.base import is_turn_prefix_request, request_texts
from tests.test_summary_parts import PREFIX_SUMMARY, split_turn_messages
from tether.builtin_plugins.memory.llm_summarizer.prompts import INSTRUCTIONS
from tether.core.hooks.facade import Hooks
from tether.core.host.manager import create_plugin_manager
from tether.core.memory.branching import navigate_tree
from tether.core.memory.compaction import compact
from tether.core.session.session import Session

MODEL = "loop/summarizer-1"
SETTING = "Keep every ticket number such as INV-2231 verbatim."
ONE_OFF = "Focus on the exporter refactoring."


def user_text(body: Any) -> str:
    """The single user text of a summary request."""
    content = body["messages"][-1]["content"]
    return content if isinstance(content, str) else content[0]["text"]


def home_for(tmp_path: Path, server: OpenAIServer) -> Path:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    model = {"id": "summarizer-1", "contextWindow": 64000, "maxTokens": 4096}
    provider = {"baseUrl": server.base_url, "api": "openai-completions", "models": [model]}
    (home / "models.json").write_text(json.dumps({"providers": {"loop": provider}}), "utf-8")
    return home


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    with OpenAIServer() as loopback:
        loopback.answer_split_turn(Reply(checkpoint()), Reply(PREFIX_SUMMARY))
        monkeypatch.setenv("TETHER_HOME", str(home_for(tmp_path, loopback)))
        yield loopback


def hooks() -> Hooks:
    return Hooks(create_plugin_manager(environ={}))


def split_turn_compaction(tmp_path: Path, server: OpenAIServer, **options: Any) -> tuple[str, str]:
    """A manual compaction of a split turn with ``options`` as settings; the user texts of
    the first history request and of the turn-prefix request."""
    session = Session.open(write_session(tmp_path / "s.jsonl", split_turn_messages()))
    budgets = settings(model=MODEL, summarizer="llm", keepRecentTokens=1500, **options)
    outcome = compact(session, hooks(), budgets, custom_instructions=ONE_OFF)
    assert outcome.status == "compacted" and outcome.preparation.is_split_turn
    (prefix,) = [r.body for r in server.requests if is_turn_prefix_request(r.body)]
    history = next(r.body for r in server.requests if not is_turn_prefix_request(r.body))
    return user_text(history), user_text(prefix)


def test_a_manual_compaction_gets_the_setting_then_its_own_instructions(
    tmp_path: Path, server: OpenAIServer
) -> None:
    history, prefix = split_turn_compaction(tmp_path, server, instructions=SETTING)
    wanted = f"</conversation>\n\n{INSTRUCTIONS['summary']}\n\nAdditional focus: {SETTING}"
    assert history.endswith(f"{wanted}\n\n{ONE_OFF}")
    assert prefix.endswith(INSTRUCTIONS["turnPrefix"])  # pi: no custom focus for the prefix
    assert SETTING not in prefix and ONE_OFF not in prefix


def test_replace_mode_sends_the_instructions_instead_of_the_prompt(
    tmp_path: Path, server: OpenAIServer
) -> None:
    history, prefix = split_turn_compaction(
        tmp_path, server, instructions=SETTING, replaceInstructions=True
    )
    assert history.endswith(f"</conversation>\n\n{SETTING}\n\n{ONE_OFF}")
    assert INSTRUCTIONS["summary"] not in history and "Additional focus" not in history
    assert prefix.endswith(INSTRUCTIONS["turnPrefix"])  # the prefix keeps its own prompt


@pytest.mark.parametrize("replace", [False, True])
def test_a_branch_summary_gets_the_instructions(
    tmp_path: Path, server: OpenAIServer, replace: bool
) -> None:
    file = write_session(tmp_path / "s.jsonl")
    session = Session.open(file)
    first_answer = session.get_branch()[1]["id"]
    budgets = settings(model=MODEL, summarizer="llm", instructions=SETTING)
    if replace:
        budgets.compaction.replace_instructions = True
    outcome = navigate_tree(
        session, hooks(), budgets, first_answer, summarize=True, custom_instructions=ONE_OFF
    )
    assert outcome.summary_entry is not None
    (request,) = server.requests
    text = user_text(request.body)
    if replace:
        assert text.endswith(f"</conversation>\n\n{SETTING}\n\n{ONE_OFF}")
        assert INSTRUCTIONS["branchSummary"] not in text
    else:
        focus = f"\n\nAdditional focus: {SETTING}\n\n{ONE_OFF}"
        assert text.endswith(f"</conversation>\n\n{INSTRUCTIONS['branchSummary']}{focus}")


def test_run_instructions_reach_an_automatic_compaction(tmp_path: Path) -> None:
    """A real ``tether run --instructions``: the overflow compaction's summary request has
    them (the flag is the setting ``compaction.instructions`` for that process)."""
    cwd = tmp_path / "proj"
    (cwd / ".tether").mkdir(parents=True)
    settings_file = cwd / ".tether" / "settings.json"
    settings_file.write_text(json.dumps({"compaction": {"model": MODEL, "keepRecentTokens": 20}}))
    with OpenAIServer() as loopback:
        home = home_for(tmp_path, loopback)
        loopback.text("long answer " * 40)
        loopback.text("another long answer " * 40)
        prompts = ("Ship the exporter.", "Then the importer, " * 20)
        first = run_tether("run", "--model", MODEL, *prompts, home=home, cwd=cwd)
        assert first.returncode == 0, first.stderr
        loopback.overflow()
        loopback.responder = lambda body: Reply(
            PREFIX_SUMMARY if is_turn_prefix_request(body) else "recovered"
        )
        args = ("run", "-c", "--model", MODEL, "--instructions", SETTING, "second")
        done = run_tether(*args, home=home, cwd=cwd)
        bodies = [r.body for r in loopback.requests[2:]]
    assert done.returncode == 0, done.stderr
    summaries = [b for b in bodies if "<conversation>" in request_texts(b)]
    history = [user_text(b) for b in summaries if not is_turn_prefix_request(b)]
    assert history, [request_texts(b)[:200] for b in bodies]
    assert all(f"\n\nAdditional focus: {SETTING}" in text for text in history)
