"""Recall of the fact ledger (issue 23): identifiers of any shape kept verbatim, error lines
by their shape, preferences said as requests, and one selection for both summarizers.

- every identifier-shaped token a user states is a fact, also in a long message where
  another sentence carries a cue: host:port, a CAPS_WITH_UNDERSCORES variable, a compiler
  define (``-DNAME=VALUE``), a long dotted flag (``--a.b.c_d=false``), in English and Chinese;
- the error line of failing output is the one that says what went wrong, by shape: a
  compiler's ``path:LINE:COL: error: …`` before make's ``*** Error 1`` tally, an API error
  code with its message inside JSON; a pasted diagnostic is an open error;
- "print them in <unit> with a <suffix>" in a long message is kept like a value;
- the gate requires what the offline summary lists (:mod:`.recall`), within a budget, with a
  record of what was dropped: a fact-free LLM summary ends up holding what the offline one
  holds.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_in_process import run_in_process
from tests.gate_helpers import SECTIONS, assistant, records, text, tool_turn, user
from tests.servers import OpenAIServer
from tether.builtin_plugins.memory.fact_ledger import Ledger, build_ledger
from tether.builtin_plugins.memory.fact_ledger.cues import default_cues
from tether.builtin_plugins.memory.fact_ledger.errorline import error_line
from tether.builtin_plugins.memory.fact_ledger.extract import Statement
from tether.builtin_plugins.memory.fact_ledger.noted import noted
from tether.builtin_plugins.memory.fact_ledger.recall import kept_identifiers
from tether.core.session.session import Session

LONG_EN = (
    "We have to get the telemetry relay building again before the spring release, that is "
    "the one hard deadline. The relay reads its token from RELAY_UPLINK_TOKEN and pushes to "
    "gw-north-3.plant.lan:7443 over TLS. Compile the sensor shim with -DSHIM_BUFFER_KB=48 "
    "because the small boards run out of RAM. Also start the collector with "
    "--collector.batch.flush_on_idle=false so we don't get half batches."
)
LONG_ZH = (
    "这个中继必须在周五前恢复。中继的密钥放在 RELAY_BACKUP_KEY 里，网关地址是 "
    "gw-south-1.plant.lan:7443，编译参数加 -DSHIM_TRACE=0，另外收集器要加 "
    "--collector.retry.max_backoff_ms=8000。"
)
EXACT = [
    "RELAY_UPLINK_TOKEN",
    "gw-north-3.plant.lan:7443",
    "-DSHIM_BUFFER_KB=48",
    "--collector.batch.flush_on_idle=false",
    "RELAY_BACKUP_KEY",
    "gw-south-1.plant.lan:7443",
    "-DSHIM_TRACE=0",
    "--collector.retry.max_backoff_ms=8000",
]
DIAGNOSTIC = "src/shim/ringbuf.cpp:77:14: error: 'ringbuf_reserve' was not declared in this scope"
BUILD_OUTPUT = (
    "Compiling .pio/build/edge/src/shim.o\n"
    f"{DIAGNOSTIC}\n"
    "   77 |   ringbuf_reserve(n);\n"
    "      |   ^~~~~~~~~~~~~~~\n"
    "*** [.pio/build/edge/src/shim.o] Error 1\n"
    "========== [FAILED] Took 4.12 seconds =========="
)
API_ERROR = "GW-2203: Device edge/77 not registered, expected in scope: Plant.north"
API_OUTPUT = (
    "HTTP/1.1 422 Unprocessable Entity\n{\n"
    '  "issue": [ {\n    "severity": "error",\n    "code": "processing",\n'
    f'    "diagnostics": "{API_ERROR}"\n  }} ]\n}}'
)
TERSE = "print them in kyiv time with a trailing +02"
TERSE_MESSAGE = (
    "the readings table looks fine now, thanks for sorting out the alignment on narrow "
    f"screens. {TERSE}. the header row is whatever, nobody has complained about it."
)


def ledger_of(*said: str) -> Ledger:
    messages = [user(text) for text in said]
    return build_ledger(messages, [f"e{i}" for i in range(len(messages))])


def live(ledger: Ledger, kind: str) -> list[str]:
    return [f.text for f in ledger.live(kind)]


@pytest.mark.parametrize("message", [LONG_EN, LONG_ZH])
def test_identifiers_of_every_shape_in_a_long_message_are_kept_whole(message: str) -> None:
    identifiers = live(ledger_of(message), "identifier")
    wanted = [value for value in EXACT if value in message]
    assert len(wanted) == 4
    for value in wanted:
        assert value in identifiers, (value, identifiers)


def test_a_changed_define_or_dotted_flag_retires_the_old_value() -> None:
    ledger = ledger_of(
        "Build the shim with -DSHIM_BUFFER_KB=48 for the small boards.",
        "Start the collector with --collector.batch.flush_on_idle=false please.",
        "-DSHIM_BUFFER_KB=32 now, the new boards have even less RAM.",
        "Use --collector.batch.flush_on_idle=true from now on.",
    )
    identifiers = live(ledger, "identifier")
    assert "-DSHIM_BUFFER_KB=32" in identifiers and "-DSHIM_BUFFER_KB=48" not in identifiers
    assert "--collector.batch.flush_on_idle=true" in identifiers
    assert "--collector.batch.flush_on_idle=false" not in identifiers


@pytest.mark.parametrize(
    ("output", "line"),
    [(BUILD_OUTPUT, DIAGNOSTIC), (API_OUTPUT, API_ERROR)],
)
def test_the_failing_output_line_that_says_what_went_wrong_is_the_open_error(
    output: str, line: str
) -> None:
    assert line in error_line(output)
    messages = [user("The relay build fails again, have a look.")]
    messages += tool_turn("t1", "bash", {"command": "pio run -e edge"}, output, True)
    ledger = build_ledger(messages, [f"e{i}" for i in range(len(messages))])
    assert any(line in fact for fact in live(ledger, "error"))


@pytest.mark.parametrize(
    "said",
    [
        f"The build broke again, this is what it prints: {DIAGNOSTIC}. I think a header moved.",
        f"编译又挂了：{DIAGNOSTIC}，帮我看看是不是头文件的问题。",
        "The editor console says Material error in 'Custom/Grass': unknown variable "
        "'windStrength' at Assets/Mat/Grass.hlsl(41) (on vulkan) since the update.",
    ],
)
def test_an_error_line_in_prose_is_kept_whole_with_its_location(said: str) -> None:
    identifiers = live(ledger_of(said), "identifier")
    if DIAGNOSTIC in said:
        assert DIAGNOSTIC in identifiers or f"{DIAGNOSTIC}." in identifiers
        assert not any("帮我" in value for value in identifiers)  # ends at the Chinese comma
    else:
        whole = "Material error in 'Custom/Grass': unknown variable 'windStrength' at "
        assert any(value.startswith(whole) and "(on vulkan)" in value for value in identifiers)


def test_a_pasted_diagnostic_is_an_open_error() -> None:
    ledger = ledger_of(f"{DIAGNOSTIC}\n   77 |   ringbuf_reserve(n);")
    assert DIAGNOSTIC in live(ledger, "error")


@pytest.mark.parametrize(
    "said",
    [
        TERSE,
        "oh and sizes: show them in kilobytes with a KB suffix",
        "round prices to two decimals",
        "金额都用两位小数，后面带上元",
        "日志统一写成 JSON，别混着纯文本",
    ],
)
def test_how_a_kind_of_thing_is_shown_is_a_preference_kept_as_a_note(said: str) -> None:
    assert noted(said, default_cues())


@pytest.mark.parametrize("said", ["fix it", "run the tests again", "look at the logs"])
def test_one_piece_of_work_is_no_standing_preference(said: str) -> None:
    assert not noted(said, default_cues())


def test_identifiers_beyond_the_budget_are_dropped_with_a_record_newest_kept() -> None:
    ledger = Ledger()
    for n in range(30):
        ledger.add(Statement("identifier", f"store-{n}.lan:9{n:03d}", f"e{n}"))
    kept = kept_identifiers(ledger, max_items=10)
    assert [f.text for f in kept] == [f"store-{n}.lan:9{n:03d}" for n in range(20, 30)]
    assert ledger.dropped_count == 20
    assert {d["text"] for d in ledger.dropped} >= {"store-0.lan:9000", "store-19.lan:9019"}
    assert len(kept_identifiers(ledger, max_items=10)) == 10  # the same ten again


def test_an_unspecific_identifier_goes_before_a_specific_one() -> None:
    ledger = Ledger()
    ledger.add(Statement("identifier", "gw-north-3.plant.lan:7443", "e1"))
    ledger.add(Statement("identifier", "PLANT_ZONE", "e2"))
    ledger.add(Statement("identifier", "1.5", "e3"))  # a bare number said last
    kept = kept_identifiers(ledger, max_items=2)
    assert [f.text for f in kept] == ["gw-north-3.plant.lan:7443", "PLANT_ZONE"]
    assert [d["text"] for d in ledger.dropped] == ["1.5"]


# -- the gate restores what the offline summary shows ---------------------------------------

FACT_FREE = "\n\n".join(f"## {name}\n- (none)" for name in SECTIONS)
HELD = [*EXACT, DIAGNOSTIC, API_ERROR, TERSE]
MODEL = "loop/summarizer-1"


def _session(path: Path) -> Path:
    messages = [user(LONG_EN), assistant([text("On it.")])]
    messages += tool_turn("t1", "bash", {"command": "pio run -e edge"}, BUILD_OUTPUT, True)
    messages += [user(TERSE_MESSAGE), assistant([text("Sure.")])]
    messages += [user(LONG_ZH), assistant([text("好的。")])]
    messages += tool_turn("t2", "bash", {"command": "curl -X POST gw/register"}, API_OUTPUT, True)
    messages += [user("继续"), assistant([text("Continuing with the relay.")])]
    for n in range(3):
        messages += [user(f"Progress check {n}. " + "All quiet on the relay. " * 40)]
        messages += [assistant([text("Looks fine.")])]
    session = Session.open(path, create=True, cwd=str(path.parent))
    for message in messages:
        session.append_message(message)
    return path


def _project(tmp_path: Path, server: OpenAIServer) -> Path:
    (tmp_path / ".tether").mkdir()
    settings = {"compaction": {"model": MODEL}}
    (tmp_path / ".tether" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    model = {"id": "summarizer-1", "contextWindow": 64000, "maxTokens": 4096}
    provider = {"baseUrl": server.base_url, "api": "openai-completions", "models": [model]}
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "models.json").write_text(
        json.dumps({"providers": {"loop": provider}}), "utf-8"
    )
    return tmp_path


def test_a_fact_free_llm_summary_ends_up_holding_what_the_offline_one_holds(
    tmp_path: Path,
) -> None:
    offline = _session(tmp_path / "offline.jsonl")
    done = run_in_process(
        "session", "compact", str(offline), "--summarizer", "offline", "--keep", "400",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    offline_summary = records(offline)[-1]["summary"]
    for fact in HELD:
        assert fact in offline_summary, fact

    llm = _session(tmp_path / "llm.jsonl")
    with OpenAIServer() as server:
        server.text(FACT_FREE)
        server.text(FACT_FREE)  # the retry holds none of them either
        cwd = _project(tmp_path, server)
        done = run_in_process(
            "session", "compact", str(llm), "--summarizer", "llm", "--keep", "400",
            home=cwd / "home", cwd=cwd,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    entry = records(llm)[-1]
    assert entry["details"]["gate"]["verdict"] in ("carried_forward", "fallback")
    for fact in HELD:
        assert fact in entry["summary"], fact
