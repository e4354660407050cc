"""Session scripts of ``bench/fidelity.py``'s families, in ``bench/family_format.py``'s format.

Four families, each several sessions worded differently so that no one phrase carries a fact:

- ``chinese``: a user who writes Chinese states a goal, three constraints, a decision and a
  next step (constraint → Constraints & Preferences, next step → Next Steps, not ticked);
- ``changed``: values stated and changed later, with explicit cues (English and Chinese) and
  implicitly (the same subject gets a new value: a host, a version, a library, a limit, an
  option), some twice, one revoked; a retired value shown as current is an error;
- ``identifiers``: ticket ids, version pins, paths, environment variables, flags and error
  lines inside long multi-sentence messages where another sentence has a keyword;
- ``casual``: preferences said in passing, without keywords, over ~40 turns with 6–12 KB
  test logs and bare "continue" turns between;
- ``heldout`` (``bench/family_heldout.py``): changed values written apart from ``changed``
  and never used to tune the ledger (other wording, values, identifier kinds; every cue of
  both languages; changes stated in the other language; two live facts of one kind);
- ``shapes`` (``bench/family_shapes.py``): changes told by a value's shape and by subjects
  named in two languages (消息队列 / queue), casual cues, and look-alike values for two parts;
- ``revisions`` (``bench/family_revisions.py``): identifiers revoked ("take it out", 删掉),
  an opening message whose values change later, one ``key = value`` set three times, Chinese
  rules after a label without punctuation, a next step waiting on someone else.
- ``robust`` (``bench/family_robust.py``): a hostile user's sessions — subjects no table
  lists, one value of a several-value sentence changed, remarks on an old value, negations
  that describe, revocations by a closing phrase, cue-less statements in long messages.
- ``unseen`` (``bench/family_unseen.py``): a blind set's shapes in other words — a registry
  path changing host, an opening message's values changed one by one, error lines after a
  header in failing tool output, cue-less statements, terse Chinese acceptances.
"""

from __future__ import annotations

from typing import Any

from family_chinese import CHINESE
from family_format import Script, parse
from family_heldout import HELDOUT
from family_identifiers import IDENTIFIERS
from family_revisions import REVISIONS
from family_robust import ROBUST
from family_shapes import SHAPES
from family_unseen import UNSEEN

C, V = "Constraints & Preferences", "value"

CHANGED: list[dict[str, Any]] = [
    {
        "family": "changed",
        "name": "deploy-config",
        "turns": [
            {"user": "We're wiring the new billing worker into staging today."},
            {
                "user": "The staging database lives at db-stage-1.internal:5432, point the "
                "migrations there."
            },
            {
                "user": "Pin psycopg==3.1.18 in requirements — the newer ones broke our "
                "pooling last month."
            },
            {"user": "For the webhook client aiohttp is what the rest of the team uses."},
            {"user": "The retry loop gets max_retries=8 so transient 502s don't page anyone."},
            {"user": "Start the server with --workers 4 for now."},
            {"log": 7000, "command": "pytest -q tests/worker"},
            {
                "user": "Scratch that about the database: migrations go to "
                "db-stage-3.internal:5432, stage-1 is being decommissioned."
            },
            {"user": "Switch to httpx instead of aiohttp, we need HTTP/2 for the provider."},
            {"log": 9000, "command": "pytest -q tests/worker"},
            {"user": "psycopg==3.2.1 is fine now, the pooling bug got fixed upstream."},
            {"user": "max_retries=3 — eight was far too many, the queue backs up."},
            {"user": "From now on run it with --workers 2, the staging box is tiny."},
            {"log": 6500, "command": "pytest -q"},
            {
                "user": "After all, use db-stage-2.internal:5432 — stage-3 isn't provisioned "
                "yet and ops says it won't be this quarter."
            },
            {"user": "Hm, --workers 6 actually, they gave us the bigger box."},
            {"user": "continue"},
        ],
        "facts": [
            {"text": "db-stage-2.internal:5432", "kind": V},
            {"text": "psycopg==3.2.1", "kind": V},
            {"text": "httpx", "kind": V},
            {"text": "max_retries=3", "kind": V},
            {"text": "--workers 6", "kind": V},
        ],
        "retired": [
            {"value": "db-stage-1.internal", "by": "db-stage-3.internal"},
            {"value": "db-stage-3.internal", "by": "db-stage-2.internal"},
            {"value": "psycopg==3.1.18", "by": "psycopg==3.2.1"},
            {"value": "aiohttp", "by": "httpx"},
            {"value": "max_retries=8", "by": "max_retries=3"},
            {"value": "--workers 4", "by": "--workers 2"},
            {"value": "--workers 2", "by": "--workers 6"},
        ],
    },
    {
        "family": "changed",
        "name": "zh-frontend-build",
        "fillers": ["继续", "接着来", "继续吧"],
        "acks": ["好的。", "收到。", "明白。"],
        "turns": [
            {"user": "这个项目是公司官网的前端，用 Vite 打包。"},
            {"user": "Redis 地址用 10.0.3.15:6379，测试环境那台。"},
            {"user": "node 版本锁 18.19.0，CI 镜像里装的就是这个。"},
            {"user": "日期处理先用 moment.js 吧，老代码里到处都是。"},
            {"user": "上传文件大小上限 20MB。"},
            {"user": "打包的时候加上 --minify。"},
            {"log": 8000, "command": "npm test"},
            {"user": "日期库改用 dayjs，moment 太大了，包体积超了。"},
            {"user": "Redis 换成 10.0.3.22:6379 了，旧的那台要下线。"},
            {"log": 11000, "command": "npm test"},
            {"user": "上传上限换成 50MB，运营说不够用。"},
            {"user": "以后打包不再加 --minify，线上出问题没法调试。"},
            {"user": "CI 镜像升级过了，现在是 node 20.11.1。"},
            {"log": 6000, "command": "npm run build"},
            {"user": "不好意思，Redis 最后定的是 10.0.7.4:6379，前面两个都别用了。"},
            {"user": "继续"},
        ],
        "facts": [
            {"text": "10.0.7.4:6379", "kind": V},
            {"text": "20.11.1", "kind": V},
            {"text": "dayjs", "kind": V},
            {"text": "50MB", "kind": V},
        ],
        "retired": [
            {"value": "10.0.3.15", "by": "10.0.3.22"},
            {"value": "10.0.3.22", "by": "10.0.7.4"},
            {"value": "18.19.0", "by": "20.11.1"},
            {"value": "moment.js", "by": "dayjs"},
            {"value": "20MB", "by": "50MB"},
            {"value": "--minify", "by": None},
        ],
    },
    {
        "family": "changed",
        "name": "checkout-service",
        "turns": [
            {"user": "Quick setup notes for the checkout service before we start."},
            {"user": "CI matrix: Python 3.10."},
            {"user": "Set timeout=30s on the upstream pricing call."},
            {"user": "Config files get parsed with PyYAML."},
            {"user": "Ship it dark behind checkout_v2=off."},
            {"user": "Metrics to statsd.local:8125 like the other services."},
            {"log": 10000, "command": "pytest -q tests/checkout"},
            {"user": "Python 3.12 in the CI matrix, 3.10 is end of life for us."},
            {"user": "checkout_v2=canary in staging, I want a few real sessions through it."},
            {"user": "timeout=12s on the pricing call — 30 was hiding real outages."},
            {"log": 7500, "command": "pytest -q tests/checkout"},
            {"user": "ruamel.yaml for the config, the comments have to survive a round-trip."},
            {"user": "metrics go to otel-collector.svc:4317 now, statsd is gone."},
            {"user": "and checkout_v2=on everywhere, the canary looked clean."},
            {"user": "continue"},
        ],
        "facts": [
            {"text": "Python 3.12", "kind": V},
            {"text": "timeout=12s", "kind": V},
            {"text": "ruamel.yaml", "kind": V},
            {"text": "checkout_v2=on", "kind": V},
            {"text": "otel-collector.svc:4317", "kind": V},
        ],
        "retired": [
            {"value": "Python 3.10", "by": "Python 3.12"},
            {"value": "timeout=30s", "by": "timeout=12s"},
            {"value": "PyYAML", "by": "ruamel.yaml"},
            {"value": "checkout_v2=off", "by": "checkout_v2=canary"},
            {"value": "checkout_v2=canary", "by": "checkout_v2=on"},
            {"value": "statsd.local:8125", "by": "otel-collector.svc:4317"},
        ],
    },
]


def _casual(name: str, intro: str, lines: list[tuple[str, str]], pace: int) -> dict[str, Any]:
    """~40 user turns: each preference said in passing (``before`` + preference), with test
    logs of 6–12 KB and bare "continue" turns between."""
    turns: list[dict[str, Any]] = [{"user": intro}]
    for i, (before, preference) in enumerate(lines):
        turns.append({"user": f"{before}{preference}"})
        turns.append({"log": 6000 + (i * 1700 + pace) % 6000, "command": "pytest -q"})
        turns += [{"user": "continue"}, {"user": ["ok", "yep", "sure"][i % 3]}]
        turns.append({"log": 6500 + (i * 900 + pace) % 5000, "command": "pytest -q -x"})
        turns.append({"user": ["go on", "continue", "next"][i % 3]})
    facts = [{"text": p, "kind": "preference", "section": C} for _, p in lines]
    return {"family": "casual", "name": name, "turns": turns, "facts": facts}


CASUAL = [
    _casual(
        "report-tool",
        "Let's get the sales report generator into shape, start with the failing tests.",
        [
            (
                "looks fine. btw ",
                "I'm more of a plain-assert person than unittest.TestCase classes",
            ),
            ("", "log lines read better to me with the timestamp first"),
            ("oh, ", "f-strings please, the % formatting in the old modules hurts to read"),
            ("hmm ok. ", "small functions over one giant main() for me"),
            ("", "snake_case column names in the CSV, the analysts script against them"),
            ("nice. ", "tqdm feels heavy for this, a plain counter on stderr is plenty"),
            ("", "dates in the output files as 2024-05-01 style ISO dates"),
            ("", "comments in English even though half the team sits in Lyon"),
            ("right, ", "new helpers next to the code that calls them, no utils dumping ground"),
            ("", "thousands with a thin space in the PDF, like 12 345, that's how finance reads"),
        ],
        0,
    ),
    _casual(
        "dashboard-ui",
        "Picking up the dashboard ticket from yesterday, the charts page is the slow part.",
        [
            ("", "semicolons at line ends, ASI rules are too clever for me"),
            ("cool. ", "named exports read nicer to me than default ones"),
            ("", "two spaces of indentation in the JSX"),
            (
                "hmm, ",
                "those nested ternaries in the JSX are hard on my eyes, early returns please",
            ),
            ("", "toasts in plain words for users, stack traces belong in the console"),
            ("also ", "tests sitting right next to the component file is how I like it"),
            ("", "colours from tokens.css, not hex codes sprinkled around"),
            ("", "the charts page can load lazily, it's the heavy one"),
            ("heads up: ", "a console.log left in a PR annoys the reviewers here"),
            ("", "npm it is, the lockfile churn from switching package managers isn't worth it"),
        ],
        900,
    ),
    _casual(
        "go-ingest",
        "ok the ingest service again, the flaky test in the kafka consumer first",
        [
            ("fine. ", "table-driven tests are my thing in Go"),
            ("", "errors wrapped with %w so errors.Is keeps working upstream"),
            ("", "zerolog is what our other services log with"),
            ("cheers, ", "context.Context as the first parameter, even for the small helpers"),
            (
                "",
                "I find golangci-lint's default set noisy, the errcheck and govet ones are enough",
            ),
            ("", "the Makefile targets short: make test, make lint, make run"),
            ("ha ", "init() functions bit us last year, I'd skip them"),
            ("", "struct tags in camelCase for the JSON, the mobile app expects it"),
            ("", "one package per bounded context, not one per layer, feels right here"),
            ("", "benchmarks stay out of the default test run, they take ages"),
        ],
        2300,
    ),
]

RAW: list[dict[str, Any]] = [
    *CHINESE, *CHANGED, *IDENTIFIERS, *CASUAL, *HELDOUT, *SHAPES, *REVISIONS, *ROBUST,
    *UNSEEN,
]  # fmt: skip
FAMILIES: list[Script] = [parse(obj, f"built-in {obj['name']}") for obj in RAW]
NAMES = sorted({s.family for s in FAMILIES})
