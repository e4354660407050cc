"""The observation-masking strategy in force, through the installed plugin: ``tether session
compact`` (a real subprocess) writes a masking compaction and ``tether session context`` shows
every user and assistant message verbatim with the old tool outputs reduced to one line.

Run from the tether repository root:
``python -m pytest plugin_examples/tether-observation-masking``.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from tether_observation_masking.masking import STRATEGY, stub_for

from tether import Session
from tether.testing import run_cli

USAGE = {
    "input": 50,
    "output": 10,
    "cacheRead": 0,
    "cacheWrite": 0,
    "totalTokens": 60,
    "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0},
}


def tether(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real ``tether`` command, with the installed plugins (this one among them)."""
    return run_cli(*args, home=cwd / "home", cwd=cwd)


def project(directory: Path, compaction: dict[str, Any]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "home").mkdir(exist_ok=True)
    (directory / ".tether").mkdir(exist_ok=True)
    (directory / ".tether" / "settings.json").write_text(
        json.dumps({"compaction": {"summarizer": "offline", **compaction}}), encoding="utf-8"
    )
    return directory


def add_rounds(session: Session, first: int, count: int) -> None:
    """Turns that each read a long file: user, tool call, long output, answer."""
    for n in range(first, first + count):
        session.append_message(
            {
                "role": "user",
                "content": [{"type": "text", "text": f"look at module {n}"}],
                "timestamp": 1_700_000_000_000 + n,
            }
        )
        session.append_message(
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "toolCall",
                        "id": f"call_{n}",
                        "name": "read",
                        "arguments": {"path": f"src/module_{n}.py"},
                    }
                ],
                "api": "openai-completions",
                "provider": "openai",
                "model": "gpt-4o",
                "usage": USAGE,
                "stopReason": "toolUse",
                "timestamp": 1_700_000_000_000 + n,
            }
        )
        body = "\n".join(f"def function_{n}_{i}(): return {i}" for i in range(80))
        session.append_message(
            {
                "role": "toolResult",
                "toolCallId": f"call_{n}",
                "toolName": "read",
                "content": [{"type": "text", "text": body}],
                "isError": False,
                "timestamp": 1_700_000_000_000 + n,
            }
        )
        session.append_message(
            {"role": "assistant", "content": [{"type": "text", "text": f"module {n} is fine"}],
             "api": "openai-completions", "provider": "openai", "model": "gpt-4o",
             "usage": USAGE, "stopReason": "stop", "timestamp": 1_700_000_000_000 + n}
        )  # fmt: skip


def records(file: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in file.read_text(encoding="utf-8").splitlines()]


def context_messages(cwd: Path, file: Path) -> list[dict[str, Any]]:
    result = tether(cwd, "session", "context", str(file), "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["messages"]


def make_session(directory: Path, rounds: int) -> Path:
    file = directory / "session.jsonl"
    add_rounds(Session.open(file, create=True, cwd=str(directory)), 0, rounds)
    return file


def test_masking_keeps_every_message_and_stubs_old_tool_outputs(tmp_path: Path) -> None:
    cwd = project(tmp_path, {"strategy": STRATEGY, "keepRecentTokens": 400})
    file = make_session(tmp_path, 4)
    originals = [e["message"] for e in records(file)[1:]]
    result = tether(cwd, "session", "compact", str(file))
    assert result.returncode == 0, result.stderr
    assert "summarizer: offline" in result.stdout
    entries = records(file)[1:]
    compaction = entries[-1]
    assert compaction["type"] == "compaction"
    assert compaction["firstKeptEntryId"] == entries[0]["id"]  # nothing leaves the context
    masks = compaction["details"]["maskedToolResults"]
    assert compaction["details"]["strategy"] == STRATEGY
    assert sorted(masks) == ["call_0", "call_1", "call_2"]  # older than the kept window
    assert compaction["details"]["readFiles"] == [f"src/module_{n}.py" for n in range(3)]

    summary, *messages = context_messages(cwd, file)
    assert summary["role"] == "compactionSummary" and summary["summary"] == compaction["summary"]
    assert len(messages) == len(originals)
    for ours, original in zip(messages, originals, strict=True):
        if original["role"] == "toolResult" and original["toolCallId"] in masks:
            (block,) = ours["content"]
            assert block["text"] == masks[original["toolCallId"]] == stub_for(original)
            assert "\n" not in block["text"] and block["text"].startswith("[read output masked")
            assert {k: v for k, v in ours.items() if k != "content"} == {
                k: v for k, v in original.items() if k != "content"
            }
        else:  # every user and assistant message, and the recent tool output, verbatim
            assert ours == original


def test_pis_strategy_drops_the_old_messages_instead(tmp_path: Path) -> None:
    """The same session compacted without the setting: pi's strategy answers (the plugin is
    installed but not enabled) and the early user messages leave the context."""
    cwd = project(tmp_path, {"keepRecentTokens": 400})
    file = make_session(tmp_path, 4)
    result = tether(cwd, "session", "compact", str(file))
    assert result.returncode == 0, result.stderr
    compaction = records(file)[-1]
    assert "strategy" not in compaction["details"]
    texts = [json.dumps(m) for m in context_messages(cwd, file)[1:]]
    assert not any("look at module 0" in t for t in texts)


def test_repeated_masking_is_cumulative(tmp_path: Path) -> None:
    cwd = project(tmp_path, {"strategy": STRATEGY, "keepRecentTokens": 400})
    file = make_session(tmp_path, 4)
    assert tether(cwd, "session", "compact", str(file)).returncode == 0
    first = records(file)[-1]
    add_rounds(Session.open(file), 4, 3)
    second_run = tether(cwd, "session", "compact", str(file))
    assert second_run.returncode == 0, second_run.stderr
    second = records(file)[-1]
    assert set(first["details"]["maskedToolResults"]) < set(second["details"]["maskedToolResults"])
    assert sorted(second["details"]["maskedToolResults"]) == [f"call_{n}" for n in range(6)]
    assert second["firstKeptEntryId"] == first["firstKeptEntryId"]
    messages = context_messages(cwd, file)[1:]
    masked = [m for m in messages if m["role"] == "toolResult" and "masked" in json.dumps(m)]
    assert len(masked) == 6
    assert [m["content"][0]["text"] for m in messages if m["role"] == "user"] == [
        f"look at module {n}" for n in range(7)
    ]
    nothing = tether(cwd, "session", "compact", str(file))
    assert nothing.returncode == 0 and "nothing to compact" in nothing.stdout


def test_chosen_for_one_command_by_the_strategy_flag(tmp_path: Path) -> None:
    cwd = project(tmp_path, {"keepRecentTokens": 400})  # the setting names no strategy
    file = make_session(tmp_path, 4)
    done = tether(cwd, "session", "compact", str(file), "--strategy", STRATEGY)
    assert done.returncode == 0, done.stderr
    compaction = records(file)[-1]
    assert compaction["details"]["strategy"] == STRATEGY
    assert sorted(compaction["details"]["maskedToolResults"]) == ["call_0", "call_1", "call_2"]
    prepared = tether(cwd, "session", "prepare", str(file), "--strategy", "nope", "--json")
    assert prepared.returncode != 0 and "Traceback" not in prepared.stderr
    assert "unknown strategy 'nope'" in prepared.stderr and STRATEGY in prepared.stderr
