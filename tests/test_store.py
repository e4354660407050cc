"""The JSONL store: lazy persistence, byte-exact appends, torn tails, headers, migration, fsync."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.store_helpers import (
    GEN,
    STORE_PI,
    assistant_message,
    copy_fixture,
    golden,
    lines_of,
    user_message,
)
from tether.builtin_plugins.commands.session.tree_json import tree_json
from tether.builtin_plugins.storage.format import stringify as fmt
from tether.builtin_plugins.storage.jsonl.store import JsonlStore
from tether.core.base.errors import SessionFileError
from tether.core.session.session import Session


def test_file_appears_with_the_first_assistant_message(tmp_path: Path) -> None:
    session = Session.create("/proj", tmp_path / "sessions")
    session.append_model_change("fake", "fake-a")
    session.append_thinking_level_change("high")
    session.append_message(user_message("hello"))
    assert session.file is not None and not session.file.exists()
    session.append_message(assistant_message("hi"))
    lines = lines_of(session.file)
    assert len(lines) == 5
    assert json.loads(lines[0]) == session.header
    assert [json.loads(line) for line in lines[1:]] == session.entries()
    assert [line.decode() for line in lines[1:]] == [fmt.dumps_record(e) for e in session.entries()]
    session.append_message(user_message("more"))
    assert len(lines_of(session.file)) == 6
    assert session.file.name.endswith(f"_{session.session_id}.jsonl")
    assert session.file.parent == tmp_path / "sessions"


def test_no_second_header_after_a_header_only_file(tmp_path: Path) -> None:
    # pi §13.1 #1: an empty file gets a header, then the first assistant re-writes everything
    pi_lines = lines_of(STORE_PI / "dup-header-pi.jsonl")
    assert sum(json.loads(line)["type"] == "session" for line in pi_lines) == 2  # pi's bug
    path = tmp_path / "dup.jsonl"
    path.write_bytes(b"")
    session = Session.open(path)
    session.append_message(user_message("hello"))
    session.append_message(assistant_message("hi there"))
    ours = [json.loads(line) for line in lines_of(path)]
    assert [r["type"] for r in ours] == ["session", "message", "message"]  # tether: one header
    assert [r["type"] for r in ours] == [json.loads(x)["type"] for x in pi_lines[1:]]


def test_nothing_is_written_twice_after_a_failed_write(tmp_path: Path) -> None:
    class FlakyStore(JsonlStore):
        fail = True

        def append(self, records, *, header, header_written=False):  # type: ignore[no-untyped-def]
            if self.fail:
                self.fail = False
                raise SessionFileError("disk full (simulated)")
            super().append(records, header=header, header_written=header_written)

    store = FlakyStore(tmp_path / "s.jsonl")
    session = Session(store=store, cwd="/proj")
    session.append_message(user_message("q"))
    with pytest.raises(SessionFileError):
        session.append_message(assistant_message("a"))
    assert not store.path.exists() and session.persisted_count == 0
    session.append_message(user_message("q2"))
    ids = [json.loads(line).get("id") for line in lines_of(store.path)]
    assert ids[1:] == [e["id"] for e in session.entries()] and len(set(ids[1:])) == 3


def test_appending_leaves_the_existing_bytes_identical(tmp_path: Path) -> None:
    path = copy_fixture("g28-mixed-small.jsonl", tmp_path)
    original = path.read_bytes()
    session = Session.open(path)
    session.append_message(user_message("continue"))
    session.append_message(assistant_message("sure"))
    data = path.read_bytes()
    assert data.startswith(original)
    added = data[len(original) :].splitlines()
    assert [json.loads(line)["id"] for line in added] == session.branch_ids()[-2:]


def test_a_torn_last_line_is_set_aside_not_glued(tmp_path: Path) -> None:
    path = copy_fixture("g02-linear-text.jsonl", tmp_path)
    complete = path.read_bytes()
    torn = b'{"type":"message","id":"deadbeef","parentId":"x","timestamp":"2025-01'
    path.write_bytes(complete + torn)
    warnings: list[str] = []
    session = Session.open(path, store=JsonlStore(path, on_warning=warnings.append))
    problem = session.problems[-1]
    assert problem.kind == "torn" and problem.line == complete.count(b"\n") + 1
    session.append_message(user_message("after the crash"))
    session.append_message(assistant_message("ok"))
    sidecars = list(tmp_path.glob("g02-linear-text.jsonl.torn-*"))
    assert len(sidecars) == 1 and sidecars[0].read_bytes() == torn
    assert warnings and "torn" in warnings[0]
    data = path.read_bytes()
    assert data.startswith(complete) and torn not in data
    reloaded = Session.open(path)
    assert reloaded.problems == []
    assert reloaded.branch_ids() == session.branch_ids()


def test_a_valid_last_line_without_newline_gets_one(tmp_path: Path) -> None:
    path = copy_fixture("g01-tiny-linear.jsonl", tmp_path)
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    session = Session.open(path)
    assert [p.kind for p in session.problems] == ["unterminated"]
    last = session.leaf_id
    session.append_message(user_message("next"))
    reloaded = Session.open(path)
    assert reloaded.problems == [] and last in reloaded.branch_ids()
    assert len(reloaded) == len(session)


def test_a_bad_first_line_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    body = b'{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{}}\n'
    path.write_bytes(body)
    with pytest.raises(SessionFileError) as info:
        Session.open(path)
    assert str(info.value) == (
        f'{path}:1: not a tether/pi session header ("type" is "message", expected "session")'
    )
    header = fmt.make_header("/p")
    with pytest.raises(SessionFileError, match="refusing to append"):
        JsonlStore(path).append([fmt.make_label("b", None, "a")], header=header)
    assert path.read_bytes() == body


def test_appending_into_another_sessions_file_is_refused(tmp_path: Path) -> None:
    path = copy_fixture("g01-tiny-linear.jsonl", tmp_path)
    before = path.read_bytes()
    with pytest.raises(SessionFileError, match="belongs to session"):
        JsonlStore(path).append([fmt.make_label("b", None, "a")], header=fmt.make_header("/p"))
    assert path.read_bytes() == before


def test_malformed_lines_are_reported_with_line_numbers() -> None:
    path = GEN / "e37-malformed-lines.jsonl"
    session = Session.open(path, readonly=True)
    bad = [
        i
        for i, line in enumerate(path.read_bytes().split(b"\n"), 1)
        if line.strip() and not _is_json(line)
    ]
    assert [p.line for p in session.problems] == bad
    expected = golden("e37-malformed-lines", "context")
    context = session.build_context()
    assert context.messages == expected["messages"]


def _is_json(line: bytes) -> bool:
    try:
        json.loads(line)
    except ValueError:
        return False
    return True


def test_a_line_broken_after_a_good_prefix_is_skipped_like_pi(tmp_path: Path) -> None:
    path = copy_fixture("g02-linear-text.jsonl", tmp_path)
    lines = path.read_bytes().split(b"\n")
    victim = json.loads(lines[5])
    # a raw control character inside a string: invalid JSON, but the prefix looks fine
    lines[5] = lines[5].replace(b'"text":"', b'"text":"\x01', 1)
    path.write_bytes(b"\n".join(lines))
    session = Session.open(path, readonly=True)
    entries = session.get_branch()  # parsing finds the broken line; the walk stops below it
    branch = session.branch_ids()
    assert [e["id"] for e in entries] == branch
    assert victim["id"] not in branch
    assert session.get_entry(victim["id"]) is None
    assert any(p.line == 6 and p.kind == "malformed" for p in session.problems)
    assert len(session.build_context().messages) == len(branch)


def test_a_glued_line_is_skipped_like_pi(tmp_path: Path) -> None:
    path = copy_fixture("g02-linear-text.jsonl", tmp_path)
    lines = path.read_bytes().split(b"\n")
    glued = json.loads(lines[7])
    lines[6] = lines[6][:120] + lines[7]  # a torn write with the next record appended to it
    del lines[7]
    path.write_bytes(b"\n".join(lines))
    session = Session.open(path, readonly=True)
    assert any(p.line == 7 for p in session.problems)
    assert not session.has_entry(glued["id"])
    assert glued["id"] not in tree_json(session)["preorder"]


def test_v1_migration_rewrites_atomically_on_first_write_with_a_backup(tmp_path: Path) -> None:
    path = copy_fixture("e35-legacy-v1.jsonl", tmp_path)
    original = path.read_bytes()
    session = Session.open(path)
    assert session.migrated and path.read_bytes() == original  # opening never writes
    ids = [e["id"] for e in session.entries()]
    assert len(set(ids)) == len(ids)
    session.append_message(user_message("after migration"))
    session.append_message(assistant_message("ok"))
    backup = tmp_path / "e35-legacy-v1.jsonl.v1.bak"
    assert backup.read_bytes() == original
    new_lines = path.read_bytes().split(b"\n")
    old_lines = [line for line in original.split(b"\n") if line.strip()]
    header = json.loads(new_lines[0])
    assert list(header)[-1] == "version" and header["version"] == 3
    assert new_lines[0].startswith(old_lines[0][:-1])  # keys kept, version appended
    for old, new in zip(old_lines[1:], new_lines[1 : len(old_lines)], strict=True):
        record = json.loads(old)
        if "firstKeptEntryIndex" in record:
            migrated = json.loads(new)
            assert "firstKeptEntryIndex" not in migrated
            assert migrated["firstKeptEntryId"] == ids[record["firstKeptEntryIndex"] - 1]
            continue
        assert new.startswith(old[:-1] + b',"id":"')  # original bytes, keys spliced at the end
        assert list(json.loads(new))[-2:] == ["id", "parentId"]
    assert Session.open(path).branch_ids()[: len(ids)] == ids


def test_v2_migration_keeps_untouched_lines_byte_identical(tmp_path: Path) -> None:
    path = copy_fixture("e36-legacy-v2-hookmessage.jsonl", tmp_path)
    original = path.read_bytes().split(b"\n")
    session = Session.open(path)
    session.append_message(assistant_message("continue"))
    new = path.read_bytes().split(b"\n")
    count = len([line for line in original if line])
    changed = [i for i in range(count) if original[i] != new[i]]
    hook = [i for i, line in enumerate(original) if b'"role":"hookMessage"' in line]
    assert changed == [0, *hook] and hook
    for i in hook:
        assert json.loads(new[i])["message"]["role"] == "custom"
        assert new[i] == original[i].replace(b'"role":"hookMessage"', b'"role":"custom"')


def test_readonly_sessions_never_write(tmp_path: Path) -> None:
    path = copy_fixture("e36-legacy-v2-hookmessage.jsonl", tmp_path)
    before = path.read_bytes()
    session = Session.open(path, readonly=True)
    with pytest.raises(Exception, match="read-only"):
        session.append_message(user_message("x"))
    assert path.read_bytes() == before and not list(tmp_path.glob("*.bak"))


def test_fsync_is_on_by_default_and_can_be_turned_off(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    calls: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append(fd), real(fd))[1])
    monkeypatch.delenv("TETHER_FSYNC", raising=False)
    header = fmt.make_header("/p")
    JsonlStore(tmp_path / "a.jsonl").append([fmt.make_label("x", None, "y")], header=header)
    assert calls
    calls.clear()
    monkeypatch.setenv("TETHER_FSYNC", "0")
    JsonlStore(tmp_path / "b.jsonl").append([fmt.make_label("x", None, "y")], header=header)
    assert calls == []
    monkeypatch.delenv("TETHER_FSYNC")
    JsonlStore(tmp_path / "c.jsonl", fsync=False).append([], header=header)
    assert calls == [] and (tmp_path / "c.jsonl").read_bytes() == fmt.dumps_line(header)


def test_an_append_follows_a_file_replaced_by_an_atomic_rewrite(tmp_path: Path) -> None:
    path = copy_fixture("g01-tiny-linear.jsonl", tmp_path)
    session = Session.open(path)
    other = JsonlStore(path)
    other.rewrite(path.read_bytes(), backup_suffix=".bak")  # a new inode now holds the file
    session.append_message(assistant_message("still lands in the file"))
    assert b"still lands in the file" in path.read_bytes()
    assert b"still lands in the file" not in (tmp_path / "g01-tiny-linear.jsonl.bak").read_bytes()


def test_the_open_store_plugin_answers_for_paths(tmp_path: Path) -> None:
    from tether.core.base.settings import load_settings
    from tether.core.hooks.facade import Hooks
    from tether.core.host.manager import create_plugin_manager

    hooks = Hooks(create_plugin_manager())
    settings = load_settings(tmp_path, home=tmp_path, overrides={"session": {"fsync": False}})
    store = hooks.open_store(str(tmp_path / "s.jsonl"), settings)
    assert isinstance(store, JsonlStore) and store.fsync is False
    assert hooks.open_store(f"file://{tmp_path}/t.jsonl", settings).path == tmp_path / "t.jsonl"
    assert hooks.open_store("mysql://x/db", settings) is None  # no plugin for it
    database = hooks.open_store(f"sqlite:///{tmp_path}/x.db", settings)  # the sqlite plugin
    assert type(database).__name__ == "SqliteDatabase"
    session = Session.from_store(store, cwd="/proj")
    session.append_message(assistant_message("via the hook"))
    assert Session.open(tmp_path / "s.jsonl").entries()[0]["message"]["role"] == "assistant"


def test_a_line_found_broken_later_does_not_confuse_what_is_on_disk(tmp_path: Path) -> None:
    path = copy_fixture("g02-linear-text.jsonl", tmp_path)
    lines = path.read_bytes().split(b"\n")
    lines[3] = lines[3].replace(b'"text":"', b'"text":"\x01', 1)  # found only when parsed
    path.write_bytes(b"\n".join(lines))
    session = Session.open(path)
    session.get_branch()  # parsing drops the broken row
    assert any(p.line == 4 for p in session.problems)
    new_id = session.append_message(assistant_message("after the drop"))
    assert json.loads(path.read_bytes().split(b"\n")[-2])["id"] == new_id


def test_a_file_removed_behind_the_sessions_back_is_not_half_rewritten(tmp_path: Path) -> None:
    path = copy_fixture("g01-tiny-linear.jsonl", tmp_path)
    session = Session.open(path)
    path.unlink()
    with pytest.raises(SessionFileError, match="cannot open for writing"):
        session.append_message(assistant_message("x"))
    assert not path.exists()
    path.write_bytes(b"")
    with pytest.raises(SessionFileError, match="emptied or removed"):
        session.append_message(assistant_message("y"))
    assert path.read_bytes() == b""
