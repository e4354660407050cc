"""A change that ends an old value and names the new one in the same sentence stays live:
it is no mere remark on the value it ended."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules


@pytest.mark.parametrize(
    ("rule", "change"),
    [
        ("Bundle with pyinstaller-onefile.", "No more pyinstaller-onefile, use nuitka instead."),
        ("部署脚本用 fabric-2 来写。", "不再用 fabric-2，改用 ansible。"),
        ("日志先写到 syslog-ng 里。", "别用 syslog-ng 了，换成 journald。"),
    ],
)  # fmt: skip
def test_ending_a_value_and_naming_its_successor_keeps_the_change(rule: str, change: str) -> None:
    ledger = ledger_of_said("Set up the release pipeline. " + rule, change)
    live = live_rules(ledger)
    assert change in live
    assert rule not in live
