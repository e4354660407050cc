"""The LLM summarizer's failures: the typed error of the call, with configured keys hidden
(a provider that quotes the key it was sent must not put it in the raised error)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.servers import OpenAIServer
from tether.builtin_plugins.memory import llm_summarizer
from tether.builtin_plugins.providers.models.registry import ProviderRegistry
from tether.core.host.manager import create_plugin_manager
from tether.hookspecs.abort import AbortSignal
from tether.hookspecs.events import SummarizeRequest
from tether.hookspecs.providers import AbortedError, PermanentError, ProviderConfigError

KEY = "sk-summary-0123456789abcdef"


def request(server: OpenAIServer, home: Path, provider: dict[str, Any], **fields: Any) -> Any:
    """A compaction request for ``local/sum-model`` of a models.json provider ``provider``."""
    entry = {"baseUrl": server.base_url, "api": "openai-completions", **provider}
    entry["models"] = [server.model_entry("sum-model")]
    (home / "models.json").write_text(json.dumps({"providers": {"local": entry}}))
    registry = ProviderRegistry(create_plugin_manager(environ={}), home=home, environ={})
    messages = [{"role": "user", "content": "Fix src/parse.py.", "timestamp": 1}]
    return SummarizeRequest(
        kind="compaction",
        messages=messages,  # type: ignore[arg-type]
        settings={"model": "local/sum-model"},
        registry=registry,
        **fields,
    )


def test_a_key_the_provider_quotes_is_redacted_in_the_raised_error(
    openai_server: OpenAIServer, tmp_path: Path
) -> None:
    openai_server.error(401, f"Incorrect API key provided: {KEY}")
    with pytest.raises(PermanentError) as caught:
        llm_summarizer.summarize(request(openai_server, tmp_path, {"apiKey": KEY}))
    assert openai_server.requests[-1].headers["authorization"] == f"Bearer {KEY}"
    assert KEY not in str(caught.value)
    assert "Incorrect API key provided: [redacted]" in str(caught.value)


def test_a_missing_key_is_a_config_error_and_nothing_is_sent(
    openai_server: OpenAIServer, tmp_path: Path
) -> None:
    summary_request = request(openai_server, tmp_path, {"apiKeyEnv": "SUMMARY_TEST_KEY"})
    with pytest.raises(ProviderConfigError, match="no API key for provider 'local'"):
        llm_summarizer.summarize(summary_request)
    assert openai_server.requests == []


def test_an_aborted_signal_raises_aborted(openai_server: OpenAIServer, tmp_path: Path) -> None:
    signal = AbortSignal()
    signal.abort()
    with pytest.raises(AbortedError):
        llm_summarizer.summarize(request(openai_server, tmp_path, {}, signal=signal))
    assert openai_server.requests == []
