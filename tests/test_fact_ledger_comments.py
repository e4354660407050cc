"""Rules written as comments in a pasted file reach the model as the user wrote them.

A user pasting a config states its rules in the comments ("# never expose the admin port",
"// 不要改这个超时"); read as prose, the whole paste was code and no rule was kept.
"""

from __future__ import annotations

from pathlib import Path

from tests.gate_helpers import assistant, text, user
from tests.ledger_helpers import compacted, ledger_of
from tether.builtin_plugins.memory.fact_ledger.comments import comment_rules

RULES = [
    "# never expose the admin port outside the VPN",
    "#define WATCHDOG_ON   1   // do NOT disable this, the field units hang without it",
    "-- keep this index, the nightly report depends on it",
    "# 注意：不要改成 UDP，防火墙只放行 TCP",
]
NOT_RULES = [
    "# the admin service",  # a label, no rule
    "timeout = 30  # 30 s: keep it under the proxy's 60 s",  # a quantity: a setting
    "# ==== section: workers ====",
]
PASTE = (
    "here is the current config, please port it:\n\n```\n"
    + "\n".join(
        ["listen 0.0.0.0:9000", *RULES[:1], NOT_RULES[0], "workers = 4", *RULES[1:], *NOT_RULES[1:]]
    )
    + "\n```"
)


def _messages() -> list[dict[str, object]]:
    return [
        user("Move the telemetry gateway config to the new cluster."),
        assistant([text("Reading it.")]),
        user(PASTE),
        assistant([text("Ported.")]),
    ]


def test_a_comment_that_states_a_rule_is_a_constraint_line_whole() -> None:
    assert comment_rules(PASTE) == RULES
    assert comment_rules("we use # as the prompt, never mind") == []  # one line is prose
    constraints = [f.text for f in ledger_of(_messages()).live("constraint")]
    for rule in RULES:
        assert rule in constraints, rule
    for other in NOT_RULES:
        assert other not in constraints, other


def test_comment_rules_survive_compactions_on_both_summarizers(tmp_path: Path) -> None:
    comments = [
        "never expose the admin port outside the VPN",
        "do NOT disable this",
        "不要改成 UDP",
    ]
    for summarizer in ("offline", "factfree"):
        entries = compacted(tmp_path / summarizer, _messages(), summarizer)
        for entry in (entries[0], entries[-1]):
            for comment in comments:
                assert comment in entry["summary"], (summarizer, comment)


CONFIG = (
    "the job config:\n\n```yaml\n"
    "job_id: ledger_nightly\n"
    'schedule: "0 1 * * *"     # must be done before 05:30 Lisbon, the bank pulls at 05:45\n'
    "dedupe: true              # never turn this off, the upstream resends\n"
    "```\n"
)


def test_a_rule_on_a_setting_line_is_the_comment_and_outlives_the_value() -> None:
    """The comment is the rule (a time of day is no quantity); the line is history, so a
    later value of the key retires the line, not the rule."""
    messages = [
        user("Port the nightly ledger job to the new scheduler."),
        assistant([text("Reading it.")]),
        user(CONFIG),
        assistant([text("Ported.")]),
        user('schedule: "30 2 * * *" from now on, the source dump got slower'),
        assistant([text("Changed.")]),
    ]
    constraints = [f.text for f in ledger_of(messages).live("constraint")]
    assert "must be done before 05:30 Lisbon, the bank pulls at 05:45" in constraints
    assert "never turn this off, the upstream resends" in constraints
