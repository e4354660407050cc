"""A tool may annotate the messages sent while it is offered (``FunctionTool.annotate_context``):
the request changes, the session does not. The ``recall`` tool's span note is one."""

from __future__ import annotations

from typing import Any

import tether
from tether.testing import faux_session

SEEN: list[Any] = []


def _mark(messages: list[dict[str, Any]], session: Any) -> list[dict[str, Any]]:
    SEEN.append(session.file)
    last = messages[-1]
    note = {"type": "text", "text": "[offered: ping]"}
    return [*messages[:-1], {**last, "content": [*last["content"], note]}]


class PingPlugin:
    @tether.hookimpl
    def register_tools(self, register: Any) -> None:
        register(
            tether.FunctionTool(
                name="ping",
                description="Answer pong.",
                parameters={"type": "object", "properties": {}},
                run=lambda _id, _args, _ctx: tether.ToolResult.text("pong"),
                annotate_context=_mark,
            )
        )


def test_an_offered_tool_annotates_what_is_sent_not_what_is_stored() -> None:
    SEEN.clear()
    with faux_session(plugins=[("ping", PingPlugin())], script=["Hi."]) as t:
        t.prompt("hello")
        sent = t.requests[-1].messages
        assert sent[-1]["role"] == "user"
        assert [b["text"] for b in sent[-1]["content"]] == ["hello", "[offered: ping]"]
        stored = [m for m in t.context() if m["role"] == "user"]
        assert "[offered" not in str(stored)
        assert SEEN == [t.file]  # the running session, as hooks see it


def test_a_disabled_tool_annotates_nothing() -> None:
    with faux_session(plugins=[("ping", PingPlugin())], script=["Hi."], disabled=["ping"]) as t:
        t.prompt("hello")
        assert "[offered" not in str(t.requests[-1].messages)
