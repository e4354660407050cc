"""The Portuguese, Italian, Dutch, Japanese and Korean tables, and what a Japanese sentence
must not be read as: an "OK" before a choice is no value, and two kana of grammar ("して",
"から") name no key, so a rule never ends an unrelated one for sharing them."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_chat, live_texts, status_of


@pytest.mark.parametrize(
    ("goal", "rule", "change"),
    [
        (
            "Quero um app de fotos em React Native.",
            "As fotos ficam no MMKV por enquanto.",
            "MMKV travou com 2000 fotos, troca pro WatermelonDB.",
        ),
        (
            "Voglio un bot Telegram in Python.",
            "Per ora usiamo SQLite per le sessioni.",
            "SQLite si blocca con due worker, passiamo a Redis.",
        ),
        (
            "Ik wil een kleine webshop in Django.",
            "Voorlopig slaan we de mails op in Mailpit.",
            "Mailpit is te traag geworden, we stappen over op Mailhog.",
        ),
        (
            "家計簿アプリを Flutter で作りたいです。",
            "データはとりあえず Hive に保存します。",
            "Hive だと検索が遅いので Isar に切り替えてください。",
        ),
    ],
)
def test_a_value_held_for_now_gives_way_to_a_change(goal: str, rule: str, change: str) -> None:
    ledger = ledger_of_chat(f"u:{goal}", "a:ok", f"u:{rule}", "a:ok", f"u:{change}")
    assert status_of(ledger, rule) == "retired"


@pytest.mark.parametrize(
    ("rule", "take_back"),
    [
        ("Faz login com Google também.", "login com Google não precisa mais, esquece o login."),
        ("Aggiungi anche il login con GitHub.", "Il login con GitHub non serve più, toglilo."),
        ("Graag ook een nieuwsbrief-module.", "De nieuwsbrief-module is niet meer nodig."),
        (
            "ダッシュボードにダークモードも付けてください。",
            "ダークモードはいらないです、外してください。",
        ),
        ("관리자 화면에 다크 모드도 넣어 주세요.", "다크 모드는 이제 필요 없어요, 빼주세요."),
    ],
)
def test_a_take_back_in_each_language_ends_the_rule(rule: str, take_back: str) -> None:
    ledger = ledger_of_chat("u:Build the admin app.", "a:ok", f"u:{rule}", "a:ok", f"u:{take_back}")
    assert status_of(ledger, rule) == "retired"


@pytest.mark.parametrize(
    ("said", "section"),
    [
        ("Nunca mande dados pra nuvem sem criptografia.", "constraint"),
        ("Mai salvare le password in chiaro.", "constraint"),
        ("Gebruik nooit de productie-database voor tests.", "constraint"),
        ("Próximo passo: tela de relatórios mensais.", "next_step"),
        ("Prossimo passo: aggiungi i filtri per data.", "next_step"),
        ("次は CSV エクスポートを作ってください。", "next_step"),
        ("다음은 CSV 내보내기를 만들어 주세요.", "next_step"),
    ],
)
def test_rules_and_next_steps_are_filed_as_such(said: str, section: str) -> None:
    ledger = ledger_of_chat("u:Build the admin app.", "a:ok", f"u:{said}")
    assert said in live_texts(ledger, section)


def test_an_ok_before_a_choice_is_no_value() -> None:
    choice = "OK、-O2 でいきましょう、ビルド時間のほうが大事なので"
    ledger = ledger_of_chat(
        "u:C++ のビルドを CI で回したいです。", "a:はい", "u:-O2 と -O3 どちらにしますか？",
        "a:どちらでも", f"u:{choice}", "a:はい",
        "u:テスト OK なので artifact を本番用の s3://builds-prod に切り替えてください。",
    )  # fmt: skip
    assert status_of(ledger, choice) == "live"


def test_kana_of_grammar_name_no_key() -> None:
    rule = "ログは fluent-bit して Loki に送る感じ。"
    ledger = ledger_of_chat(
        "u:k8s で監視基盤を作りたいです。", "a:はい", f"u:{rule}", "a:はい",
        "u:あと token は Vault から env で渡して、ConfigMap には絶対入れないでください",
    )  # fmt: skip
    assert status_of(ledger, rule) == "live"
