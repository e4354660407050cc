"""Issue 8, item 8 (duplication): the helpers that replaced repeated code, and the behaviour
they must keep (tool definitions as before, the providers' end-of-stream errors, …)."""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import Any

import pytest

from tether.builtin_plugins import commands
from tether.builtin_plugins.commands import compaction, context
from tether.builtin_plugins.providers.anthropic.messages import AnthropicAssembler
from tether.builtin_plugins.providers.openai.completions import OpenAIAssembler
from tether.core.session.reader import bulk
from tether.hookspecs.providers import (
    ContextOverflowError,
    LlmContext,
    Model,
    PermanentError,
    TransientError,
)

TOOLS = ("bash", "edit", "find", "grep", "ls", "read", "write")
FIXTURE = Path(__file__).parent / "fixtures" / "tools" / "builtin_tool_definitions.json"


def _tool(name: str) -> Any:
    module = __import__(f"tether.builtin_plugins.tools.{name}.tool", fromlist=["_"])
    return getattr(module, f"make_{name}_tool")()


def test_builtin_tools_are_defined_exactly_as_before_through_one_scaffold() -> None:
    expected = json.loads(FIXTURE.read_text(encoding="utf-8"))  # taken from the code before
    fields = ("name", "label", "description", "parameters", "prompt_snippet")
    fields += ("prompt_guidelines", "execution_mode")
    for name in TOOLS:
        tool = _tool(name)
        got = {field: getattr(tool, field) for field in fields}
        # key order too: the schema is sent to the model as JSON
        assert json.dumps(got) == json.dumps(expected[name]), name
        assert tool.parameters["type"] == "object"


def test_the_scaffold_builds_schemas_and_tools() -> None:
    from tether.builtin_plugins.tools._shared import scaffold

    schema = scaffold.object_schema({"a": scaffold.param("string", "A")}, ["a"], closed=True)
    assert schema == {
        "type": "object",
        "properties": {"a": {"type": "string", "description": "A"}},
        "required": ["a"],
        "additionalProperties": False,
    }
    assert "required" not in scaffold.object_schema({})
    tool = scaffold.builtin_tool("t", lambda *a: None, "d", schema, "s")  # type: ignore[arg-type,return-value]
    assert (tool.label, tool.prompt_snippet, tool.prompt_guidelines) == ("t", "s", [])


def _model(api: str) -> Model:
    return Model(provider="p", id="m", api=api, base_url="http://127.0.0.1:9")


@pytest.mark.parametrize("cls", [AnthropicAssembler, OpenAIAssembler])
def test_the_http_adapters_share_one_end_of_stream_check(cls: type[Any]) -> None:
    assert "finish" not in vars(cls)  # the check lives once, in the base
    api = "anthropic-messages" if cls is AnthropicAssembler else "openai-completions"
    asm = cls(_model(api), LlmContext(system_prompt="", messages=[]))
    with pytest.raises(TransientError, match="stream ended before"):
        asm.finish()
    asm.finish(failed=True)  # a failed call is not checked


def _stopped_with_error(cls: type[Any], text: str) -> Any:
    api = "anthropic-messages" if cls is AnthropicAssembler else "openai-completions"
    asm = cls(_model(api), LlmContext(system_prompt="", messages=[]))
    asm.complete = lambda: True  # type: ignore[method-assign]
    asm.message["stopReason"] = "error"
    asm.message["errorMessage"] = text
    return asm


def test_an_error_stop_is_permanent_and_openai_names_an_overflow() -> None:
    overflow = "This model's maximum context length is 8192 tokens"
    with pytest.raises(PermanentError) as anthropic:
        _stopped_with_error(AnthropicAssembler, overflow).finish()
    assert type(anthropic.value) is PermanentError  # unchanged: no overflow test here
    with pytest.raises(ContextOverflowError):
        _stopped_with_error(OpenAIAssembler, overflow).finish()
    with pytest.raises(PermanentError, match="boom"):
        _stopped_with_error(OpenAIAssembler, "boom").finish()


def test_session_commands_declare_their_parameters_once() -> None:
    for name in ("FileArg", "LeafOpt", "JsonOpt", "CounterOpt", "SESSION_HELP"):
        assert name not in vars(context), name  # context uses commands.<name>
        shared = getattr(commands, name)  # compaction imports it, or no longer needs it
        assert vars(compaction).get(name, shared) is shared, name
    from tether.builtin_plugins.commands import budgets  # the defaults of estimate and prepare

    for name in ("DEFAULT_KEEP", "DEFAULT_RESERVE", "DEFAULT_WINDOW"):
        assert getattr(budgets, name) is getattr(commands, name), name
        assert name not in vars(context) and name not in vars(compaction), name


def test_bulk_can_freeze_what_was_loaded() -> None:
    was_enabled = gc.isenabled()  # an in-process command of an earlier test may have left it off
    gc.enable()
    before = gc.get_freeze_count()
    try:
        with bulk(freeze=True):
            assert not gc.isenabled()
            kept = [[i] for i in range(100)]
        assert gc.isenabled() and gc.get_freeze_count() > before
        assert kept
    finally:
        gc.unfreeze()
        if not was_enabled:
            gc.disable()


def test_content_text_joins_the_text_blocks() -> None:
    from tether.core.context.content_text import content_text

    content = [
        {"type": "text", "text": "a"},
        {"type": "image", "data": "x"},
        {"type": "text"},
        {"type": "text", "text": "b"},
        "junk",
    ]
    assert content_text(content) == "ab"
    assert content_text(content, "\n") == "a\n\nb"
    assert content_text("plain") == "plain"
    assert content_text(None) == "" and content_text({"text": "x"}) == ""
    assert content_text([{"type": "text", "text": None}], "", lambda t: str(t or "?")) == "?"


def test_parse_json_object_is_none_for_blank_invalid_and_non_objects() -> None:
    from tether.core.storage.entry_table import parse_json_object

    assert parse_json_object(b'{"type":"session"}') == {"type": "session"}
    for raw in (b"", b"  ", b"{", b"[1]", b"3", b"NaN"):
        assert parse_json_object(raw) is None, raw
