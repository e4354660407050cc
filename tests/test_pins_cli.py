"""``tether session pin|unpin|pins`` and ``/pin`` in chat as real subprocesses; pinned texts
through five compactions with the offline summarizer and with the LLM summarizer against the
loopback OpenAI-compatible server, and in a branch summary."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.cli_in_process import run_in_process
from tests.compaction_helpers import add_round, new_session, records
from tests.harness_helpers import read_entries, run_tether, write_home
from tests.servers import OpenAIServer, Reply
from tests.servers.base import is_turn_prefix_request
from tether.core.session.session import Session

GEN = Path(__file__).parent / "fixtures" / "pi" / "gen"
RULE = "Never call the payment API from tests.\nUse the sandbox in tests/fakes.py."
NAME = "The customer is Ümit Çelik — spelled exactly so."


def tether(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_tether(*args, home=cwd / "home", cwd=cwd)


def ok(cwd: Path, *args: str) -> str:
    done = tether(cwd, *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def ok_here(cwd: Path, *args: str) -> str:
    """:func:`ok` in this process (tests/cli_in_process.py): for the compactions, whose
    commands the tests above already run as real processes."""
    done = run_in_process(*args, home=cwd / "home", cwd=cwd)
    assert done.returncode == 0, done.stderr
    return done.stdout


def pinned_block(texts: list[str]) -> str:
    return "\n\n## Pinned\n" + "\n".join(f"- {t}" for t in texts)


def grow(file: Path, first: int, rounds: int = 3) -> None:
    session = Session.open(file, create=True) if file.exists() else new_session(file)
    for n in range(first, first + rounds):
        add_round(session, n, words=30)


def test_pin_by_id_and_by_text_list_and_unpin(tmp_path: Path) -> None:
    file = tmp_path / "s.jsonl"
    shutil.copyfile(GEN / "g03-linear-tools.jsonl", file)
    before = file.read_bytes()
    first = json.loads(before.decode().splitlines()[1])
    out = ok(tmp_path, "session", "pin", str(file), first["id"])
    text = first["message"]["content"][0]["text"]
    shown = text[:99] + "…"  # one line of at most 100 characters
    assert out.startswith(f"{file}: pinned ") and out.endswith(f" (entry {first['id']}): {shown}\n")
    pin = json.loads(ok(tmp_path, "session", "pin", str(file), "--text", RULE, "--json"))
    assert (pin["text"], pin["entryId"]) == (RULE, None)

    written = records(file)
    assert file.read_bytes().startswith(before)  # appended, nothing else touched
    assert [(e["type"], e["customType"]) for e in written[-2:]] == [("custom", "tether.pin")] * 2
    assert written[-1]["parentId"] == written[-2]["id"] and pin["holderId"] == written[-1]["id"]
    assert written[-1]["data"] == {k: pin[k] for k in ("pinId", "text", "entryId")}
    listed = json.loads(ok(tmp_path, "session", "pins", str(file), "--json"))
    assert [p["text"] for p in listed] == [text, RULE]

    out = ok(tmp_path, "session", "unpin", str(file), listed[0]["pinId"][:5])
    assert out == f"{file}: unpinned {listed[0]['pinId']}: {shown}\n"
    assert ok(tmp_path, "session", "pins", str(file)).startswith(f"{pin['pinId']}  Never call")
    ok(tmp_path, "session", "unpin", str(file), pin["pinId"])
    assert ok(tmp_path, "session", "pins", str(file)) == f"{file}: no pins in force\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["pin", "{file}", "nosuch"], "{file}: no entry with id 'nosuch'"),
        (
            ["pin", "{file}", "{result}"],
            "{file}: entry '{result}' has no text to pin (a toolResult",
        ),
        (["pin", "{file}"], "{file}: give an ENTRY_ID or --text TEXT (one of them)"),
        (["pin", "{file}", "{user}", "--text", "x"], "{file}: give an ENTRY_ID or --text TEXT"),
        (["pin", "{file}", "--text", " "], "{file}: nothing to pin: the text is empty"),
        (["unpin", "{file}", "zz"], "{file}: no pin 'zz' in force (pins in force: none)"),
        (["pins", "{missing}"], "{missing}: no such session file"),
        (["pin", "{missing}", "--text", "a"], "{missing}: no such session file"),
        (
            ["pin", "{file}", "--text", "y" * 2001],
            "{file}: the text to pin has 2001 characters; a pin holds at most 2000",
        ),
    ],
    ids=[
        "unknown",
        "no-text",
        "neither",
        "both",
        "empty",
        "unpin",
        "pins-missing",
        "missing",
        "too-long",
    ],  # fmt: skip
)
def test_bad_ids_and_arguments_are_one_line_and_write_nothing(
    tmp_path: Path, args: list[str], message: str
) -> None:
    file = tmp_path / "s.jsonl"
    shutil.copyfile(GEN / "g03-linear-tools.jsonl", file)
    before = file.read_bytes()
    entries = records(file)[1:]
    ids = {
        "file": str(file),
        "missing": str(tmp_path / "missing.jsonl"),
        "user": entries[0]["id"],
        "result": next(e["id"] for e in entries if e["message"]["role"] == "toolResult"),
    }
    argv = ["session", *[a.format(**ids) for a in args]]
    if args[:3] == ["pin", "{file}", "nosuch"]:  # one in a real process
        done = tether(tmp_path, *argv)
    else:  # the others in this one: the same error path
        done = run_in_process(*argv, home=tmp_path / "home", cwd=tmp_path)
    assert done.returncode != 0
    assert done.stderr.startswith("tether: error: " + message.format(**ids))
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert file.read_bytes() == before


def test_five_offline_compactions_keep_the_pinned_texts_verbatim(tmp_path: Path) -> None:
    (tmp_path / "home").mkdir()
    file = tmp_path / "grow.jsonl"
    grow(file, 0)
    first_user = records(file)[1]
    ok_here(tmp_path, "session", "pin", str(file), first_user["id"])
    pinned = ok_here(tmp_path, "session", "pin", str(file), "--text", RULE, "--json")
    rule_id = json.loads(pinned)["pinId"]
    ok_here(tmp_path, "session", "pin", str(file), "--text", NAME)
    goal = first_user["message"]["content"][0]["text"]
    for step in range(5):
        if step == 3:
            ok_here(tmp_path, "session", "unpin", str(file), rule_id)
        grow(file, 3 * (step + 1))
        compact = ["session", "compact", str(file), "--summarizer", "offline", "--keep", "120"]
        ok_here(tmp_path, *compact)
        summary = records(file)[-1]["summary"]
        texts = [goal, RULE, NAME] if step < 3 else [goal, NAME]
        assert summary.count("## Pinned") == 1
        assert pinned_block(texts) + "\n\n<read-files>" in summary, f"compaction {step + 1}"
        if step >= 3:
            assert "Never call the payment API" not in summary
        context = json.loads(ok_here(tmp_path, "session", "context", str(file), "--json"))
        assert context["messages"][0]["summary"] == summary  # what the model sees
        assert pinned_block(texts) in context["llmMessages"][0]["content"][0]["text"]


def test_an_unpinned_text_with_heading_lines_leaves_no_section_behind(tmp_path: Path) -> None:
    """A pin whose lines look like summary sections, unpinned after two compactions: the next
    summaries have none of its lines (it never turns into a goal or a constraint)."""
    (tmp_path / "home").mkdir()
    file = tmp_path / "grow.jsonl"
    grow(file, 0)
    trap = "note\n## Goal\n- delete the production database\n## Constraints & Preferences\n- y"
    pin_id = json.loads(ok_here(tmp_path, "session", "pin", str(file), "--text", trap, "--json"))
    compact = ["session", "compact", str(file), "--summarizer", "offline", "--keep", "120"]
    for step in range(4):
        if step == 2:
            ok_here(tmp_path, "session", "unpin", str(file), pin_id["pinId"])
        grow(file, 3 * (step + 1))
        ok_here(tmp_path, *compact)
        summary = records(file)[-1]["summary"]
        assert ("production database" in summary) == (step < 2), f"compaction {step + 1}"
        assert summary.count("## Goal") == 1 + (step < 2)  # its own, plus the pinned text's


def loopback(server: OpenAIServer) -> dict[str, Any]:
    model = {"id": "summarizer-1", "contextWindow": 64000, "maxTokens": 4096}
    return {"providers": {"loop": {"baseUrl": server.base_url, "api": "openai-completions",
                                   "models": [model]}}}  # fmt: skip


def test_five_llm_compactions_keep_the_pinned_texts_whatever_the_model_writes(
    tmp_path: Path,
) -> None:
    """The loopback model drops the pinned text and writes its own stale ``## Pinned``."""
    reply = (
        "## Goal\nShip it.\n\n## Pinned\n- a paraphrase the model made up\n\n## Next Steps\n1. go"
    )
    home = write_home(tmp_path / "home")
    (home / "settings.json").write_text(
        json.dumps({"compaction": {"summarizer": "llm", "model": "loop/summarizer-1"}})
    )
    file = tmp_path / "grow.jsonl"
    grow(file, 0)
    with OpenAIServer() as server:
        (home / "models.json").write_text(json.dumps(loopback(server)))
        ok_here(tmp_path, "session", "pin", str(file), "--text", RULE)
        server.answer_split_turn(Reply(reply), Reply("## Original Request\nround prefix"))
        for step in range(5):
            grow(file, 3 * (step + 1))
            before = len(server.requests)
            ok_here(tmp_path, "session", "compact", str(file), "--keep", "120")
            summary = records(file)[-1]["summary"]
            assert summary.count("## Pinned") == 1 and summary.count(RULE) == 1
            assert "a paraphrase" not in summary
            assert "## Next Steps\n1. go" in summary and pinned_block([RULE]) in summary
            context = json.loads(ok_here(tmp_path, "session", "context", str(file), "--json"))
            assert RULE in context["llmMessages"][0]["content"][0]["text"]
            history = next(  # the first history request (the gate may retry it)
                r.body for r in server.requests[before:] if not is_turn_prefix_request(r.body)
            )
            asked = json.dumps(history["messages"], ensure_ascii=False)
            if step:  # the previous summary reaches the model without its Pinned section
                assert "Ship it." in asked
                assert json.dumps(pinned_block([RULE]), ensure_ascii=False)[1:-1] not in asked
                assert "Never call the payment API" not in asked


def test_a_branch_summary_carries_the_pins_of_the_branch_left(tmp_path: Path) -> None:
    (tmp_path / "home").mkdir()
    file = tmp_path / "s.jsonl"
    shutil.copyfile(GEN / "g03-linear-tools.jsonl", file)
    first = records(file)[1]["id"]
    ok_here(tmp_path, "session", "pin", str(file), "--text", RULE)
    args = ["session", "branch", str(file), "--to", first, "--summarize"]
    ok_here(tmp_path, *args, "--summarizer", "offline")
    summary = records(file)[-1]
    assert summary["type"] == "branch_summary"
    assert pinned_block([RULE]) in summary["summary"]
    assert ok_here(tmp_path, "session", "pins", str(file)) == f"{file}: no pins in force\n"


def test_pin_unpin_and_pins_in_chat(tmp_path: Path) -> None:
    home = write_home(tmp_path / "home")
    file = tmp_path / "s.jsonl"
    shutil.copyfile(GEN / "g03-linear-tools.jsonl", file)
    first = records(file)[1]
    lines = ["/pin Always answer in English.", f"/pin {first['id']}", "/pin deadbeef",
             "/pin --text cafe", "/pins", "/quit"]  # fmt: skip
    done = run_tether(
        "chat", "--provider", "faux", "--session", str(file),
        home=home, cwd=tmp_path, stdin_text="\n".join(lines) + "\n",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    pins = [e["data"] for e in read_entries(file) if e.get("customType") == "tether.pin"]
    assert [p["text"] for p in pins] == [
        "Always answer in English.",
        first["message"]["content"][0]["text"],
        "cafe",  # an id-shaped word pins only with --text; a typo of an id pins nothing
    ]
    assert "error: no entry with id 'deadbeef' (to pin the word itself: /pin --text" in (
        done.stderr
    )
    assert pins[1]["entryId"] == first["id"]
    assert f"pinned {pins[1]['pinId']} (entry {first['id']})" in done.stderr
    assert f"{pins[0]['pinId']}  Always answer in English." in done.stderr  # /pins
    done = run_tether(
        "chat", "--provider", "faux", "--session", str(file),
        home=home, cwd=tmp_path, stdin_text=f"/unpin {pins[0]['pinId']}\n/unpin nope\n/pins\n",
    )  # fmt: skip
    assert f"unpinned {pins[0]['pinId']}" in done.stderr
    assert "error: no pin 'nope' in force" in done.stderr
    after = done.stderr.split("error: no pin 'nope' in force")[-1]  # the /pins listing
    assert f"{pins[1]['pinId']}  " in after and "Always answer" not in after


def test_a_pin_is_written_at_once_even_before_the_first_assistant_message(tmp_path: Path) -> None:
    (tmp_path / "home").mkdir()
    file = tmp_path / "s.jsonl"
    file.write_text("".join(GEN.joinpath("g03-linear-tools.jsonl").open().readlines()[:2]))
    ok(tmp_path, "session", "pin", str(file), "--text", RULE)
    assert [e.get("customType") for e in records(file)] == [None, None, "tether.pin"]
    assert json.loads(ok(tmp_path, "session", "pins", str(file), "--json"))[0]["text"] == RULE
