"""pi's truncation helpers against the oracle's goldens (``golden/truncate.json.gz``)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from tether.builtin_plugins.tools._shared.truncate import (
    format_size,
    truncate_head,
    truncate_line,
    truncate_tail,
)

GOLDEN = Path(__file__).parent / "fixtures" / "pi" / "golden" / "truncate.json.gz"
CASES = json.loads(gzip.decompress(GOLDEN.read_bytes()).decode("utf-8"))


def _case_id(case: dict) -> str:
    req = case["request"]
    opts = ",".join(f"{k}={req[k]}" for k in ("maxLines", "maxBytes", "maxChars") if k in req)
    size = len(req.get("text", "")) if "text" in req else req.get("bytes")
    return f"{req['mode']}-{size}-{opts}"


def _run(request: dict) -> object:
    mode = request["mode"]
    if mode == "size":
        return format_size(request["bytes"])
    if mode == "line":
        text, cut = truncate_line(request["text"], request.get("maxChars", 500))
        return {"text": text, "wasTruncated": cut}
    limits = {}
    if "maxLines" in request:
        limits["max_lines"] = request["maxLines"]
    if "maxBytes" in request:
        limits["max_bytes"] = request["maxBytes"]
    func = truncate_head if mode == "head" else truncate_tail
    return func(request["text"], **limits).to_json()


def test_goldens_cover_every_mode() -> None:
    modes = {case["request"]["mode"] for case in CASES}
    assert modes == {"head", "tail", "line", "size"}
    results = [c["response"]["result"] for c in CASES]
    assert sum(1 for r in results if isinstance(r, dict) and r.get("truncated") is True) > 20


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_truncation_matches_pi(case: dict) -> None:
    assert _run(case["request"]) == case["response"]["result"]


def test_format_size_rounds_like_javascript_to_fixed() -> None:
    # 1.25 KB is an exact binary tie: JS toFixed(1) gives "1.3", Python's round-half-even "1.2".
    assert format_size(1280) == "1.3KB"
    assert format_size(51200) == "50.0KB"
