"""The ``robust`` family: sessions written as a hostile user would, after the ledger failed
on blind sets in new ways each time. Subjects no table lists, named by their own words
("水位线", "codec", "sample rate", "分区键"); a change without a cue word; a sentence that
states several values of which one changes later (the others stay, also per part: staging /
prod, 主库 / 从库); a sentence that only remarks on the old value ("5000 rows was too much");
a negation in a clause that describes a thing ("a tenant we don't have"), which is no rule;
revocations by a closing phrase ("--legacy-fonts can go."); and statements with values but no
cue inside long messages, which the gate keeps (recall first)."""

from __future__ import annotations

from typing import Any

ROBUST: list[dict[str, Any]] = [
    {
        "family": "robust",
        "name": "exporter-nocue",
        "fillers": ["continue", "k", "go"],
        "turns": [
            {
                "user": "we're porting the invoice exporter to the new stack. it reads from the "
                "warehouse replica at wh-ro-2.corp:5433 and writes parquet to "
                "s3://fin-exports/daily/."
            },
            {"user": "parquet files: 5000 rows each."},
            {"log": 3000, "command": "pytest -q"},
            {"user": "Compression codec is snappy."},
            {"user": "the nightly trigger fires at 02:30 UTC"},
            {"log": 4000, "command": "pytest -q tests/export"},
            {
                "user": "Heads up, the old exporter used a hand-rolled CSV writer that we don't "
                "trust anymore, the dedupe step depends on it though."
            },
            {"user": "warehouse folks moved the replica, it lives on wh-ro-5.corp:5433 now"},
            {"user": "5000 rows was too much for the downstream lambda. 2000 rows each."},
            {"log": 3500, "command": "pytest -q"},
            {"user": "codec: zstd, storage is cheaper that way"},
            {"user": "trigger time 04:15 UTC, finance closes books later than we thought"},
            {"user": "continue"},
        ],
        "facts": [
            {"text": "wh-ro-5.corp:5433", "kind": "value"},
            {"text": "s3://fin-exports/daily/", "kind": "value"},
            {"text": "2000 rows each", "kind": "value"},
            {"text": "zstd", "kind": "value"},
            {"text": "04:15 UTC", "kind": "value"},
        ],
        "retired": [
            {"value": "wh-ro-2.corp", "by": "wh-ro-5.corp:5433"},
            {"value": "5000 rows", "by": "2000 rows each"},
            {"value": "snappy", "by": "zstd"},
            {"value": "02:30 UTC", "by": "04:15 UTC"},
        ],
    },
    {
        "family": "robust",
        "name": "frontend-flags",
        "fillers": ["continue", "go on"],
        "turns": [
            {"user": "Goal: get the admin dashboard CI green and fast."},
            {"user": "Lint runs as `eslint . --max-warnings 0`. Playwright workers: 4."},
            {"user": "Sentry sample rate 0.25 for the dashboard."},
            {"log": 5000, "command": "npx playwright test"},
            {
                "user": "The flaky login spec needs a seeded tenant we don't have in CI yet, skip "
                "it for now."
            },
            {"user": "the CI runner is tiny. playwright workers 2."},
            {"log": 5000, "command": "npx playwright test"},
            {"user": "sentry sample rate down to 0.1, we're over quota"},
            {"user": "and lint may have a few warnings while we migrate: --max-warnings 25"},
            {"log": 3000, "command": "npm run lint"},
            {"user": "go on"},
        ],
        "facts": [
            {"text": "playwright workers 2", "kind": "value"},
            {"text": "0.1", "kind": "value"},
            {"text": "--max-warnings 25", "kind": "value"},
        ],
        "retired": [
            {"value": "Playwright workers: 4", "by": "playwright workers 2"},
            {"value": "0.25", "by": "0.1"},
            {"value": "--max-warnings 0", "by": "--max-warnings 25"},
        ],
    },
    {
        "family": "robust",
        "name": "zh-etl-terse",
        "fillers": ["继续", "嗯", "go on"],
        "turns": [
            {"user": "把订单同步任务迁到新集群。"},
            {"user": "水位线 80%，超过就告警。"},
            {"user": "退避 2 秒。"},
            {"log": 3000, "command": "pytest -q"},
            {"user": "老集群没有 kafka，所以暂时别接消息。"},
            {"user": "水位线调到 70%，80% 太晚了"},
            {"log": 3000, "command": "pytest -q"},
            {"user": "退避给 5 秒吧，2 秒把对方打挂了"},
            {"user": "分区键用 shop_id"},
            {"log": 3000, "command": "pytest -q"},
            {"user": "分区键换 tenant_id，shop_id 会热点"},
            {"user": "继续"},
        ],
        "facts": [
            {"text": "水位线调到 70%", "kind": "value"},
            {"text": "退避给 5 秒吧", "kind": "value"},
            {"text": "分区键换 tenant_id", "kind": "value"},
            {"text": "暂时别接消息", "kind": "constraint", "section": "Constraints & Preferences"},
        ],
        "retired": [
            {"value": "水位线 80%", "by": "70%"},
            {"value": "退避 2 秒", "by": "5 秒"},
            {"value": "分区键用 shop_id", "by": "tenant_id"},
        ],
    },
    {
        "family": "robust",
        "name": "per-part-guard",
        "fillers": ["continue"],
        "turns": [
            {
                "user": "Sizing the search cluster. Staging nodes get 4 GB heap, prod nodes get "
                "16 GB heap."
            },
            {"user": "主库连接池 50，从库连接池 20。"},
            {"user": "index refresh: 30s on the logs index, 1s on the products index"},
            {"log": 3000, "command": "pytest -q"},
            {"user": "prod heap to 24 GB, we saw GC storms"},
            {"user": "从库连接池加到 40"},
            {"user": "products index refresh 5s, 1s is killing the indexer"},
            {"log": 3000, "command": "pytest -q"},
            {"user": "continue"},
        ],
        "facts": [
            {"text": "Staging nodes get 4 GB heap", "kind": "value"},
            {"text": "prod heap to 24 GB", "kind": "value"},
            {"text": "主库连接池 50", "kind": "value"},
            {"text": "从库连接池加到 40", "kind": "value"},
            {"text": "30s on the logs index", "kind": "value"},
            {"text": "products index refresh 5s", "kind": "value"},
        ],
        "retired": [
            {"value": "16 GB heap", "by": "24 GB"},
            {"value": "从库连接池 20", "by": "40"},
            {"value": "1s on the products index", "by": "5s"},
        ],
    },
    {
        "family": "robust",
        "name": "pkg-env-revoke",
        "fillers": ["continue", "carry on"],
        "turns": [
            {
                "user": "We need the PDF renderer service running again. Use weasyprint 60.2 for "
                "rendering and set RENDER_TIMEOUT=20."
            },
            {"user": "Also put everything behind the flag --legacy-fonts until design signs off."},
            {"log": 4000, "command": "pytest -q"},
            {"user": "weasyprint 61.0 fixes the table bug, take that one"},
            {"user": "RENDER_TIMEOUT=45, big invoices take forever"},
            {"log": 4000, "command": "pytest -q"},
            {"user": "design signed off. --legacy-fonts can go."},
            {"user": "Next: profile the render of invoice 88412 and post numbers in the ticket."},
            {"user": "carry on"},
        ],
        "facts": [
            {"text": "weasyprint 61.0", "kind": "value"},
            {"text": "RENDER_TIMEOUT=45", "kind": "value"},
            {
                "text": "profile the render of invoice 88412",
                "kind": "next_step",
                "section": "Next Steps",
            },
        ],
        "retired": [
            {"value": "weasyprint 60.2", "by": "weasyprint 61.0"},
            {"value": "RENDER_TIMEOUT=20", "by": "RENDER_TIMEOUT=45"},
            {"value": "--legacy-fonts", "by": None},
        ],
    },
    {
        "family": "robust",
        "name": "prefs-unkeyed",
        "fillers": ["continue", "ok", "next"],
        "turns": [
            {"user": "hey, can you help me tidy the CLI's help output"},
            {"user": "help text wraps at 80 columns"},
            {"user": "examples go at the bottom of each command's help, not the top"},
            {"log": 6000, "command": "pytest -q"},
            {"user": "I want flags sorted alphabetically in the listing"},
            {"log": 6000, "command": "pytest -q"},
            {"user": "colors off when stdout isn't a tty"},
            {"user": "hmm 80 is cramped, wrap at 100 columns"},
            {"log": 6000, "command": "pytest -q"},
            {"user": "ok"},
        ],
        "facts": [
            {
                "text": "examples go at the bottom of each command's help, not the top",
                "kind": "preference",
            },
            {"text": "I want flags sorted alphabetically in the listing", "kind": "preference"},
            {"text": "colors off when stdout isn't a tty", "kind": "preference"},
            {"text": "wrap at 100 columns", "kind": "value"},
        ],
        "retired": [{"value": "80 columns", "by": "100 columns"}],
    },
    {
        "family": "robust",
        "name": "zh-casual-app",
        "fillers": ["继续", "嗯嗯"],
        "turns": [
            {"user": "帮我把小程序的下单页重做一下"},
            {"user": "主色用 #1677ff"},
            {"user": "列表每页 20 条"},
            {"user": "接口域名 api.shop-test.cn"},
            {"log": 3000, "command": "npm test"},
            {"user": "主色换成 #ff4d4f，老板说蓝色太冷"},
            {"user": "每页 20 条太少了，改 50"},
            {"log": 3000, "command": "npm test"},
            {"user": "接口域名切到 api.shop.cn，测试环境下线了"},
            {"user": "别动支付那块的代码"},
            {"user": "继续"},
        ],
        "facts": [
            {"text": "#ff4d4f", "kind": "value"},
            {"text": "改 50", "kind": "value"},
            {"text": "api.shop.cn", "kind": "value"},
            {
                "text": "别动支付那块的代码",
                "kind": "constraint",
                "section": "Constraints & Preferences",
            },
        ],
        "retired": [
            {"value": "#1677ff", "by": "#ff4d4f"},
            {"value": "每页 20 条", "by": "改 50"},
            {"value": "api.shop-test.cn", "by": "api.shop.cn"},
        ],
    },
    {
        "family": "robust",
        "name": "ops-mixed",
        "fillers": ["continue", "go on"],
        "turns": [
            {"user": "Set up the Postgres backup job for both environments."},
            {"user": "Backups: nightly to /mnt/backup/pg, keep 14 days."},
            {"user": "Staging DB is pg-stg.int, prod DB is pg-prod.int."},
            {"user": "LOG_LEVEL=debug on staging, LOG_LEVEL=warn on prod."},
            {"log": 3000, "command": "pytest -q"},
            {"user": "keep 30 days of backups, audit wants a month"},
            {"user": "staging LOG_LEVEL=info, debug is too noisy"},
            {"log": 3000, "command": "pytest -q"},
            {"user": "don't ever restore into prod without a ticket"},
            {"user": "go on"},
        ],
        "facts": [
            {"text": "/mnt/backup/pg", "kind": "value"},
            {"text": "keep 30 days", "kind": "value"},
            {"text": "pg-stg.int", "kind": "value"},
            {"text": "pg-prod.int", "kind": "value"},
            {"text": "LOG_LEVEL=warn on prod", "kind": "value"},
            {"text": "staging LOG_LEVEL=info", "kind": "value"},
            {
                "text": "don't ever restore into prod without a ticket",
                "kind": "constraint",
                "section": "Constraints & Preferences",
            },
        ],
        "retired": [
            {"value": "keep 14 days", "by": "keep 30 days"},
            {"value": "LOG_LEVEL=debug", "by": "LOG_LEVEL=info"},
        ],
    },
    {
        "family": "robust",
        "name": "desc-negation",
        "fillers": ["continue"],
        "turns": [
            {"user": "Migrate the billing cron to the new scheduler."},
            {"user": "The new scheduler is Temporal."},
            {
                "user": "Temporal doesn't support our old cron syntax, which we never documented "
                "anyway."
            },
            {"user": "The cron runs every 15 minutes."},
            {"log": 3000, "command": "pytest -q"},
            {"user": "Actually Temporal is overkill for this, use Airflow instead."},
            {"user": "and it should run every 5 minutes now, finance wants fresher numbers"},
            {"log": 3000, "command": "pytest -q"},
            {
                "user": "The DAG needs a connection id we don't have yet; ask me before creating "
                "one."
            },
            {"user": "continue"},
        ],
        "facts": [
            {"text": "use Airflow instead", "kind": "value"},
            {"text": "every 5 minutes", "kind": "value"},
            {"text": "ask me before creating one", "kind": "constraint"},
        ],
        "retired": [
            {"value": "Temporal", "by": "Airflow"},
            {"value": "every 15 minutes", "by": "every 5 minutes"},
        ],
    },
    {
        "family": "robust",
        "name": "pasted-config",
        "fillers": ["continue", "ok"],
        "turns": [
            {"user": "Wire up the order consumer."},
            {
                "user": "Here's what the consumer config should be:\n"
                "workers: 4\n"
                "timeout: 30s\n"
                "queue: orders-v1"
            },
            {"log": 3000, "command": "pytest -q"},
            {"user": "queue is orders-v2 now"},
            {"user": "timeout 45s, the ERP is slow"},
            {"log": 3000, "command": "pytest -q"},
            {"user": "ok"},
        ],
        "facts": [
            {"text": "workers: 4", "kind": "value"},
            {"text": "orders-v2", "kind": "value"},
            {"text": "timeout 45s", "kind": "value"},
        ],
        "retired": [
            {"value": "orders-v1", "by": "orders-v2"},
            {"value": "timeout: 30s", "by": "timeout 45s"},
        ],
    },
    {
        "family": "robust",
        "name": "long-msgs",
        "fillers": ["continue", "go on"],
        "turns": [
            {
                "user": "Please get the thumbnailer service production ready. It currently "
                "crashes on large PNGs and nobody has looked at it in months, so expect "
                "some rot. The worker pool is 6 processes per pod. Thumbnails come out at "
                "320px wide, JPEG quality 82. Start by reproducing the crash with the "
                "fixture in tests/data/huge.png."
            },
            {"assistant": "Reproducing now."},
            {"log": 6000, "command": "pytest -q"},
            {
                "user": "Ok that reproduces. The crash is the decompression bomb guard, Pillow "
                "refuses anything above 89 megapixels by default. Our biggest legit "
                "uploads are around 120 megapixels from the scanner team. Raise the guard "
                "accordingly and add a test."
            },
            {"log": 6000, "command": "pytest -q"},
            {
                "user": "Looks good. Uploads land in the ingest bucket and the thumbs go to the "
                "cdn bucket, the CDN caches them for 7 days. Retries happen 3 times with "
                "jitter. Please write the runbook section next."
            },
            {"log": 6000, "command": "pytest -q"},
            {"user": "continue"},
            {"log": 6000, "command": "pytest -q"},
            {"user": "go on"},
        ],
        "facts": [
            {"text": "6 processes per pod", "kind": "value"},
            {"text": "320px wide", "kind": "value"},
            {"text": "JPEG quality 82", "kind": "value"},
            {"text": "120 megapixels", "kind": "value"},
            {"text": "caches them for 7 days", "kind": "value"},
            {"text": "3 times with jitter", "kind": "value"},
        ],
        "retired": [],
    },
]
