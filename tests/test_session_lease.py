"""One writer per session (design §8.15), with real ``tether`` processes.

Runs last long enough to overlap through a scripted ``faux`` tool call to ``bash sleep``. A
second writer fails at once naming the holder (or waits with ``--wait``), the lease dies with
its process, readers are never blocked, and an append on a file that grew since it was read
is refused instead of splitting the session.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.store_helpers import ROOT, assistant_message
from tether.core.errors import SessionFileError
from tether.core.session import Session

GEN = ROOT / "tests" / "fixtures" / "pi" / "gen"
BUSY = re.compile(
    r"^tether: error: (?P<file>\S+): in use by pid (?P<pid>\d+) \(tether (run|session compact) "
    r"[^\n]*\) since \d\d:\d\d:\d\d; use --wait to wait$"
)


def _env(tmp_path: Path, sleep: float | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("TETHER_DEBUG", None)
    env.update(
        TETHER_HOME=str(tmp_path / "home"),
        TETHER_FSYNC="0",
        TETHER_LOAD_PLUGINS="",
        PYTHONPATH=str(ROOT),
    )
    if sleep is not None:  # one tool call to bash, then an answer: the run spans the sleep
        call = {"name": "bash", "arguments": {"command": f"sleep {sleep}"}}
        env["TETHER_FAUX_SCRIPT"] = json.dumps([{"toolCalls": [call]}, "done"])
    return env


def _start(tmp_path: Path, *args: str, sleep: float | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tether", *args],
        cwd=tmp_path,
        env=_env(tmp_path, sleep),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # the test can kill the holder's bash child too
    )


def _tether(tmp_path: Path, *args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tether", *args],
        cwd=tmp_path,
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def _run_args(file: Path, prompt: str, *extra: str) -> list[str]:
    return ["run", prompt, "--provider", "faux", "--session", str(file), *extra]


def _session_file(tmp_path: Path, fixture: str = "g02-linear-text.jsonl") -> Path:
    (tmp_path / "home").mkdir(exist_ok=True)
    target = tmp_path / "s.jsonl"
    shutil.copyfile(GEN / fixture, target)
    return target


def lock_path(file: Path) -> Path:
    """Where the lease of ``file`` lives: ``<file>.lock`` next to it."""
    return file.with_name(file.name + ".lock")


def _wait_for_holder(file: Path, pid: int, timeout: float = 20) -> None:
    """Until the lock file names ``pid`` as its holder."""
    deadline = time.monotonic() + timeout
    lock = lock_path(file)
    while time.monotonic() < deadline:
        try:
            if json.loads(lock.read_text()).get("pid") == pid:
                return
        except (OSError, ValueError):
            pass
        time.sleep(0.02)
    raise AssertionError(f"pid {pid} never took the lease of {file}")


def _tree(tmp_path: Path, file: Path) -> dict[str, Any]:
    result = _tether(tmp_path, "session", "tree", str(file), "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _context(tmp_path: Path, file: Path) -> dict[str, Any]:
    result = _tether(tmp_path, "session", "context", str(file), "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _user_texts(file: Path, ids: list[str]) -> list[str]:
    """The user prompts among the entries ``ids``, in that order."""
    by_id = {e.get("id"): e for e in map(json.loads, file.read_text().splitlines()[1:])}
    texts = []
    for entry_id in ids:
        message = by_id[entry_id].get("message") or {}
        if message.get("role") == "user":
            content = message.get("content")
            texts.append(content if isinstance(content, str) else content[0]["text"])
    return texts


def _assert_clean(file: Path) -> None:
    records = [json.loads(line) for line in file.read_text().splitlines() if line.strip()]
    assert [r["type"] for r in records].count("session") == 1
    assert records[0]["type"] == "session"
    assert Session.open(file, readonly=True).problems == []


def _descendants(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in map(int, children):
            found += [child, *_descendants(child)]
    return found


def _kill_tree(proc: subprocess.Popen[str]) -> None:
    """SIGKILL ``proc`` and every process it started (the bash tool's ``sleep``)."""
    for pid in [*_descendants(proc.pid), proc.pid]:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.communicate(timeout=30)


def _finish(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err


# -- the race of issue 7: 3 runs + 1 compaction started together, repeated ---------------------


def test_concurrent_writers_never_split_the_session(tmp_path: Path) -> None:
    file = _session_file(tmp_path)
    refusals = 0
    for round_ in range(3):
        before = {json.loads(line)["id"] for line in file.read_text().splitlines()[1:]}
        prompts = [f"round {round_} run {n}" for n in range(3)]
        procs = [_start(tmp_path, *_run_args(file, p), sleep=0.5) for p in prompts]
        compact_args = ["session", "compact", str(file), "--summarizer", "offline", "--keep", "10"]
        procs.append(_start(tmp_path, *compact_args))
        results = [_finish(p) for p in procs]

        tree = _tree(tmp_path, file)
        branch = tree["branch"]
        new = [e["id"] for e in tree["entries"] if e["id"] not in before]
        assert new and set(new) <= set(branch), "an entry was written off the active branch"
        on_branch = _user_texts(file, branch)
        for prompt, (code, out, err) in zip(prompts, results, strict=False):
            if code == 0:
                assert prompt in on_branch and out == "done\n", err
            else:
                assert prompt not in on_branch
                assert len(err.splitlines()) == 1 and BUSY.match(err.strip()), err
                assert BUSY.match(err.strip())["file"] == str(file)
                refusals += 1
        code, out, err = results[3]
        if code == 0 and "compacted into entry" in out:
            entry_id = re.search(r"compacted into entry (\w+)", out)[1]  # type: ignore[index]
            assert entry_id in branch
            roles = [m["role"] for m in _context(tmp_path, file)["messages"]]
            assert roles[0] == "compactionSummary"
        elif code != 0:
            assert BUSY.match(err.strip().splitlines()[-1]), err
            refusals += 1
        _assert_clean(file)
    assert refusals >= 1  # the runs overlap: some of them must have met a holder


# -- waiting ------------------------------------------------------------------------------------


def test_wait_says_so_then_writes_after_the_holder(tmp_path: Path) -> None:
    file = _session_file(tmp_path)
    holder = _start(tmp_path, *_run_args(file, "first"), sleep=0.8)
    try:
        _wait_for_holder(file, holder.pid)
        started = time.monotonic()
        waiter = _tether(tmp_path, *_run_args(file, "second", "--wait"))  # as long as it takes
    finally:
        code = _finish(holder)[0]
    assert code == 0
    assert waiter.returncode == 0, waiter.stderr
    assert waiter.stdout == "You said: second\n"
    assert time.monotonic() - started > 0.2  # it really waited for the holder
    assert f"tether: waiting for {file}, held by pid {holder.pid} (tether run first" in (
        waiter.stderr
    )
    tree = _tree(tmp_path, file)
    assert _user_texts(file, tree["branch"])[-2:] == ["first", "second"]
    _assert_clean(file)
    assert not lock_path(file).exists()  # the last holder removed the lock file


def test_wait_gives_up_at_its_timeout(tmp_path: Path) -> None:
    file = _session_file(tmp_path)
    holder = _start(tmp_path, *_run_args(file, "first"), sleep=3)
    try:
        _wait_for_holder(file, holder.pid)
        before = file.read_bytes()
        result = _tether(tmp_path, "session", "compact", str(file), "--wait", "0.3")
        assert result.returncode == 1
        lines = result.stderr.splitlines()
        assert lines[0].startswith(f"tether: waiting for {file}, held by pid {holder.pid}")
        assert lines[-1].startswith(f"tether: error: {file}: in use by pid {holder.pid}")
        assert lines[-1].endswith("gave up after waiting 0.3 s")
        assert file.read_bytes().startswith(before)
    finally:
        _kill_tree(holder)


# -- the lease dies with its process; readers never wait ----------------------------------------


def test_lease_is_released_when_its_holder_is_killed(tmp_path: Path) -> None:
    file = _session_file(tmp_path)
    holder = _start(tmp_path, *_run_args(file, "doomed"), sleep=30)
    orphans: list[int] = []
    try:
        _wait_for_holder(file, holder.pid)
        deadline = time.monotonic() + 20
        while not (orphans := _descendants(holder.pid)) and time.monotonic() < deadline:
            time.sleep(0.02)  # until the bash tool runs its `sleep`
        assert orphans
        busy = _tether(tmp_path, *_run_args(file, "too early"))
        assert busy.returncode == 1 and BUSY.match(busy.stderr.strip()), busy.stderr
        os.kill(holder.pid, signal.SIGKILL)  # only the holder: its bash child lives on
        holder.communicate(timeout=30)
        after = _tether(tmp_path, *_run_args(file, "after the crash"))
        assert after.returncode == 0, after.stderr
    finally:
        for pid in orphans:  # the `sleep 30` (which must not have inherited the lock)
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if holder.returncode is None:
            _kill_tree(holder)
    tree = _tree(tmp_path, file)
    assert _user_texts(file, tree["branch"])[-1] == "after the crash"
    _assert_clean(file)


def test_readers_are_never_blocked_by_a_lease(tmp_path: Path) -> None:
    file = _session_file(tmp_path)
    holder = _start(tmp_path, *_run_args(file, "holding"), sleep=30)
    try:
        _wait_for_holder(file, holder.pid)
        assert _tether(tmp_path, "session", "compact", str(file)).returncode == 1
        for args in (
            ["session", "show", str(file)],
            ["session", "tree", str(file)],
            ["session", "context", str(file), "--json"],
            ["session", "estimate", str(file)],
            ["session", "prepare", str(file)],
            ["sessions", "--dir", str(tmp_path)],
        ):
            started = time.monotonic()
            result = _tether(tmp_path, *args, timeout=20)
            assert result.returncode == 0, (args, result.stderr)
            assert time.monotonic() - started < 10, args
    finally:
        _kill_tree(holder)


# -- library use: the harness holds the lease --------------------------------------------------


def _lease_elsewhere(file: Path) -> str:
    """Take :class:`SessionLease` in another process, as a library user would; its error or
    ``"ok"``."""
    code = (
        "import sys\nfrom tether.core.lease import SessionLease\n"
        "try:\n    SessionLease(sys.argv[1]).acquire().release()\n"
        "except Exception as exc:\n    print(exc)\nelse:\n    print('ok')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", code, str(file)], capture_output=True, text=True, env=env
    )
    return result.stdout.strip()


def _harness(tmp_path: Path, session: Session, monkeypatch: pytest.MonkeyPatch) -> Any:
    from tests.harness_helpers import plugin_manager, use_home
    from tether.core.harness import Harness
    from tether.core.settings import load_settings

    home = use_home(tmp_path / "home", monkeypatch)
    settings = load_settings(tmp_path, home=home)
    harness = Harness(plugin_manager(), session, settings=settings, model="faux/faux-1")
    return harness.start()


def test_a_harness_holds_the_lease_of_its_session(tmp_path, monkeypatch) -> None:
    file = _session_file(tmp_path)
    harness = _harness(tmp_path, Session.open(file), monkeypatch)
    try:
        other = _tether(tmp_path, "session", "compact", str(file), "--summarizer", "offline")
        assert other.returncode == 1
        assert f"{file}: in use by pid {os.getpid()} (" in other.stderr
        assert _lease_elsewhere(file).startswith(f"{file}: in use by pid {os.getpid()} (")
    finally:
        harness.close()
    assert not lock_path(file).exists()
    compact = ["session", "compact", str(file), "--summarizer", "offline", "--keep", "10"]
    assert _tether(tmp_path, *compact).returncode == 0


def test_a_new_session_is_leased_once_it_has_a_path(tmp_path, monkeypatch) -> None:
    session = Session.create(str(tmp_path), tmp_path / "sessions")
    file = session.file
    assert file is not None and not file.exists()
    harness = _harness(tmp_path, session, monkeypatch)
    try:
        assert _lease_elsewhere(file).startswith(f"{file}: in use by pid {os.getpid()}")
        harness.prompt("hello")
        assert file.exists()
        assert _lease_elsewhere(file).startswith(f"{file}: in use by pid {os.getpid()}")
    finally:
        harness.close()
    assert _lease_elsewhere(file) == "ok"


# -- a writer that ignores the lease: the append is refused, not forked ------------------------


def test_an_append_on_a_file_that_grew_since_it_was_read_is_refused(tmp_path: Path) -> None:
    file = _session_file(tmp_path)
    session = Session.open(file)
    foreign = {"type": "custom", "id": "f0f0f0f0", "parentId": session.leaf_id}
    foreign |= {"timestamp": "2026-01-01T00:00:00.000Z", "customType": "pi.other"}
    with file.open("a") as handle:  # pi (which takes no lease) appended meanwhile
        handle.write(json.dumps(foreign) + "\n")
    grown = file.read_bytes()
    with pytest.raises(SessionFileError) as refused:
        session.append_message(assistant_message("on a stale leaf"))
    assert str(refused.value).startswith(f"{file}: another writer appended 1 entry (")
    assert file.read_bytes() == grown  # nothing written
    reopened = Session.open(file)  # what a writer must do: read again, then append
    reopened.append_message(assistant_message("after reading again"))
    assert reopened.get_branch()[-2]["id"] == "f0f0f0f0"


def test_a_run_refuses_to_write_after_another_writer_appended(tmp_path: Path) -> None:
    file = _session_file(tmp_path)
    line = json.dumps(
        {"type": "custom", "id": "f0f0f0f0", "parentId": None, "customType": "pi.other"}
        | {"timestamp": "2026-01-01T00:00:00.000Z"}
    )
    call = {"name": "bash", "arguments": {"command": f"echo '{line}' >> {file}"}}
    env = _env(tmp_path)
    env["TETHER_FAUX_SCRIPT"] = json.dumps([{"toolCalls": [call]}, "done"])
    result = subprocess.run(
        [sys.executable, "-m", "tether", *_run_args(file, "go")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"tether: error: {file}: another writer appended 1 entry ({len(line) + 1} bytes) since "
        "this process read it; not appending, so the session is not split; reopen the session "
        "to continue"
    ]
    assert file.read_text().endswith(line + "\n")  # the tool result was not forked onto it
    _assert_clean(file)


def test_lease_is_reentrant_in_one_process_and_removes_its_lock_file(tmp_path: Path) -> None:
    from tether.core.lease import SessionLease

    file = tmp_path / "s.jsonl"
    outer = SessionLease(file).acquire()
    inner = SessionLease(file).acquire()
    outer.release()
    assert _lease_elsewhere(file).startswith(f"{file}: in use by pid {os.getpid()}")
    inner.release()
    assert not lock_path(file).exists()
    assert _lease_elsewhere(file) == "ok"


@pytest.mark.parametrize(
    "command",
    [
        ["chat", "--provider", "faux", "--session", "{file}"],
        ["session", "branch", "{file}", "--to", "{first}"],
        ["session", "repair", "{file}"],
    ],
    ids=["chat", "branch", "repair"],
)
def test_every_writing_command_is_refused_or_waits(tmp_path: Path, command: list[str]) -> None:
    from tether.core.lease import SessionLease

    file = _session_file(tmp_path)
    first = json.loads(file.read_text().splitlines()[1])["id"]
    args = [a.format(file=file, first=first) for a in command]
    lease = SessionLease(file, command="the test").acquire()  # held by this process
    try:
        refused = _tether(tmp_path, *args)
        assert refused.returncode == 1
        assert refused.stderr.splitlines()[-1].startswith(
            f"tether: error: {file}: in use by pid {os.getpid()} (the test) since "
        )
        assert refused.stderr.endswith("; use --wait to wait\n")
        waiter = subprocess.Popen(
            [sys.executable, "-m", "tether", *args, "--wait", "20"],
            cwd=tmp_path,
            env=_env(tmp_path),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert waiter.stderr is not None
        announced = waiter.stderr.readline()  # it says so before it waits
        assert announced.startswith(
            f"tether: waiting for {file}, held by pid {os.getpid()} (the test) since "
        )
    finally:
        lease.release()
    _, rest = waiter.communicate("hello\n", timeout=60)
    assert waiter.returncode == 0, rest
    _assert_clean(file)


def test_a_lock_file_removed_between_open_and_lock_is_not_trusted(tmp_path, monkeypatch) -> None:
    """The release/removal race: this process opens the lock file, its holder releases (and
    removes it), a third process creates a new one and locks it; this process's flock on the
    removed file then succeeds, but must not count as holding the lease."""
    from tether.core import lease as lease_module

    file = tmp_path / "s.jsonl"
    lock = lock_path(file)
    code = (
        "import sys\nfrom tether.core.lease import SessionLease\n"
        "SessionLease(sys.argv[1], command='the third').acquire()\n"
        "print('held', flush=True)\nsys.stdin.read()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    third: list[subprocess.Popen[str]] = []
    real_flock = lease_module.fcntl.flock

    def flock_after_the_race(fd: int, operation: int) -> None:
        if not third:  # our fd is open on the old file: it goes, a new holder comes
            lock.unlink()
            proc = subprocess.Popen(
                [sys.executable, "-c", code, str(file)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env=env,
            )
            third.append(proc)
            assert proc.stdout is not None and proc.stdout.readline() == "held\n"
        real_flock(fd, operation)

    lock.write_text("")  # left behind by an earlier holder
    monkeypatch.setattr(lease_module.fcntl, "flock", flock_after_the_race)
    try:
        with pytest.raises(SessionFileError, match=r"in use by pid \d+ \(the third\)"):
            lease_module.SessionLease(file).acquire()
    finally:
        for proc in third:
            proc.communicate("", timeout=30)
