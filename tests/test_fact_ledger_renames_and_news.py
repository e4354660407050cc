"""Readings from a private set read after its blind figures were taken: a news line ("update
on X"), a bare value answering a value its message only named, a new name of one stem, a
host given for a clause that never named the word the change used, German take-backs with a
word between the cue's parts, and a verdict ("the rest is fine") that sets no value."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_chat, live_texts, note_of, status_of
from tether.builtin_plugins.memory.fact_ledger.cues import default_cues
from tether.builtin_plugins.memory.fact_ledger.errorline import error_line

START = ("u:Build the nightly export job.", "a:ok")


@pytest.mark.parametrize(
    ("said", "is_change"),
    [
        ("quick update on the mirrors.", False),
        ("an update about staging, nothing big.", False),
        ("Update: the mirror lives on port 8081 now.", True),
        ("UPDATE : mirrors moved to eu-west.", True),
    ],
)
def test_update_is_a_change_cue_only_as_a_label(said: str, is_change: bool) -> None:
    assert (default_cues().find("change", said) is not None) is is_change


def test_a_goal_said_with_its_label_later_in_the_sentence_is_the_goal() -> None:
    goal = "so the goal for this sprint: move the invoices to the new billing API."
    ledger = ledger_of_chat(f"u:{goal} the repo is billing-core, CI on GitLab.")
    assert goal in live_texts(ledger, "goal")[0]


def test_a_news_line_takes_back_no_rule() -> None:
    rule = "Cache the catalog in Redis."
    ledger = ledger_of_chat(
        *START, f"u:{rule}", "a:ok", "u:ok, update on mirrors. the cache host is cache-2 now."
    )
    assert status_of(ledger, rule) == "live"


def test_a_bare_value_with_a_reason_answers_the_value_its_message_named() -> None:
    rule = "the 22:00 run overlaps the backup, move it to 23:00"
    ledger = ledger_of_chat(
        *START, "u:add a row-count check at 21:00", "a:ok", f"u:{rule}", "a:ok",
        "u:Mara says 23:00 is when the stocktake script starts. 23:45 then, all quiet by then.",
    )  # fmt: skip
    assert not any("23:00" in said for said in live_texts(ledger, "constraint", "decision"))
    assert "23:45 then, all quiet by then." in live_texts(ledger)


def test_a_bare_value_beside_a_value_no_rule_states_still_changes_the_latest() -> None:
    rule = "Keep 7 daily snapshots."
    ledger = ledger_of_chat(*START, f"u:{rule}", "a:ok", "u:the old box had 3 disks. make it 14")
    assert status_of(ledger, rule) == "retired"


@pytest.mark.parametrize(
    "renaming",
    [
        "forget that name, call the queue jobs_nightly so ops can find it",
        "scratch that, rename the queue to jobs_nightly",
    ],
)
def test_a_new_name_of_one_stem_replaces_the_old_name(renaming: str) -> None:
    ledger = ledger_of_chat(
        *START, "u:Which queue name?", "a:Which queue name should I use?",
        "u:jobs_export works.", "a:ok", f"u:{renaming}",
    )  # fmt: skip
    assert status_of(ledger, "jobs_export works.") == "retired"
    assert renaming in live_texts(ledger)


def test_a_new_name_leaves_identifiers_of_another_stem_alone() -> None:
    rule = "Read the token from EXPORT_TOKEN."
    ledger = ledger_of_chat(
        *START, f"u:{rule}", "a:ok", "u:scratch that name, call the bucket nightly_dumps"
    )
    assert status_of(ledger, rule) == "live"


def test_a_new_address_changes_the_clause_holding_the_old_one() -> None:
    ledger = ledger_of_chat(
        "u:我想给仓库的温湿度传感器写一个采集服务，走 Modbus TCP。传感器前面挂了一个 RS485 "
        "转以太网的网关，地址是 10.0.8.21，端口 4001，从站号 3。说明书我回头发你。",
        "a:好的",
        "u:那个网关坏了，我换了个新的，网关换成 10.0.8.35 了，端口还是 4001，从站号不变。",
    )
    live = live_texts(ledger, "constraint", "decision")
    assert not any("10.0.8.21" in said for said in live)
    assert "端口 4001" in live


@pytest.mark.parametrize(
    ("rule", "take_back"),
    [
        (
            "Und mit SSO-Login, damit nur das Team reinkommt.",
            "Den SSO-Login brauchen wir jetzt doch nicht mehr, das läuft nur intern.",
        ),
        ("Bitte mit Dark-Mode-Schalter.", "Den Dark-Mode-Schalter lass bitte weg."),
    ],
)
def test_german_take_backs_with_words_between_the_cue(rule: str, take_back: str) -> None:
    ledger = ledger_of_chat(
        "u:Ich brauche eine kleine Admin-Seite.", "a:ok", f"u:{rule}", "a:ok", f"u:{take_back}"
    )
    assert status_of(ledger, rule) == "retired"


def test_a_german_make_it_changes_the_interval() -> None:
    rule = "Der Import läuft alle 10 Minuten."
    ledger = ledger_of_chat(
        "u:Ich brauche eine kleine Admin-Seite.", "a:ok", f"u:{rule}", "a:ok",
        "u:Das ist zu oft für den alten Server. Mach alle 30 Minuten draus.",
    )  # fmt: skip
    assert status_of(ledger, rule) == "retired"


def test_a_verdict_sets_no_value() -> None:
    rule = "We're moving the API behind Envoy so the mobile team can call REST, see OPS-77."
    ledger = ledger_of_chat(
        *START, f"u:{rule}", "a:ok",
        "u:the crash came from commit 9ab4e01 — revert just that commit, the rest of it is fine.",
    )  # fmt: skip
    assert status_of(ledger, rule) == "live"


@pytest.mark.parametrize(
    ("rule", "take_back", "ended"),
    [
        (
            "El panel lleva modo oscuro con un interruptor arriba.",
            "olvídate del modo oscuro, al final nadie lo quiere",
            "modo oscuro",
        ),
        (
            "Außerdem brauchen wir das Plugin imagemagick-extra für die Vorschaubilder.",
            "imagemagick-extra brauchen wir nicht mehr, die IT hat jetzt einen Thumbor-Dienst.",
            "imagemagick-extra",
        ),
        (
            "另外要加一个除湿开关实体，放在首页。",
            "除湿开关实体不再需要了，空调自己会处理。",
            "除湿开关实体",
        ),
    ],
)
def test_a_take_back_names_what_it_ends(rule: str, take_back: str, ended: str) -> None:
    ledger = ledger_of_chat(*START, f"u:{rule}", "a:ok", f"u:{take_back}")
    assert status_of(ledger, rule) == "retired"
    assert f"no longer: {ended}" in note_of(ledger, take_back[:12])


def test_a_change_with_a_new_value_is_no_take_back() -> None:
    ledger = ledger_of_chat(
        *START, "u:Usamos Vuetify para los componentes.", "a:ok",
        "u:cambiamos a PrimeVue, que pesa menos que Vuetify",
    )  # fmt: skip
    assert "no longer" not in note_of(ledger, "cambiamos a PrimeVue")


def test_a_remark_on_values_no_rule_states_any_more_goes_with_them() -> None:
    remark = "the 10 min one still spams the pager (the old 2 min one was way worse)"
    ledger = ledger_of_chat(
        *START, "u:poll the upstream every 2 min while it is degraded", "a:ok",
        "u:2 min is too aggressive. make it 10 min", "a:ok",
        f"u:after a day of this: ok actually, poll every 30 minutes. {remark}",
    )  # fmt: skip
    assert status_of(ledger, remark) == "retired"
    assert "ok actually, poll every 30 minutes." in live_texts(ledger)[-1]


def test_a_remark_on_a_value_still_in_force_stays() -> None:
    remark = "the 10 min one still spams the pager a bit"
    ledger = ledger_of_chat(*START, "u:poll the upstream every 10 min", "a:ok", f"u:{remark}")
    assert status_of(ledger, remark) == "live"


def test_a_bare_name_replaces_a_chosen_name_not_any_dashed_word() -> None:
    ledger = ledger_of_chat(
        *START, "u:I'll use pandas since I know it.", "a:ok",
        "u:risk: 1% per trade, no leverage. exit when z-score crosses 0.", "a:ok",
        "u:switch to polars",
    )  # fmt: skip
    assert status_of(ledger, "I'll use pandas since I know it.") == "retired"
    assert "exit when z-score crosses 0." in live_texts(ledger)


def test_an_error_said_to_have_occurred_is_the_error_line() -> None:
    output = "\n".join(
        [
            "Launching run 42",
            "Task error:",
            "  Using launcher /opt/tools/runner-2.1.jar",
            "  " + "*" * 60,
            "  A CONFIG ERROR has occurred: keystore /etc/app/keys.jks holds no alias 'signer'.",
            "    aliases = [backup, legacy]",
            "  " + "*" * 60,
        ]
    )
    said = "A CONFIG ERROR has occurred: keystore /etc/app/keys.jks holds no alias 'signer'."
    assert error_line(output) == said


def test_one_sentence_changing_two_rules_changes_both() -> None:
    ledger = ledger_of_chat(
        *START, "u:Use MariaDB for the DB.", "a:ok", "u:Use Redis for the cache.", "a:ok",
        "u:Switch the DB to Postgres and the cache to KeyDB.",
    )  # fmt: skip
    assert status_of(ledger, "Use MariaDB for the DB.") == "retired"
    assert status_of(ledger, "Use Redis for the cache.") == "retired"


def test_a_value_found_slow_but_back_in_force_is_no_remark() -> None:
    ledger = ledger_of_chat(
        *START, "u:Cache on cache1.internal.", "a:ok", "u:Cache on cache2.internal.", "a:ok",
        "u:cache1.internal was slow but it's the primary again as of today.",
    )  # fmt: skip
    assert status_of(ledger, "Cache on cache2.internal.") == "retired"
