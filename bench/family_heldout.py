"""The ``heldout`` family: values changed later, written apart from the ``changed`` family
with other wording, facts and values and other identifier kinds (URLs with a scheme, image
tags, quantities with units, API levels, named versions), every cue of the issue in both
languages (switch to, instead of, scratch that, after all, no longer, from now on; 改为, 换成,
改用, 不再, 取消, 以后), implicit changes (the same subject gets a new value, no cue word),
changes stated in the other language than the original, values changed twice, revoked rules,
a goal whose value changes later, and pairs of live facts of one kind (two environment
variables, two paths) that must both stay live. What failed here was fixed by general rules
of the ledger (``fact_ledger/subject.py``), never by matching these sessions' words."""

from __future__ import annotations

from typing import Any

V, C = "value", "constraint"

HELDOUT: list[dict[str, Any]] = [
    {
        "family": "heldout",
        "name": "feature-job",
        "turns": [
            {
                "user": "The nightly feature-extraction job has to be rebuilt, it keeps missing "
                "the morning report."
            },
            {
                "user": "Artifacts get uploaded to s3://ml-artifacts-dev/features, that bucket "
                "belongs to our team."
            },
            {"user": "ARTIFACT_TOKEN must be exported before the job starts."},
            {"user": "WAREHOUSE_DSN must be exported before the job starts."},
            {"user": "Batch size: 256 rows."},
            {"user": "Parquet files are written through pyarrow."},
            {"user": "We're on Spark 3.3 in the shared cluster."},
            {"user": "The whole job stays under 45 minutes wall-clock."},
            {"user": "Every partition runs with --dry-run first, I want to see the plan."},
            {"log": 9000, "command": "pytest -q tests/features"},
            {"user": "Batch size: 512 rows, the executors have headroom."},
            {"user": "Use fastparquet instead of pyarrow, the wheel size matters on the workers."},
            {"log": 7000, "command": "pytest -q tests/features"},
            {"user": "Spark 3.5 is what the new cluster runs."},
            {
                "user": "Scratch that limit, 90 minutes is acceptable now that the report moved "
                "to 8am."
            },
            {"user": "From now on artifacts go to s3://ml-artifacts-prod/features."},
            {"log": 8000, "command": "pytest -q"},
            {"user": "Partitions no longer need --dry-run, the plans looked right."},
            {"user": "Batch size: 2048 rows after all, memory was never the problem."},
            {"user": "continue"},
        ],
        "facts": [
            {"text": "s3://ml-artifacts-prod/features", "kind": V},
            {"text": "ARTIFACT_TOKEN must be exported before the job starts.", "kind": C},
            {"text": "WAREHOUSE_DSN must be exported before the job starts.", "kind": C},
            {"text": "2048 rows", "kind": V},
            {"text": "fastparquet", "kind": V},
            {"text": "Spark 3.5", "kind": V},
            {"text": "90 minutes", "kind": V},
        ],
        "retired": [
            {"value": "s3://ml-artifacts-dev/features", "by": "s3://ml-artifacts-prod/features"},
            {"value": "256 rows", "by": "512 rows"},
            {"value": "512 rows", "by": "2048 rows"},
            {"value": "pyarrow", "by": "fastparquet"},
            {"value": "Spark 3.3", "by": "Spark 3.5"},
            {"value": "45 minutes", "by": "90 minutes"},
            {"value": "--dry-run", "by": None},
        ],
    },
    {
        "family": "heldout",
        "name": "zh-reconcile",
        "fillers": ["继续", "接着弄", "继续吧，有问题叫我"],
        "acks": ["好的。", "收到。", "明白，马上处理。"],
        "turns": [
            {"user": "这次要给支付回调做一个对账服务，每天凌晨跑一次。"},
            {"user": "对账结果先写进 MongoDB。"},
            {"user": "调用银行接口的超时设成 8s。"},
            {"user": "The sandbox endpoint is https://sandbox.pay.example.com/v1 for now."},
            {"user": "日志级别 LOG_LEVEL=debug，方便排查。"},
            {"user": "对账文件放在 /data/recon/inbox 目录。"},
            {"user": "对账报告输出到 /data/recon/reports 目录。"},
            {"user": "启动的时候带上 --legacy-sign。"},
            {"user": "数据库连接池大小 20。"},
            {"user": "补偿任务每 10 分钟跑一次。"},
            {"log": 8000, "command": "go test ./..."},
            {"user": "对账结果改为写进 ClickHouse，MongoDB 扛不住这个量。"},
            {"user": "超时换成 15s，银行那边太慢了。"},
            {"user": "接口地址换成 https://api.pay.example.com/v2。"},
            {"log": 9500, "command": "go test ./..."},
            {"user": "以后 LOG_LEVEL=info，debug 日志太多了。"},
            {"user": "银行已经升级了签名算法，不再需要 --legacy-sign。"},
            {"user": "连接池大小 50 吧，压测的时候不够用。"},
            {"user": "取消补偿任务，银行会主动推送结果。"},
            {"log": 7000, "command": "go test ./recon/..."},
            {"user": "超时最后定成 30s，银行说高峰期会更慢。"},
            {"user": "继续"},
        ],
        "facts": [
            {"text": "ClickHouse", "kind": V},
            {"text": "30s", "kind": V},
            {"text": "https://api.pay.example.com/v2", "kind": V},
            {"text": "LOG_LEVEL=info", "kind": V},
            {"text": "对账文件放在 /data/recon/inbox 目录。", "kind": C},
            {"text": "对账报告输出到 /data/recon/reports 目录。", "kind": C},
            {"text": "连接池大小 50", "kind": V},
        ],
        "retired": [
            {"value": "写进 MongoDB", "by": "ClickHouse"},
            {"value": "8s", "by": "15s"},
            {"value": "15s", "by": "30s"},
            {"value": "https://sandbox.pay.example.com/v1", "by": "https://api.pay.example.com/v2"},
            {"value": "LOG_LEVEL=debug", "by": "LOG_LEVEL=info"},
            {"value": "--legacy-sign", "by": None},
            {"value": "连接池大小 20", "by": "连接池大小 50"},
            {"value": "每 10 分钟跑一次", "by": None},
        ],
    },
    {
        "family": "heldout",
        "name": "field-app",
        "turns": [
            {"user": "We're adding an offline mode to the field-inspection Android app."},
            {"user": "Min SDK is API level 26."},
            {"user": "同步间隔 30 分钟，省电。"},
            {"user": "SENTRY_DSN has to be set in CI."},
            {"user": "MAPS_API_KEY has to be set in CI."},
            {"user": "The instrumented tests run against postgres:15-alpine in CI."},
            {"user": "Release builds are signed with keystore/release.jks."},
            {"user": "Debug builds are signed with keystore/debug.jks."},
            {"user": "Build the x86 APK as well for the old tablets."},
            {"user": "Images load through Glide."},
            {"log": 8500, "command": "./gradlew test"},
            {"user": "最低 SDK 改成 API level 28，26 的设备已经没人用了。"},
            {"user": "From now on the sync interval is 10 minutes, the inspectors complained."},
            {"user": "The instrumented tests run against postgres:16-alpine in CI."},
            {"user": "Switch to Coil for image loading."},
            {"log": 10000, "command": "./gradlew connectedCheck"},
            {"user": "We no longer ship the x86 APK, the old tablets were retired."},
            {"user": "同步间隔改用 5 分钟。"},
            {"user": "continue"},
        ],
        "facts": [
            {"text": "API level 28", "kind": V},
            {"text": "5 分钟", "kind": V},
            {"text": "SENTRY_DSN has to be set in CI.", "kind": C},
            {"text": "MAPS_API_KEY has to be set in CI.", "kind": C},
            {"text": "postgres:16-alpine", "kind": V},
            {"text": "Coil", "kind": V},
            {"text": "Release builds are signed with keystore/release.jks.", "kind": C},
            {"text": "Debug builds are signed with keystore/debug.jks.", "kind": C},
        ],
        "retired": [
            {"value": "API level 26", "by": "API level 28"},
            {"value": "30 分钟", "by": "10 minutes"},
            {"value": "10 minutes", "by": "5 分钟"},
            {"value": "postgres:15-alpine", "by": "postgres:16-alpine"},
            {"value": "x86 APK", "by": None},
            {"value": "Glide", "by": "Coil"},
        ],
    },
    {
        "family": "heldout",
        "name": "ops-dashboard",
        "turns": [
            {"user": "Build the ops dashboard on Grafana 9 and wire the alert rules into it."},
            {"user": "Dashboards are provisioned from dashboards/ops.json."},
            {"user": "Alert rules are provisioned from alerting/rules.yaml."},
            {"user": "Scrape interval is 15s."},
            {"user": "Retention: 15 days."},
            {"user": "用 Loki 存日志。"},
            {"log": 9000, "command": "make test"},
            {"user": "We run Grafana 10 now, the plugin finally supports it."},
            {"user": "抓取间隔改为 30s。"},
            {"log": 7000, "command": "make test"},
            {"user": "Retention: 30 days, compliance asked for it."},
            {"user": "Logs go to Elasticsearch instead of Loki."},
            {"user": "continue"},
        ],
        "facts": [
            {"text": "Grafana 10", "kind": V},
            {"text": "Dashboards are provisioned from dashboards/ops.json.", "kind": C},
            {"text": "Alert rules are provisioned from alerting/rules.yaml.", "kind": C},
            {"text": "30s", "kind": V},
            {"text": "30 days", "kind": V},
            {"text": "Elasticsearch", "kind": V},
        ],
        "retired": [
            {"value": "Grafana 9", "by": "Grafana 10"},
            {"value": "15s", "by": "30s"},
            {"value": "15 days", "by": "30 days"},
            {"value": "Loki", "by": "Elasticsearch"},
        ],
    },
]
