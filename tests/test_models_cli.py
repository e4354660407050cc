"""``tether models`` and what each kind of OpenAI-compatible model is sent (pi's ``compat``
rules: ``developer`` role, ``store``, ``max_completion_tokens``/``max_tokens``, reasoning
fields), as real processes against the loopback OpenAI-compatible server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli_in_process import run_in_process
from tests.harness_helpers import NO_THIRD_PARTY, chat_requests, run_tether, write_home


def _providers(server: Any) -> dict[str, Any]:
    """Several providers on one loopback server: the names and compat fields decide."""
    url = server.base_url

    def provider(*models: dict[str, Any], **fields: Any) -> dict[str, Any]:
        return {"baseUrl": url, "api": "openai-completions", "apiKey": "k", "models": list(models)}

    strict = {"supportsDeveloperRole": False, "supportsStore": False}
    return {
        "std": provider({"id": "chat-model"}, {"id": "thinker", "reasoning": True}),
        "strict": {
            **provider(
                {"id": "thinker", "reasoning": True, "compat": {"maxTokensField": "max_tokens"}},
                {"id": "other", "reasoning": True, "compat": {"supportsReasoningEffort": False}},
            ),
            "compat": strict,  # provider-level: every model; model-level fields add to it
        },
        "deepseek": provider({"id": "deepseek-reasoner", "reasoning": True}),
        "openrouter": provider({"id": "vendor/thinker", "reasoning": True}),
        "openai": {"baseUrl": url, "apiKey": "k"},  # the built-in catalog, on the loopback
    }


def _sent(
    server: Any, home: Path, tmp_path: Path, ref: str, thinking: str = "high", process: bool = False
) -> Any:
    """The request body ``run --model REF`` sends: in this process (the first test's first
    run is a real process; the compat rules are the same code either way)."""
    server.text("ok")
    run = run_tether if process else run_in_process
    done = run(
        "run", "--no-session", "--model", ref, "--thinking", thinking, "hi", home=home, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    return chat_requests(server)[-1]


@pytest.fixture
def home(tmp_path: Path, openai_server: Any) -> Path:
    home = write_home(tmp_path / "home")
    (home / "models.json").write_text(json.dumps({"providers": _providers(openai_server)}))
    return home


def test_plain_and_reasoning_models_on_a_standard_server(openai_server, home, tmp_path):
    plain = _sent(openai_server, home, tmp_path, "std/chat-model", process=True)
    assert plain["messages"][0]["role"] == "system"
    assert plain["max_completion_tokens"] == 16384 and "max_tokens" not in plain
    assert plain["store"] is False and "reasoning_effort" not in plain
    thinker = _sent(openai_server, home, tmp_path, "std/thinker")
    assert thinker["messages"][0]["role"] == "developer"
    assert thinker["max_completion_tokens"] == 16384 and thinker["store"] is False
    assert thinker["reasoning_effort"] == "high"
    quiet = _sent(openai_server, home, tmp_path, "std/thinker", thinking="off")
    assert quiet["messages"][0]["role"] == "developer" and "reasoning_effort" not in quiet


def test_compat_fields_of_models_json_win(openai_server, home, tmp_path):
    thinker = _sent(openai_server, home, tmp_path, "strict/thinker")
    assert thinker["messages"][0]["role"] == "system" and "store" not in thinker
    assert thinker["max_tokens"] == 16384 and "max_completion_tokens" not in thinker
    assert thinker["reasoning_effort"] == "high"
    other = _sent(openai_server, home, tmp_path, "strict/other")
    assert other["messages"][0]["role"] == "system" and "store" not in other
    assert "max_completion_tokens" in other and "reasoning_effort" not in other


def test_provider_names_pick_pis_defaults(openai_server, home, tmp_path):
    deepseek = _sent(openai_server, home, tmp_path, "deepseek/deepseek-reasoner")
    assert deepseek["messages"][0]["role"] == "system" and "store" not in deepseek
    assert deepseek["thinking"] == {"type": "enabled"} and deepseek["reasoning_effort"] == "high"
    routed = _sent(openai_server, home, tmp_path, "openrouter/vendor/thinker", thinking="low")
    assert routed["reasoning"] == {"effort": "low"} and "reasoning_effort" not in routed
    assert routed["messages"][0]["role"] == "developer"


def test_openais_reasoning_models_are_known_without_configuration(openai_server, home, tmp_path):
    o3 = _sent(openai_server, home, tmp_path, "openai/o3", thinking="medium")
    assert o3["model"] == "o3" and o3["messages"][0]["role"] == "developer"
    assert o3["max_completion_tokens"] == 32000 and o3["store"] is False  # min(100000, 32000)
    assert o3["reasoning_effort"] == "medium"
    gpt = _sent(openai_server, home, tmp_path, "openai/gpt-4o")
    assert gpt["messages"][0]["role"] == "system" and "reasoning_effort" not in gpt


def test_models_lists_windows_limits_reasoning_inputs_and_keys(home, tmp_path):
    env = {"OPENROUTER_API_KEY": "", "ANTHROPIC_API_KEY": "sk-present", **NO_THIRD_PARTY}
    listed = run_tether("models", "--json", home=home, cwd=tmp_path, env=env)
    assert listed.returncode == 0, listed.stderr
    providers = {p["name"]: p for p in json.loads(listed.stdout)["providers"]}
    o3 = next(m for m in providers["openai"]["models"] if m["id"] == "o3")
    assert (o3["contextWindow"], o3["maxTokens"], o3["reasoning"]) == (200000, 100000, True)
    assert o3["input"] == ["text", "image"]
    assert providers["std"]["key"] == "present"  # an apiKey in models.json
    assert providers["anthropic"]["key"] == "present"
    assert providers["anthropic"]["keyEnv"] == "ANTHROPIC_API_KEY"
    assert providers["ollama"]["key"] == "not needed"
    assert providers["anthropic"]["models"][0]["id"] is None  # any id, with these values
    assert providers["anthropic"]["models"][0]["contextWindow"] == 200000
    text = run_tether("models", "thinker", home=home, cwd=tmp_path, env={"OPENAI_API_KEY": ""})
    lines = text.stdout.splitlines()
    assert lines[0].split() == ["MODEL", "CONTEXT", "MAX", "OUT", "REASONING", "INPUT", "KEY"]
    assert [line.split()[0] for line in lines[1:]] == [
        "std/thinker",
        "strict/thinker",
        "openrouter/vendor/thinker",
    ]
    assert "yes" in lines[1].split()
    missing = run_tether("models", "gpt-5", home=home, cwd=tmp_path, env={"OPENAI_API_KEY": ""})
    assert "missing: set OPENAI_API_KEY" not in missing.stdout  # models.json gave openai a key
