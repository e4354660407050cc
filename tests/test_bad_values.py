"""Values that used to break every later run (issue 7, items 6 and 7), end to end.

Lone surrogates (``"\\ud83d"``: valid JSON, pi writes them when it cuts text) and numbers that
are not finite (``1e999``, ``NaN``) in a session, a provider's stream or models.json: real
``tether`` subprocesses against the loopback servers. The stored bytes never change.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.cli_in_process import run_in_process
from tests.harness_helpers import read_entries, run_tether, session_files, write_home
from tests.servers import Reply, Usage
from tether.builtin_plugins.providers.text_safety import clean_text, encode_json_body
from tether.core.context.text_safety import HANDLER, install_output_handler
from tether.core.context.tokens import calculate_context_tokens

FIXTURES = Path(__file__).parent / "fixtures" / "bad_values"
PI_CONTEXT = json.loads((FIXTURES / "pi-context.json").read_text())
MODEL = ("--model", "loop/test-model")
APIS = {"openai-completions": "openai_server", "anthropic-messages": "anthropic_server"}


def _setup(tmp_path: Path, server: Any, fixture: str, api: str) -> tuple[Path, Path, Path]:
    """(home, project, session file copied from the fixture)."""
    home = write_home(tmp_path / "home", server, api=api)
    project = tmp_path / "project"
    project.mkdir()
    file = project / f"{fixture}.jsonl"
    shutil.copyfile(FIXTURES / f"{fixture}.jsonl", file)
    return home, project, file


def _clean(result: Any) -> None:
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    assert "model call failed" not in result.stderr


def _warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("tether: warning:")]


# --- item 6: lone surrogates ------------------------------------------------------------------


def _strings(value: Any) -> list[str]:
    """Every string in a request body, and in the JSON inside strings (tool-call arguments)."""
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    if isinstance(value, str) and value.startswith("{"):
        try:
            return [value, *_strings(json.loads(value))]
        except ValueError:
            pass
    return [value] if isinstance(value, str) else []


@pytest.mark.parametrize("api", sorted(APIS))
def test_run_sends_lone_surrogates_as_replacement_characters(
    api: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    server = request.getfixturevalue(APIS[api])
    home, project, file = _setup(tmp_path, server, "lone-surrogates", api)
    before = file.read_bytes()
    server.text("first answer")
    server.text("second answer")
    for prompt, answer in (("go on", "first answer"), ("again", "second answer")):
        done = run_tether("run", *MODEL, "--session", str(file), prompt, home=home, cwd=project)
        assert done.returncode == 0, done.stderr
        _clean(done)
        assert done.stdout == answer + "\n"
    raw = server.last_request.raw
    assert b"\\ud83d" not in raw.lower() and b"\\udc00" not in raw.lower()
    sent = json.dumps(server.last_request.body, ensure_ascii=False)
    assert "cut here \ufffd" in sent and "output \ufffd truncated" in sent
    assert "x\ufffd.txt" in _strings(server.last_request.body)  # tool-call arguments too
    after = file.read_bytes()
    assert after.startswith(before)  # the stored bytes are never changed
    stops = [e["message"].get("stopReason") for e in read_entries(file) if e["type"] == "message"]
    assert "error" not in stops


def test_printed_answer_with_a_lone_surrogate(openai_server: Any, tmp_path: Path) -> None:
    home = write_home(tmp_path / "home", openai_server)
    project = tmp_path / "project"
    project.mkdir()
    openai_server.text("cut \ud83d")  # the server escapes it: the client reads a lone surrogate
    done = run_tether("run", *MODEL, "hi", home=home, cwd=project)
    assert done.returncode == 0, done.stderr
    _clean(done)
    assert done.stdout == "cut \ufffd\n"
    [file] = session_files(home)
    assert b'"text":"cut \\ud83d"' in file.read_bytes()  # stored as pi writes it


def test_chat_with_lone_surrogates(openai_server: Any, tmp_path: Path) -> None:
    home, project, file = _setup(tmp_path, openai_server, "lone-surrogates", "openai-completions")
    openai_server.text("reply \ud83d")
    args = ("chat", *MODEL, "--session", str(file))
    done = run_tether(*args, home=home, cwd=project, stdin_text="hello\n/tree --full\n")
    assert done.returncode == 0, done.stderr
    _clean(done)
    assert "reply \ufffd" in done.stdout
    assert "cut here \ufffd" in done.stderr and "output \ufffd truncated" in done.stderr  # /tree
    assert "cut here \ufffd" in json.dumps(openai_server.last_request.body, ensure_ascii=False)


def test_session_commands_cope_with_lone_surrogates(tmp_path: Path) -> None:
    file = tmp_path / "s.jsonl"
    shutil.copyfile(FIXTURES / "lone-surrogates.jsonl", file)
    before = file.read_bytes()
    for args in (("tree",), ("context",), ("show",), ("estimate",)):  # real processes
        shown = run_tether("session", *args, str(file), home=tmp_path, cwd=tmp_path)
        assert shown.returncode == 0, (args, shown.stderr)
        _clean(shown)
    tree = run_in_process("session", "tree", str(file), home=tmp_path, cwd=tmp_path).stdout
    assert "cut here \ufffd" in tree
    text = run_in_process("session", "context", str(file), home=tmp_path, cwd=tmp_path).stdout
    assert "output \ufffd truncated" in text
    as_json = run_in_process("session", "context", "--json", str(file), home=tmp_path, cwd=tmp_path)
    assert as_json.returncode == 0 and "\\ud83d" in as_json.stdout  # JSON keeps the value
    context = json.loads(as_json.stdout)
    pi = PI_CONTEXT["lone-surrogates"]
    assert context["messages"] == pi["messages"] and context["llmMessages"] == pi["llmMessages"]
    validate = run_in_process(
        "session", "show", "--validate", "--json", str(file), home=tmp_path, cwd=tmp_path
    )
    assert validate.returncode == 0, validate.stderr
    report = json.loads(validate.stdout)
    assert report["schemaProblems"] == [] and report["problems"] == []
    found = [(w["line"], w["kind"], w["field"]) for w in report["warnings"]]
    assert found == [
        (2, "lone-surrogate", "message.content[0].text"),
        (3, "lone-surrogate", "message.content[0].arguments.path"),
        (4, "lone-surrogate", "message.content[0].text"),
        (5, "lone-surrogate", "message.content[0].text"),
    ]
    text_report = run_in_process(
        "session", "show", "--validate", str(file), home=tmp_path, cwd=tmp_path
    ).stdout
    assert f"warning: {file}:2: entry a0000001: message.content[0].text: lone surrogate" in (
        text_report
    )
    exported = tmp_path / "export.jsonl"
    done = run_in_process(
        "session", "export", str(file), "-o", str(exported), home=tmp_path, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert exported.read_bytes().split(b"\n")[1:] == before.split(b"\n")[1:]  # same bytes
    repaired = run_in_process("session", "repair", str(file), home=tmp_path, cwd=tmp_path)
    assert repaired.returncode == 0 and "nothing to repair" in repaired.stdout
    assert file.read_bytes() == before


def test_clean_text_and_request_bodies() -> None:
    assert clean_text("a\ud83d b\udc00") == "a\ufffd b\ufffd"
    assert clean_text("\ud83d\ude00") == "\U0001f600"  # a pair joined from two halves
    text = "plain"
    assert clean_text(text) is text
    body = encode_json_body({"m": ["x\ud83d", {"k\udc00": 1}], "n": "é"})
    assert json.loads(body) == {"m": ["x\ufffd", {"k\ufffd": 1}], "n": "é"}


def test_printed_text_joins_split_pairs_and_replaces_lone_halves() -> None:
    """What the CLI prints cleans surrogates as the requests do (``clean_text``)."""
    install_output_handler()
    for text in ("a\ud83d\ude00 b", "\ud83d b \udc00", "\ude00\ud83d", "x\udbff\udfff\ud800"):
        assert text.encode("utf-8", HANDLER).decode("utf-8") == clean_text(text)
    assert "a\ud83d\ude00\udc00".encode("utf-8", HANDLER).decode() == "a\U0001f600\ufffd"


# --- item 7: numbers that are not finite ------------------------------------------------------


def test_stored_usage_1e999_is_absent_with_one_warning(openai_server: Any, tmp_path: Path) -> None:
    home, project, file = _setup(tmp_path, openai_server, "usage-1e999", "openai-completions")
    before = file.read_bytes()
    openai_server.text("fine")
    done = run_tether("run", *MODEL, "--session", str(file), "go", home=home, cwd=project)
    assert done.returncode == 0, done.stderr
    _clean(done)
    assert done.stdout == "fine\n"
    assert _warnings(done.stderr) == [
        f"tether: warning: {file}:3: message.usage.input: not a finite number (inf); "
        "treated as absent",
        f"tether: warning: {file}:3: message.usage.totalTokens: not a finite number (inf); "
        "treated as absent",
    ]
    assert file.read_bytes().startswith(before)
    assert read_entries(file)[-1]["message"]["usage"]["totalTokens"] == 15
    context = json.loads(
        run_in_process("session", "context", "--json", str(file), home=home, cwd=project).stdout
    )
    pi = PI_CONTEXT["usage-1e999"]
    assert context["messages"][:2] == pi["messages"]  # 1e999 printed as null, as pi does
    estimate = run_in_process("session", "estimate", str(file), home=home, cwd=project)
    assert estimate.returncode == 0, estimate.stderr


def _raw_events(events: list[tuple[str | None, Any]], raw: dict[str, str]) -> list[Any]:
    """Events as JSON text with the placeholder numbers replaced by raw JSON (1e999, NaN)."""
    out: list[Any] = []
    for name, data in events:
        text = data if isinstance(data, str) else json.dumps(data)
        for placeholder, value in raw.items():
            text = text.replace(placeholder, value)
        out.append((name, text))
    return out


@pytest.mark.parametrize("api", sorted(APIS))
def test_streamed_usage_that_is_not_finite(
    api: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    server = request.getfixturevalue(APIS[api])
    home = write_home(tmp_path / "home", server, api=api)
    project = tmp_path / "project"
    project.mkdir()
    ask = {"model": "test-model", "stream_options": {"include_usage": True}}
    events = server.sse_events(Reply(text="counted", usage=Usage(input=987001, output=987002)), ask)
    server.push(Reply(events=_raw_events(events, {"987001": "1e999", "987002": "NaN"})))
    run = run_tether if api == "openai-completions" else run_in_process  # one real process
    done = run("run", *MODEL, "hi", home=home, cwd=project)
    assert done.returncode == 0, done.stderr
    _clean(done)
    assert done.stdout == "counted\n"
    fields = ("prompt_tokens", "completion_tokens")
    if api == "anthropic-messages":
        fields = ("input_tokens", "output_tokens")
    warnings = _warnings(done.stderr)
    assert len(warnings) == 2, done.stderr
    for field, shown in zip(fields, ("inf", "NaN"), strict=True):
        assert any(f"usage.{field}: not a finite number ({shown})" in w for w in warnings)
    [file] = session_files(home)
    usage = read_entries(file)[-1]["message"]["usage"]
    # absent: OpenAI counts 0; Anthropic keeps the count of message_start (output 1)
    output = 1 if api == "anthropic-messages" else 0
    assert usage["input"] == 0 and usage["output"] == output and usage["totalTokens"] == output


@pytest.mark.parametrize("bad", ["1e999", "NaN", "-1e999"])
def test_models_json_numbers_that_are_not_finite(
    bad: str, openai_server: Any, tmp_path: Path
) -> None:
    home = write_home(
        tmp_path / "home", openai_server, contextWindow=987001, maxTokens=987002, cost={"input": 1}
    )
    models = home / "models.json"
    text = models.read_text().replace("987001", bad).replace("987002", bad)
    models.write_text(text.replace('"input": 1}', f'"input": {bad}, "output": 2}}'))
    project = tmp_path / "project"
    project.mkdir()
    openai_server.text("ok")
    run = run_tether if bad == "1e999" else run_in_process  # one real process
    done = run("run", *MODEL, "hi", home=home, cwd=project)
    assert done.returncode == 0, done.stderr
    _clean(done)
    prefix = f"tether: warning: {models}: providers.loop.models[0]"
    assert [w.split(": not a finite number")[0] for w in _warnings(done.stderr)] == [
        f"{prefix}.contextWindow",
        f"{prefix}.maxTokens",
        f"{prefix}.cost.input",
    ]
    assert openai_server.last_request.body["max_completion_tokens"] == 16384  # the default
    [file] = session_files(home)
    cost = read_entries(file)[-1]["message"]["usage"]["cost"]
    assert all(math.isfinite(v) for v in cost.values())


def test_context_tokens_ignore_numbers_that_are_not_finite() -> None:
    inf, nan = float("inf"), float("nan")
    assert calculate_context_tokens({"totalTokens": inf, "input": 3, "output": 4}) == 7
    assert calculate_context_tokens({"totalTokens": nan, "input": inf, "output": nan}) == 0
    assert calculate_context_tokens({"totalTokens": 12, "input": inf}) == 12
