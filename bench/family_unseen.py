"""The ``unseen`` family: shapes a blind set caught, written fresh in other domains and words.

An image or registry path that changes host but keeps its tail (the later message names the
old host by a short name); an opening multi-clause message whose values (a region, a backend
URI, a tool's version) each change later in a different message without repeating the old
words; Chinese library and schedule changes (改用, 调一下); error lines after a header line in
failing tool output (a panic's message, a compiler error among other lines); casual cue-less
statements inside longer messages; a deadline and a next step in one message; an
"instead of" that changes nothing said before; a terse acceptance of a proposal and list items
without a cue under a polite Chinese heading.
"""

from __future__ import annotations

from typing import Any

V, C, E, N = "value", "constraint", "error", "next_step"

PANIC = (
    "   Compiling slugger v0.3.1 (/home/dev/slugger)\n"
    "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 2.31s\n"
    "     Running `target/debug/slugger --input names.txt`\n"
    "\n"
    "thread 'main' panicked at src/normalize.rs:88:17:\n"
    "byte index 3 is not a char boundary; it is inside 'ø' (bytes 2..4) of `Bjørk`\n"
    "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
)
SHADER = (
    "Building player for Android (ASTC)\n"
    "Compiling shader variants: 412/918\n"
    "Shader warning in 'Hidden/Blit': implicit truncation of vector type at line 40 (on vulkan)\n"
    "Shader error in 'Custom/WaterFoam': undeclared identifier 'SampleSceneNormals' at "
    "Assets/Shaders/Foam.shadergraph(57) (on gles3)\n"
    "Compiling shader variants: 918/918\n"
    "Build completed with a result of 'Failed' in 48 seconds\n"
)
GOERR = (
    "go build ./...\n"
    "# example.com/ledger/internal/store\n"
    "internal/store/pg.go:41:12: undefined: pgx.ConnConfigOption\n"
    "internal/store/pg.go:77:3: too many arguments in call to conn.Exec\n"
)

UNSEEN: list[dict[str, Any]] = [
    {
        "family": "unseen",
        "name": "operator-infra",
        "turns": [
            {
                "user": "We're moving the cert-rotation operator off the old cluster. Everything "
                "runs in ap-southeast-2 today, terraform state for the new modules goes into the "
                "gs://infra-tfstate bucket, and pin Go to 1.21.6 in go.mod so it matches the old "
                "builders."
            },
            {"user": "the image goes to quay.io/sre/cert-rotator btw, update the Makefile IMG too"},
            {"log": 8000, "command": "make test"},
            {
                "user": "Adopt it. We'll use terraform import for the existing DNS zone instead "
                "of recreating it."
            },
            {"log": 7000, "command": "make test"},
            {
                "user": "Region for the new modules is ca-central-1, the apac account is being "
                "closed."
            },
            {
                "user": "move the state backend to Terraform Cloud, workspace app.terraform.io/"
                "sre-infra. The GCS bucket gets archived in May."
            },
            {"log": 7000, "command": "make test"},
            {"user": "the builders only ship Go 1.22.4 now, so bump that, put 1.22.4 in go.mod."},
            {
                "user": "and the registry: push to harbor.int.example.net/sre/cert-rotator, quay "
                "is just for the public mirror."
            },
            {"user": "continue"},
        ],
        "facts": [
            {"text": "ca-central-1", "kind": V},
            {"text": "app.terraform.io/sre-infra", "kind": V},
            {"text": "1.22.4", "kind": V},
            {"text": "harbor.int.example.net/sre/cert-rotator", "kind": V},
            {
                "text": "We'll use terraform import for the existing DNS zone instead of "
                "recreating it.",
                "kind": "decision",
            },
        ],
        "retired": [
            {"value": "ap-southeast-2", "by": "ca-central-1"},
            {"value": "gs://infra-tfstate", "by": "app.terraform.io/sre-infra"},
            {"value": "1.21.6", "by": "1.22.4"},
            {"value": "quay.io/sre/cert-rotator", "by": "harbor.int.example.net/sre/cert-rotator"},
        ],
    },
    {
        "family": "unseen",
        "name": "zh-payroll",
        "fillers": ["继续", "接着弄"],
        "acks": ["好的。", "收到。"],
        "turns": [
            {
                "user": "这个月要把工资单导出改成自动化。源数据是 Excel，用 openpyxl 读 Excel "
                "就行。chunk_size=200 先这样。"
            },
            {"user": "另外每周五下午 6 点跑，定时任务配一下。"},
            {
                "assistant": "可以有两种做法：一是引入 django-auditlog，二是自建 PayrollAudit "
                "表记录每次导出。"
            },
            {"user": "谢谢分析。自建 PayrollAudit 表吧，少一个依赖，运维那边也好查。"},
            {
                "user": "需求我整理如下，麻烦看一下：\n- 导出文件名带上月份\n- 金额不能用浮点数\n"
                "- 明细页默认按工号升序"
            },
            {"log": 8000, "command": "pytest -q tests/payroll"},
            {"user": "Excel 读取改用 calamine，openpyxl 太慢了。"},
            {"user": "时间也调一下：每周四晚上 9 点跑，财务那边要求提前一天。"},
            {"user": "继续"},
        ],
        "facts": [
            {"text": "calamine", "kind": V},
            {"text": "每周四晚上 9 点跑", "kind": V},
            {"text": "自建 PayrollAudit 表吧", "kind": "decision"},
            {"text": "明细页默认按工号升序", "kind": C},
            {"text": "导出文件名带上月份", "kind": C},
            {"text": "chunk_size=200", "kind": V},
        ],
        "retired": [
            {"value": "openpyxl", "by": "calamine"},
            {"value": "每周五下午 6 点跑", "by": "每周四晚上 9 点跑"},
        ],
    },
    {
        "family": "unseen",
        "name": "failing-tools",
        "turns": [
            {"user": "The slug generator crashes on some artist names, have a look."},
            {
                "tool": "bash",
                "args": {"command": "cargo run -- --input names.txt"},
                "result": PANIC,
                "isError": True,
            },
            {"assistant": "It slices a string at a byte offset; looking at normalize.rs."},
            {"log": 7000, "command": "cargo test"},
            {
                "tool": "bash",
                "args": {"command": "unity -batchmode -buildTarget Android"},
                "result": SHADER,
                "isError": True,
            },
            {"assistant": "The foam shader needs the normals texture include."},
            {
                "user": "Add the include, but leave URP-HighFidelity.asset alone for now, that "
                "asset is shared with the console build and I don't want to retest it."
            },
            {
                "tool": "bash",
                "args": {"command": "go build ./..."},
                "result": GOERR,
                "isError": True,
            },
            {"user": "continue"},
        ],
        "facts": [
            {
                "text": "byte index 3 is not a char boundary; it is inside 'ø' (bytes 2..4) of "
                "`Bjørk`",
                "kind": E,
            },
            {
                "text": "Shader error in 'Custom/WaterFoam': undeclared identifier "
                "'SampleSceneNormals' at Assets/Shaders/Foam.shadergraph(57) (on gles3)",
                "kind": E,
            },
            {"text": "internal/store/pg.go:41:12: undefined: pgx.ConnConfigOption", "kind": E},
            {"text": "leave URP-HighFidelity.asset alone for now", "kind": C},
        ],
        "retired": [],
    },
    {
        "family": "unseen",
        "name": "casual-thesis",
        "turns": [
            {"user": "Set up the CI for my thesis repo, it builds the PDF on every push."},
            {
                "user": "Oh, it's xelatex these days, because of the Greek quotes in chapter 3, "
                "pdflatex drops the polytonic accents."
            },
            {"log": 9000, "command": "make pdf"},
            {
                "user": "The deadline is 2 June for the submission to the faculty office, so "
                "after the CI bits the next thing is the figure list per chapter, they check it."
            },
            {"log": 8000, "command": "make pdf"},
            {
                "user": "most of the readers at the lab use the french locale so put fr strings "
                "next to en in the abstract page, ill fix the wording later if its off"
            },
            {"log": 7000, "command": "make pdf"},
            {
                "user": "Thanks! Tomorrow I'll dig out the margin rules from the faculty guide "
                "and we can check the title page against them."
            },
            {"user": "continue"},
        ],
        "facts": [
            {"text": "it's xelatex these days", "kind": C},
            {"text": "The deadline is 2 June for the submission to the faculty office", "kind": C},
            {"text": "the next thing is the figure list per chapter", "kind": N},
            {"text": "put fr strings next to en in the abstract page", "kind": C},
            {"text": "Tomorrow I'll dig out the margin rules from the faculty guide", "kind": N},
        ],
        "retired": [],
    },
]
