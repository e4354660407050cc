"""``context`` hooks get a copy-on-access list: they pay only for the messages they read, and
none of them can change the session's stored messages (in place, by replacing or appending)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from tests.harness_helpers import open_harness, plugin_manager, read_entries, use_home
from tether import hookimpl
from tether.core.hooks.copy_on_access import CopyOnAccess, plain
from tether.core.hooks.facade import Hooks

FAUX = "faux/faux-1"


def stored_messages() -> list[dict[str, Any]]:
    return [
        {"role": "user", "content": [{"type": "text", "text": f"question {n}"}], "timestamp": n}
        for n in range(5)
    ]


class ReadsTheLast:
    @hookimpl
    def context(self, event: Any) -> None:
        event.messages[-1]["content"][0]["text"] += " (seen)"


def test_a_hook_pays_only_for_the_messages_it_reads() -> None:
    messages = stored_messages()
    before = copy.deepcopy(messages)
    hooks = Hooks(plugin_manager(("last", ReadsTheLast())))
    result = hooks.context(messages=messages, session=None)
    assert result.__class__ is list
    assert all(a is b for a, b in zip(result[:-1], messages[:-1], strict=True))  # not copied
    assert result[-1] is not messages[-1]
    assert result[-1]["content"][0]["text"] == "question 4 (seen)"
    assert messages == before


class Rewrites:
    @hookimpl
    def context(self, event: Any) -> None:
        for message in event.messages:
            message["content"][0]["text"] += " (edited)"
        event.messages[0] = {"role": "user", "content": "replaced", "timestamp": 0}
        event.messages.append({"role": "user", "content": "appended", "timestamp": 9})
        event.messages[1]["content"].append({"type": "text", "text": "more"})
        event.messages.sort(key=lambda m: -m["timestamp"])
        event.messages.pop()["content"] = "popped"


def test_in_place_edits_replacements_and_appends_never_reach_the_stored_messages() -> None:
    messages = stored_messages()
    before = copy.deepcopy(messages)
    hooks = Hooks(plugin_manager(("rewrites", Rewrites())))
    first = hooks.context(messages=messages, session=None)
    second = hooks.context(messages=messages, session=None)
    assert messages == before
    assert first == second  # the next call starts again from the stored messages
    assert [m["timestamp"] for m in first] == [9, 4, 3, 2, 1]
    assert first[-1]["content"][0]["text"] == "question 1 (edited)"
    assert first[-1]["content"][1] == {"type": "text", "text": "more"}


def test_every_way_of_reading_hands_out_copies() -> None:
    messages = stored_messages()
    before = copy.deepcopy(messages)
    readers = [
        lambda items: items[0],
        lambda items: items[-1],
        lambda items: items[1:3][0],
        lambda items: next(iter(items)),
        lambda items: next(reversed(items)),
        lambda items: items.copy()[2],
        lambda items: (items + [])[3],
        lambda items: ([] + items)[3],
        lambda items: (items * 2)[4],
        lambda items: list(items)[1],
        lambda items: [*items][2],
        lambda items: sorted(items, key=lambda m: m["timestamp"])[0],
        lambda items: copy.copy(items)[0],
        lambda items: items.pop(),
    ]
    for read in readers:
        items = CopyOnAccess(messages)
        got = read(items)
        got["content"][0]["text"] = "changed"
        got["timestamp"] = -1
        assert messages == before


def test_two_reads_of_one_item_give_the_same_copy() -> None:
    items = CopyOnAccess(stored_messages())
    assert items[0] is items[0]
    items[0]["timestamp"] = 42
    assert plain(items)[0]["timestamp"] == 42


class EditsThePrompt:
    def __init__(self) -> None:
        self.calls = 0

    @hookimpl
    def context(self, event: Any) -> None:
        self.calls += 1
        prompt = [m for m in event.messages if m["role"] == "user"][0]
        prompt["content"][0]["text"] += " [edited]"
        event.messages.append({"role": "user", "content": "extra", "timestamp": 1})


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return use_home(tmp_path / "home", monkeypatch)


def test_a_run_keeps_the_stored_entries_and_each_call_starts_afresh(
    home: Path, tmp_path: Path
) -> None:
    hook = EditsThePrompt()
    harness = open_harness(plugin_manager(("edits", hook)), tmp_path, home, FAUX)
    harness.prompt("first")
    harness.prompt("second")
    request = harness.registry.apis["faux"].last_context
    harness.close()
    assert hook.calls == 2
    texts = [m["content"][0]["text"] for m in request.messages if isinstance(m["content"], list)]
    assert texts[0] == "first [edited]"  # edited once, not once per call
    assert [m["content"] for m in request.messages].count("extra") == 1
    stored = [e["message"] for e in read_entries(harness.session.file) if e["type"] == "message"]
    assert [m["content"][0]["text"] for m in stored if m["role"] == "user"] == ["first", "second"]
    assert harness.agent.state.messages[0]["content"][0]["text"] == "first"


class ReadsTheFirst:
    @hookimpl
    def context(self, event: Any) -> None:
        assert len(event.messages) == 5
        assert event.messages[0]["role"] == "user"


def test_encoded_messages_are_parsed_only_when_a_hook_reads_them() -> None:
    """``session context`` with a ``context`` hook: the branch's messages stay encoded bytes
    (:class:`Pending`) except those a hook reads; a read one that still has its bytes does not
    make the context encoded twice."""
    from tether.builtin_plugins.storage.jsonl.context.encoded import EncodedContext, Pending

    messages = stored_messages()
    encoded = EncodedContext(iter(copy.deepcopy(messages)), keep_items=True)
    assert all(item.__class__ is Pending for item in encoded.items)
    hooks = Hooks(plugin_manager(("first", ReadsTheFirst())))
    result = hooks.context(messages=encoded.items, session=None)
    assert result[0] == messages[0] and result[0].__class__ is dict
    assert all(a is b for a, b in zip(result[1:], encoded.items[1:], strict=True))  # unparsed
    assert encoded.same_items(result)
    result[1] = dict(messages[1], content="changed")
    assert not encoded.same_items(result)
    again = EncodedContext(result)
    assert again.message_count == 5 and again.llm_count == 5
