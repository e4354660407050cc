"""What the readers of dropped names, renames, counts and topic clauses must leave alone.

Each case is a sentence a user writes that looks like one of those changes but changes nothing
(or only what it names); a hostile review of those readers found them (issue 23)."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules

START = "We're building the booking web app."


def _kept(rule: str, later: str) -> bool:
    return rule in live_rules(ledger_of_said(START, rule, later))


@pytest.mark.parametrize(
    ("rule", "later"),
    [
        ("Never import numpy in the request path.", "drop numpy, use jax for the batch job"),
        ("Don't use moment anywhere.", "ditch moment and use dayjs for the admin pages"),
        ("Use podman for local dev.", "drop podman, use docker on my laptop"),
        ("Tests must run on node 20.", "drop node and use deno for the scripts"),
        ("Use everything the design kit offers.", "drop everything and go with plan B"),
        ("Use podman for all containers.", "drop podman, use docker locally"),
        ("Use pandas for all frames.", "drop pandas and use polars, the ETL script only"),
        ("Keep moment out of the bundle.", "drop moment, use dayjs"),
        ("We must avoid jquery in new code.", "ditch jquery and go with htmx"),
    ],
)
def test_a_dropped_name_ends_no_ban_and_no_rule_for_other_parts(rule: str, later: str) -> None:
    assert _kept(rule, later)


def test_a_rename_picks_the_quoted_name_of_its_own_key() -> None:
    ledger = ledger_of_said(
        START,
        "Call the web fixture `browser` and the storage fixture `store`.",
        "rename the storage fixture to vault",
    )
    assert {f.text for f in ledger.live("identifier")} >= {"browser"}
    assert "store" not in {f.text for f in ledger.live("identifier")}


@pytest.mark.parametrize(
    ("rule", "later"),
    [
        ("The auth helper is `guard`; leave it alone.", "rename the auth module to gate"),
        ("Our bookings table key is `bid`.", "rename the bookings table to reservations"),
        ("Serve the docs with mkdocs.", "mkdocs is already taken care of, use the existing site"),
    ],
)
def test_a_rename_of_another_key_or_a_word_like_taken_changes_nothing(
    rule: str, later: str
) -> None:
    assert _kept(rule, later)


def test_a_rename_keeps_a_longer_name_holding_the_old_one() -> None:
    ledger = ledger_of_said(
        START,
        "The service user is `booker`, and its group is `booker-ops`.",
        "rename the service user to reserver",
    )
    assert any("`booker-ops`" in rule for rule in live_rules(ledger))


@pytest.mark.parametrize(
    ("rule", "later"),
    [
        ("Keep 4 celery queues.", "each gets 3 celery queue consumers"),
        ("Run 2 browser runners in CI.", "each gets 4 browser runner cores"),
        ("Run 8 celery workers.", "and 2 celery worker threads"),
        ("Keep 5 build runners.", "allow 2 build runner jobs at a time"),
    ],
)
def test_counts_of_a_thing_and_of_its_parts_are_two_counts(rule: str, later: str) -> None:
    assert _kept(rule, later)


@pytest.mark.parametrize(
    ("rule", "later"),
    [
        ("Booking timeout is 15 minutes.", "On the booking side, the poll interval is 5 seconds."),
        ("Guest limit is 8 per room.", "About the rooms, the photo count is 12 max."),
        ("Retry the payment 3 times.", "Depending on the payment size, we might want 2 steps."),
        ("Install node with nvm in CI.", "Use nvm in the Dockerfile too."),
        ("Proxy through the VPN on staging and prod.", "we don't need the VPN anymore on staging"),
        ("Freeze releases on Fridays and Sundays.", "the freeze is lifted on Sundays"),
        ("Booking timeout is 15 minutes.", "on the booking emails, wait 10 minutes before sending"),
        ("Cache the room list for 30 minutes.", "about the room photos, 5 minutes is plenty"),
    ],
)
def test_a_topic_word_or_a_narrowed_take_back_keeps_the_rest(rule: str, later: str) -> None:
    assert _kept(rule, later)


@pytest.mark.parametrize(
    "later",
    [
        "Why don't we just drop the feature flag, it's been fine for weeks.",
        "can't we just drop the feature flag? it's been fine",
        "Can we not just drop the feature flag? it's been fine",
        "Is there any reason not to drop the feature flag? it's been fine for weeks.",
    ],
)
def test_a_suggestion_to_drop_is_a_take_back(later: str) -> None:
    assert not _kept("Ship the calendar behind a feature flag.", later)


@pytest.mark.parametrize(
    ("rule", "later"),
    [
        ("Run the schema lint on every PR.", "forget the schema step, it's too slow"),
        ("Always rebase before merging.", "forget the rebase policy"),
        ("Never push directly to main.", "drop the main branch protection, I'll push myself"),
        ("Don't use lodash.", "drop the no-lodash constraint"),
        ("Don't touch the legacy invoices module.", "drop the legacy invoices module, it's gone"),
        ("Run the schema lint on every PR.", "forget the schema gate, it's too slow"),
        ("Don't use lodash.", "drop the lodash prohibition"),
        ("No lodash in the bundle.", "drop the no-lodash convention"),
    ],
)
def test_a_take_back_of_the_rule_itself_ends_it(rule: str, later: str) -> None:
    assert not _kept(rule, later)


def test_a_domain_ending_like_a_file_still_moves() -> None:
    ledger = ledger_of_said(
        START, "Short links live on go.cc and the API on api.go.cc.", "links move to lnk.io"
    )
    assert not any("Short links live on go.cc" in rule for rule in live_rules(ledger))


@pytest.mark.parametrize(
    ("rule", "later"),
    [
        ("Make sure the firmware image stays under 2 MB.", "ditch make and use ninja"),
        ("HTTP requests must time out after 10 seconds.", "drop requests and use httpx"),
        ("Mock all external HTTP calls in tests.", "drop mock and use pytest-mock"),
        ("Use pandas for all dataframe work.", "for the nightly ETL, drop pandas and use polars"),
        ("Session timeout is 30 minutes.", "re sessions, refresh the token every 5 minutes"),
        ("Sensors report every 10 seconds.", "as for the sensors, flag them after 60 seconds"),
    ],
)
def test_a_word_the_rule_uses_otherwise_or_a_setting_of_its_own_changes_nothing(
    rule: str, later: str
) -> None:
    assert _kept(rule, later)


@pytest.mark.parametrize(
    ("rule", "later", "new"),
    [
        (
            "Store state in s3, lock with dynamodb.",
            "drop dynamodb and use the s3 lockfile",
            "drop dynamodb and use the s3 lockfile",
        ),
        (
            "Use mTLS everywhere.",
            "mTLS is no longer needed for the metrics scrape, only for the APIs",
            "mTLS is no longer needed for the metrics scrape, only for the APIs",
        ),
    ],
)
def test_what_replaces_or_what_stays_is_kept_as_current(rule: str, later: str, new: str) -> None:
    rules = live_rules(ledger_of_said(START, rule, later))
    assert new in rules and rule not in rules


@pytest.mark.parametrize(
    ("rule", "later"),
    [
        ("Never log PII from the tickets.", "drop the PII redaction, the data is synthetic now"),
        ("Run clippy pedantic on CI.", "forget the clippy lint, it's too noisy"),
        ("Send crash reports to sentry cloud.", "drop the sentry integration, we use bugsnag"),
        ("Ship the calendar behind a feature flag.", "can't hurt to drop the feature flag now"),
    ],
)
def test_a_take_back_of_a_rules_mechanism_ends_the_rule(rule: str, later: str) -> None:
    assert not _kept(rule, later)


@pytest.mark.parametrize(
    ("rule", "later"),
    [
        ("Tokens expire after 15 minutes.", "Expired carts are purged after 7 days."),
        ("Rotate logs every 7 days.", "Keep rotated archives for 90 days."),
        ("Max upload 50 MB.", "Uploaded images over 10 MB get resized."),
    ],
)
def test_a_word_of_another_form_is_no_shared_subject(rule: str, later: str) -> None:
    assert _kept(rule, later)


def test_a_clause_pointing_back_at_a_changed_value_goes_with_it() -> None:
    rules = live_rules(ledger_of_said(START, "minSdk 24, keep it that way.", "bump minSdk to 26."))
    assert not any("keep it that way" in rule for rule in rules)


def test_a_name_two_rules_use_is_dropped_from_neither() -> None:
    ledger = ledger_of_said(
        START,
        "Send alerts via email.",
        "Send invoices to guests via email.",
        "drop email, use slack.",
    )
    assert {"Send alerts via email.", "Send invoices to guests via email."} <= live_rules(ledger)


@pytest.mark.parametrize(
    ("rule", "later"),
    [
        ("the reverb tail defaults to 2 seconds.", "on the reverb, use 20ms predelay by default"),
        ("the lidar scans at 10 Hz.", "re the lidar, use 15 Hz for the mapping runs"),
        ("Build images with docker and push them to harbor.", "drop docker, use podman"),
    ],
)
def test_a_topic_value_of_its_own_key_and_a_request_stay(rule: str, later: str) -> None:
    assert _kept(rule, later)


def test_dropping_what_a_rule_requires_ends_the_requirement() -> None:
    rule = "don't ship a release without release notes in all 5 languages."
    assert not _kept(rule, "drop the release notes, nobody reads them")
