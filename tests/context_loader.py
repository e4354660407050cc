"""Test helpers: load session fixtures and pi's goldens for the context/estimate tests.

``load_entries`` reads a v3 session file the way pi does (split on newlines, skip blank and
unparsable lines, header = first record, entries = the other records). Files in older formats
(v1/v2 need migration) are opened through ``tether.core.session.session.Session`` by the tests.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures" / "pi"
GEN = FIXTURES / "gen"
GOLDEN = FIXTURES / "golden"


def fixture_names() -> list[str]:
    """Every generated fixture (file stem), sorted."""
    return sorted(p.stem for p in GEN.glob("*.jsonl"))


def golden(name: str, command: str) -> dict[str, Any]:
    """pi's golden output of ``command`` for fixture ``name``."""
    with gzip.open(GOLDEN / f"{name}.{command}.json.gz", "rt", encoding="utf-8") as f:
        return json.load(f)


def golden_request(name: str, command: str) -> dict[str, Any]:
    """The oracle request that produced a golden (window, reserve, keep, leaf…)."""
    requests = json.loads((GOLDEN / "requests.json").read_text(encoding="utf-8"))
    return requests[f"{name}.{command}"]


def read_records(path: Path) -> list[dict[str, Any]]:
    """All parsable records of a JSONL file, in file order (pi's tolerant reader)."""
    records = []
    for line in path.read_text(encoding="utf-8").strip().split("\n"):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except ValueError:
            continue
    return records


def load_entries(path: Path) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """``(header, entries)`` of a v3 file; entries are every non-header record in file order."""
    records = read_records(path)
    if (
        not records
        or records[0].get("type") != "session"
        or not isinstance(records[0].get("id"), str)
    ):
        return None, []
    return records[0], [r for r in records[1:] if r.get("type") != "session"]
