"""The fact ledger's extraction (issue 23): sentences split where they end (not at an
ellipsis, an abbreviation, a dot inside a number, a path, a URL or inline code), exact strings
kept whole (inline code, error lines, command lines), Chinese goals and terse decisions
placed; and, through real compactions whose summarizer drops every fact, the gate restoring
them verbatim."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ledger_helpers import FACT_FREE, FactFree, compactions, section, write_turns
from tether.builtin_plugins.memory.fact_ledger import build_ledger, default_cues
from tether.builtin_plugins.memory.fact_ledger.extract import classify, sentences
from tether.builtin_plugins.memory.fact_ledger.identifiers import identifiers


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I weighed both... we'll go with Redis, not memcached. Then wire it up.",
            ["I weighed both... we'll go with Redis, not memcached.", "Then wire it up."],
        ),
        ("Hmm… ok… use Redis. Fine.", ["Hmm… ok… use Redis.", "Fine."]),
        (
            "Use a fast store, e.g. Redis or i.e. anything in memory. Go.",
            ["Use a fast store, e.g. Redis or i.e. anything in memory.", "Go."],
        ),
        (
            "Pin v2.3.1 and a 0.75 ratio. Read docs/api.v2/spec.md. Done.",
            ["Pin v2.3.1 and a 0.75 ratio.", "Read docs/api.v2/spec.md.", "Done."],
        ),
        (
            "It fails with `KeyError: 'a'. See above` here. And https://x.io/a. b/c ok.",
            ["It fails with `KeyError: 'a'. See above` here.", "And https://x.io/a.", "b/c ok."],
        ),
        ('He wrote "Stop. Now." Then left.', ['He wrote "Stop. Now."', "Then left."]),
        (
            "Keep the toast short, 'Saved! Nice.' rather than 'Save complete'. Don't beep.",
            ["Keep the toast short, 'Saved! Nice.' rather than 'Save complete'.", "Don't beep."],
        ),
        (
            'The banner says "Try again!" when it fails. Ok.',
            ['The banner says "Try again!" when it fails.', "Ok."],
        ),
        (
            "Use black, isort etc. Then push. Use A, B etc. for now.",
            ["Use black, isort etc.", "Then push.", "Use A, B etc. for now."],
        ),
        ("先这样……还是用 Redis 吧。然后跑测试！", ["先这样……还是用 Redis 吧。", "然后跑测试！"]),
        (
            "No. Use issue No. 12 and wait 5 min. Then ask Dr. Lee.",
            ["No.", "Use issue No. 12 and wait 5 min.", "Then ask Dr. Lee."],
        ),
    ],
)
def test_sentences_end_where_sentences_end(text: str, expected: list[str]) -> None:
    assert sentences(text) == expected


@pytest.mark.parametrize(
    ("sentence", "exact"),
    [
        (  # an error line mid-sentence, up to the dash clause
            "Then it dies with sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) "
            "server closed the connection unexpectedly — only after forty minutes.",
            "sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) "
            "server closed the connection unexpectedly",
        ),
        (  # inside inline code, whole
            "The worker prints `RuntimeError: Event loop is closed` before the retry.",
            "RuntimeError: Event loop is closed",
        ),
        (  # a quoted error line
            'The log says "ERROR 1045 (28000): Access denied for user app" every time.',
            "ERROR 1045 (28000): Access denied for user app",
        ),
        (  # a command line: the program through its flags and their values
            "I run python -m jobs.nightly --since 2024-05-01 --batch-size 500 --dry-run and wait.",
            "python -m jobs.nightly --since 2024-05-01 --batch-size 500 --dry-run",
        ),
        (
            "We deploy with kubectl apply -f k8s/prod.yaml --dry-run=server before merging.",
            "kubectl apply -f k8s/prod.yaml --dry-run=server",
        ),
        (
            "Build it with npm run build -- --mode staging, then upload.",
            "npm run build -- --mode staging",
        ),
        (
            "先运行 go test ./... -run TestFoo -count=1 看看。",
            "go test ./... -run TestFoo -count=1",
        ),
        ("Call ./scripts/release.sh --dry-run first.", "./scripts/release.sh --dry-run"),
        ("Then run deploytool push prod eu --tag v2 and wait.", "deploytool push prod eu --tag v2"),
        (  # a program's own error line
            "Every call ends in curl: (7) Failed to connect to localhost port 8080 - odd.",
            "curl: (7) Failed to connect to localhost port 8080",
        ),
        (  # single quotes (an apostrophe is not one)
            "It fails with 'thread main panicked at src/cli.rs:42:9: called unwrap' when that's "
            "empty.",
            "thread main panicked at src/cli.rs:42:9: called unwrap",
        ),
    ],
)
def test_exact_strings_are_one_identifier(sentence: str, exact: str) -> None:
    assert exact in [text for text, _ in identifiers(sentence)]


def test_a_command_takes_the_subject_of_its_flag_so_a_new_value_retires_it() -> None:
    found = list(identifiers("Serve it with gunicorn app:main --workers 6 --bind 0.0.0.0:80."))
    assert found == [("gunicorn app:main --workers 6 --bind 0.0.0.0:80", "flag:--workers")]
    assert list(identifiers("Use the --verbose flag.")) == [("--verbose", "")]  # no program


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        ("缓存就 Redis 吧。", "decision"),
        ("前端组件库就 Ant Design 了。", "decision"),
        ("ORM 选 SQLAlchemy。", "decision"),
        ("Valkey it is.", "decision"),
        ("还是用消息队列吧。", "decision"),
        ("先跑一下测试吧", "request"),  # no named value: not a choice
        ("时区用 UTC。", "request"),
        ("Do it then.", "request"),
        ("Skip the flaky test in CI for now.", "request"),
    ],
)
def test_a_terse_choice_is_a_decision(sentence: str, kind: str) -> None:
    assert classify(sentence, default_cues()) == kind


def _live(*texts: str) -> dict[str, str]:
    messages = [{"role": "user", "content": text} for text in texts]
    ledger = build_ledger(messages, [f"e{n}" for n in range(len(texts))])
    return {f.text: f.kind for f in ledger.live()}


@pytest.mark.parametrize(
    ("turns", "goal"),
    [
        (
            ["您好！我们团队最近想要把旧的报表系统迁到新平台上，希望您能帮忙规划一下迁移步骤。"],
            "您好！我们团队最近想要把旧的报表系统迁到新平台上，希望您能帮忙规划一下迁移步骤。",
        ),
        (
            ["你好", "麻烦您把订单导出改成后台异步任务。导出文件统一放到 exports/ 目录下。"],
            "麻烦您把订单导出改成后台异步任务。",
        ),
        (
            ["Hi! I'd like you to build a CLI that turns CSV into PDF. Keep it small."],
            "Hi! I'd like you to build a CLI that turns CSV into PDF.",
        ),
    ],
)
def test_a_politely_worded_goal_is_the_goal(turns: list[str], goal: str) -> None:
    live = _live(*turns)
    assert [text for text, kind in live.items() if kind == "goal"] == [goal]


def test_an_error_line_outlives_the_sentence_it_was_said_in() -> None:
    live = _live(
        "Get the build green again.",
        "The build stops at error[E0599]: no method named `block_on` found for struct `Runtime` "
        "– the runtime API moved.",
        "Let's pass a runtime Handle around instead of building a runtime in the library.",
    )
    error = "error[E0599]: no method named `block_on` found for struct `Runtime`"
    assert live.get(error) == "identifier"


def test_an_error_line_naming_a_host_is_not_a_value_of_it() -> None:
    error = "psycopg.OperationalError: connection to db-1.internal:5432 refused"
    live = _live(
        "Get the importer running.",
        f"It stops with {error} — every time.",
        "The database is at db-2.internal:5432 now.",
    )
    assert live.get(error) == "identifier"
    assert "db-1.internal:5432" not in live  # the value itself was replaced


def test_a_command_with_a_timeout_flag_is_a_value_not_an_error() -> None:
    live = _live(
        "Speed up the test suite.",
        "Run it as pytest tests/unit --timeout 30 for now.",
        "Make it pytest tests/unit --timeout 60 instead.",
    )
    assert "pytest tests/unit --timeout 60" in live
    assert "pytest tests/unit --timeout 30" not in live


def test_a_rule_said_with_the_goal_stays_a_rule() -> None:
    live = _live("帮我写一个导出工具。希望代码注释都用英文。")
    assert live["帮我写一个导出工具。希望代码注释都用英文。"] == "goal"
    assert live["希望代码注释都用英文。"] == "constraint"


LONG = [
    "Fix the nightly import job, it has been failing since Tuesday.",
    "Some background first. The job reads from the reporting replica. Then it dies with "
    "sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) server closed the connection "
    "unexpectedly — only after forty minutes. I have not touched the config.",
    "Another clue. The worker prints `RuntimeError: Event loop is closed. Retrying` right "
    "before the retry, which makes me think the session is reused. Could be the pool.",
    "To reproduce it, open a shell on the batch host, then run python -m jobs.nightly_import "
    "--since 2024-05-01 --batch-size 500 --dry-run and wait. It takes a while.",
    "I weighed it all... we'll use a fresh engine per run, not a shared pool. Tell me if not.",
]
EXACT = [
    "sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) server closed the connection "
    "unexpectedly",
    "RuntimeError: Event loop is closed. Retrying",
    "python -m jobs.nightly_import --since 2024-05-01 --batch-size 500 --dry-run",
]
DECISION = "I weighed it all... we'll use a fresh engine per run, not a shared pool."


def test_the_gate_restores_exact_strings_of_long_messages(tmp_path: Path) -> None:
    file = tmp_path / "long.jsonl"
    write_turns(file, LONG)
    for entry in compactions(file, 3, ("factfree", FactFree()), summarizer="factfree"):
        for exact in [*EXACT, DECISION]:
            assert exact in entry["summary"], exact
    for entry in compactions(file, 2):
        assert DECISION in section(entry["summary"], "## Key Decisions")
        for exact in EXACT:
            assert exact in entry["summary"], exact


ZH = [
    "您好！最近我们在整理订单服务，想请您帮忙把订单导出从同步接口改成后台异步任务，麻烦了。",
    "任务队列我们看了几个，最后还是 Asynq 吧。",
    "接下来先把任务的重试次数和超时做成可配置的。",
]


@pytest.mark.parametrize("summarizer", ["offline", "factfree"])
def test_a_polite_chinese_goal_and_a_terse_decision_are_placed(
    tmp_path: Path, summarizer: str
) -> None:
    file = tmp_path / "zh.jsonl"
    write_turns(file, ZH, reply="好的。")
    plugins = [("factfree", FactFree())] if summarizer == "factfree" else []
    for entry in compactions(file, 2, *plugins, summarizer=summarizer):
        summary = entry["summary"]
        assert under(summary, "Goal", "想请您帮忙把订单导出从同步接口改成后台异步任务")
        assert under(summary, "Key Decisions", ZH[1])


def under(summary: str, heading: str, text: str) -> bool:
    """``text`` is under a ``## heading`` or ``### heading`` (the gate's carried block)."""
    return any(text in section(part, heading) for part in summary.split("\n## "))


def test_the_gate_wants_an_identifier_verbatim_not_reworded(tmp_path: Path) -> None:
    file = tmp_path / "ids.jsonl"
    write_turns(file, ["Fix the flaky import test.", "Some background first. " + LONG[3]])
    reworded = FACT_FREE.replace(
        "## Critical Context\n- (none)",
        "## Critical Context\n- Repro: python -m jobs.nightly_import, since 2024-05-01, "
        "batch-size 500, dry-run",
    )
    summarizer = FactFree(reworded)
    entry = compactions(file, 1, ("factfree", summarizer), summarizer="factfree")[0]
    assert EXACT[2] in entry["summary"]
    assert entry["details"]["gate"]["verdict"] == "carried_forward"


@pytest.mark.parametrize(
    "sentence",
    [
        "I've been arguing with myself about -ffast-math for a week",
        "ok, drop -ffast-math from the flags",
        "a note to them about -O3 and the vectorizer",
    ],
)
def test_prose_before_a_flag_is_no_command_line(sentence: str) -> None:
    found = [text for text, _ in identifiers(sentence)]
    assert not [text for text in found if " " in text], found  # no "myself about -ffast-math"
