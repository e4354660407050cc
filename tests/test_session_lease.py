"""One writer per session (design §8.15), with real ``tether`` processes.

A second writer fails at once naming the holder (or waits with ``--wait``), the lease dies
with its process, readers are never blocked; 3 runs and a compaction started together never
split the session. Library use and the grew-since-read refusal: ``test_session_lease_kernel``.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli_in_process import run_in_process
from tests.lease_helpers import (
    assert_clean,
    context_json,
    descendants,
    finish,
    kill_tree,
    let_go,
    lock_path,
    read_until,
    release,
    run_args,
    session_file,
    start_tether,
    tether,
    tether_env,
    tree_json,
    user_texts,
    wait_for_holder,
)

BUSY = re.compile(
    r"^tether: error: (?P<file>\S+): in use by pid (?P<pid>\d+) \(tether (run|session compact) "
    r"[^\n]*\) since \d\d:\d\d:\d\d; use --wait to wait$"
)


# -- the race of issue 7: 3 runs + 1 compaction started together, repeated ---------------------


def test_concurrent_writers_never_split_the_session(tmp_path: Path) -> None:
    file = session_file(tmp_path)
    refusals = 0
    for round_ in range(3):
        before = {json.loads(line)["id"] for line in file.read_text().splitlines()[1:]}
        prompts = [f"round {round_} run {n}" for n in range(3)]
        procs = [start_tether(tmp_path, *run_args(file, p), sleep=0.5) for p in prompts]
        compact_args = ["session", "compact", str(file), "--summarizer", "offline", "--keep", "10"]
        procs.append(start_tether(tmp_path, *compact_args))
        results = [finish(p) for p in procs]

        tree = tree_json(tmp_path, file)
        branch = tree["branch"]
        new = [e["id"] for e in tree["entries"] if e["id"] not in before]
        assert set(new) <= set(branch), "an entry was written off the active branch"
        # nothing new only when every run was refused (the compaction held the lease) and the
        # compaction found the branch compacted already
        assert new or all(code != 0 for code, _, _ in results[:3]), results
        on_branch = user_texts(file, branch)
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
            roles = [m["role"] for m in context_json(tmp_path, file)["messages"]]
            assert roles[0] == "compactionSummary"
        elif code != 0:
            assert BUSY.match(err.strip().splitlines()[-1]), err
            refusals += 1
        assert_clean(file)
    assert refusals >= 1  # the runs overlap: some of them must have met a holder


# -- waiting ------------------------------------------------------------------------------------


def test_wait_says_so_then_writes_after_the_holder(tmp_path: Path) -> None:
    file = session_file(tmp_path)
    holder = start_tether(tmp_path, *run_args(file, "first"), sleep=release(tmp_path))
    try:
        wait_for_holder(file, holder.pid)
        waiter = start_tether(tmp_path, *run_args(file, "second", "--wait"))  # as long as it takes
        said = read_until(waiter.stderr, "tether: waiting for")
        assert waiter.poll() is None, said  # it really waits for the holder
    finally:
        let_go(tmp_path)
        code = finish(holder)[0]
    waited, out, err = finish(waiter)
    assert code == 0
    assert waited == 0, said + err
    assert out == "You said: second\n"
    assert f"tether: waiting for {file}, held by pid {holder.pid} (tether run first" in said
    tree = tree_json(tmp_path, file)
    assert user_texts(file, tree["branch"])[-2:] == ["first", "second"]
    assert_clean(file)
    assert not lock_path(file).exists()  # the last holder removed the lock file


def test_wait_gives_up_at_its_timeout(tmp_path: Path) -> None:
    file = session_file(tmp_path)
    holder = start_tether(tmp_path, *run_args(file, "first"), sleep=3)
    try:
        wait_for_holder(file, holder.pid)
        before = file.read_bytes()
        result = tether(tmp_path, "session", "compact", str(file), "--wait", "0.3")
        assert result.returncode == 1
        lines = result.stderr.splitlines()
        assert lines[0].startswith(f"tether: waiting for {file}, held by pid {holder.pid}")
        assert lines[-1].startswith(f"tether: error: {file}: in use by pid {holder.pid}")
        assert lines[-1].endswith("gave up after waiting 0.3 s")
        assert file.read_bytes().startswith(before)
    finally:
        kill_tree(holder)


# -- the lease dies with its process; readers never wait ----------------------------------------


def test_lease_is_released_when_its_holder_is_killed(tmp_path: Path) -> None:
    file = session_file(tmp_path)
    holder = start_tether(tmp_path, *run_args(file, "doomed"), sleep=30)
    orphans: list[int] = []
    try:
        wait_for_holder(file, holder.pid)
        deadline = time.monotonic() + 20
        while not (orphans := descendants(holder.pid)) and time.monotonic() < deadline:
            time.sleep(0.02)  # until the bash tool runs its `sleep`
        assert orphans
        busy = tether(tmp_path, *run_args(file, "too early"))
        assert busy.returncode == 1 and BUSY.match(busy.stderr.strip()), busy.stderr
        os.kill(holder.pid, signal.SIGKILL)  # only the holder: its bash child lives on
        holder.communicate(timeout=30)
        after = tether(tmp_path, *run_args(file, "after the crash"))
        assert after.returncode == 0, after.stderr
    finally:
        for pid in orphans:  # the `sleep 30` (which must not have inherited the lock)
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if holder.returncode is None:
            kill_tree(holder)
    tree = tree_json(tmp_path, file)
    assert user_texts(file, tree["branch"])[-1] == "after the crash"
    assert_clean(file)


def test_readers_are_never_blocked_by_a_lease(tmp_path: Path) -> None:
    file = session_file(tmp_path)
    holder = start_tether(tmp_path, *run_args(file, "holding"), sleep=30)
    try:
        wait_for_holder(file, holder.pid)
        assert tether(tmp_path, "session", "compact", str(file)).returncode == 1
        unpin = tether(tmp_path, "session", "unpin", str(file), "x")
        assert unpin.returncode == 1 and f"in use by pid {holder.pid}" in unpin.stderr
        # one reader is a real process; the others run in this one (the lease is the
        # holder's, another process's, either way)
        for args, process in (
            (["session", "context", str(file), "--json"], True),
            (["session", "show", str(file)], False),
            (["session", "tree", str(file)], False),
            (["session", "estimate", str(file)], False),
            (["session", "prepare", str(file)], False),
            (["session", "pins", str(file)], False),
            (["sessions", "--dir", str(tmp_path)], False),
        ):
            started = time.monotonic()
            if process:
                result = tether(tmp_path, *args, timeout=20)
            else:
                result = run_in_process(*args, home=tmp_path / "home", cwd=tmp_path)
            assert result.returncode == 0, (args, result.stderr)
            assert time.monotonic() - started < 10, args
    finally:
        kill_tree(holder)


@pytest.mark.parametrize(
    "command",
    [
        ["chat", "--provider", "faux", "--session", "{file}"],
        ["session", "branch", "{file}", "--to", "{first}"],
        ["session", "repair", "{file}"],
        ["session", "pin", "{file}", "{first}"],
    ],
    ids=["chat", "branch", "repair", "pin"],
)
def test_every_writing_command_is_refused_or_waits(tmp_path: Path, command: list[str]) -> None:
    from tether.builtin_plugins.storage.jsonl.files.lease import SessionLease

    file = session_file(tmp_path)
    first = json.loads(file.read_text().splitlines()[1])["id"]
    args = [a.format(file=file, first=first) for a in command]
    lease = SessionLease(file, command="the test").acquire()  # held by this process
    try:
        refused = tether(tmp_path, *args)
        assert refused.returncode == 1
        assert refused.stderr.splitlines()[-1].startswith(
            f"tether: error: {file}: in use by pid {os.getpid()} (the test) since "
        )
        assert refused.stderr.endswith("; use --wait to wait\n")
        waiter = subprocess.Popen(
            [sys.executable, "-m", "tether", *args, "--wait", "20"],
            cwd=tmp_path,
            env=tether_env(tmp_path),
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
    assert_clean(file)
