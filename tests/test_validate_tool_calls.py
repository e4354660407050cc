"""``session show --validate`` and tool calls left without a result on the current branch:
warnings (exit 0), since pi's own files hold them and a request sends ``No result provided`` in
their place; the warning says whether later messages follow or the branch ends there. Calls of
an ``error``/``aborted`` assistant message (never sent) and calls on other branches are not
reported."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.store_helpers import GEN

HEADER = {"type": "session", "version": 3, "id": "s1", "timestamp": "2025-01-01T00:00:00.000Z"}


def _entries(*messages: tuple[str, str | None, dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for number, (entry_id, parent, message) in enumerate(messages, 1):
        stamp = f"2025-01-01T00:00:{number:02d}.000Z"
        message = {"timestamp": 1735689600000 + number * 1000, **message}
        entry = {"type": "message", "id": entry_id, "parentId": parent, "timestamp": stamp}
        out.append({**entry, "message": message})
    return out


def _user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def _calls(*ids: str, stop: str = "toolUse") -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": [{"type": "toolCall", "id": i, "name": "bash", "arguments": {}} for i in ids],
        "api": "openai-completions",
        "provider": "test",
        "model": "m",
        "usage": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2},
        "stopReason": stop,
    }


def _result(call_id: str) -> dict[str, Any]:
    content = [{"type": "text", "text": "ok"}]
    return {"role": "toolResult", "toolCallId": call_id, "toolName": "bash", "content": content}


def _show(tmp_path: Path, capsys: Any, entries: list[dict[str, Any]]) -> tuple[int, str]:
    from tether.core.cli.app import main

    file = tmp_path / "s.jsonl"
    file.write_text("".join(json.dumps(r) + "\n" for r in [HEADER, *entries]))
    code = main(["session", "show", "--validate", str(file)])
    return code, capsys.readouterr().out


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TETHER_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("TETHER_STORE", raising=False)


def test_unanswered_calls_are_warnings_that_say_where_they_stand(
    tmp_path: Path, capsys: Any
) -> None:
    entries = _entries(  # the last entry is the leaf: the branch is u1 a1 r1 u2 a2 u3 a3
        ("u1", None, _user("go")),
        ("a1", "u1", _calls("c1", "c2")),
        ("x1", "u1", _calls("c9")),  # another branch: not counted
        ("r1", "a1", _result("c1")),  # c2 never answered, then the user goes on
        ("u2", "r1", _user("next")),
        ("a2", "u2", _calls("c3", stop="aborted")),  # never sent: not counted
        ("u3", "a2", _user("again")),
        ("a3", "u3", _calls("c4")),  # the branch ends on it
    )
    code, out = _show(tmp_path, capsys, entries)
    assert code == 0, out
    assert "problems:  0; warnings: 2" in out
    warned = [line.strip() for line in out.splitlines() if line.strip().startswith("warning:")]
    assert len(warned) == 2, warned
    assert warned[0].endswith(
        "entry a1: message.content[1]: tool call c2 (bash) has no result before the next "
        "message; it is sent as an error result 'No result provided'"
    )
    assert (
        ":9: entry a3: message.content[0]: tool call c4 (bash) has no result and the "
        in (warned[1])
    )
    assert "the branch ends here" in warned[1]


def test_every_call_answered_is_no_warning(tmp_path: Path, capsys: Any) -> None:
    entries = _entries(
        ("u1", None, _user("go")),
        ("a1", "u1", _calls("c1", "c2")),
        ("r2", "a1", _result("c2")),  # results in any order
        ("r1", "r2", _result("c1")),
    )
    code, out = _show(tmp_path, capsys, entries)
    assert code == 0 and "problems:  none" in out, out


def test_a_pi_file_with_steered_calls_still_validates(tmp_path: Path, capsys: Any) -> None:
    from tether.core.cli.app import main

    code = main(["session", "show", "--validate", str(GEN / "g16-branched.jsonl")])
    out = capsys.readouterr().out
    assert code == 0 and "problems:  0; warnings: 3" in out, out
    assert out.count("has no result before the next message") == 3
