"""What the fact ledger reads since three new private sets were read: acknowledgements that
state no rule, pasted log rows, take-backs that name their object, remarks beside a change,
names written against Chinese text, and users who write Spanish, French or German."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_chat, live_texts, status_of
from tether.builtin_plugins.memory.fact_ledger import default_cues
from tether.builtin_plugins.memory.fact_ledger.errorline import error_line
from tether.builtin_plugins.memory.fact_ledger.recall import kept_requests
from tether.builtin_plugins.memory.offline_summarizer.checkpoint import build_checkpoint
from tether.builtin_plugins.memory.offline_summarizer.facts import Facts


@pytest.mark.parametrize(
    ("said", "step"),
    [
        ("可以了。接下来加一个 --dry-run 参数。", "接下来加一个 --dry-run 参数。"),
        ("Works for me. Next, add a --since flag.", "Next, add a --since flag."),
        ("Sounds fine to me. Next, write the export test.", "Next, write the export test."),
    ],
)
def test_an_acknowledgement_beside_a_next_step_is_no_rule(said: str, step: str) -> None:
    ledger = ledger_of_chat("u:Build an order sync script.", "a:ok", f"u:{said}")
    assert live_texts(ledger, "constraint") == []
    assert live_texts(ledger, "next_step") == [step]
    assert not any(f.kind == "said" and f.live for f in ledger.facts)  # no whole message


def test_a_pasted_log_row_with_a_date_changes_no_rule() -> None:
    rule = "for the start date: never backfill before 2024-01-01, nobody reads older numbers."
    ledger = ledger_of_chat(
        "u:We need a nightly job that pulls ad spend.",
        "a:ok",
        f"u:{rule}",
        "a:ok",
        "u:what i see locally:\n\n"
        "[2024-05-03, 09:12:44 UTC] {taskinstance.py:1138} INFO - all met for scheduled__2024-05-02"
        "\n[2024-05-03, 09:12:47 UTC] {mixin.py:188} WARNING - api.py:41 DeprecationWarning: "
        "the preset param is deprecated\n\nprob harmless.",
    )
    assert status_of(ledger, rule) == "live"
    assert not any("2024-05-03" in text for text in live_texts(ledger, "constraint", "decision"))


def test_a_take_back_in_the_plural_ends_the_rule_naming_it_in_the_singular() -> None:
    banner, refund = "Add a discount banner on the cart page.", "Store the refund reason."
    ledger = ledger_of_chat(
        "u:Build the cart page.",
        "a:ok",
        f"u:{banner}",
        "a:ok",
        f"u:Support wants it too: {refund}",
        "a:ok",
        "u:We're no longer doing banners, legal wants to review promos first.",
    )
    assert status_of(ledger, banner) == "retired"
    assert refund in " ".join(live_texts(ledger))


def test_a_take_back_never_ends_a_rule_of_its_own_message() -> None:
    ship = "Ship the build to the staging bucket, as agreed in the meeting."
    ledger = ledger_of_chat(
        "u:Set up the release job.",
        "a:ok",
        f"u:{ship} Forget the rest of the meeting notes, none of it is ours.",
    )
    assert ship in live_texts(ledger)


def test_a_take_back_naming_an_identifier_ends_only_a_rule_naming_it() -> None:
    logs = "Keep the last 3 days of logs on disk."
    ledger = ledger_of_chat(
        "u:Build the export job.",
        "a:ok",
        f"u:{logs}",
        "a:ok",
        "u:last thing for now: drop the legacy_flag column from the export, nobody fills it in.",
    )
    assert logs in live_texts(ledger)


def test_a_wish_of_someone_else_is_no_subject_shared() -> None:
    csv = "Support wants a CSV export of refunds."
    ledger = ledger_of_chat(
        "u:Build the admin panel.",
        "a:ok",
        f"u:{csv}",
        "a:ok",
        "u:Marketing no longer wants the popup_banner widget.",
    )
    assert csv in live_texts(ledger)


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
    ledger = ledger_of_chat(
        "u:Write an order sync job.", "a:ok", f"u:{rule}", "a:ok", f"u:{remark_and_change}"
    )
    assert status_of(ledger, rule) == "retired"
    assert not any(
        remark in text for text in live_texts(ledger, "constraint", "decision", "request")
    )


def test_a_change_said_right_after_in_the_same_message_still_corrects_it() -> None:
    ledger = ledger_of_chat(
        "u:Build a crawler.",
        "a:ok",
        "u:- timeout=20\n- workers=4",
        "a:ok",
        "u:timeout=60 from now on. hmm, actually no, keep timeout=20, sorry.",
    )
    assert "timeout=20" in live_texts(ledger, "identifier")
    assert "timeout=60" not in live_texts(ledger, "identifier")


def test_a_name_written_against_chinese_text_is_named() -> None:
    ledger = ledger_of_chat(
        "u:做一个日志收集服务。", "a:好", "u:报错都上报到 Sentry，方便排查。", "a:好",
        "u:然后Sentry不再用了，太贵了。",
    )  # fmt: skip
    assert status_of(ledger, "报错都上报到 Sentry，方便排查。") == "retired"
    assert "然后Sentry不再用了，太贵了。" not in live_texts(ledger, "next_step")


def test_a_pin_wired_elsewhere_is_a_change() -> None:
    ledger = ledger_of_chat(
        "u:做一个树莓派灯控。", "a:好", "u:状态灯接GPIO17，按钮接GPIO27。", "a:好",
        "u:状态灯改接GPIO22，17号脚被占了。",
    )  # fmt: skip
    assert status_of(ledger, "状态灯接GPIO17，按钮接GPIO27。") == "retired"
    assert any("按钮接GPIO27" in text for text in live_texts(ledger, "constraint"))


@pytest.mark.parametrize(
    ("rule", "step"),
    [
        ("Pas de dépendance à part numpy et scipy.", "Prochaine étape : porter fir1."),
        ("Nada de Trainer de Hugging Face, bucle en PyTorch puro.", "Siguiente paso: evaluar."),
        ("Wir nutzen nur die Standardbibliothek.", "Als nächstes: die CLI schreiben."),
    ],
)
def test_a_rule_and_a_next_step_in_spanish_french_or_german(rule: str, step: str) -> None:
    ledger = ledger_of_chat(
        "u:Port the filters to NumPy.", "a:ok", f"u:{rule}", "a:ok", f"u:{step}"
    )
    assert rule in live_texts(ledger, "constraint")
    assert step in live_texts(ledger, "next_step")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Usa lr=5e-5 para el fine-tuning.", "A partir de ahora lr=2e-5."),
        ("On vise Python 3.9 sur le serveur.", "Finalement on passe à Python 3.11."),
        ("Wir deployen mit Python 3.10.", "Ab jetzt Python 3.12 für alles."),
        ("Le filtre notch à 50 Hz reste.", "Le filtre notch à 50 Hz, on n'en a plus besoin."),
    ],
)
def test_a_change_in_spanish_french_or_german_retires_the_old_rule(old: str, new: str) -> None:
    ledger = ledger_of_chat("u:Build the service.", "a:ok", f"u:{old}", "a:ok", f"u:{new}")
    assert status_of(ledger, old) == "retired"


def test_instead_and_forget_in_french_change_nothing() -> None:
    """Only unambiguous change words are in the tables: "au lieu de discuter" is no swap and
    "oublie pas" no take-back."""
    rules = ["Pas de dépendance à part numpy et scipy.", "Garde les noms de fonctions MATLAB."]
    ledger = ledger_of_chat(
        "u:Porte les filtres vers NumPy.",
        "a:ok",
        *(f"u:{rule}" for rule in rules),
        "a:ok",
        "u:Au lieu de discuter des détails, essaie. Et oublie pas de mettre à jour le CHANGELOG.",
    )
    assert all(rule in live_texts(ledger, "constraint") for rule in rules)


def test_a_key_written_before_its_colon_is_no_value() -> None:
    """ "id-token: write" names a key; a later "if: github.ref == …" gives it no new value."""
    rule = "The deploy job needs id-token: write in its permissions, and only that job."
    ledger = ledger_of_chat(
        "u:Set up the release workflow.",
        "a:ok",
        f"u:{rule}",
        "a:ok",
        "u:Guard the deploy job with if: github.ref == 'refs/heads/main' so forks skip it.",
    )
    assert rule in live_texts(ledger, "constraint")


def test_the_identifiers_of_a_step_done_staylive_texts() -> None:
    ledger = ledger_of_chat(
        "u:Set up the release workflow.",
        "a:ok",
        "u:Next, tag v1.4.0rc2 on my fork; the tag points at 9be41f07c2aa, the commit with the"
        " new lockfile.",
        "a:ok",
        "u:Next, add the TestPyPI dry-run job.",
    )
    assert "9be41f07c2aa" in live_texts(ledger, "identifier")
    assert live_texts(ledger, "next_step") == ["Next, add the TestPyPI dry-run job."]


def test_a_new_version_of_a_thing_a_rule_only_uses_changes_no_rule() -> None:
    uses = "Count the stock in our Room database, then sync when there's wifi."
    pinned = "Pin Retrofit 2.9.0 for the API client."
    ledger = ledger_of_chat(
        "u:Build the warehouse scanner app.",
        "a:ok",
        f"u:{uses}",
        "a:ok",
        f"u:{pinned}",
        "a:ok",
        "u:Bump Room, we want upsert. Bump Retrofit to 2.11.0 as well.",
    )
    assert uses in live_texts(ledger, "constraint")
    assert status_of(ledger, pinned) == "retired"


def test_a_word_holding_bie_is_no_prohibition() -> None:
    """级别 (level), 区别, 别的 (other) hold 别 without saying "don't": the rule changes."""
    ledger = ledger_of_chat(
        "u:做一个日志服务。", "a:好", "u:日志级别用 INFO。", "a:好", "u:日志级别改为 WARN。"
    )
    assert status_of(ledger, "日志级别用 INFO。") == "retired"


def test_a_connective_opening_two_sentences_is_no_shared_key() -> None:
    ledger = ledger_of_chat(
        "u:写一个配置语言的解析器。", "a:好", "u:另外要支持 @include 指令。", "a:好",
        "u:另外 CI 的 image 升级了，现在是 GHC 9.6.6。",
    )  # fmt: skip
    assert "另外要支持 @include 指令。" in live_texts(ledger, "constraint")


def test_a_ban_swaps_no_choice() -> None:
    ledger = ledger_of_chat(
        "u:写一个配置语言的解析器。", "a:好", "u:解析器用 Haskell 写。", "a:好",
        "u:不要用 Template Haskell，编译太慢。",
    )  # fmt: skip
    assert "解析器用 Haskell 写。" in live_texts(ledger, "constraint")


def test_a_log_rows_seconds_are_no_tally_of_errors() -> None:
    """ "…14:41:07 ERROR page 18: …Error: net::ERR_…" says what went wrong: "07 ERROR" is a
    time and a level, not "7 errors"."""
    named = (
        "2024-06-03 14:41:07 ERROR page 18: playwright._impl._errors.Error: "
        "net::ERR_PROXY_CONNECTION_FAILED at https://shop.example/list?page=18"
    )
    output = f"2024-06-03 14:40:55 WARNING page 18: retry 1/3\n{named}\n"
    output += "2024-06-03 14:41:07 ERROR aborting run, 340 listings kept"
    assert error_line(output) == named


def test_a_fault_found_with_one_thing_leaves_a_rule_naming_a_word_far_before_it() -> None:
    rule = "one rule from the team lead: no pages between 22:00 and 06:00 unless critical."
    ledger = ledger_of_chat(
        "u:Route the alerts to chat and the pager.",
        "a:ok",
        f"u:{rule}",
        "a:ok",
        "u:btw the team decided yesterday the chat channel is wrong, switch to #infra-oncall.",
    )
    assert rule in live_texts(ledger, "constraint")


def test_a_label_before_bump_it_is_no_bare_value() -> None:
    owner = "Dana owns these alerts now, so tag her in the runbook template instead of Lee."
    ledger = ledger_of_chat(
        "u:Route the alerts to chat and the pager.",
        "a:ok",
        f"u:{owner}",
        "a:ok",
        "u:prometheus: bump it, we're far behind.",
    )
    assert owner in live_texts(ledger)


@pytest.mark.parametrize(
    "aside",
    [
        "also I'll switch my editor theme to dark mode later, unrelated, ignore",
        "我晚上还要把电脑上的 IDE 换成新版，跟这个没关系。",
    ],
)
def test_a_sentence_said_to_be_unrelated_changes_no_rule(aside: str) -> None:
    rule = "The build uses the editor config in .editorconfig, theme-neutral."
    ledger = ledger_of_chat("u:Set up the repo.", "a:ok", f"u:{rule}", "a:ok", f"u:{aside}")
    assert rule in live_texts(ledger, "constraint")
    assert aside not in live_texts(ledger, "constraint", "decision")


def test_an_accepted_proposal_names_the_identifiers_it_gives() -> None:
    ledger = ledger_of_chat(
        "u:Run the dashboards locally.",
        "a:ok",
        "u:go to grafana/grafana:10.4.1 in compose, same as the other cluster",
        "a:10.4.1 has a provisioning bug; grafana/grafana:11.0.0 works in my test. Want me to"
        " bump to that?",
        "u:yes, go for it",
    )
    assert "grafana/grafana:11.0.0" in live_texts(ledger, "identifier")
    assert "grafana/grafana:10.4.1" not in live_texts(ledger, "identifier")


def test_a_bare_number_replaces_the_quantity_found_wanting_and_the_remark_goes_too() -> None:
    rule = "Import 40000 rows per batch."
    remark = "the import: 40000 was too much, the replica fell behind and lag hit 55s."
    ledger = ledger_of_chat(
        "u:Backfill the orders table.",
        "a:ok",
        f"u:{rule}",
        "a:ok",
        f"u:{remark} make it 8000",
    )
    assert status_of(ledger, rule) == "retired"
    assert status_of(ledger, remark) == "retired"
    assert "make it 8000" in live_texts(ledger, "constraint")


def test_a_rule_or_change_after_then_is_no_next_step() -> None:
    """然后/then open many sentences of a long message: a rule or change after one is a
    rule, and the sentences after it are no steps either."""
    ledger = ledger_of_chat(
        "u:做一个门铃摄像头。然后我先说一下，全部用 Go 写，不要用 Node。按钮接在 GPIO5 上了。",
        "a:好",
        "u:然后我试了一下，GPIO5 那个脚不太稳，所以我把按钮改到 GPIO6 上了，你也改一下。",
        "a:好",
        "u:下一步：写 systemd 服务。",
    )
    rules = " ".join(live_texts(ledger, "constraint"))
    assert "不要用 Node" in rules
    assert "GPIO6" in rules
    assert not any("GPIO5 上了。" in text for text in live_texts(ledger, "constraint"))
    assert live_texts(ledger, "next_step") == ["下一步：写 systemd 服务。"]


def test_rather_than_names_what_goes_not_a_name_of_the_reason() -> None:
    board = "我用树莓派 5 加 Camera Module 3 做这个。"
    ledger = ledger_of_chat(
        "u:做一个门铃摄像头。",
        "a:好",
        f"u:{board}",
        "a:好",
        "u:OpenCV 在 Camera Module 3 上支持不好，所以用 picamera2 而不是 OpenCV 来拍照吧。",
    )
    assert board in live_texts(ledger, "constraint")


def test_a_new_number_said_beside_the_old_changes_only_the_rule_of_the_old() -> None:
    light = "The IR light hangs on GPIO22, switched by a MOSFET."
    ledger = ledger_of_chat(
        "u:Build a camera trap.",
        "a:ok",
        "u:The PIR signal is on GPIO17.",
        "a:ok",
        f"u:{light}",
        "a:ok",
        "u:GPIO17 has a loose contact, so I moved the PIR to GPIO27, change it in the code.",
    )
    assert status_of(ledger, "The PIR signal is on GPIO17.") == "retired"
    assert light in live_texts(ledger, "constraint")


@pytest.mark.parametrize(
    "remark",
    [
        "the old db1.internal was always slow, glad it is gone.",
        "mich hat der alte db1.internal echt genervt, der war immer so lahm.",
        "db1.internal was way too slow anyway.",
    ],
)
def test_a_remark_on_a_replaced_value_keeps_the_value_in_force(remark: str) -> None:
    moved = "Move the DB to db2.internal:6432."
    ledger = ledger_of_chat(
        "u:Build the API.", "a:ok", "u:The DB is on db1.internal:5432.", "a:ok",
        f"u:{moved}", "a:ok", f"u:{remark}",
    )  # fmt: skip
    assert moved in live_texts(ledger, "constraint")
    assert status_of(ledger, remark) == "retired"


def test_an_old_value_said_again_as_current_is_restated() -> None:
    again = "The DB is on db1.internal:5432 again."
    ledger = ledger_of_chat(
        "u:Build the API.", "a:ok", "u:The DB is on db1.internal:5432.", "a:ok",
        "u:Move the DB to db2.internal:6432.", "a:ok", f"u:{again}",
    )  # fmt: skip
    assert again in live_texts(ledger, "constraint")


def test_bump_names_the_thing_not_a_new_value_of_another_rule() -> None:
    pin = "Decode with ML Kit, pinned to com.google.mlkit:barcode-scanning:17.2.0."
    ledger = ledger_of_chat(
        "u:Build the stock scanner app.", "a:ok", f"u:{pin}", "a:ok",
        "u:Bump Room, we want upsert semantics anyway.",
    )  # fmt: skip
    assert pin in live_texts(ledger, "constraint")


def test_a_demonstrative_is_no_key_shared() -> None:
    rule = "我试了一下，GPIO17 那个脚接触不太好，所以我把 PIR 改到 GPIO27 上了。"
    ledger = ledger_of_chat(
        "u:做一个相机陷阱。", "a:好", "u:PIR 接在 GPIO17 上。", "a:好", f"u:{rule}", "a:好",
        "u:那个 upload() 的空函数你也删掉吧，留着也没用。",
    )  # fmt: skip
    assert any("GPIO27" in text for text in live_texts(ledger, "constraint"))


def test_a_new_choice_ends_the_clause_holding_the_old_one_not_only_its_reason() -> None:
    ledger = ledger_of_chat(
        "u:写一个配置语言的解析器。先用 attoparsec，因为 repo 里别的 module 已经 depend 它了。",
        "a:好",
        "u:那 parser 库换成 megaparsec 吧，错误信息好很多，别的 module 以后再说。",
    )  # fmt: skip
    assert not any("attoparsec" in text for text in live_texts(ledger, "constraint", "request"))


@pytest.mark.parametrize(
    ("said", "rules"),
    [
        (
            "几点要求：不要用 Template Haskell。错误信息要带行号和列号。"
            "还有 section 名大小写不敏感。",
            ["错误信息要带行号和列号。", "还有 section 名大小写不敏感。"],
        ),
        (
            "A few rules: no Template Haskell. Errors carry line and column. Names ignore case.",
            ["Errors carry line and column.", "Names ignore case."],
        ),
    ],
)
def test_sentences_after_a_label_of_rules_are_rules(said: str, rules: list[str]) -> None:
    ledger = ledger_of_chat("u:Write the config parser.", "a:ok", f"u:{said}")
    assert all(rule in live_texts(ledger, "constraint") for rule in rules)


def test_a_message_holding_the_next_step_is_not_listed_as_a_request_done() -> None:
    step = "下一步写 hspec 测试，覆盖嵌套 section 的边界情况。"
    ledger = ledger_of_chat("u:写一个配置语言的解析器。", "a:好", f"u:{step}写完我 review。")
    done = build_checkpoint(Facts(), ledger).done
    assert not any(step in line for line in done)


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        (
            "plain POSIX sed please, busybox has no GNU flags and they silently do nothing.",
            "constraint",
        ),
        ("yes do that, the import runs offline on weekends.", "decision"),
        ("run the tests please.", "request"),
    ],
)
def test_a_thing_wished_for_or_an_option_taken_is_filed_as_a_rule(said: str, kind: str) -> None:
    more = " Also the rotation itself should run daily at 02:00 and keep fourteen days of logs."
    ledger = ledger_of_chat(
        "u:Write the log rotation scripts.", "a:Option: run it offline.", f"u:{said}{more}"
    )
    assert said in live_texts(ledger, kind)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Usamos Vuetify para los componentes.", "cambiamos a PrimeVue, pesa mucho menos"),
        ("Y modo oscuro en la barra.", "y olvídate del modo oscuro, nadie lo quiere"),
        (
            "Die DB ist MariaDB 10.11 auf nc-web-01.",
            "wir wechseln auf PostgreSQL 15, die MariaDB fliegt raus",
        ),
    ],
)
def test_more_spanish_and_german_changes_retire_the_old_rule(old: str, new: str) -> None:
    ledger = ledger_of_chat("u:Build the admin panel.", "a:ok", f"u:{old}", "a:ok", f"u:{new}")
    assert status_of(ledger, old) == "retired"


def test_old_named_in_a_take_back_names_nothing() -> None:
    moved = "redis ist umgezogen, liegt jetzt auf 10.20.0.31 (die alte kiste wird abgebaut)"
    ledger = ledger_of_chat(
        "u:Bau ein Playbook für Nextcloud.", "a:ok", f"u:{moved}", "a:ok",
        "u:die alte MariaDB 10.11 auf nc-web-01 kann dann auch weg, das mach ich manuell",
    )  # fmt: skip
    assert moved in live_texts(ledger, "constraint")


def test_a_clause_remarking_on_an_old_value_goes_with_its_rule() -> None:
    ledger = ledger_of_chat(
        "u:Build the checkout.", "a:ok", "u:free shipping over $40, otherwise flat 3.90.", "a:ok",
        "u:sales says free shipping over $70 actually, the $40 figure was from the old store.",
        "a:ok", "u:one more change: free shipping over $55.",
    )  # fmt: skip
    assert not any("$40" in text for text in live_texts(ledger, "constraint"))
    assert "otherwise flat 3.90" in live_texts(ledger, "constraint")


def test_a_take_back_leaves_a_rule_that_already_took_the_thing_back() -> None:
    switch = "wir wechseln auf PostgreSQL 15, eigener host pg-db.intern, die mariadb fliegt raus"
    ledger = ledger_of_chat(
        "u:Bau ein Playbook für Nextcloud.", "a:ok", "u:DB ist MariaDB 10.11 auf web-01.", "a:ok",
        f"u:{switch}", "a:ok", "u:die MariaDB 10.11 auf web-01 kann dann auch weg, mach ich das",
    )  # fmt: skip
    assert switch in live_texts(ledger, "constraint")


def test_the_gate_keeps_no_message_holding_the_next_step_as_history() -> None:
    step = "下一步写 hspec 测试，覆盖嵌套 section 的边界情况。"
    ledger = ledger_of_chat("u:写一个配置语言的解析器。", "a:好", f"u:{step}写完我 review。")
    kept = kept_requests(ledger, default_cues())
    assert not any(step in fact.text for fact in kept)
