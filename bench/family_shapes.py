"""The ``shapes`` family: changes told by the shape of a value and by subjects named in two
languages, written apart from the ledger's tuning sessions. A subject stated in Chinese and
changed in English (or back), a value of the same unit raised with no cue or with a casual one
("meh", "nah, make it", 放宽到, 调到), a value changed twice, and look-alike values that are
not changes: one setting for two parts (listings / previews, 预发 / 线上), another subject with
a value of the same unit."""

from __future__ import annotations

from typing import Any

V, C = "value", "constraint"

SHAPES: list[dict[str, Any]] = [
    {
        "family": "shapes",
        "name": "thumbnails-mixed",
        "fillers": ["continue", "继续"],
        "turns": [
            {"user": "We're building a thumbnail service for the marketplace listings."},
            {"user": "对象存储用 MinIO。"},
            {"user": "缩略图最大 1200px。"},
            {"user": "Worker pool: 8 threads."},
            {"user": "JPEG quality 85 for listings."},
            {"user": "JPEG quality 70 for previews."},
            {"log": 7000, "command": "go test ./thumbs/..."},
            {"user": "object storage goes to S3 instead, ops won't babysit MinIO"},
            {"user": "thumbnails max 800px now, mobile data is expensive"},
            {"log": 6500, "command": "go test ./thumbs/..."},
            {"user": "并发调到 16，CPU 还很空。"},
            {"user": "继续"},
        ],
        "facts": [
            {"text": "S3", "kind": V},
            {"text": "800px", "kind": V},
            {"text": "16", "kind": V},
            {"text": "JPEG quality 85 for listings.", "kind": C},
            {"text": "JPEG quality 70 for previews.", "kind": C},
        ],
        "retired": [
            {"value": "MinIO", "by": "S3"},
            {"value": "1200px", "by": "800px"},
            {"value": "8 threads", "by": "16"},
        ],
    },
    {
        "family": "shapes",
        "name": "rota-bot-casual",
        "turns": [
            {"user": "build me a slack bot that posts the on-call rota every morning"},
            {"user": "messages should stay under 2000 characters"},
            {"user": "cache the rota for 10 minutes"},
            {"user": "Reminders go out 2 days before a shift."},
            {"user": "Escalations fire after 45 min."},
            {"log": 8000, "command": "pytest -q tests/bot"},
            {"user": "meh, messages can grow to 3000 characters, people want the whole week"},
            {"user": "cache it 30 min, the HR API is rate-limited 🙄"},
            {"log": 6000, "command": "pytest -q tests/bot"},
            {"user": "nah, make the cache 15 min, shift swaps show up too late"},
            {"user": "continue"},
        ],
        "facts": [
            {"text": "3000 characters", "kind": V},
            {"text": "15 min", "kind": V},
            {"text": "Reminders go out 2 days before a shift.", "kind": C},
            {"text": "Escalations fire after 45 min.", "kind": C},
        ],
        "retired": [
            {"value": "2000 characters", "by": "3000 characters"},
            {"value": "10 minutes", "by": "15 min"},
            {"value": "30 min", "by": "15 min"},
        ],
    },
    {
        "family": "shapes",
        "name": "zh-report-capacity",
        "fillers": ["继续", "接着做"],
        "turns": [
            {"user": "给报表服务做容量规划。"},
            {"user": "预发环境 2 个实例。"},
            {"user": "线上 8 个实例。"},
            {"user": "单次导出最多 50000 行。"},
            {"user": "报表保留 90 天。"},
            {"log": 7000, "command": "make test"},
            {"user": "导出上限放宽到 100000 行，财务要全年的数据。"},
            {"user": "Report retention 180 days, the auditors asked for it."},
            {"log": 6000, "command": "make test"},
            {"user": "线上实例数改成 12。"},
            {"user": "继续"},
        ],
        "facts": [
            {"text": "预发环境 2 个实例。", "kind": C},
            {"text": "12", "kind": V},
            {"text": "100000 行", "kind": V},
            {"text": "180 days", "kind": V},
        ],
        "retired": [
            {"value": "8 个实例", "by": "12"},
            {"value": "50000 行", "by": "100000 行"},
            {"value": "90 天", "by": "180 days"},
        ],
    },
]

__all__ = ["SHAPES"]
