"""The session stores the conformance tests run on: ``jsonl`` files, ``sqlite`` and
``postgresql`` databases (a throwaway cluster, tests/pg_cluster.py). A :class:`Backend` names a
session the way the commands take it there (a file path, or an id) and knows its store URI.
Its read-only commands run in the test's process (tests/cli_in_process.py); the others, and
any command given standard input, run as real processes."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.cli_in_process import run_in_process
from tests.store_helpers import ROOT, run_tether

BACKENDS = ["jsonl", "sqlite", "postgresql"]
DATABASES = ["sqlite", "postgresql"]
CHILD = Path(__file__).with_name("store_child.py")
# commands that only read the store: in-process (a process start is most of their cost)
READ_ONLY = {"sessions", "session show", "session tree", "session context", "session estimate",
             "session prepare", "session stats", "session export"}  # fmt: skip


def reads_only(args: tuple[str, ...]) -> bool:
    """Whether ``tether ARGS`` runs a command of :data:`READ_ONLY`."""
    words = [a for a in args[:2] if not a.startswith("-")]
    return " ".join(words) in READ_ONLY


@dataclass
class Backend:
    name: str
    folder: Path
    uri: str | None = None  # None: JSONL files
    opened: Any = field(default=None, repr=False)  # the database, opened once per backend

    @property
    def env(self) -> dict[str, str | None]:
        return {"TETHER_STORE": self.uri, "TETHER_HOME": str(self.folder / "home")}

    def database(self) -> Any:
        from tether.builtin_plugins.commands.store_select import open_database

        assert self.uri is not None
        if self.opened is None:
            self.opened = open_database(self.uri)
        return self.opened

    def add(self, source: Path) -> str:
        """Put a session file into the store; returns how commands name it."""
        if self.uri is None:
            target = self.folder / source.name
            shutil.copyfile(source, target)
            return str(target)
        from tether.builtin_plugins.commands.store.listing import _v3_bytes

        return str(self.database().import_session(_v3_bytes(source), str(source)))

    def open(self, ref: str, *, readonly: bool = False) -> Any:
        from tether.core.session.session import Session

        if self.uri is None:
            return Session.open(ref, readonly=readonly)
        from tether.builtin_plugins.commands.store_select import open_stored_session

        return open_stored_session(self.database(), ref, readonly=readonly)

    def tether(self, *args: str, cwd: Path | None = None, **kw: Any) -> Any:
        """``tether ARGS`` with this store: in this process for a read-only command without
        standard input, else a real one; ``process=True`` or ``False`` chooses."""
        env: Mapping[str, str | None] = {**self.env, **kw.pop("env", {})}
        process = kw.pop("process", None)
        if process is None:
            process = "stdin_text" in kw or not reads_only(args)
        if not process:
            home = Path(env.get("TETHER_HOME") or self.folder / "home")
            return run_in_process(*args, home=home, cwd=cwd or self.folder, env=env)
        return run_tether(*args, cwd=cwd or self.folder, env=env, **kw)

    def child(self, *args: str) -> subprocess.Popen[str]:
        """``tests/store_child.py ARGS`` with this store (see that file)."""
        env = {k: v for k, v in os.environ.items() if k != "TETHER_STORE"}
        env.update({k: v for k, v in self.env.items() if v is not None})
        return subprocess.Popen(
            [sys.executable, str(CHILD), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env,
        )


def make_backend(request: pytest.FixtureRequest, name: str, folder: Path) -> Backend:
    folder.mkdir(parents=True, exist_ok=True)
    if name == "jsonl":
        return Backend(name, folder)
    if name == "sqlite":
        return Backend(name, folder, f"sqlite:///{folder}/sessions.db")
    cluster: Any = request.getfixturevalue("pg_cluster")
    return Backend(name, folder, cluster.uri())


def kill(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            stream.close()


__all__ = ["BACKENDS", "DATABASES", "Backend", "kill", "make_backend"]
