"""The kernel checks what plugins answer (issue 24, item 5): a strategy's cut, the custom
messages of ``before_agent_start``, the messages a ``context`` hook leaves, and the name a
summary is recorded under. Each wrong answer is one error naming the plugin, and nothing is
written. Test plugins are registered on a per-test plugin manager (in-process, through
:mod:`tether.testing`) or installed as a fake distribution for a real ``tether`` subprocess.
"""

from __future__ import annotations

import os
import shutil
import types
from pathlib import Path
from typing import Any

import pytest

import tether
from tests.cli_in_process import run_in_process
from tests.harness_helpers import REPO, plugin_manager, read_entries
from tests.plugin_fakes import write_distribution
from tests.store_helpers import GEN, run_tether
from tether.testing import faux_session

TOOL_RESULT_ID = "85689935"  # g03-linear-tools.jsonl: a toolResult on the branch


def plugin(**hooks: Any) -> types.SimpleNamespace:
    """A plugin object from hook functions (each marked ``@tether.hookimpl``)."""
    return types.SimpleNamespace(**{name: tether.hookimpl(f) for name, f in hooks.items()})


def cli_env(tmp_path: Path, name: str, source: str) -> dict[str, str | None]:
    """The environment of a ``tether`` subprocess with ``source`` installed as plugin ``name``."""
    site = tmp_path / "site"
    write_distribution(
        site, f"tether-{name}", "1.0", {name: f"{name}_mod"}, {f"{name}_mod": source}
    )
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return {
        "TETHER_HOME": str(home),
        "TETHER_FSYNC": "0",
        "PYTHONPATH": f"{site}{os.pathsep}{REPO}",
        "TETHER_LOAD_PLUGINS": name,
        "TETHER_DISABLE_PLUGINS": None,
        "TETHER_FAUX_SCRIPT": None,
    }


def session_copy(tmp_path: Path, name: str = "g03-linear-tools.jsonl") -> Path:
    file = tmp_path / "s.jsonl"
    shutil.copyfile(GEN / name, file)
    return file


def faux_session_file(tmp_path: Path) -> Path:
    """A pi session already switched to the faux model (a later faux run writes no model
    change of its own): one run without any test plugin."""
    file = session_copy(tmp_path, "g02-linear-text.jsonl")
    done = run_in_process("run", "--provider", "faux", "--session", str(file), "one",
                          home=tmp_path, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return file


def one_error_line(stderr: str) -> str:
    """The one error line (progress lines such as ``tether: preparing compaction`` aside)."""
    assert "Traceback" not in stderr
    [line] = [x for x in stderr.splitlines() if "error" in x]
    assert line.startswith("tether: error: ")
    return line


# -- a strategy's cut ------------------------------------------------------------------------


def first_tool_result(path: list[dict[str, Any]]) -> str:
    return next(e["id"] for e in path if e.get("message", {}).get("role") == "toolResult")


def cut_strategy(first_kept: str | None) -> Any:
    """A strategy keeping from ``first_kept`` (``None``: the branch's first tool result)."""

    def prepare(request: tether.PrepareRequest) -> tether.CompactionPreparation:
        kept = first_kept or first_tool_result(request.path)
        return tether.CompactionPreparation(
            first_kept_entry_id=kept,
            messages_to_summarize=[{"role": "user", "content": "x", "timestamp": 1}],
            turn_prefix_messages=[],
            is_split_turn=False,
            tokens_before=10,
            previous_summary=None,
            file_ops={},
            settings=request.settings,
        )

    def register_compaction_strategies(register: Any) -> None:
        register("cutter", prepare)

    return plugin(register_compaction_strategies=register_compaction_strategies)


@pytest.mark.parametrize(
    ("kept", "said"),
    [("nope", "'nope' is not on the branch being compacted"), (None, "is a toolResult")],
)
def test_a_strategys_cut_is_checked_before_anything_is_written(kept: Any, said: str) -> None:
    script = [{"toolCalls": [{"name": "ls", "arguments": {"path": "."}, "id": "c1"}]}, "done"]
    settings = {"compaction": {"strategy": "cutter", "summarizer": "offline"}}
    with faux_session(plugins=[("cutplug", cut_strategy(kept))], script=script,
                      settings=settings) as t:  # fmt: skip
        t.prompt("list")
        before = t.file.read_bytes()
        with pytest.raises(tether.TetherError) as raised:
            t.compact()
        assert t.file.read_bytes() == before
    message = str(raised.value)
    assert "plugin 'cutplug'" in message and "strategy 'cutter'" in message and said in message
    assert len(message.splitlines()) == 1


BAD_CUT = """
import tether

def prepare(request):
    return tether.CompactionPreparation(
        first_kept_entry_id="{kept}", messages_to_summarize=request.path[1:2]
        and [request.path[1]["message"]], turn_prefix_messages=[], is_split_turn=False,
        tokens_before=10, previous_summary=None, file_ops={{}}, settings=request.settings)

@tether.hookimpl
def register_compaction_strategies(register):
    register("cutter", prepare)
"""


def test_session_compact_refuses_a_tool_result_cut_in_one_line(tmp_path: Path) -> None:
    file = session_copy(tmp_path)
    before = file.read_bytes()
    env = cli_env(tmp_path, "cutplug", BAD_CUT.format(kept=TOOL_RESULT_ID))
    done = run_tether(
        "session", "compact", str(file), "--strategy", "cutter", "--summarizer", "offline",
        cwd=tmp_path, env=env,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    line = one_error_line(done.stderr)
    assert "plugin 'cutplug': strategy 'cutter': the first kept entry" in line
    assert f"'{TOOL_RESULT_ID}' is a toolResult" in line
    assert file.read_bytes() == before


def test_session_prepare_refuses_an_unknown_cut(tmp_path: Path) -> None:
    pm = plugin_manager(("cutplug", cut_strategy("nope")))
    file = session_copy(tmp_path)
    done = run_in_process(
        "session", "prepare", str(file), "--strategy", "cutter", home=tmp_path, cwd=tmp_path, pm=pm
    )
    assert done.returncode == 1
    assert "plugin 'cutplug': strategy 'cutter'" in one_error_line(done.stderr)


def reading_strategy(seen: list[dict[str, Any]]) -> Any:
    def prepare(request: tether.PrepareRequest) -> tether.NothingToCompact:
        seen.append(request.plugin_settings)
        return tether.NothingToCompact("nothing")

    def register_compaction_strategies(register: Any) -> None:
        register("reader", prepare)

    return plugin(register_compaction_strategies=register_compaction_strategies)


def test_a_strategy_reads_its_own_plugin_settings() -> None:
    seen: list[dict[str, Any]] = []
    settings = {"compaction": {"strategy": "reader"}, "plugins": {"readplug": {"depth": 3}}}
    with faux_session(plugins=[("readplug", reading_strategy(seen))], settings=settings) as t:
        t.prompt("hi")
        assert t.compact().status == "nothing"
    assert seen == [{"depth": 3}]


def test_session_prepare_gives_a_strategy_its_plugin_settings(tmp_path: Path) -> None:
    seen: list[dict[str, Any]] = []
    pm = plugin_manager(("readplug", reading_strategy(seen)))
    (tmp_path / "settings.json").write_text('{"plugins": {"readplug": {"depth": 5}}}')
    file = session_copy(tmp_path)
    done = run_in_process(
        "session", "prepare", str(file), "--strategy", "reader", home=tmp_path, cwd=tmp_path, pm=pm
    )
    assert done.returncode == 0, done.stderr
    assert seen == [{"depth": 5}]


# -- show --validate -------------------------------------------------------------------------


def compacted_file(tmp_path: Path, first_kept: str) -> Path:
    from tether.core.session.session import Session

    file = session_copy(tmp_path)
    session = Session.open(file)
    session.append_compaction("## Goal\nx", first_kept, 100, details={})
    session.flush(force=True)
    return file


@pytest.mark.parametrize(
    ("kept", "said"),
    [("nope", "'nope' is not on the branch"), (TOOL_RESULT_ID, "is a toolResult")],
)
def test_show_validate_flags_a_compaction_with_a_bad_cut(
    tmp_path: Path, kept: str, said: str
) -> None:
    file = compacted_file(tmp_path, kept)
    done = run_in_process("session", "show", str(file), "--validate", home=tmp_path, cwd=tmp_path)
    assert done.returncode == 1, done.stdout
    assert "problems: none" not in done.stdout
    [line] = [x for x in done.stdout.splitlines() if "firstKeptEntryId" in x]
    assert said in line and f"{file}:" in line


def test_show_validate_cli_flags_a_tool_result_cut(tmp_path: Path) -> None:
    file = compacted_file(tmp_path, TOOL_RESULT_ID)
    done = run_tether("session", "show", str(file), "--validate", cwd=tmp_path,
                      env={"TETHER_HOME": str(tmp_path), "PYTHONPATH": str(REPO)})  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert "firstKeptEntryId" in done.stdout and "is a toolResult" in done.stdout


def test_show_validate_passes_a_good_cut(tmp_path: Path) -> None:
    file = compacted_file(tmp_path, "13f59974")  # a user message of the branch
    done = run_in_process("session", "show", str(file), "--validate", home=tmp_path, cwd=tmp_path)
    assert done.returncode == 0, done.stdout
    assert "firstKeptEntryId" not in done.stdout


# -- before_agent_start ----------------------------------------------------------------------


def unstorable_start(event: Any, session: Any) -> list[dict[str, Any]]:
    return [{"customType": "x", "content": "y", "details": {"when": object()}}]


def test_an_unstorable_before_agent_start_answer_stores_nothing() -> None:
    with faux_session(plugins=[("startplug", plugin(before_agent_start=unstorable_start))]) as t:
        before = t.entries()
        with pytest.raises(tether.HookError) as raised:
            t.prompt("hello")
        assert t.entries() == before  # not even the user message
        assert t.requests == []
    message = str(raised.value)
    assert "plugin 'startplug' failed in before_agent_start" in message
    assert "cannot be stored as JSON (details.when is a object)" in message


UNSTORABLE_START = """
from tether import hookimpl

@hookimpl
def before_agent_start(event, session):
    return [{"customType": "x", "content": "y", "details": {"when": {1, 2}}}]
"""


def test_tether_run_names_the_plugin_of_an_unstorable_answer(tmp_path: Path) -> None:
    file = faux_session_file(tmp_path)
    before = file.read_bytes()
    env = cli_env(tmp_path, "startplug", UNSTORABLE_START)
    done = run_tether("run", "--provider", "faux", "--session", str(file), "hi",
                      cwd=tmp_path, env=env)  # fmt: skip
    assert done.returncode == 1
    line = one_error_line(done.stderr)
    assert "plugin 'startplug' failed in before_agent_start" in line
    assert "details.when is a set" in line and "model" not in line
    assert file.read_bytes() == before


# -- the context hook ------------------------------------------------------------------------


def sets_messages(value: Any) -> Any:
    def context(event: Any, session: Any) -> None:
        event.messages = value

    return plugin(context=context)


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (None, "set event.messages to NoneType; expected a list of messages"),
        ([None], "set event.messages[0] to NoneType; expected a message object"),
        ([{"content": "x"}], "set event.messages[0] to a message without a role"),
    ],
)
def test_a_context_hooks_messages_are_checked_before_the_model_call(value: Any, said: str) -> None:
    with faux_session(plugins=[("ctxplug", sets_messages(value))], script=["never"]) as t:
        with pytest.raises(tether.HookError) as raised:
            t.prompt("hello")
        assert t.requests == []  # neither the masked nor the unmasked context was sent
    assert str(raised.value).startswith(f"plugin 'ctxplug' failed in context: {said}")


def test_a_context_hook_that_keeps_the_list_passes() -> None:
    def context(event: Any, session: Any) -> None:
        event.messages = [*event.messages, {"role": "user", "content": "added", "timestamp": 1}]

    with faux_session(plugins=[("ctxplug", plugin(context=context))], script=["ok"]) as t:
        assert t.prompt("hello").text == "ok"
        assert t.requests[0].messages[-1]["content"] == "added"


NONE_CONTEXT = """
from tether import hookimpl

@hookimpl
def context(event, session):
    event.messages = None
"""


@pytest.mark.parametrize("command", ["run", "session context"])
def test_a_context_hook_setting_none_is_one_error_in_the_cli(tmp_path: Path, command: str) -> None:
    file = faux_session_file(tmp_path)
    before = file.read_bytes()
    env = cli_env(tmp_path, "ctxplug", NONE_CONTEXT)
    if command == "run":
        args = ["run", "--provider", "faux", "--session", str(file), "hi"]
    else:
        args = ["session", "context", str(file)]
    done = run_tether(*args, cwd=tmp_path, env=env)
    assert done.returncode == 1, done.stdout
    line = one_error_line(done.stderr)
    assert "plugin 'ctxplug' failed in context: set event.messages to NoneType" in line
    assert file.read_bytes() == before


# -- the summarizer's name -------------------------------------------------------------------


def self_naming_summarizer(request: tether.SummarizeRequest) -> tether.Summary:
    text = (
        "## Goal\nList the files.\n\n## Constraints & Preferences\n- none\n\n## Progress\n"
        "### Done\n- [x] listed\n\n## Key Decisions\n- none\n\n## Next Steps\n1. nothing\n\n"
        "## Critical Context\n- none"
    )
    return tether.Summary(text=text, summarizer="fancy-name")


def register_named(register: Any) -> None:
    register("chosen", self_naming_summarizer)


@pytest.mark.parametrize("gate", ["on", "off"])
def test_the_summary_is_recorded_under_the_chosen_name(gate: str) -> None:
    settings = {"compaction": {"summarizer": "chosen", "keepRecentTokens": 1}}
    disabled = ["summary_gate"] if gate == "off" else []
    summarizer = plugin(register_summarizers=register_named)
    with faux_session(plugins=[("nameplug", summarizer)], settings=settings, disabled=disabled,
                      script=["one", "two"]) as t:  # fmt: skip
        t.prompt("list the files")
        t.prompt("and again")
        outcome = t.compact()
        entry = read_entries(t.file)[-1]
    assert outcome.summarizer == "chosen"
    assert {s.summarizer for s in outcome.summaries} == {"chosen"}  # history and turn prefix
    if gate == "on":
        assert entry["details"]["summarizer"] == "chosen"
        assert entry["details"]["gate"]["verdict"] in ("passed", "carried_forward")


# -- the same in chat and RPC ----------------------------------------------------------------


def test_chat_says_an_unstorable_answer_and_writes_nothing(tmp_path: Path) -> None:
    file = faux_session_file(tmp_path)
    before = file.read_bytes()
    env = cli_env(tmp_path, "startplug", UNSTORABLE_START)
    done = run_tether("chat", "--provider", "faux", "--session", str(file),
                      cwd=tmp_path, env=env, stdin_text="hi\n/quit\n")  # fmt: skip
    output = done.stdout + done.stderr
    assert "plugin 'startplug' failed in before_agent_start: returned a message" in output
    assert "Traceback" not in output and "model call failed" not in output
    assert file.read_bytes() == before


def test_rpc_answers_a_context_hooks_none_with_one_error(tmp_path: Path) -> None:
    from tests.rpc_helpers import RpcProcess

    env = cli_env(tmp_path, "ctxplug", NONE_CONTEXT)
    extra = {k: v for k, v in env.items() if v is not None and k != "TETHER_HOME"}
    rpc = RpcProcess(Path(env["TETHER_HOME"] or ""), tmp_path, "--provider", "faux",
                     extra_env=extra)  # fmt: skip
    rpc.send({"type": "prompt", "message": "hi", "id": "1"})
    response = rpc.lines.get(timeout=30)
    assert rpc.close()[0] == 0
    assert response["success"] is False and response["id"] == "1"
    assert response["error"].startswith("plugin 'ctxplug' failed in context: set event.messages")
    assert not list((tmp_path / "home" / "sessions").rglob("*.jsonl"))
