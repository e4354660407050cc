"""A loopback OpenAI server that reads a file per prompt, and a harness on it (pruning tests).

The model answers a user message ``read FILE`` with a ``read`` tool call and the tool's result
with ``done``; every streamed request is kept, so a test compares what was sent call by call.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.harness_helpers import PROVIDER, open_harness, plugin_manager, use_home, write_home
from tests.servers.base import Reply, ToolCall, Usage
from tests.servers.openai_server import OpenAIServer

WINDOW = 32000


def text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(p.get("text", "") for p in content or [] if isinstance(p, dict))


def prompt_tokens(body: dict[str, Any]) -> int:
    """chars/4 of the request's messages (what the test server reports as usage)."""
    return sum(len(text_of(m.get("content"))) for m in body.get("messages", [])) // 4


def responder(body: dict[str, Any], *, same_ids: bool = False) -> Reply:
    """``same_ids``: every tool call has the id ``call_0`` (as some local servers do)."""
    messages = body.get("messages", [])
    last = messages[-1] if messages else {}
    usage = Usage(input=prompt_tokens(body), output=5)
    if last.get("role") == "user" and text_of(last.get("content")).startswith("read "):
        path = text_of(last["content"]).split()[1]
        call_id = "call_0" if same_ids else f"call_{len(messages)}"
        return Reply(tool_calls=[ToolCall("read", {"path": path}, id=call_id)], usage=usage)
    return Reply(text="done", usage=usage)


def write_files(cwd: Path, count: int, size: int = 8000) -> list[str]:
    """``count`` text files of ``size`` characters each (distinct lines)."""
    names = []
    for n in range(count):
        name = f"file{n:02d}.txt"
        lines = [f"file {n} line {i}: " + "lorem ipsum dolor sit amet " * 2 for i in range(400)]
        (cwd / name).write_text("\n".join(lines)[:size])
        names.append(name)
    return names


def start_server(*, same_ids: bool = False) -> OpenAIServer:
    server = OpenAIServer()
    server.responder = lambda body: responder(body, same_ids=same_ids)
    return server


def prune_home(tmp_path: Path, server: Any, monkeypatch: Any, **prune: Any) -> Path:
    """A home whose model is the loopback server's (window 32k) with ``compaction.prune``."""
    settings = {"compaction": {"prune": {"keepToolTokens": 3000, "minFreeTokens": 2000, **prune}}}
    home = write_home(tmp_path / "home", server, settings=settings, contextWindow=WINDOW)
    return use_home(home, monkeypatch)


def harness_on(cwd: Path, home: Path, session: Any = None) -> Any:
    kwargs = {"session": session} if session is not None else {}
    return open_harness(plugin_manager(), cwd, home, model=f"{PROVIDER}/test-model", **kwargs)


def sent_messages(server: Any) -> list[list[dict[str, Any]]]:
    """The messages of every streamed (turn) request, in order."""
    return [r.body["messages"] for r in server.requests if r.body.get("stream")]


def starts_with(longer: list[Any], prefix: list[Any]) -> bool:
    return json.dumps(longer[: len(prefix)]) == json.dumps(prefix)


__all__ = [
    "harness_on",
    "prune_home",
    "sent_messages",
    "start_server",
    "starts_with",
    "text_of",
    "write_files",
]
