"""Values of one family, amounts, dates, nested causes and what would happen otherwise
(issue 23: sessions nobody tuned for).

"LOG_LEVEL_WARN" replaces "LOG_LEVEL_INFO", "summary.parquet" replaces "summary.csv", "$40"
replaces "$25", "August 15" is one value and not the 15 of "September 15"; "   > Kotlin
requires JDK 21" nested under a wrapper is the cause to keep; "…, otherwise someone bumps
it to 50x" changes nothing."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules
from tether.builtin_plugins.memory.fact_ledger.errorline import failure_lines

START = "We're writing the school district's timetable exporter."


def _live_text(*said: str) -> str:
    ledger = ledger_of_said(*said)
    return " | ".join(f.text for f in ledger.live())


@pytest.mark.parametrize(
    ("rule", "later", "old", "new"),
    [
        (
            "Log with LOG_LEVEL_INFO in production.",
            "Ops says it's too noisy: LOG_LEVEL_WARN there.",
            "LOG_LEVEL_INFO",
            "LOG_LEVEL_WARN",
        ),
        (
            "Round every mark with ROUND_HALF_UP.",
            "The exam board wants ROUND_HALF_EVEN like their own system does.",
            "ROUND_HALF_UP",
            "ROUND_HALF_EVEN",
        ),
        (
            "Compute the totals and write marks.csv.",
            "And the upload should be marks.xlsx, the portal rejects CSV.",
            "marks.csv",
            "marks.xlsx",
        ),
        (
            "Export the timetable as timetable.csv.",
            "And the export should be timetable.xlsx, one sheet per school.",
            "timetable.csv",
            "timetable.xlsx",
        ),
        (
            "The exporter writes its results to summary.csv.",
            "The results should be summary.parquet, pandas reads it much faster.",
            "summary.csv",
            "summary.parquet",
        ),
        (
            "Limit the spindle to 9000 rpm.",
            "we got chatter at 9000. go down to 7500 rpm and keep it there",
            "9000 rpm",
            "7500 rpm",
        ),
        (
            "Pin Python to 3.11.4 in requires-python.",
            "The runner image upgraded, so bump requires-python to 3.12.2.",
            "3.11.4",
            "3.12.2",
        ),
    ],
)
def test_a_value_of_the_same_family_replaces_the_old(
    rule: str, later: str, old: str, new: str
) -> None:
    shown = _live_text(START, rule, later)
    assert new in shown
    assert old not in shown


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Put POSTGRES_DB_HOST in the .env file.", "POSTGRES_DB_PORT goes in the .env file."),
        ("Health checks call requests.get on /healthz.", "Uploads go through requests.post."),
        ("Save the raw grid to grid.csv.", "Also save a preview to grid.png."),
        ("Export with EXPORT_MODE_FULL on Sundays.", "Never use EXPORT_MODE_DELTA, it drops rows."),
        ("Component logic lives in Grid.tsx.", "Styles go in Grid.css, no inline styles."),
        ("Gate the new flow behind FLAG_NEW_CHECKOUT.", "Gate the rewrite behind FLAG_NEW_SEARCH."),
        ("Admins get PERM_ROSTER_WRITE.", "Teachers get PERM_ROSTER_READ."),
        ("Log with LOG_LEVEL_INFO everywhere.", "Use LOG_LEVEL_DEBUG for the file handler."),
        ("Input is always rooms.csv.", "Output is always rooms.parquet."),
        ("导出 rooms.csv。", "另外导出 rooms.xlsx。"),
        ("Export rooms.csv.", "Don't export rooms.xlsx."),
    ],
)
def test_two_names_of_one_family_that_are_two_things_both_stay(first: str, second: str) -> None:
    rules = live_rules(ledger_of_said(START, first, second))
    assert {first, second} <= rules


def test_an_amount_changes_the_amount_not_a_later_number() -> None:
    rule = "Refund anything under $25 without review."
    other = "Receipts show credits in brackets, like (12.50)."
    shown = _live_text(START, rule, other, "Make it $40, finance agreed.")
    assert "$40" in shown and "(12.50)" in shown
    assert "$25" not in shown


def test_a_date_is_one_value_so_a_corrected_date_stays_live() -> None:
    rule = "Our school year starts September 15, so week numbers count from there."
    later = "Wait, I was wrong: the school year begins August 15. September was last year."
    shown = _live_text(START, rule, later)
    assert "August 15" in shown
    assert "starts September 15" not in shown


def test_a_remark_that_the_old_number_does_not_exist_goes_with_it() -> None:
    rule = "Unmatched rows get posted to holding account 4410."
    later = "Sorry, typo — holding account is 4401, not that one. 4410 doesn't exist in our books."
    shown = _live_text(START, rule, later)
    assert "4401" in shown
    assert "4410" not in shown


def test_a_place_corrected_leaves_a_value_held_for_now_alone() -> None:
    retries = "cap ingest concurrency at 4 workers for now"
    said = (
        START + " " + retries,
        "Jobs arrive on /queues/ingest_in, one batch a minute.",
        "sorry, the queue is actually /queues/ingest_inbound, I misread the config.",
    )
    rules = live_rules(ledger_of_said(*said))
    assert retries in rules
    assert "Jobs arrive on /queues/ingest_in." not in rules


def test_a_setting_dropped_beside_the_one_kept_keeps_the_kept_one() -> None:
    rule = "Label every pod with owner=infra via commonLabels."
    later = "Scratch the owner label, nobody reads it — commonLabels just keeps app=billing."
    shown = _live_text(START, rule, later)
    assert "app=billing" in shown
    assert "owner=infra" not in shown


def test_a_take_back_of_one_thing_ends_no_rule_sharing_only_a_word_like_it() -> None:
    rule = "Keep the nightly backups on the NAS, we rely on it."
    later = "Forget the changelog for today, I'll write it."
    assert rule in live_rules(ledger_of_said(START, rule, later))


def test_a_reason_that_the_old_choice_is_gone_goes_with_the_switch() -> None:
    rule = "Ship the metrics through statsd."
    later = "statsd is gone since the migration. switch the metrics to OTLP push."
    shown = _live_text(START, rule, later)
    assert "OTLP push" in shown
    assert "statsd" not in shown


@pytest.mark.parametrize(
    ("rule", "gone"),
    [
        ("Support Python 3.9 and up.", "Python 3.9 is EOL, the floor is now 3.11."),
        ("Host the demo on Heroku.", "Heroku's free tier is gone, so never deploy there again."),
    ],
)
def test_a_gone_remark_that_states_a_rule_stays_beside_an_unrelated_switch(
    rule: str, gone: str
) -> None:
    rules = live_rules(ledger_of_said(START, rule, gone + " Switch the CI runner to arm64."))
    assert gone in rules


def test_a_change_naming_its_own_subject_leaves_a_rule_of_the_same_unit() -> None:
    for rule, later in (
        ("Card padding is 12px.", "Increase the font size to 16px."),
        ("Keep backups for 30 days.", "Reduce the log retention to 7 days."),
    ):
        assert rule in live_rules(ledger_of_said(START, rule, later)), later


@pytest.mark.parametrize(
    "later",
    [
        "要不然改用 redis 吧，运维更熟。",
        "How about redis instead?",
        "Otherwise fine — switch to redis.",
    ],
)
def test_a_suggestion_opening_with_otherwise_still_changes(later: str) -> None:
    rule = "缓存用 memcached。" if not later.isascii() else "Cache with memcached."
    assert rule not in live_rules(ledger_of_said(START, rule, later))


@pytest.mark.parametrize(
    ("rule", "later"),
    [
        (
            "Zoom factor defaults to 3x, the config key is ZoomFactor.",
            "Server settings win in multiplayer, otherwise someone will bump it to 50x.",
        ),
        (
            "缩放倍率默认 3 倍，配置项叫 ZoomFactor。",
            "多人联机以服务器配置为准，不然有人自己改成 50 倍。",
        ),
    ],
)
def test_what_would_happen_otherwise_changes_nothing(rule: str, later: str) -> None:
    assert rule in live_rules(ledger_of_said(START, rule, later))


def test_a_ban_in_chinese_gives_no_value_to_a_subject_it_shares_a_word_with() -> None:
    rule = "打包工具用 PyInstaller，游戏的 Python 就是 3.8 这个版本。"
    later = "打包的时候别把游戏自己的 pyd 一起放进去，会冲突。"
    assert rule in live_rules(ledger_of_said("给游戏写个启动器。", rule, later))


GRADLE_NESTED = """FAILURE: Build failed with an exception.

* Where:
Build file '/ci/work/app/build.gradle.kts' line: 3

* What went wrong:
An exception occurred applying plugin request [id: 'org.jetbrains.kotlin.jvm']
> Failed to apply plugin 'org.jetbrains.kotlin.jvm'.
   > Kotlin Gradle plugin 2.1 needs JDK 21 to run; this build uses JDK 17.
     Set org.gradle.java.home to a JDK 21 install.

BUILD FAILED in 4s"""

JAVA_CAUSES = """Exception in thread "main" java.lang.IllegalStateException: boot failed
    at app.Main.start(Main.java:40)
    at app.Main.main(Main.java:12)
Caused by: java.io.UncheckedIOException: config unreadable
    at app.Config.load(Config.java:77)
    ... 2 more
Caused by: java.nio.file.AccessDeniedException: /etc/app/config.yml
    at java.base/sun.nio.fs.UnixException.translateToIOException(UnixException.java:90)
    ... 4 more"""


JEST_FRAME = """> timetable@2.0.0 test
> jest --ci

FAIL src/slots.test.ts
  ● slots › fills the first period

    expect(received).toBe(expected) // Object.is equality

      7 | test('fills the first period', () => {
    > 8 |   expect(first(slots)).toBe('maths');
        |                        ^

      at Object.<anonymous> (src/slots.test.ts:8:24)"""

JAVA_SUPPRESSED = """Exception in thread "main" java.lang.IllegalStateException: export failed
	at app.Export.run(Export.java:31)
Caused by: java.io.UncheckedIOException: cannot write rooms.csv
	at app.Export.write(Export.java:58)
	Suppressed: java.io.IOException: close failed
		at app.Export.close(Export.java:90)
	Caused by: java.lang.NullPointerException: writer
		at app.Export.close(Export.java:88)
Caused by: java.nio.file.AccessDeniedException: /srv/export/rooms.csv
	at sun.nio.fs.UnixException.translateToIOException(UnixException.java:90)"""


def test_a_short_gradle_failure_keeps_its_nested_cause() -> None:
    output = (
        "FAILURE: Build failed with an exception.\n\n* What went wrong:\n"
        "Execution failed for task ':app:compileKotlin'.\n"
        "> Could not resolve all files for configuration ':app:compileClasspath'.\n"
        "   > Could not find org.acme:timetable-core:4.2.0.\n\nBUILD FAILED in 2s\n"
    )
    assert "> Could not find org.acme:timetable-core:4.2.0." in failure_lines(output)


def test_a_code_frame_or_a_suppressed_cause_is_no_root_cause() -> None:
    assert not any("> 8 |" in line for line in failure_lines(JEST_FRAME))
    lines = failure_lines(JAVA_SUPPRESSED)
    assert "Caused by: java.nio.file.AccessDeniedException: /srv/export/rooms.csv" in lines
    assert not any("NullPointerException" in line for line in lines)


@pytest.mark.parametrize(
    ("output", "cause"),
    [
        (GRADLE_NESTED, "> Kotlin Gradle plugin 2.1 needs JDK 21 to run; this build uses JDK 17."),
        (JAVA_CAUSES, "Caused by: java.nio.file.AccessDeniedException: /etc/app/config.yml"),
    ],
)
def test_the_innermost_nested_cause_is_kept(output: str, cause: str) -> None:
    assert cause in failure_lines(output)
