"""What the gate requires of the requests a summarizer dropped (``recall.kept_requests``): a
Chinese statement of a choice with no shape in it, and a sentence quoting a {GUID}, are kept
as an offline summary shows them; a JSON object is code and is not."""

from __future__ import annotations

from tether.builtin_plugins.memory.fact_ledger.cues import default_cues
from tether.builtin_plugins.memory.fact_ledger.ledger import Ledger
from tether.builtin_plugins.memory.fact_ledger.recall import kept_requests

GUID = (
    "The COM server is registered on agents, its CLSID is {1B2C3D4E-5F60-4A7B-8C9D-0E1F2A3B4C5D}."
)
CHOICE = "- 数据库用 SQLite，跟我们别的小工具一致"
JSON = 'payload looks like {"sku": "A-1", "qty": 3} on the wire'


def test_statements_without_a_shape_or_with_a_guid_are_kept() -> None:
    ledger = Ledger()
    for at, text in enumerate((CHOICE, GUID, JSON)):
        ledger.new_fact("request", text, f"e{at}")
    kept = [f.text for f in kept_requests(ledger, default_cues())]
    assert CHOICE in kept
    assert GUID in kept
    assert JSON not in kept
