"""What the fact ledger reads since three new private sets were read: acknowledgements that
state no rule, pasted log rows, take-backs that name their object, remarks beside a change,
names written against Chinese text, and users who write Spanish, French or German."""

from __future__ import annotations

from typing import Any

import pytest

from tether.builtin_plugins.memory.fact_ledger import build_ledger


def _ledger(*turns: str) -> Any:
    """``u:`` user turns and ``a:`` assistant turns, in order."""
    messages: list[dict[str, Any]] = []
    for turn in turns:
        role, text = turn.split(":", 1)
        content = [{"type": "text", "text": text}]
        if role == "u":
            messages.append({"role": "user", "content": content})
        else:
            messages.append({"role": "assistant", "content": content, "stopReason": "stop"})
    return build_ledger(messages, [f"e{i}" for i in range(len(messages))])


def _live(ledger: Any, *kinds: str) -> list[str]:
    return [f.text for f in ledger.live(*kinds)]


def _status(ledger: Any, text: str) -> str:
    return next(f.status for f in ledger.facts if f.text == text)


@pytest.mark.parametrize(
    ("said", "step"),
    [
        ("可以了。接下来加一个 --dry-run 参数。", "接下来加一个 --dry-run 参数。"),
        ("Works for me. Next, add a --since flag.", "Next, add a --since flag."),
        ("Sounds fine to me. Next, write the export test.", "Next, write the export test."),
    ],
)
def test_an_acknowledgement_beside_a_next_step_is_no_rule(said: str, step: str) -> None:
    ledger = _ledger("u:Build an order sync script.", "a:ok", f"u:{said}")
    assert _live(ledger, "constraint") == []
    assert _live(ledger, "next_step") == [step]
    assert not any(f.kind == "said" and f.live for f in ledger.facts)  # no whole message


def test_a_pasted_log_row_with_a_date_changes_no_rule() -> None:
    rule = "for the start date: never backfill before 2024-01-01, nobody reads older numbers."
    ledger = _ledger(
        "u:We need a nightly job that pulls ad spend.",
        "a:ok",
        f"u:{rule}",
        "a:ok",
        "u:what i see locally:\n\n"
        "[2024-05-03, 09:12:44 UTC] {taskinstance.py:1138} INFO - all met for scheduled__2024-05-02"
        "\n[2024-05-03, 09:12:47 UTC] {mixin.py:188} WARNING - api.py:41 DeprecationWarning: "
        "the preset param is deprecated\n\nprob harmless.",
    )
    assert _status(ledger, rule) == "live"
    assert not any("2024-05-03" in text for text in _live(ledger, "constraint", "decision"))


def test_a_take_back_in_the_plural_ends_the_rule_naming_it_in_the_singular() -> None:
    banner, refund = "Add a discount banner on the cart page.", "Store the refund reason."
    ledger = _ledger(
        "u:Build the cart page.",
        "a:ok",
        f"u:{banner}",
        "a:ok",
        f"u:Support wants it too: {refund}",
        "a:ok",
        "u:We're no longer doing banners, legal wants to review promos first.",
    )
    assert _status(ledger, banner) == "retired"
    assert refund in " ".join(_live(ledger))


def test_a_take_back_never_ends_a_rule_of_its_own_message() -> None:
    ship = "Ship the build to the staging bucket, as agreed in the meeting."
    ledger = _ledger(
        "u:Set up the release job.",
        "a:ok",
        f"u:{ship} Forget the rest of the meeting notes, none of it is ours.",
    )
    assert ship in _live(ledger)


def test_a_take_back_naming_an_identifier_ends_only_a_rule_naming_it() -> None:
    logs = "Keep the last 3 days of logs on disk."
    ledger = _ledger(
        "u:Build the export job.",
        "a:ok",
        f"u:{logs}",
        "a:ok",
        "u:last thing for now: drop the legacy_flag column from the export, nobody fills it in.",
    )
    assert logs in _live(ledger)


def test_a_wish_of_someone_else_is_no_subject_shared() -> None:
    csv = "Support wants a CSV export of refunds."
    ledger = _ledger(
        "u:Build the admin panel.",
        "a:ok",
        f"u:{csv}",
        "a:ok",
        "u:Marketing no longer wants the popup_banner widget.",
    )
    assert csv in _live(ledger)


@pytest.mark.parametrize(
    ("rule", "remark_and_change", "remark"),
    [
        ("CPU 超过80%就扩容。", "观察了一天，发现80%扩得太频繁了，成本太高。阈值改为90%。", "80%"),
        ("Wait 5s between retries.", "The 5s pause is too short. Change the pause to 12s.", "5s"),
    ],
)
def test_a_change_beside_a_remark_on_the_old_value_ends_the_rule_and_the_remark(
    rule: str, remark_and_change: str, remark: str
) -> None:
    ledger = _ledger(
        "u:Write an order sync job.", "a:ok", f"u:{rule}", "a:ok", f"u:{remark_and_change}"
    )
    assert _status(ledger, rule) == "retired"
    assert not any(remark in text for text in _live(ledger, "constraint", "decision", "request"))


def test_a_change_said_right_after_in_the_same_message_still_corrects_it() -> None:
    ledger = _ledger(
        "u:Build a crawler.",
        "a:ok",
        "u:- timeout=20\n- workers=4",
        "a:ok",
        "u:timeout=60 from now on. hmm, actually no, keep timeout=20, sorry.",
    )
    assert "timeout=20" in _live(ledger, "identifier")
    assert "timeout=60" not in _live(ledger, "identifier")


def test_a_name_written_against_chinese_text_is_named() -> None:
    ledger = _ledger(
        "u:做一个日志收集服务。", "a:好", "u:报错都上报到 Sentry，方便排查。", "a:好",
        "u:然后Sentry不再用了，太贵了。",
    )  # fmt: skip
    assert _status(ledger, "报错都上报到 Sentry，方便排查。") == "retired"
    assert "然后Sentry不再用了，太贵了。" not in _live(ledger, "next_step")


def test_a_pin_wired_elsewhere_is_a_change() -> None:
    ledger = _ledger(
        "u:做一个树莓派灯控。", "a:好", "u:状态灯接GPIO17，按钮接GPIO27。", "a:好",
        "u:状态灯改接GPIO22，17号脚被占了。",
    )  # fmt: skip
    assert _status(ledger, "状态灯接GPIO17，按钮接GPIO27。") == "retired"
    assert any("按钮接GPIO27" in text for text in _live(ledger, "constraint"))


@pytest.mark.parametrize(
    ("rule", "step"),
    [
        ("Pas de dépendance à part numpy et scipy.", "Prochaine étape : porter fir1."),
        ("Nada de Trainer de Hugging Face, bucle en PyTorch puro.", "Siguiente paso: evaluar."),
        ("Wir nutzen nur die Standardbibliothek.", "Als nächstes: die CLI schreiben."),
    ],
)
def test_a_rule_and_a_next_step_in_spanish_french_or_german(rule: str, step: str) -> None:
    ledger = _ledger("u:Port the filters to NumPy.", "a:ok", f"u:{rule}", "a:ok", f"u:{step}")
    assert rule in _live(ledger, "constraint")
    assert step in _live(ledger, "next_step")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "Empecemos con bert-base-cased.",
            "Mejor usa xlm-roberta-base en lugar de bert-base-cased.",
        ),
        ("On part sur SQLite pour le cache.", "Finalement, passe à Redis au lieu de SQLite."),
        ("Wir nehmen Flask für die API.", "Stattdessen FastAPI, Flask ist zu langsam."),
    ],
)
def test_a_change_in_spanish_french_or_german_retires_the_old_choice(old: str, new: str) -> None:
    ledger = _ledger("u:Build the service.", "a:ok", f"u:{old}", "a:ok", f"u:{new}")
    assert _status(ledger, old) == "retired"
