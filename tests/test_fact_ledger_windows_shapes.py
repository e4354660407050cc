"""Identifier shapes an earlier recogniser cut or missed: Windows paths (a drive, an
environment variable, a registry hive or a share, with "Program Files" inside), an AWS
resource name whole, a path under an environment variable with its ``$``, and a one-dash
flag said in prose without the verb before it taken for a program."""

from __future__ import annotations

import pytest

from tether.builtin_plugins.memory.fact_ledger.identifiers import identifiers

CASES = [
    (
        r"the agent keeps its state under HKCU\Software\Northwind\Sync now",
        r"HKCU\Software\Northwind\Sync",
    ),
    (
        r"crash dumps land in %LOCALAPPDATA%\Northwind\dumps, please check",
        r"%LOCALAPPDATA%\Northwind\dumps",
    ),
    (r"install it to D:\Tools\Northwind\bin and nowhere else", r"D:\Tools\Northwind\bin"),
    (
        r"the old one sits in C:\Program Files (x86)\Northwind\Sync\ on the kiosks",
        "C:\\Program Files (x86)\\Northwind\\Sync\\",
    ),
    (r"nightly builds go to \\buildsrv02\drops\sync from now on", r"\\buildsrv02\drops\sync"),
    ("set %NW_HOME% before the service starts", "%NW_HOME%"),
    (
        "the deploy role is arn:aws:iam::210987654321:role/sync-deployer, not the admin one",
        "arn:aws:iam::210987654321:role/sync-deployer",
    ),
    ("grant it arn:aws:s3:::nw-sync-artifacts/* only", "arn:aws:s3:::nw-sync-artifacts/*"),
    ("cache goes in $XDG_CACHE_HOME/northwind for the CLI", "$XDG_CACHE_HOME/northwind"),
    ("the log file is ${STATE_DIR}/sync/agent.log on Linux", "${STATE_DIR}/sync/agent.log"),
]


@pytest.mark.parametrize(("sentence", "identifier"), CASES)
def test_the_identifier_is_found_whole(sentence: str, identifier: str) -> None:
    assert identifier in [text for text, _subject in identifiers(sentence)]


def test_a_flag_in_prose_is_no_command_of_the_verb_before_it() -> None:
    found = [text for text, _subject in identifiers("we also have -Xss4m left over from then")]
    assert not any(text.startswith("have") for text in found), found


def test_percent_figures_and_prose_stay_out() -> None:
    assert list(identifiers("about 40% of users, maybe 60% later, on the C drive")) == []
