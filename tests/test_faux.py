"""The offline ``faux`` provider: deterministic default answers and JSON scripts."""

from __future__ import annotations

import json
import math
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tether.builtin_plugins.providers import faux as provider_faux
from tether.builtin_plugins.providers.faux.provider import FauxProvider
from tether.builtin_plugins.providers.models.registry import ProviderRegistry
from tether.core.host.manager import create_plugin_manager
from tether.hookspecs.abort import AbortSignal
from tether.hookspecs.providers import (
    AbortedError,
    ContextOverflowError,
    LlmContext,
    PermanentError,
    ProviderConfigError,
    StreamOptions,
    TransientError,
    drain,
)


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": 1}


@pytest.fixture
def reg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ProviderRegistry:
    monkeypatch.delenv("TETHER_FAUX_SCRIPT", raising=False)
    pm = create_plugin_manager(
        load_entry_points=False, plugins=[("provider_faux", provider_faux)], environ={}
    )
    return ProviderRegistry(pm, home=tmp_path, environ={})


def test_default_answer_streams_and_estimates_usage(reg: ProviderRegistry) -> None:
    model, adapter = reg.resolve(provider="faux")
    context = LlmContext("Be nice.", [user("What is in a.txt?")])
    events = list(reg.stream(model, context))
    assert events[0].type == "start" and events[-1].type == "done"
    text = "You said: What is in a.txt?"
    assert "".join(e.delta for e in events if e.type == "text_delta") == text
    assert len([e for e in events if e.type == "text_delta"]) > 1  # really streamed
    message = events[-1].message
    assert message["content"] == [{"type": "text", "text": text}]
    assert (message["api"], message["provider"], message["model"]) == ("faux", "faux", "faux-1")
    prompt = "Be nice.\n\nuser:What is in a.txt?"
    assert message["usage"]["input"] == math.ceil(len(prompt) / 4)  # pi's chars/4
    assert message["usage"]["output"] == math.ceil(len(text) / 4)
    assert message["stopReason"] == "stop"
    assert adapter.last_context is context


def final(reg: ProviderRegistry, model: Any, context: LlmContext) -> dict[str, Any]:
    """The final message of one call through the registry."""
    return drain(reg.stream(model, context))[0]


def test_default_answer_after_a_tool_result(reg: ProviderRegistry) -> None:
    model, _ = reg.resolve("faux/faux-1")
    result = {
        "role": "toolResult",
        "toolCallId": "c",
        "toolName": "read",
        "isError": False,
        "content": [{"type": "text", "text": "line one\nline two"}],
        "timestamp": 2,
    }
    message = final(reg, model, LlmContext("", [user("read"), result]))
    assert message["content"][0]["text"] == "Tool read returned: line one, line two"


def test_inline_script_is_consumed_in_order(
    reg: ProviderRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = [
        {
            "thinking": "I need the file.",
            "text": "Reading.",
            "toolCalls": [
                {"name": "read", "arguments": {"path": "a.txt"}, "id": "c1"},
                {"name": "ls", "arguments": {}},
            ],
        },
        "It says hello.",
        {"text": "cut short", "stopReason": "length", "usage": {"input": 900, "output": 0}},
    ]
    monkeypatch.setenv("TETHER_FAUX_SCRIPT", json.dumps(script))
    model, _ = reg.resolve(provider="faux")
    context = LlmContext("", [user("go")])
    first = final(reg, model, context)
    assert first["content"][:2] == [
        {"type": "thinking", "thinking": "I need the file."},
        {"type": "text", "text": "Reading."},
    ]
    assert first["content"][2] == {
        "type": "toolCall",
        "id": "c1",
        "name": "read",
        "arguments": {"path": "a.txt"},
    }
    assert first["content"][3]["name"] == "ls" and first["content"][3]["id"]
    assert first["stopReason"] == "toolUse"
    assert final(reg, model, context)["content"] == [{"type": "text", "text": "It says hello."}]
    third = final(reg, model, context)
    assert third["stopReason"] == "length"
    assert (third["usage"]["input"], third["usage"]["output"]) == (900, 0)
    assert final(reg, model, context)["content"][0]["text"] == "You said: go"  # exhausted


def test_script_file_and_error_steps(
    reg: ProviderRegistry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = tmp_path / "script.json"
    script.write_text(
        json.dumps(
            {
                "steps": [
                    {
                        "error": {
                            "kind": "transient",
                            "message": "529 Overloaded",
                            "status": 529,
                            "retryAfter": 2,
                        }
                    },
                    {"error": {"kind": "overflow", "message": "prompt is too long: 9 > 5"}},
                    {"error": "no such model"},
                    "recovered",
                ]
            }
        )
    )
    monkeypatch.setenv("TETHER_FAUX_SCRIPT", str(script))
    model, adapter = reg.resolve(provider="faux")
    context = LlmContext("", [user("x")])
    results = [drain(adapter.stream(model, context, StreamOptions())) for _ in range(4)]
    (m1, e1), (m2, e2), (m3, e3), (m4, e4) = results
    assert isinstance(e1, TransientError) and (e1.status, e1.retry_after) == (529, 2)
    assert (m1["stopReason"], m1["errorMessage"]) == ("error", "529 Overloaded")
    assert isinstance(e2, ContextOverflowError)
    assert isinstance(e3, PermanentError) and m3["errorMessage"] == "no such model"
    assert e4 is None and m4["content"][0]["text"] == "recovered"


def test_script_from_models_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TETHER_FAUX_SCRIPT", raising=False)
    (tmp_path / "models.json").write_text(
        json.dumps(
            {
                "providers": {
                    "faux": {
                        "models": [
                            {"id": "faux-small", "contextWindow": 2000, "script": ["small answer"]}
                        ]
                    }
                }
            }
        )
    )
    pm = create_plugin_manager(
        load_entry_points=False, plugins=[("provider_faux", provider_faux)], environ={}
    )
    reg = ProviderRegistry(pm, home=tmp_path, environ={})
    model, _ = reg.resolve("faux/faux-small")
    assert model.context_window == 2000
    assert final(reg, model, LlmContext("", [user("q")]))["content"][0]["text"] == "small answer"
    assert reg.resolve("faux/faux-1")[0].id == "faux-1"  # the built-in one is still there


def test_bad_script_is_an_error_event(
    reg: ProviderRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TETHER_FAUX_SCRIPT", "[not json")
    model, _ = reg.resolve(provider="faux")
    message, error = drain(reg.stream(model, LlmContext("", [user("q")])))
    assert isinstance(error, ProviderConfigError)
    assert message["stopReason"] == "error"
    assert "TETHER_FAUX_SCRIPT" in message["errorMessage"]


def test_abort_slow_faux_stream(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TETHER_FAUX_SCRIPT", json.dumps([{"text": "x" * 600, "chunkDelayMs": 50}]))
    model, adapter = ProviderRegistry(
        create_plugin_manager(
            load_entry_points=False, plugins=[("provider_faux", provider_faux)], environ={}
        ),
        home=tmp_path,
        environ={},
    ).resolve(provider="faux")
    assert isinstance(adapter, FauxProvider)
    signal = AbortSignal()
    threading.Timer(0.2, signal.abort).start()
    started = time.monotonic()
    message, error = drain(
        adapter.stream(model, LlmContext("", [user("q")]), StreamOptions(signal=signal))
    )
    assert time.monotonic() - started < 1.0  # the whole answer would take 2.5 s
    assert isinstance(error, AbortedError) and message["stopReason"] == "aborted"
    assert 0 < len(message["content"][0]["text"]) < 600


def test_offline_demo_lists_files_with_the_ls_tool(reg: ProviderRegistry) -> None:
    model, _ = reg.resolve("faux/faux-1")
    tools = [{"name": "ls", "description": "list", "parameters": {}}]
    ask = LlmContext("", [user("please list the files here")], tools)
    message = final(reg, model, ask)
    assert message["stopReason"] == "toolUse"
    assert message["content"][0]["name"] == "ls"
    assert message["content"][0]["arguments"] == {"path": "."}
    injected = LlmContext("", [user("please list the files here"), user("branch: main")], tools)
    assert final(reg, model, injected)["content"][0]["name"] == "ls"
    no_tool = final(reg, model, LlmContext("", [user("please list the files here")]))
    assert no_tool["content"][0]["text"] == "You said: please list the files here"
