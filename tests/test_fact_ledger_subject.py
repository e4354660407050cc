"""Implicit changes in the fact ledger (issue 23): the same subject with a new value retires
the old one — with no cue word, across languages — and two live facts of one kind (two
environment variables, two paths, two hosts) both stay live."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ledger_helpers import FactFree, compactions, write_turns
from tether.builtin_plugins.memory.fact_ledger import Ledger, build_ledger, stored_ledger


def ledger_of(*said: str) -> Ledger:
    turns = ["Let's get the service ready for the release.", *said]
    messages = [{"role": "user", "content": [{"type": "text", "text": t}]} for t in turns]
    return build_ledger(messages, [f"e{i}" for i in range(len(messages))])


def live(ledger: Ledger) -> set[str]:
    return {f.text for f in ledger.live() if f.kind != "identifier"}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a library swapped with no cue word and no shared name: one head (yaml), one subject
        ("Config files get parsed with PyYAML.", "ruamel.yaml for the config, comments matter."),
        # the same frame around another value
        ("Batch size: 256 rows.", "Batch size: 512 rows, the executors have headroom."),
        ("Connection pool size 20.", "Pool size 50, the load test ran out."),
        ("Use requests for the HTTP client.", "Use httpx for the HTTP client."),
        # the same key, another value
        ("We're on Spark 3.3 in the shared cluster.", "Spark 3.5 is what the new cluster runs."),
        ("Min SDK is API level 26.", "API level 28 is the minimum, the 26 devices are gone."),
        ("Staging DB: db-stage-1.internal:5432.", "db-stage-4.internal:5432 is the staging DB."),
        ("The base URL is https://api.example.com/v1.", "Call https://api.example.com/v2."),
        # another language than the original: the subject comes from the values
        ("Uploads are capped at 20MB.", "上传上限 50MB。"),
        ("同步间隔 30 分钟。", "From now on the sync interval is 10 minutes."),
        ("The sandbox API is https://sandbox.pay.example.com/v1.", "接口换成 https://pay.example.com/v2。"),
        ("数据库连接池大小 20。", "连接池大小 50 吧，压测的时候不够用。"),
        # more shapes: a named version, a moved path, an image tag, a percentage, a word swap
        ("We deploy with Helm 3.", "Helm 3.14 is required for the OCI charts."),
        ("Frontend is React 17.", "We're on React 18 now."),
        ("Logs go to /var/log/app.", "Logs go to /srv/logs/app."),
        ("The base image is python:3.11-slim.", "The base image is python:3.12-slim."),
        ("Keep coverage above 80%.", "Keep coverage above 90%."),
        ("The default branch is main.", "The default branch is trunk."),
        ("Use tabs for indentation.", "Use 4 spaces for indentation."),
        ("We use eslint-config-airbnb.", "We use eslint-config-standard."),
        ("页面标题用中文。", "页面标题用英文。"),
        ("报表每页 25 行。", "Make it 40 rows per page from now on."),
        ("Store sessions in Redis.", "Store sessions in Memcached."),
        ("我们的接口超时是 3 秒。", "接口超时调到 10 秒。"),
        ("Point the client at api.staging.example.com.", "Point the client at api.example.com."),
        # a subject one sentence names ("port") is no qualifier telling two settings apart
        (
            "The dev server listens on port 8080.",
            "8080 clashes with the proxy on my laptop, use 9090 for the dev server",
        ),
    ],
)  # fmt: skip
def test_the_same_subject_with_a_new_value_retires_the_old_one(old: str, new: str) -> None:
    ledger = ledger_of(old, "Unrelated: the README needs a badge.", new)
    assert old not in live(ledger)
    assert new in live(ledger)
    retired = next(f for f in ledger.facts if f.text == old)
    assert retired.status == "retired" and ledger.get(retired.replaced_by) is not None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("DATABASE_URL must be set in the env.", "REDIS_URL must be set in the env."),
        ("src/api.py must stay under 300 lines.", "src/db.py must stay under 300 lines."),
        ("Release builds get signed with k/rel.jks.", "Debug builds get signed with k/dbg.jks."),
        ("The primary is db-main.internal:5432.", "The read replica is db-replica.internal:5432."),
        ("Keep functions under 50 lines.", "Keep files under 400 lines."),
        ("Always run black before committing.", "Always run mypy before committing."),
        ("Never edit migrations/0001_init.py.", "Never edit migrations/0002_users.py."),
        ("Never touch the module number 0.", "Never touch the module number 1."),
        ("Uploads are capped at 20MB.", "The bundle stays under 5MB."),
        ("Install pytest-xdist for parallel runs.", "Add pytest-cov for coverage reports."),
        ("Keep the secrets in secrets.yaml.", "Logging settings go in logging.yaml."),
        ("对账文件放在 /data/recon/inbox 目录。", "对账报告输出到 /data/recon/reports 目录。"),
        ("AWS_REGION=eu-west-1 for the app.", "AWS_PROFILE=dev for the app."),
        ("Deploy with --replicas 3 to staging.", "Deploy with --replicas 5 to prod."),
        ("Max 5 concurrent uploads.", "Max 10 concurrent downloads."),
        ("Use black for formatting.", "Use ruff for linting."),
        ("pandas is required.", "numpy is required."),
        ("Ticket #123 is blocked on review.", "Ticket #456 is blocked on review."),
        ("Module number 3 stays frozen.", "Module number 4 stays frozen."),
        ("The web tier has 4 replicas.", "The worker tier has 8 replicas."),
        ("Staging runs on k8s-staging.example.com.", "Production runs on k8s-prod.example.com."),
        ("Config lives in config/app.toml.", "Secrets live in config/secrets.toml."),
        ("The HTTP timeout is 30s.", "The DB timeout is 4s."),  # another subject qualifies it
        ("The UI cache holds 200 entries.", "The DB cache holds 5000 entries."),
    ],
)  # fmt: skip
def test_two_live_facts_of_one_kind_both_stay_live(first: str, second: str) -> None:
    ledger = ledger_of(first, second)
    assert {first, second} <= live(ledger)


def test_a_value_changed_twice_keeps_only_the_last() -> None:
    ledger = ledger_of(
        "Batch size: 256 rows.",
        "Batch size: 512 rows, the executors have headroom.",
        "Batch size: 2048 rows after all, memory was never the problem.",
    )
    rows = [t for t in live(ledger) if "Batch size" in t]
    assert rows == ["Batch size: 2048 rows after all, memory was never the problem."]
    last = next(f for f in ledger.live() if f.text == rows[0])
    assert [f.text for f in ledger.replaced(last)] == [
        "Batch size: 512 rows, the executors have headroom.",
        "Batch size: 256 rows.",
    ]


def test_a_value_in_a_chinese_sentence_ends_at_chinese_punctuation() -> None:
    ledger = ledger_of("以后 LOG_LEVEL=info，debug 日志太多了。")
    assert "LOG_LEVEL=info" in {f.text for f in ledger.live("identifier")}


@pytest.mark.parametrize("summarizer", ["offline", "factfree"])
def test_a_goal_value_changed_later_is_marked_never_current(
    tmp_path: Path, summarizer: str
) -> None:
    """The goal stays verbatim; a value it states that a later fact changed is marked, in
    the offline summary and in what the gate restores to a summary without the goal."""
    file = tmp_path / "goal.jsonl"
    goal = "Port the billing API to Django 4.2 and keep the test suite green."
    write_turns(file, [goal, "Tests run on Python 3.11.", "Django 5.0 instead, 4.2 ends soon."])
    plugins = [("factfree", FactFree())] if summarizer == "factfree" else []
    entry = compactions(file, 1, *plugins, summarizer=summarizer)[0]
    lines = [ln for ln in entry["summary"].splitlines() if goal in ln]
    assert lines and all(' (changed later: "4.2" changed to "5.0")' in ln for ln in lines)
    ledger = stored_ledger(entry["details"])
    assert ledger is not None and ledger.goal_note() == ' (changed later: "4.2" changed to "5.0")'


def test_one_key_twice_in_one_sentence_keeps_both_values() -> None:
    ledger = ledger_of("Run it with --workers 2 locally and --workers 8 in prod.")
    assert {"--workers 2", "--workers 8"} <= {f.text for f in ledger.live("identifier")}


def test_a_goal_value_in_the_same_frame_is_marked() -> None:
    messages = [
        {"role": "user", "content": [{"type": "text", "text": t}]}
        for t in [
            "Build a CLI that exports at most 500 rows per file.",
            "Make it 1000 rows per file.",
        ]
    ]
    ledger = build_ledger(messages, ["e0", "e1"])
    assert ledger.goal_note() == ' (changed later: "500 rows" changed to "1000 rows")'


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # one version of one name said of two parts: two facts (was: the later retired the first)
        (
            "The ingestion service itself runs on Python 3.11.",
            "One-off backfill scripts may use Python 3.12, they run on laptops anyway.",
        ),
        ("服务端用 Python 3.11。", "离线脚本用 Python 3.12。"),
        ("CUDA 12.1 on the A100 nodes.", "CUDA 11.8 on the T4 nodes, the driver there is old."),
        ("The admin panel builds with Node 18.", "The storefront builds with Node 20."),
        # "new"/"currently" before a part of its own names that part, it does not say "now"
        ("The storefront builds with Node 18.", "The new admin panel builds with Node 20."),
        ("The API runs Python 3.11.", "Currently the worker runs Python 3.12."),
        # a number after a noun that names which one ("Module 3"), not how much
        ("Module 3 stays frozen.", "Module 4 stays frozen."),
        ("Phase 2 is owned by the data team.", "Phase 3 is owned by the data team."),
        # one host key said of two uses; one setting said of two environments (Chinese topics)
        ("Redis at cache-1.internal for sessions.", "Redis at cache-2.internal for rate limits."),
        ("测试环境超时 5 秒。", "生产环境超时 30 秒。"),
        # two places differ, not one swapped word ("for" is in both)
        ("Use pytest for unit tests.", "Use hypothesis for property tests."),
    ],
)  # fmt: skip
def test_one_name_said_of_two_parts_keeps_both(first: str, second: str) -> None:
    ledger = ledger_of(first, second)
    assert {first, second} <= live(ledger)
    assert all(f.status != "retired" for f in ledger.facts)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # (a guard: a version said to hold "now" still replaces the one said of another part)
        ("Terraform 1.5.7 is pinned in .terraform-version.", "We're on Terraform 1.7.5 now."),
        # a casual self-correction
        ("the limiter listens on port 8080", "oops I meant port 8081, 8080 is taken"),
        # one clause of the new sentence swaps the value chosen
        ("Use ONNX Runtime for inference.", "Use TensorRT for inference, ONNX Runtime is slower."),
        # "X now, not Y": Y is replaced
        ("The warehouse target is Redshift.", "Oh and we're on BigQuery now, not Redshift."),
        # a contraction is one word ("let's" is no content word shared or not)
        ("Pool size 20.", "Let's bump the pool to 40."),
        # a label's value swapped; "change back to" in Chinese
        ("Log level: debug.", "Log level: info."),
        ("端口用 9090。", "端口改回 8080 吧。"),
    ],
)  # fmt: skip
def test_a_change_said_in_passing_retires_the_old_value(old: str, new: str) -> None:
    ledger = ledger_of(old, "Unrelated: the README needs a badge.", new)
    assert old not in live(ledger)
    assert new in live(ledger)


def test_a_two_word_setting_is_a_rule_and_a_new_value_replaces_it() -> None:
    """A label and a short value ("Retries: 3.") is a setting: it was filed as a request,
    which the gate never restores."""
    ledger = ledger_of("Retries: 3.", "Unrelated: the README needs a badge.", "Retries: 5.")
    assert [f.text for f in ledger.live("constraint") if "Retries" in f.text] == ["Retries: 5."]
    assert not [f for f in ledger.live("request") if "Retries" in f.text]
    pasted = ledger_of("Error: 502.")
    assert not [f for f in pasted.live("constraint") if "502" in f.text]


@pytest.mark.parametrize(
    ("kept", "changed", "new"),
    [
        (
            "One-off backfill scripts may use Python 3.12.",
            "The ingestion service runs on Python 3.11.",
            "The ingestion service moves to Python 3.13 now.",
        ),
        ("CUDA 12.1 on the A100 nodes.", "CUDA 11.8 on the T4 nodes.", "T4 nodes run CUDA 12 now."),
        (
            "Redis at cache-2.internal for rate limits.",
            "Redis at cache-1.internal for sessions.",
            "Sessions now go to Redis at cache-9.internal.",
        ),
    ],
)  # fmt: skip
def test_a_value_said_per_part_changes_only_the_part_named(
    kept: str, changed: str, new: str
) -> None:
    ledger = ledger_of(changed, kept, new)
    assert {kept, new} <= live(ledger)
    assert changed not in live(ledger)
