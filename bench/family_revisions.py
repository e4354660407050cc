"""The ``revisions`` family: values that change or are revoked in the ways real users write.

Written apart from the ledger's code: an identifier (a bucket, a flag) revoked with "no longer
need", "take it out", 去掉, 删掉; a long opening message whose values change later (the goal
must not show them as current); one ``key = value`` / ``key: value`` / ``--flag value`` set
three times in terse messages, the last one in the middle of a message about something else;
a key word renamed to a key (``parser`` → ``parser_version=``); Chinese rules listed after a
label with spaces and no punctuation; a deadline with 要…之前; and a next step that waits for
someone else ("once X has…, the next step is…", "等…之后，下一步是…"), never done.
"""

from __future__ import annotations

from typing import Any

V, C, N, G = "value", "constraint", "next_step", "goal"
CONSTRAINTS, NEXT = "Constraints & Preferences", "Next Steps"

REVISIONS: list[dict[str, Any]] = [
    {
        "family": "revisions",
        "name": "revoked-ids",
        "turns": [
            {"user": "We need a nightly job that snapshots the audit tables and ships them."},
            {"user": "also wire in the log forwarder, its spool bucket is gs://ops-audit-spool"},
            {"user": "Run the sync with --no-verify for now, the pre-push hooks are broken."},
            {"log": 7000, "command": "pytest -q tests/snapshots"},
            {"user": "Snapshots are written as parquet files."},
            {
                "user": "ok so we don't need the log forwarder anymore. finance cut it, "
                "gs://ops-audit-spool is being torn down next week. take it out."
            },
            {"log": 6500, "command": "pytest -q tests/snapshots"},
            {"user": "the hooks are fixed, you can drop --no-verify going forward"},
            {"user": "continue"},
        ],
        "facts": [
            {"text": "Snapshots are written as parquet files.", "kind": C},
        ],
        "retired": [
            {"value": "gs://ops-audit-spool", "by": None},
            {"value": "--no-verify", "by": None},
        ],
    },
    {
        "family": "revisions",
        "name": "revoked-ids-zh",
        "fillers": ["继续", "接着来"],
        "turns": [
            {"user": "帮我把报表导出服务搭起来。"},
            {"user": "另外导出的备份写到 oss://bi-backup-2023 这个桶。"},
            {"user": "先加上 --skip-lint 跑，lint 规则还没定。"},
            {"log": 7000, "command": "pytest -q tests/export"},
            {"user": "导出文件统一用 UTF-8 编码。"},
            {"user": "备份那个桶不再需要了 oss://bi-backup-2023 月底删掉 去掉吧"},
            {"log": 6000, "command": "pytest -q tests/export"},
            {"user": "lint 已经修好了，--skip-lint 删掉。"},
            {"user": "继续"},
        ],
        "facts": [
            {"text": "导出文件统一用 UTF-8 编码。", "kind": C},
        ],
        "retired": [
            {"value": "oss://bi-backup-2023", "by": None},
            {"value": "--skip-lint", "by": None},
        ],
    },
    {
        "family": "revisions",
        "name": "goal-values-change",
        "turns": [
            {
                "user": "we're moving the nightly cron jobs over to Airflow. workers run on "
                "RHEL8 because the old fleet is still on it. the compiler is gcc 9.3.1a from "
                "the toolchain bundle. I'd like the DAGs to mirror the old schedule."
            },
            {"assistant": "Understood, I'll map each cron entry to a DAG."},
            {"log": 7000, "command": "pytest -q tests/dags"},
            {"user": "ops finished the migration: RHEL9 for everything"},
            {"log": 6500, "command": "pytest -q tests/dags"},
            {"user": "toolchain: gcc 11.4.2b please"},
            {"user": "continue"},
        ],
        "facts": [
            {"text": "RHEL9", "kind": V},
            {"text": "gcc 11.4.2b", "kind": V},
            {"text": "I'd like the DAGs to mirror the old schedule.", "kind": G},
        ],
        "retired": [
            {"value": "RHEL8", "by": "RHEL9"},
            {"value": "gcc 9.3.1a", "by": "gcc 11.4.2b"},
        ],
    },
    {
        "family": "revisions",
        "name": "goal-values-change-zh",
        "fillers": ["继续"],
        "turns": [
            {
                "user": "我们要把旧的统计脚本迁到新平台上。R 用 4.1.2 因为老项目都是这个版本，"
                "画图依赖 ggplot2==3.3.6 从镜像里装。希望新脚本的输出和旧的一致。"
            },
            {"assistant": "好的，我先对比两边的输出。"},
            {"log": 7000, "command": "Rscript tests/run_all.R"},
            {"user": "R 统一改用 4.3.3 吧"},
            {"log": 6000, "command": "Rscript tests/run_all.R"},
            {"user": "依赖换成 ggplot2==3.4.4"},
            {"user": "继续"},
        ],
        "facts": [
            {"text": "4.3.3", "kind": V},
            {"text": "ggplot2==3.4.4", "kind": V},
        ],
        "retired": [
            {"value": "4.1.2", "by": "4.3.3"},
            {"value": "ggplot2==3.3.6", "by": "ggplot2==3.4.4"},
        ],
    },
    {
        "family": "revisions",
        "name": "same-key-terse",
        "turns": [
            {"user": "tune the ingestion workers for the new staging box."},
            {"user": "set worker.concurrency = 32 like in prod."},
            {"user": "upgrade the parser to 2.8.1 while you're at it"},
            {"user": "retry_limit: 3"},
            {"user": "run the replay with --batch-size 64"},
            {"log": 7000, "command": "pytest -q tests/ingest"},
            {"user": "worker.concurrency = 6. staging only has 6 vCPUs."},
            {"log": 6500, "command": "pytest -q tests/ingest"},
            {
                "user": "memory looks fine at 2 GB per worker. worker.concurrency = 10 is "
                "the sweet spot after the resize."
            },
            {"user": "use parser_version=2.9.0, 2.8.1 mangles dates"},
            {"user": "retry_limit: 5"},
            {"user": "--batch-size 128, the replay was too slow"},
            {"user": "continue"},
        ],
        "facts": [
            {"text": "worker.concurrency = 10", "kind": V},
            {"text": "parser_version=2.9.0", "kind": V},
            {"text": "retry_limit: 5", "kind": V},
            {"text": "--batch-size 128", "kind": V},
        ],
        "retired": [
            {"value": "worker.concurrency = 32", "by": "worker.concurrency = 10"},
            {"value": "worker.concurrency = 6", "by": "worker.concurrency = 10"},
            {"value": "retry_limit: 3", "by": "retry_limit: 5"},
            {"value": "--batch-size 64", "by": "--batch-size 128"},
        ],
    },
    {
        "family": "revisions",
        "name": "same-key-terse-zh",
        "fillers": ["继续"],
        "turns": [
            {"user": "帮我调一下同步任务的参数。"},
            {"user": "先设 sync.parallel=8 跟线上一样。"},
            {"log": 7000, "command": "pytest -q tests/sync"},
            {"user": "sync.parallel=2 测试机扛不住"},
            {"log": 6000, "command": "pytest -q tests/sync"},
            {"user": "内存还够。sync.parallel=4 刚好。"},
            {"user": "继续"},
        ],
        "facts": [{"text": "sync.parallel=4", "kind": V}],
        "retired": [
            {"value": "sync.parallel=8", "by": "sync.parallel=4"},
            {"value": "sync.parallel=2", "by": "sync.parallel=4"},
        ],
    },
    {
        "family": "revisions",
        "name": "zh-rules-no-punctuation",
        "fillers": ["继续", "好的继续"],
        "turns": [
            {"user": "帮我清洗一下接口日志。"},
            {"user": "嗯 过滤规则：响应时间超过3秒的请求丢掉 状态码是5xx的也丢掉 别的先保留"},
            {"log": 7000, "command": "python -m pytest -q tests/clean"},
            {"user": "今天先到这，周五之前要把报告发给客户。"},
            {"user": "继续"},
        ],
        "facts": [
            {"text": "响应时间超过3秒的请求丢掉", "kind": C},
            {"text": "状态码是5xx的也丢掉", "kind": C},
            {"text": "周五之前要把报告发给客户", "kind": C},
        ],
    },
    {
        "family": "revisions",
        "name": "next-step-waits",
        "turns": [
            {"user": "Get the release candidate ready for the partner drop."},
            {"log": 7000, "command": "make test"},
            {
                "user": "Priya is rebuilding the assets. Once she has re-run `make bundle` on "
                "her laptop, the next step is to re-run `deploy-canary` and then tag release "
                "7731 for the partner team. I'll let you know."
            },
            {"log": 6000, "command": "make test"},
            {"user": "continue"},
        ],
        "facts": [
            {
                "text": "the next step is to re-run `deploy-canary` and then tag release 7731",
                "kind": N,
                "section": NEXT,
            },
        ],
    },
    {
        "family": "revisions",
        "name": "next-step-waits-zh",
        "fillers": ["继续"],
        "turns": [
            {"user": "帮我把发布候选版本准备好。"},
            {"log": 7000, "command": "npm test"},
            {
                "user": "小王在重新生成接口代码。等他在自己机器上跑完 `npm run gen` 之后，"
                "下一步是重新跑 `e2e-suite` 然后把构建 5512 提交给测试组。到时候我告诉你。"
            },
            {"log": 6000, "command": "npm test"},
            {"user": "继续"},
        ],
        "facts": [
            {
                "text": "下一步是重新跑 `e2e-suite` 然后把构建 5512 提交给测试组",
                "kind": N,
                "section": NEXT,
            },
        ],
    },
]
