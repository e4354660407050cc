"""File-level safety of session files, with real processes (issue 7, items 3, 4, 5, 9, 14):
symlinks written through, a UTF-8 BOM, leftovers of crashes and full disks, FIFOs/devices and
locks held by others, private modes whatever the umask."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from tests.cli_in_process import run_in_process
from tests.lease_helpers import read_until
from tests.safety_helpers import (
    dead_pid,
    hold_lock,
    mode_of,
    one_error_line,
    run_limited,
    tether_env,
)
from tests.store_helpers import GEN, copy_fixture, golden

BOM = b"\xef\xbb\xbf"
EARLY = "f72f2bb8"  # an entry of g01-tiny-linear before its leaf: branching there appends


def _branch(
    path: Path,
    home: Path,
    *,
    fsize: int | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 60,
) -> subprocess.CompletedProcess[str]:
    args = ("session", "branch", str(path), "--to", EARLY)
    return run_limited(*args, home=home, fsize=fsize, env=env, timeout=timeout)


def _here(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    """``tether ARGS`` in this process (tests/cli_in_process.py), for the reads and repairs
    whose file handling the real processes of each test already show."""
    return run_in_process(*args, home=home, cwd=home)


# ---- item 3: symlinks ------------------------------------------------------------------------


def test_migration_and_repair_through_a_symlink_write_the_target(tmp_path: Path) -> None:
    real, links = tmp_path / "real", tmp_path / "links"
    real.mkdir()
    links.mkdir()
    target = real / "legacy.jsonl"
    shutil.copyfile(GEN / "e35-legacy-v1.jsonl", target)
    link = links / "legacy.jsonl"
    link.symlink_to(target)
    result = run_limited("run", "--provider", "faux", "--session", str(link), "hi", home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert link.is_symlink() and link.resolve() == target
    assert json.loads(target.read_bytes().split(b"\n", 1)[0])["version"] == 3
    assert json.loads(target.read_bytes().splitlines()[-1])["message"]["provider"] == "faux"
    assert (real / "legacy.jsonl.v1.bak").read_bytes() == (GEN / "e35-legacy-v1.jsonl").read_bytes()
    assert sorted(p.name for p in links.iterdir()) == ["legacy.jsonl"]

    damaged = real / "damaged.jsonl"
    damaged.write_bytes((GEN / "g01-tiny-linear.jsonl").read_bytes() + b'{"type":"mess\n{"x":1}\n')
    link2 = links / "damaged.jsonl"
    link2.symlink_to(damaged)
    repaired = run_limited("session", "repair", str(link2), home=tmp_path)
    assert repaired.returncode == 0, repaired.stderr
    assert link2.is_symlink() and link2.resolve() == damaged
    assert damaged.read_bytes() == (GEN / "g01-tiny-linear.jsonl").read_bytes()
    assert len(list(real.glob("damaged.jsonl.damaged-*"))) == 1
    assert len(list(real.glob("damaged.jsonl.bak-*"))) == 1
    assert sorted(p.name for p in links.iterdir()) == ["damaged.jsonl", "legacy.jsonl"]


def test_fork_and_clone_refuse_a_dangling_symlink_output(tmp_path: Path) -> None:
    source = GEN / "g01-tiny-linear.jsonl"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    link = tmp_path / "out.jsonl"
    link.symlink_to(elsewhere / "planted.jsonl")
    for args, run in (
        (("clone", str(source)), run_limited),
        (("fork", str(source), "--before", "d9bc1d97"), _here),  # the same check, in process
    ):
        line = one_error_line(run("session", *args, "-o", str(link), home=tmp_path))
        assert line == f"tether: error: {link}: already exists; refusing to overwrite"
        assert list(elsewhere.iterdir()) == [] and link.is_symlink()


# ---- item 4: a UTF-8 BOM ---------------------------------------------------------------------


def test_a_bom_file_is_read_like_pi_and_written_to(tmp_path: Path) -> None:
    # pi 0.73.1 (the oracle) reads a file starting with a BOM exactly like the same file
    # without it (its ``content.trim()`` drops U+FEFF) and appends after it: same context.
    path = tmp_path / "bom.jsonl"
    original = (GEN / "g01-tiny-linear.jsonl").read_bytes()
    path.write_bytes(BOM + original)
    context = _here("session", "context", str(path), "--json", home=tmp_path)
    pi = golden("g01-tiny-linear", "context")
    assert json.loads(context.stdout)["messages"] == pi["messages"]
    repair = _here("session", "repair", str(path), home=tmp_path)
    assert repair.stdout.strip() == f"{path}: nothing to repair"
    result = _branch(path, tmp_path)
    assert result.returncode == 0, result.stderr
    data = path.read_bytes()
    assert data.startswith(BOM + original)  # kept, as pi keeps it
    marker = json.loads(data[len(BOM + original) :])
    assert marker["parentId"] == EARLY and marker["customType"] == "tether.leaf"
    shown = _here("session", "show", str(path), home=tmp_path)
    assert "problems:  none" in shown.stdout

    legacy = tmp_path / "legacy.jsonl"  # a v1 file with a BOM: migrated (the BOM kept in .bak)
    legacy.write_bytes(BOM + (GEN / "e35-legacy-v1.jsonl").read_bytes())
    ran = run_limited("run", "--provider", "faux", "--session", str(legacy), "hi", home=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(legacy.read_bytes().split(b"\n", 1)[0])["version"] == 3
    assert (tmp_path / "legacy.jsonl.v1.bak").read_bytes().startswith(BOM)


def test_a_file_read_with_lines_before_its_header_is_also_written_to(tmp_path: Path) -> None:
    # pi skips blank and malformed lines before the header (and so does every tether reader);
    # the writer must find the header where the readers do, or the file is read-only forever.
    original = (GEN / "g01-tiny-linear.jsonl").read_bytes()
    for name, lead in (("blank", b"\n  \n"), ("broken", b'{"type":"sess\n')):
        path = tmp_path / f"{name}.jsonl"
        path.write_bytes(lead + original)
        result = _branch(path, tmp_path)
        assert result.returncode == 0, result.stderr
        assert path.read_bytes().startswith(lead + original)
        assert b"tether.leaf" in path.read_bytes()[len(lead + original) :]


# ---- item 5: leftovers -----------------------------------------------------------------------


def test_a_stale_temp_file_is_reported_then_removed_at_the_next_write(tmp_path: Path) -> None:
    path = copy_fixture("g01-tiny-linear.jsonl", tmp_path)
    stale = tmp_path / f"{path.name}.tmp-{dead_pid()}"
    stale.write_bytes(b"half a rewrite")
    live = tmp_path / f"{path.name}.tmp-{os.getpid()}"  # a rewrite still running: left alone
    live.write_bytes(b"in progress")
    shown = run_limited("session", "show", str(path), home=tmp_path)
    assert f"note:      {stale.name}: temp file left by a crashed rewrite" in shown.stdout
    assert f"note:      {live.name}: temp file of a rewrite in progress" in shown.stdout
    assert stale.exists()  # showing changes nothing

    odd = tmp_path / f"{path.name}.tmp-\u00b2"  # not a process number ("²" is a digit to Python)
    odd.write_bytes(b"?")
    shown = _here("session", "show", str(path), home=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert f"{odd.name}: named like a temp file, without a process number; left alone" in (
        shown.stdout
    )

    legacy = tmp_path / "legacy.jsonl"  # a migration killed while writing its backup
    shutil.copyfile(GEN / "e35-legacy-v1.jsonl", legacy)
    Path(f"{legacy}.v1.bak").write_bytes(legacy.read_bytes()[:1000])
    shown = _here("session", "show", str(legacy), home=tmp_path)
    assert "note:      legacy.jsonl.v1.bak: partial backup of an interrupted migration" in (
        shown.stdout
    )
    result = _branch(path, tmp_path)
    assert result.returncode == 0
    assert not stale.exists() and live.exists() and odd.exists()  # not ours: left alone
    assert f"{stale}: removed a temp file left by a crashed rewrite" in result.stderr


def test_a_failed_backup_write_leaves_no_partial_backup(tmp_path: Path) -> None:
    path = tmp_path / "legacy.jsonl"
    shutil.copyfile(GEN / "e35-legacy-v1.jsonl", path)
    before = path.read_bytes()
    limit = len(before) // 2  # the backup cannot be written in full
    result = run_limited(
        "run", "--provider", "faux", "--session", str(path), "hi", home=tmp_path, fsize=limit
    )
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["legacy.jsonl"]
    assert path.read_bytes() == before
    line = one_error_line(result)
    assert line == f"tether: error: {path}.v1.bak: cannot write the backup: File too large"
    # the backup fits but the migrated file (longer: ids added) does not: neither stays
    result = run_limited(
        "run", "--provider", "faux", "--session", str(path), "hi", home=tmp_path, fsize=len(before)
    )
    assert one_error_line(result) == f"tether: error: {path}: cannot rewrite: File too large"
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["legacy.jsonl"]
    assert path.read_bytes() == before


def test_a_failed_append_is_truncated_back(tmp_path: Path) -> None:
    path = copy_fixture("g01-tiny-linear.jsonl", tmp_path)
    before = path.read_bytes()
    result = _branch(path, tmp_path, fsize=len(before) + 20)  # 20 bytes of the line fit
    line = one_error_line(result)
    assert line == f"tether: error: {path}: cannot append: File too large"
    assert path.read_bytes() == before  # no torn line left for the next writer
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == [path.name]


def test_repair_on_a_full_disk_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    path = copy_fixture("g01-tiny-linear.jsonl", tmp_path)
    path.write_bytes(path.read_bytes() + b'{"type":"mess\n')
    before = path.read_bytes()
    result = run_limited("session", "repair", str(path), home=tmp_path, fsize=len(before) // 2)
    line = one_error_line(result)
    assert line.startswith(f"tether: error: {path}.bak-") and line.endswith(
        ": cannot write the backup: File too large"
    )
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == [path.name]


# ---- item 9: FIFOs, devices, locks ------------------------------------------------------------


def test_a_fifo_or_a_device_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    commands = [
        ("session", "show", str(fifo)),
        ("session", "context", str(fifo)),
        ("session", "repair", str(fifo)),
        ("run", "--provider", "faux", "--session", str(fifo), "hi"),
        ("session", "show", "/dev/zero"),
    ]
    for args in commands:
        start = time.monotonic()
        line = one_error_line(run_limited(*args, home=tmp_path, timeout=20))
        assert time.monotonic() - start < 10
        where = "/dev/zero" if "/dev/zero" in args else str(fifo)
        kind = "a character device" if where == "/dev/zero" else "a FIFO"
        assert line == (
            f"tether: error: {where}: is {kind}, not a regular session file; refusing to use it"
        )


def test_a_lock_held_by_another_process_is_waited_for_then_an_error(tmp_path: Path) -> None:
    path = copy_fixture("g01-tiny-linear.jsonl", tmp_path)
    before = path.read_bytes()
    holder = hold_lock(path, 60)
    try:
        start = time.monotonic()
        result = _branch(path, tmp_path, env={"TETHER_LOCK_TIMEOUT": "0.5"}, timeout=30)
        assert time.monotonic() - start < 20
        line = one_error_line(result)
        assert f"waiting for the lock on {path} held by pid {holder.pid}" in result.stderr
        assert line.startswith(f"tether: error: {path}: still locked by pid {holder.pid}")
        assert "after 0.5 s; nothing written" in line
        assert path.read_bytes() == before
    finally:
        holder.kill()
        holder.wait()


def test_a_lock_released_in_time_is_waited_for(tmp_path: Path) -> None:
    path = copy_fixture("g01-tiny-linear.jsonl", tmp_path)
    holder = hold_lock(path, 60)  # until the waiter says that it waits
    try:
        waiter = subprocess.Popen(
            [sys.executable, "-m", "tether", "session", "branch", str(path), "--to", EARLY],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
            env=tether_env(tmp_path, {"TETHER_LOCK_TIMEOUT": "30"}),
        )
        said = read_until(waiter.stderr, "waiting for the lock")
        assert waiter.poll() is None, said
    finally:
        holder.kill()
        holder.wait()
    out, err = waiter.communicate(timeout=30)
    assert waiter.returncode == 0, said + err
    assert f"waiting for the lock on {path} held by pid {holder.pid}" in said
    assert b"tether.leaf" in path.read_bytes()


# ---- item 14: private files and folders --------------------------------------------------------


def test_sessions_are_private_whatever_the_umask(tmp_path: Path) -> None:
    for umask in (0o000, 0o022):
        home = tmp_path / f"home-{umask:o}"
        project = tmp_path / f"project-{umask:o}"
        project.mkdir()
        ran = run_limited("run", "--provider", "faux", "hi", home=home, umask=umask, cwd=project)
        assert ran.returncode == 0, ran.stderr
        (session,) = (home / "sessions").rglob("*.jsonl")
        assert mode_of(session) == 0o600
        assert mode_of(session.parent) == 0o700 and mode_of(home / "sessions") == 0o700
        out = tmp_path / f"out-{umask:o}"
        for args in (
            ("clone", str(session), "-o", str(out / "clone.jsonl")),
            ("export", str(session), "-o", str(out / "export.jsonl")),
        ):
            made = run_limited("session", *args, home=home, umask=umask)
            assert made.returncode == 0, made.stderr
        assert mode_of(out) == 0o700
        assert [mode_of(p) for p in sorted(out.iterdir())] == [0o600, 0o600]

        legacy = tmp_path / f"legacy-{umask:o}.jsonl"  # pi made it 0644: the rewrite tightens
        shutil.copyfile(GEN / "e35-legacy-v1.jsonl", legacy)
        legacy.chmod(0o644)
        ran = run_limited("run", "--provider", "faux", "--session", str(legacy), "hi", home=home)
        assert ran.returncode == 0, ran.stderr
        assert mode_of(legacy) == 0o600 and mode_of(Path(f"{legacy}.v1.bak")) == 0o600

        damaged = tmp_path / f"damaged-{umask:o}.jsonl"
        damaged.write_bytes((GEN / "g01-tiny-linear.jsonl").read_bytes() + b"{bad\n{bad")
        fixed = run_limited("session", "repair", str(damaged), home=home, umask=umask)
        assert fixed.returncode == 0, fixed.stderr
        sidecars = list(tmp_path.glob(f"damaged-{umask:o}.jsonl.*"))
        assert len(sidecars) == 2 and {mode_of(p) for p in sidecars} == {0o600}
        assert mode_of(damaged) == 0o600
