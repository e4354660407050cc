"""``sqlite://`` URIs read as SQLAlchemy reads them, and a reading command never creates a
database (issue 22, item 12); an empty listing says what ``--all`` would list (item 13).

- ``sqlite:///rel.db`` is relative to the current folder, ``sqlite:////abs.db`` absolute;
- ``sessions``/``session show`` of a database that is not there say "no such database" and
  create nothing (no file, no ``-wal``/``-shm``); the first write creates it;
- ``?mode=ro`` reads and never writes, ``?mode=rw`` never creates; other options are refused;
- where the old reading (``sqlite:///X`` as ``/X``) names an existing database, the error says
  how to write it.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

from tests.store_backends import DATABASES, make_backend
from tests.store_helpers import GEN, run_tether
from tether.builtin_plugins.storage.sqlite.database import SqliteDatabase, database_path
from tether.core.base.errors import SessionFileError
from tether.storage import StoreError

SAMPLES = [GEN / "g02-linear-text.jsonl", GEN / "g09-bash-exec.jsonl"]  # cwd /tmp/测试, /srv/repo


def _filled(path: Path) -> SqliteDatabase:
    database = SqliteDatabase(f"sqlite:///{path}")
    for sample in SAMPLES:
        database.import_session(sample.read_bytes(), str(sample))
    return database


def test_three_slashes_are_relative_and_four_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert database_path("sqlite:///rel.db") == tmp_path / "rel.db"
    assert database_path("sqlite:///srv/s.db") == tmp_path / "srv" / "s.db"
    assert database_path("sqlite:////srv/s.db") == Path("/srv/s.db")
    assert database_path("sqlite:///~/s.db") == tmp_path / "home" / "s.db"
    assert database_path("sqlite:///rel.db?mode=ro") == tmp_path / "rel.db"


def test_reading_a_missing_database_creates_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    database = SqliteDatabase("sqlite:///rel.db")
    assert database.list_sessions() == [] and database.count("x") is None
    assert database.read("x") is None and database.read_index("x") is None
    with pytest.raises(StoreError, match=f"^sqlite:///rel.db: no such database {tmp_path}/rel.db$"):
        database.resolve("01")
    assert os.listdir(tmp_path) == []
    database.import_session(SAMPLES[0].read_bytes(), "g02")  # the first write makes it
    assert [r.id[:8] for r in database.list_sessions()] == ["bc688778"]


def test_mode_ro_reads_and_never_writes_and_mode_rw_never_creates(tmp_path: Path) -> None:
    _filled(tmp_path / "s.db").close()
    before = (tmp_path / "s.db").read_bytes()
    readonly = SqliteDatabase(f"sqlite:///{tmp_path}/s.db?mode=ro")
    assert len(readonly.list_sessions()) == 2
    with pytest.raises(SessionFileError, match=r"cannot save the session: read-only \(\?mode=ro\)"):
        readonly.lease("bc688778-2b49-7044-a5e3-41245c6e4337")
    with pytest.raises(SessionFileError, match=r"read-only \(\?mode=ro\)"):
        readonly.import_session(SAMPLES[0].read_bytes().replace(b"bc68", b"ffff"), "copy")
    readonly.close()
    assert (tmp_path / "s.db").read_bytes() == before
    refusals = {"ro": r"read-only \(\?mode=ro\)", "rw": r"none.db \(\?mode=rw never creates one\)"}
    for mode, refusal in refusals.items():
        missing = SqliteDatabase(f"sqlite:///{tmp_path}/none.db?mode={mode}")
        with pytest.raises(SessionFileError, match=refusal):
            missing.import_session(SAMPLES[0].read_bytes(), "g02")
        with pytest.raises(SessionFileError, match=refusal):
            missing.lease("bc688778")
        assert not list(tmp_path.glob("none.db*"))
    with pytest.raises(StoreError, match=r"unknown option 'cache' \(only \?mode=ro\|rw\|rwc"):
        SqliteDatabase(f"sqlite:///{tmp_path}/s.db?cache=shared")


def test_the_old_absolute_reading_is_named_not_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _filled(tmp_path / "s.db").close()
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / tmp_path.relative_to("/")).mkdir(parents=True)
    monkeypatch.chdir(elsewhere)
    old_style = f"sqlite://{tmp_path}/s.db"  # three slashes: now elsewhere/tmp/…/s.db
    database = SqliteDatabase(old_style)
    advice = f"for {tmp_path}/s.db write sqlite:///{tmp_path}/s.db"
    with pytest.raises(StoreError) as read:
        database.resolve("bc68")
    assert str(read.value).startswith(f"{old_style}: no such database {elsewhere}{tmp_path}/s.db")
    assert str(read.value).endswith(advice)
    with pytest.raises(StoreError, match=f"not creating .* while {tmp_path}/s.db exists") as made:
        database.lease("bc688778")
    assert advice in str(made.value)
    assert not list(elsewhere.rglob("s.db*"))


def test_sessions_of_a_missing_database_is_an_error_and_creates_nothing(tmp_path: Path) -> None:
    name = f"tether-test-{uuid.uuid4().hex}.db"
    done = run_tether("sessions", "--store", f"sqlite:///{name}", cwd=tmp_path)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == f"tether: error: sqlite:///{name}: no such database {tmp_path / name}\n"
    assert not os.path.lexists(f"/{name}") and os.listdir(tmp_path) == []


# -- item 13: an empty listing says what --all lists -------------------------------------------


@pytest.mark.parametrize("store", DATABASES)
def test_an_empty_project_listing_counts_the_other_projects(
    request: pytest.FixtureRequest, tmp_path: Path, capsys: pytest.CaptureFixture[str], store: str
) -> None:
    from tether.builtin_plugins.commands.store.listing import list_stored
    from tether.storage import describe_uri

    backend = make_backend(request, store, tmp_path / store)
    for sample in SAMPLES:
        backend.add(sample)
    database = backend.database()
    list_stored(database, str(tmp_path), None, False)
    assert capsys.readouterr().out == "No sessions of this project; `--all` lists 2.\n"
    list_stored(database, str(tmp_path), "414", False)  # in a message of g09 only
    assert capsys.readouterr().out == "No sessions of this project match '414'; `--all` lists 1.\n"
    list_stored(database, str(tmp_path), "zzzunheardof", False)
    where = describe_uri(database.uri)
    assert capsys.readouterr().out == f"No sessions in {where} match 'zzzunheardof'.\n"
    list_stored(database, "/srv/repo", None, False)
    assert "01a5ba50-ad38-735e-add6-ff552fa73207" in capsys.readouterr().out


def test_sessions_says_what_all_lists_in_a_database_and_in_jsonl_folders(tmp_path: Path) -> None:
    _filled(tmp_path / "s.db").close()
    done = run_tether("sessions", "--store", f"sqlite:///{tmp_path}/s.db", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "No sessions of this project; `--all` lists 2.\n"

    home = tmp_path / "home"
    other = home / "sessions" / "--srv-repo--"
    other.mkdir(parents=True)
    (other / SAMPLES[1].name).write_bytes(SAMPLES[1].read_bytes())
    env = {"TETHER_HOME": str(home), "TETHER_STORE": None}
    done = run_tether("sessions", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("No sessions in ") and done.stdout.endswith(
        "; `--all` lists 1.\n"
    )
