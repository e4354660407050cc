"""Loopback LLM API servers for end-to-end tests (real HTTP on 127.0.0.1, scripted replies).

Fixtures ``openai_server`` / ``anthropic_server`` live in ``tests/conftest.py``::

    def test_x(openai_server):
        openai_server.text("Hello!")                      # queue one streamed/JSON answer
        openai_server.tool_calls(ToolCall("read", {"path": "a.txt"}))
        openai_server.error(429, "slow down", headers={"retry-after": "2"})
        openai_server.overflow()                           # 400 in the provider's wording
        openai_server.reply(text="partial", cut_after=3)   # connection dropped mid-stream
        ... point a model at openai_server.base_url ...
        body = openai_server.last_request.body             # every request is recorded

Hostile replies (keep-alive-only streams, error bodies that echo the key) come from
``tests.servers.adversarial``.
"""

from __future__ import annotations

from tests.servers.anthropic_server import AnthropicServer
from tests.servers.base import RecordedRequest, Reply, ScriptedServer, ToolCall, Usage
from tests.servers.openai_server import OpenAIServer

__all__ = [
    "AnthropicServer",
    "OpenAIServer",
    "RecordedRequest",
    "Reply",
    "ScriptedServer",
    "ToolCall",
    "Usage",
]
