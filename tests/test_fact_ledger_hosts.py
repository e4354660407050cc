"""Where a service lives, moved (issue 23, item 2): a host, an IP address, a bucket or a file
given anew retires the old one though the change names the service in other words; locations
of two services, or of two parts, both stay."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules
from tether.builtin_plugins.memory.fact_ledger.hosts import locations


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The database server is pg-old-3.lan.", "aim MySQL at 172.16.4.9 from today"),
        ("Our queue broker runs on mq-a.internal:5672.", "kafka sits on 10.1.1.7:9092 now"),
        ("Exports land in gs://exports-legacy.", "the exports bucket is gs://exports-v2 now"),
        ("缓存服务器是 cache-7.corp。", "redis 迁到 192.168.3.30 了"),
        ("Secrets live in deploy/vault.yml.", "they moved it, vault is now at ops/prod/vault.yml"),
        ("The creds are in secrets/prod.env.", "creds file is at config/secrets.env now"),
    ],
)  # fmt: skip
def test_a_location_or_a_file_moved_retires_the_old_one(old: str, new: str) -> None:
    ledger = ledger_of_said("Get the reporting job running again.", old, new)
    assert old not in live_rules(ledger)
    assert new in live_rules(ledger)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The database is pg-main.internal.", "The cache is redis-1.internal."),
        ("Staging DB is pg-stg.internal.", "Prod DB is pg-prod.internal."),
        ("Logs ship to s3://app-logs.", "Backups go to gs://app-backups."),
        ("Config lives in config/app.toml.", "Secrets live in config/secrets.toml now."),
        ("Staging values are in deploy/staging/values.yaml.", "Prod uses deploy/prod/values.yaml."),
    ],
)  # fmt: skip
def test_locations_or_files_of_two_things_both_stay(first: str, second: str) -> None:
    ledger = ledger_of_said("Get the reporting job running again.", first, second)
    assert {first, second} <= live_rules(ledger)


def test_a_module_or_a_file_is_no_location() -> None:
    said = "use os.path and node.js, settings in vault.yml, version 1.2.3"
    assert locations(said) == []
    assert locations("db at 10.0.0.5:5432 and api.example.com") == [
        ("host", "10.0.0.5"),
        ("host", "api.example.com"),
    ]
