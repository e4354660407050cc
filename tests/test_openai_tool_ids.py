"""Tool-call ids reach OpenAI-compatible endpoints as pi's openai-completions adapter sends
them: a call made by another model keeps the part of its id before ``|``, characters outside
``[A-Za-z0-9_-]`` become ``_``, and it is cut to 40; its tool result follows."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.harness_helpers import chat_requests, open_harness, plugin_manager, write_home
from tether.builtin_plugins.providers.http.calls import prepared_context
from tether.builtin_plugins.providers.openai.completions import convert_messages
from tether.builtin_plugins.providers.openai.tool_ids import tool_call_id
from tether.core.session.session import Session
from tether.hookspecs.providers import LlmContext, Model

# what the OpenAI Responses API writes ({call_id}|{item id}), 440 characters
CALL_PART = "call_Zx9+Qw/Er=Ty_Ui-Op" + "+/=" * 9  # 50 characters before the ``|``
LONG_ID = CALL_PART + "|fc_" + "aB3+/9z=" * 48 + "x" * 2
SENT_ID = re.sub(r"[^A-Za-z0-9_-]", "_", CALL_PART)[:40]
OTHER = {"api": "openai-responses", "provider": "github-copilot", "model": "gpt-5"}


def test_the_mapping_follows_pi() -> None:
    assert len(LONG_ID) == 440
    assert tool_call_id(LONG_ID, "loop") == SENT_ID == "call_Zx9_Qw_Er_Ty_Ui-Op" + "_" * 17
    assert tool_call_id("a😀b|x", "loop") == "a__b"  # JavaScript counts UTF-16 units
    assert tool_call_id("c" * 50, "openai") == "c" * 40  # no ``|``: only openai's are cut
    assert tool_call_id("c+/" * 20, "loop") == "c+/" * 20
    assert tool_call_id("call_ok", "openai") == "call_ok"


def _assistant(call_id: str, **source: Any) -> dict[str, Any]:
    call = {"type": "toolCall", "id": call_id, "name": "read", "arguments": {"path": "a.txt"}}
    usage = {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2}
    return {
        "role": "assistant",
        "content": [call],
        **(source or OTHER),
        "usage": usage,
        "stopReason": "toolUse",
        "timestamp": 2,
    }


def _result(call_id: str) -> dict[str, Any]:
    return {
        "role": "toolResult",
        "toolCallId": call_id,
        "toolName": "read",
        "content": [{"type": "text", "text": "hello"}],
        "isError": False,
        "timestamp": 3,
    }


def _user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": 1}


def test_a_call_and_its_result_get_the_same_id_in_the_request() -> None:
    model = Model(provider="loop", id="test-model", api="openai-completions", base_url="http://x")
    same = {"api": "openai-completions", "provider": "loop", "model": "test-model"}
    messages = [
        _user("read it"),
        _assistant(LONG_ID),
        _result(LONG_ID),
        _assistant("own|id+kept", **same),  # the model being called: its ids stay
        _result("own|id+kept"),
        _assistant("orphan+/=|" + "q" * 300),  # no result: pi adds one, with the new id
        _user("thanks"),
    ]
    body = convert_messages(model, prepared_context(model, LlmContext("", messages)))
    calls = [m["tool_calls"][0]["id"] for m in body if m.get("tool_calls")]
    results = [m["tool_call_id"] for m in body if m["role"] == "tool"]
    assert calls == [SENT_ID, "own|id+kept", "orphan___"]
    assert results == calls


def test_a_session_of_another_provider_reaches_the_endpoint_with_pis_ids(
    openai_server: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("TETHER_HOME", str(home))
    monkeypatch.setenv("TETHER_FSYNC", "0")
    write_home(home, openai_server)
    file = tmp_path / "copilot.jsonl"
    session = Session.open(file, create=True, cwd=str(tmp_path), fsync=False)
    for message in (_user("read a.txt"), _assistant(LONG_ID), _result(LONG_ID)):
        session.append_message(message)
    openai_server.text("It says hello.")
    with open_harness(plugin_manager(), tmp_path, home, "loop/test-model", session=session) as h:
        h.prompt("what does it say?")
    [body] = chat_requests(openai_server)
    [call] = [m for m in body["messages"] if m.get("tool_calls")]
    [result] = [m for m in body["messages"] if m["role"] == "tool"]
    assert call["tool_calls"][0]["id"] == result["tool_call_id"] == SENT_ID
    assert LONG_ID not in json.dumps(body)
    stored = [json.loads(line) for line in file.read_text().splitlines()]
    assert LONG_ID in {e.get("message", {}).get("toolCallId") for e in stored}  # file unchanged
