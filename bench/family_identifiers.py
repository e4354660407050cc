"""The ``identifiers`` family: ticket ids, version pins, paths, environment variables, flags and
error lines inside long messages of several sentences, one of which has a keyword."""

from __future__ import annotations

from typing import Any

I = "identifier"  # noqa: E741


def _facts(*texts: str) -> list[dict[str, Any]]:
    return [{"text": t, "kind": "error" if ":" in t and " " in t else I} for t in texts]


IDENTIFIERS: list[dict[str, Any]] = [
    {
        "family": "identifiers",
        "name": "billing-drift",
        "turns": [
            {
                "user": "Okay, context for today: this is PAY-4812, the reconciliation drift "
                "finance flagged on Monday. You must not touch the public webhook handler, it "
                "is frozen until the audit closes. The drift shows up in "
                "services/billing/internal/ledger/reconcile.go around the rounding helper, and "
                "the nightly job logs panic: runtime error: index out of range [3] with length "
                "3 right before it gives up. Locally I run it with BILLING_DRY_RUN=1 so nothing "
                "gets posted."
            },
            {"log": 6000, "command": "go test ./services/billing/..."},
            {
                "user": "Two more things, then go. We should keep the fix small enough to "
                "backport. The vendored decimal lib is shopspring/decimal v1.3.1 and upgrading "
                "it is out of scope; the staging replay uses --from-offset=88213 so we get the "
                "same batch every time."
            },
            {
                "tool": "bash",
                "args": {"command": "go run ./cmd/replay --from-offset=88213"},
                "result": "replaying 412 events\nledger mismatch: account 7731 expected "
                "1204.50 got 1204.49\nexit status 1",
                "isError": True,
            },
            {"user": "continue"},
        ],
        "facts": _facts(
            "PAY-4812",
            "services/billing/internal/ledger/reconcile.go",
            "panic: runtime error: index out of range [3] with length 3",
            "BILLING_DRY_RUN=1",
            "shopspring/decimal v1.3.1",
            "--from-offset=88213",
            "ledger mismatch: account 7731 expected 1204.50 got 1204.49",
        ),
    },
    {
        "family": "identifiers",
        "name": "ml-pipeline",
        "turns": [
            {
                "user": "The training job broke again after the cluster upgrade. I pinned "
                "numpy==1.26.4 last week because 2.x changed the C ABI under us. Always run the "
                "smoke test before pushing anything to the shared queue. The job reads its data "
                "from /mnt/datasets/clickstream/2024-q2/part-*.parquet and needs "
                "CUDA_VISIBLE_DEVICES=0,1 or it grabs the whole node."
            },
            {"log": 9000, "command": "pytest -q tests/smoke"},
            {
                "user": "Here is what the scheduler mailed me: RuntimeError: CUDA error: "
                "device-side assert triggered. I think it's the label encoder. Never "
                "retrain from scratch for this, it takes nine hours; resume with "
                "--resume-from=ckpt-0412 instead. It's tracked as MLOPS-233 if you want to "
                "leave a note."
            },
            {"user": "go on"},
        ],
        "facts": _facts(
            "numpy==1.26.4",
            "/mnt/datasets/clickstream/2024-q2/part-*.parquet",
            "CUDA_VISIBLE_DEVICES=0,1",
            "RuntimeError: CUDA error: device-side assert triggered",
            "--resume-from=ckpt-0412",
            "MLOPS-233",
        ),
    },
    {
        "family": "identifiers",
        "name": "web-release",
        "turns": [
            {
                "user": "Release prep for the storefront. Don't merge anything that isn't "
                "green on main. The bundle still ships lodash@4.17.21, and the audit wants "
                "the exception documented in docs/security/exceptions.md next to the other "
                "two. Issue #1893 has the background. The CDN purge script reads "
                "CDN_PURGE_TOKEN from the environment and dies with Error: ENOENT: no such "
                "file or directory, open 'dist/manifest.json' when the build didn't run."
            },
            {"log": 7000, "command": "npm test"},
            {
                "user": "One more. We prefer tagging from the release branch. Build with "
                "NODE_OPTIONS=--max-old-space-size=4096 on the CI box, otherwise webpack runs "
                "out of memory at around 93%, and pass --profile=release to the deploy "
                "script."
            },
            {"user": "continue"},
        ],
        "facts": _facts(
            "lodash@4.17.21",
            "docs/security/exceptions.md",
            "#1893",
            "CDN_PURGE_TOKEN",
            "Error: ENOENT: no such file or directory, open 'dist/manifest.json'",
            "NODE_OPTIONS=--max-old-space-size=4096",
            "--profile=release",
        ),
    },
]
