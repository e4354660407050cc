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


@pytest.mark.parametrize(
    ("rule", "change"),
    [
        ("Payroll runs on the 25th of each month.", "ah wait, payroll on the 28th, not the 25th"),
        ("The admin API listens on 9443.", "expose it on 7443 not 9443, the LB reserves that one"),
        ("Clients call /api/v1/orders.", "point the clients at v2, not v1"),
    ],
)
def test_a_value_set_against_the_old_one_replaces_it(rule: str, change: str) -> None:
    ledger = ledger_of_said("Keep the billing stack running. " + rule, change)
    live = live_rules(ledger)
    assert rule not in live
    assert change in live


@pytest.mark.parametrize(
    ("rule", "said"),
    [
        ("Keep 3 replicas of the API.", "scale the worker to 5, not more"),
        ("Staging runs release 4.2.", "the bug shows in 4.3, not in 4.2"),
    ],
)
def test_a_contrast_of_unlike_values_or_about_another_thing_keeps_the_rule(
    rule: str, said: str
) -> None:
    ledger = ledger_of_said("Keep the billing stack running. " + rule, said)
    assert rule in live_rules(ledger)


@pytest.mark.parametrize(
    ("rule", "revoke"),
    [
        (
            "keep the nightly cache warmer hitting /api/search for now",
            "Also, search is served by the CDN; no more cache warmers, the edge handles it.",
        ),
        ("每次发布前先手动跑一遍冒烟测试脚本。", "冒烟测试脚本不再手动跑了，流水线里已经有了。"),
    ],
)
def test_no_more_of_a_thing_revokes_the_rule_that_set_it(rule: str, revoke: str) -> None:
    ledger = ledger_of_said("Tidy up the release process. " + rule, revoke)
    live = live_rules(ledger)
    assert rule not in live
    assert revoke in live


def test_a_named_thing_going_away_retires_the_rule_that_chose_it() -> None:
    rule = "Expose the admin UI through the traefik gateway on port 8081."
    gone = "Second, the traefik gateway is going away next quarter; put the admin UI behind Envoy."
    ledger = ledger_of_said("Harden the admin UI. " + rule, gone)
    live = live_rules(ledger)
    assert rule not in live
    assert gone in live


def test_a_common_noun_going_away_retires_no_rule_naming_it() -> None:
    rule = "The mobile app reads its config from /etc/app/config.yaml."
    ledger = ledger_of_said("Harden the admin UI. " + rule, "the app is going away in May")
    assert rule in live_rules(ledger)


@pytest.mark.parametrize(
    ("rule", "change"),
    [
        ("会话数据放在 window.sessionStorage 里，刷新也不丢。", "放 window.localStorage。"),
        (
            "Keep the feature flags in app.config.staging so QA can flip them.",
            "Use app.config.shared.",
        ),
    ],
)
def test_a_bare_dotted_id_with_the_same_head_changes_the_last_part(rule: str, change: str) -> None:
    ledger = ledger_of_said("Ship the settings page. " + rule, change)
    live = live_rules(ledger)
    assert rule not in live
    assert change in live


def test_dotted_ids_with_their_own_keys_stay_apart() -> None:
    rule = "Health checks call requests.get on /healthz."
    other = "Uploads go through requests.post with a 30s timeout."
    assert rule in live_rules(ledger_of_said("Ship the settings page. " + rule, other))
