"""The LLM summarizer end to end against the loopback OpenAI-compatible server.

Request structure, budgets and section headings are checked against pi's ``compact``/``branch``
goldens (``requests[]``); the wording is tether's own. Design §8.11: an oversized history is
summarized in chunks, none of which exceeds the summarizer model's window.
"""

from __future__ import annotations

import gzip
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

from tests.compaction_helpers import PI_CHECKPOINT_HEADINGS, PI_TURN_PREFIX_HEADINGS
from tests.servers import OpenAIServer
from tether.builtin_plugins.memory import llm_summarizer, offline_summarizer
from tether.builtin_plugins.memory.llm_summarizer.prompts import SYSTEM_PROMPT
from tether.builtin_plugins.memory.serialize import serialize_conversation
from tether.builtin_plugins.providers.models.registry import ProviderRegistry
from tether.core.base.errors import TetherError
from tether.core.choices.running import run_summarizer
from tether.core.context.convert import convert_to_llm
from tether.core.host.manager import create_plugin_manager
from tether.core.memory.branching import BRANCH_SUMMARY_MAX_TOKENS as BRANCH_MAX_TOKENS
from tether.core.memory.summary_requests import summary_budgets
from tether.hookspecs.events import SummarizeRequest, Summary
from tether.hookspecs.providers import (
    ProviderConfigError,
    ProviderError,
    TransientError,
)

GOLDEN = Path(__file__).parent / "fixtures" / "pi" / "golden"
SUMMARY_TEXT = "## Goal\nShip the parser.\n\n## Critical Context\n- `src/parse.py`"


def golden_request(kind: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The first oracle request of ``kind`` and its golden document."""
    for name in sorted(GOLDEN.glob("*.compact.json.gz")) + sorted(GOLDEN.glob("*.branch.json.gz")):
        doc = json.loads(gzip.open(name).read())
        for request in doc.get("requests", []):
            if request["kind"] == kind:
                return request, doc
    raise AssertionError(f"no golden request of kind {kind}")


def conversation() -> list[dict[str, Any]]:
    return [
        {"role": "user", "content": "Fix the crash in src/parse.py, never touch tests/.",
         "timestamp": 1},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "Look at the file first."},
                {"type": "text", "text": "Reading it."},
                {"type": "toolCall", "id": "c1", "name": "read",
                 "arguments": {"path": "src/parse.py"}},
            ],
            "stopReason": "toolUse",
            "timestamp": 2,
        },
        {
            "role": "toolResult",
            "toolCallId": "c1",
            "toolName": "read",
            "content": [{"type": "text", "text": "def parse(text):\n    return text.split()"}],
            "isError": False,
            "timestamp": 3,
        },
        {"role": "bashExecution", "command": "pytest -q", "output": "1 failed", "exitCode": 1,
         "cancelled": False, "truncated": False, "timestamp": 4},
    ]  # fmt: skip


def summarize(pm: Any, request: SummarizeRequest) -> Summary:
    """The chosen summarizer's answer. A provider failure reaches the caller as one error
    naming the plugin; its typed cause (re-raised here) is what the tests look at."""
    try:
        return run_summarizer(pm, request)
    except TetherError as exc:
        if isinstance(exc.__cause__, ProviderError):
            assert "plugin 'llm_summarizer' failed in summarizer 'llm'" in str(exc)
            raise exc.__cause__ from None
        raise


class Setup:
    def __init__(self, server: OpenAIServer, home: Path) -> None:
        self.server = server
        self.home = home
        self.pm = create_plugin_manager(environ={})
        self.registry: ProviderRegistry | None = None

    def models(self, **fields: Any) -> ProviderRegistry:
        entry = {"contextWindow": 128000, "maxTokens": 32000, **fields}
        config = {
            "providers": {
                "local": {
                    "baseUrl": self.server.base_url,
                    "api": "openai-completions",
                    "models": [
                        self.server.model_entry("sum-model", **entry),
                        self.server.model_entry("session-model", **entry),
                    ],
                }
            }
        }
        (self.home / "models.json").write_text(json.dumps(config), encoding="utf-8")
        self.registry = ProviderRegistry(self.pm, home=self.home, environ={})
        return self.registry

    def request(self, **fields: Any) -> SummarizeRequest:
        fields.setdefault("kind", "compaction")
        fields.setdefault("messages", conversation())
        fields.setdefault("max_tokens", summary_budgets(16384)[0])
        fields.setdefault("settings", {"model": "local/sum-model"})
        fields.setdefault("registry", self.registry or self.models())
        return SummarizeRequest(**fields)

    def user_text(self, index: int = -1) -> str:
        messages = self.server.requests[index].body["messages"]
        assert [m["role"] for m in messages] == ["system", "user"]
        return messages[1]["content"]


@pytest.fixture
def setup(openai_server: OpenAIServer, tmp_path: Path) -> Setup:
    home = tmp_path / "home"
    home.mkdir()
    return Setup(openai_server, home)


def headings(text: str) -> list[str]:
    return re.findall(r"^#{2,3} .+$", text, flags=re.MULTILINE)


def split_user_text(text: str) -> tuple[str, str | None, str]:
    """(conversation, previous summary or None, instructions) of a request's user text."""
    match = re.fullmatch(
        r"<conversation>\n(.*)\n</conversation>\n\n"
        r"(?:<previous-summary>\n(.*)\n</previous-summary>\n\n)?(.*)",
        text,
        flags=re.DOTALL,
    )
    assert match, text[:200]
    return match.group(1), match.group(2), match.group(3)


def test_budgets_are_pis() -> None:
    for kind, share in (("summary", 0.8), ("turnPrefix", 0.5)):
        golden, doc = golden_request(kind)
        reserve = doc["settings"]["reserveTokens"]
        assert golden["maxTokens"] == math.floor(share * reserve)
    assert summary_budgets(16384) == (13107, 8192)
    assert golden_request("branchSummary")[0]["maxTokens"] == BRANCH_MAX_TOKENS


def test_history_request_matches_pis_structure(setup: Setup) -> None:
    setup.server.text(SUMMARY_TEXT)
    summary = summarize(setup.pm, setup.request())
    assert summary == Summary(text=SUMMARY_TEXT, summarizer="llm", details=summary.details)
    assert summary.details["model"] == "local/sum-model"
    body = setup.server.last_request.body
    assert body["model"] == "sum-model"
    assert body["stream"] is False
    assert body["max_completion_tokens"] == 13107
    assert body["messages"][0] == {"role": "system", "content": SYSTEM_PROMPT}
    convo, previous, instructions = split_user_text(setup.user_text())
    assert convo == serialize_conversation(convert_to_llm(conversation()))
    assert previous is None
    golden, _ = golden_request("summary")
    _, golden_previous, golden_instructions = split_user_text(
        golden["messages"][0]["content"][0]["text"]
    )
    assert golden_previous is None
    assert headings(instructions) == headings(golden_instructions)
    assert headings(instructions) == PI_CHECKPOINT_HEADINGS
    assert golden["systemPrompt"] != SYSTEM_PROMPT  # our own wording, same role
    assert instructions != golden_instructions


def test_update_mode_folds_into_previous_summary_with_focus(setup: Setup) -> None:
    setup.server.text("updated")
    request = setup.request(previous_summary="## Goal\nold goal", custom_instructions="the parser")
    assert summarize(setup.pm, request).text == "updated"
    _, previous, instructions = split_user_text(setup.user_text())
    assert previous == "## Goal\nold goal"
    assert instructions.endswith("\n\nAdditional focus: the parser")
    golden, _ = golden_request("updateSummary")
    _, golden_previous, golden_instructions = split_user_text(
        golden["messages"][0]["content"][0]["text"]
    )
    assert golden_previous is not None
    assert headings(instructions) == headings(golden_instructions)
    assert "<previous-summary>" in instructions  # the instructions point at the tag


def test_turn_prefix_and_branch_requests(setup: Setup) -> None:
    setup.server.text("prefix summary")
    setup.server.text("branch summary")
    prefix = setup.request(kind="turn_prefix", max_tokens=summary_budgets(16384)[1])
    assert summarize(setup.pm, prefix).text == "prefix summary"
    assert setup.server.last_request.body["max_completion_tokens"] == 8192
    golden, _ = golden_request("turnPrefix")
    ours = split_user_text(setup.user_text())[2]
    theirs = split_user_text(golden["messages"][0]["content"][0]["text"])[2]
    assert headings(ours) == headings(theirs) == PI_TURN_PREFIX_HEADINGS
    branch = setup.request(kind="branch", max_tokens=BRANCH_MAX_TOKENS)
    assert summarize(setup.pm, branch).text == "branch summary"
    assert setup.server.last_request.body["max_completion_tokens"] == 2048
    golden, _ = golden_request("branchSummary")
    ours = split_user_text(setup.user_text())[2]
    theirs = split_user_text(golden["messages"][0]["content"][0]["text"])[2]
    assert headings(ours) == headings(theirs)
    assert "## Critical Context" not in headings(ours)


def test_branch_custom_instructions_can_replace_the_prompt(setup: Setup) -> None:
    setup.server.text("ok")
    request = setup.request(
        kind="branch", custom_instructions="Just list the files.", replace_instructions=True
    )
    summarize(setup.pm, request)
    assert split_user_text(setup.user_text())[2] == "Just list the files."


def _estimate(body: dict[str, Any]) -> int:
    return sum(math.ceil(len(m["content"]) / 4) for m in body["messages"])


def test_oversized_history_is_summarized_in_chunks(setup: Setup) -> None:
    """pi sends the whole history in one request (§13.21); tether folds chunks into a summary."""
    registry = setup.models(contextWindow=4000, maxTokens=800)
    messages = []
    for i in range(60):
        messages.append({"role": "user", "content": f"Step {i}: " + "refactor the parser " * 20})
        messages.append(
            {"role": "assistant", "content": [{"type": "text", "text": f"Done step {i}. " * 30}]}
        )
    replies = [f"## Goal\nrunning summary {n}" for n in range(40)]
    for reply in replies:
        setup.server.text(reply)
    request = setup.request(messages=messages, max_tokens=800, registry=registry)
    summary = summarize(setup.pm, request)
    count = len(setup.server.requests)
    assert count >= 3
    assert summary.text == replies[count - 1]
    whole = serialize_conversation(convert_to_llm(messages))
    pi_style_request = math.ceil(len(SYSTEM_PROMPT + whole) / 4) + 800
    assert pi_style_request > 4000  # one request would not fit the window
    pieces = []
    for n, recorded in enumerate(setup.server.requests):
        assert recorded.body["max_completion_tokens"] == 800
        assert _estimate(recorded.body) + 800 <= 4000
        convo, previous, instructions = split_user_text(recorded.body["messages"][1]["content"])
        assert previous == (None if n == 0 else replies[n - 1])
        assert ("<previous-summary>" in instructions) == (n > 0)
        pieces.append(convo)
    assert "\n\n".join(pieces) == whole  # split on message boundaries, nothing lost
    assert [c["kind"] for c in summary.details["requests"]] == ["summary"] + ["updateSummary"] * (
        count - 1
    )


def test_one_message_larger_than_the_window_is_split(setup: Setup) -> None:
    registry = setup.models(contextWindow=3000, maxTokens=500)
    huge = "\n".join(f"line {i}: " + "x" * 70 for i in range(400))
    for n in range(30):
        setup.server.text(f"s{n}")
    request = setup.request(
        messages=[{"role": "user", "content": huge}], max_tokens=500, registry=registry
    )
    summarize(setup.pm, request)
    assert len(setup.server.requests) > 1
    for recorded in setup.server.requests:
        assert _estimate(recorded.body) + 500 <= 3000


def test_output_budget_is_capped_by_the_model(setup: Setup) -> None:
    registry = setup.models(maxTokens=4096)
    setup.server.text("ok")
    summarize(setup.pm, setup.request(registry=registry))
    assert setup.server.last_request.body["max_completion_tokens"] == 4096


def test_server_error_raises_typed_error(setup: Setup) -> None:
    setup.server.error(500, "upstream exploded")
    with pytest.raises(TransientError, match="upstream exploded"):
        summarize(setup.pm, setup.request())


def test_timeout_raises_typed_error(setup: Setup) -> None:
    setup.server.reply(text="late", headers_delay=1.5)
    request = setup.request(settings={"model": "local/sum-model", "timeoutSeconds": 0.3})
    with pytest.raises(ProviderError) as caught:
        summarize(setup.pm, request)
    assert caught.value.kind == "transient"


def test_empty_model_text_is_a_reply_problem_not_an_empty_summary(setup: Setup) -> None:
    """pi accepts an empty summary (§13.23); tether hands it to the summary gate as a problem
    (with no gate, the compaction fails: tests/test_llm_summary_validation.py)."""
    setup.server.text("")
    summary = summarize(setup.pm, setup.request())
    assert summary.text == "" and summary.reply_problem is not None
    assert summary.reply_problem.endswith("the model returned no summary text (stopReason stop)")
    assert summary.details["requests"][0]["stopReason"] == "stop"


def test_reasoning_follows_the_session_thinking_level(setup: Setup) -> None:
    registry = setup.models(reasoning=True)
    setup.server.text("a")
    setup.server.text("b")
    summarize(setup.pm, setup.request(registry=registry, thinking_level="high"))
    assert setup.server.last_request.body["reasoning_effort"] == "high"
    summarize(setup.pm, setup.request(registry=registry, thinking_level="off"))
    assert "reasoning_effort" not in setup.server.last_request.body


# -- which summarizer runs ----------------------------------------------------------------------


def test_setting_model_wins_over_the_session_model(setup: Setup) -> None:
    setup.server.text("x")
    request = setup.request(model={"provider": "local", "id": "session-model"})
    assert summarize(setup.pm, request).summarizer == "llm"
    assert setup.server.last_request.body["model"] == "sum-model"


def test_session_model_is_used_without_a_setting(setup: Setup) -> None:
    setup.server.text("x")
    request = setup.request(settings={}, model={"provider": "local", "id": "session-model"})
    assert summarize(setup.pm, request).summarizer == "llm"
    assert setup.server.last_request.body["model"] == "session-model"


def test_no_model_falls_back_to_offline(setup: Setup) -> None:
    summary = summarize(setup.pm, setup.request(settings={}, model=None))
    assert summary.summarizer == "offline"
    assert "## Critical Context" in summary.text
    assert setup.server.requests == []


def test_offline_setting_never_calls_the_model(setup: Setup) -> None:
    request = setup.request(settings={"summarizer": "offline", "model": "local/sum-model"})
    assert summarize(setup.pm, request).summarizer == "offline"
    assert setup.server.requests == []


def test_llm_setting_without_a_model_is_a_clear_error(setup: Setup) -> None:
    request = setup.request(settings={"summarizer": "llm"}, model=None)
    with pytest.raises(ProviderConfigError, match="compaction.model"):
        summarize(setup.pm, request)


def test_another_summarizer_name_leaves_the_builtins_silent(setup: Setup) -> None:
    request = setup.request(settings={"summarizer": "my-plugin", "model": "local/sum-model"})
    with pytest.raises(TetherError, match=r"unknown summarizer 'my-plugin'.*llm, offline"):
        summarize(setup.pm, request)
    assert setup.server.requests == []


@pytest.mark.parametrize("order", ["llm-first", "offline-first"])
def test_choice_does_not_depend_on_registration_order(setup: Setup, order: str) -> None:
    plugins = [("llm_summarizer", llm_summarizer), ("offline_summarizer", offline_summarizer)]
    if order == "offline-first":
        plugins.reverse()
    pm = create_plugin_manager(load_entry_points=False, plugins=plugins, environ={})
    setup.server.text("from the model")
    assert summarize(pm, setup.request()).summarizer == "llm"
    assert summarize(pm, setup.request(settings={})).summarizer == "offline"
    assert len(setup.server.requests) == 1


def test_a_third_party_summarizer_claiming_the_default_replaces_both(setup: Setup) -> None:
    from tether.hookspecs import hookimpl

    class Mine:
        @hookimpl
        def register_summarizers(self, register: Any) -> None:
            register("mine", lambda request: Summary(text="mine", summarizer="mine"), default=True)

    pm = create_plugin_manager(environ={}, plugins=[("mine", Mine())])
    assert summarize(pm, setup.request()).summarizer == "mine"
    assert setup.server.requests == []
    explicit = setup.request(settings={"summarizer": "offline", "model": "local/sum-model"})
    assert summarize(pm, explicit).summarizer == "offline"  # an explicit choice wins


def test_without_a_registry_models_json_of_tether_home_is_used(
    setup: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup.models()
    monkeypatch.setenv("TETHER_HOME", str(setup.home))
    setup.server.text("from home")
    summary = summarize(setup.pm, setup.request(registry=None))
    assert summary.text == "from home"
    assert setup.server.last_request.body["model"] == "sum-model"
