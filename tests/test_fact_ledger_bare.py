"""A change that names only its value (issue 23, item 2): "make it 2 hours" changes the latest
rule stating a value of that class, and a later change of that rule's subject retires it."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules
from tether.builtin_plugins.memory.fact_ledger.bare import bare
from tether.builtin_plugins.memory.fact_ledger.cues import default_cues


@pytest.mark.parametrize(
    ("first", "middle", "last"),
    [
        (
            "Tokens expire after 15 minutes.",
            "security is fine with longer tokens now. make it 1 hour",
            "final answer from security: tokens expire after 4 hours",
        ),
        (
            "上传文件最大 10MB。",
            "客户抱怨太小了。改成 50MB 吧",
            "上传文件最大 100MB，这是最终方案。",
        ),
    ],
)  # fmt: skip
def test_a_bare_value_changes_the_rule_and_is_changed_with_its_subject(
    first: str, middle: str, last: str
) -> None:
    ledger = ledger_of_said("Build the auth service.", first, middle)
    bare_fact = next(f for f in ledger.live() if f.source == "e2" and bare(f.text, default_cues()))
    assert first not in live_rules(ledger)
    ledger = ledger_of_said("Build the auth service.", first, middle, last)
    assert bare_fact.text not in live_rules(ledger)
    assert last in live_rules(ledger)


def test_a_sentence_with_a_subject_is_not_bare() -> None:
    cues = default_cues()
    assert bare("make it 2 hours", cues)
    assert bare("改成 8 小时吧", cues)
    assert not bare("make the cache TTL 2 hours", cues)
    assert not bare("缓存过期改成 8 小时", cues)
