"""A throwaway PostgreSQL cluster for the tests: ``initdb`` in a temp folder, ``pg_ctl start``
on a free loopback port, stopped at the end. PostgreSQL refuses to run as root, so as root the
server runs as the ``postgres`` system user (``runuser -u postgres --``) in a folder it owns.
The binaries come from ``pg_config --bindir``, ``/usr/lib/postgresql/*/bin`` or PATH
(``.ci/run`` installs the ``postgresql`` package when ``initdb`` is missing)."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path


def _bindir() -> Path:
    for pattern in ("/usr/lib/postgresql/*/bin",):
        found = sorted(glob.glob(pattern))
        if found:
            return Path(found[-1])
    initdb = shutil.which("initdb")
    if initdb is None:
        raise RuntimeError("PostgreSQL is not installed (initdb not found); see README")
    return Path(initdb).parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PgCluster:
    """One cluster; :meth:`uri` gives a new empty database on it."""

    def __init__(self, bindir: Path | None = None) -> None:
        self.bindir = bindir or _bindir()
        self.root = Path(tempfile.mkdtemp(prefix="tether-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.user = "postgres" if os.geteuid() == 0 else None
        self.password = "s3cret-pw"
        self._count = 0

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        return subprocess.run(command, capture_output=True, text=True, check=check, timeout=120)

    def start(self) -> PgCluster:
        if self.user is not None:
            shutil.chown(self.root, self.user, self.user)
        pwfile = self.root / "pw"
        pwfile.write_text(self.password + "\n")
        if self.user is not None:
            shutil.chown(pwfile, self.user, self.user)
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            "tether",
            "-A",
            "scram-sha-256",
            f"--pwfile={pwfile}",
            "--no-sync",
            "-E",
            "UTF8",
        )
        self.server_start()
        return self

    def server_start(self) -> None:
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} -c fsync=off"
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "log"),
            "-w",
            "start",
        )

    def server_stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop", check=False)

    def restart(self) -> None:
        self.server_stop()
        self.server_start()

    def ensure_running(self) -> None:
        """Start the server if a test stopped it (``pg_ctl status`` exits 3 when stopped)."""
        if self._run("pg_ctl", "-D", str(self.data), "status", check=False).returncode != 0:
            self.server_start()

    def stop(self) -> None:
        """Stop the server; its folder (hundreds of MB once the tests made their databases)
        is removed by a detached ``rm`` so the test run does not wait for the disk."""
        self.server_stop("immediate")
        try:
            subprocess.Popen(
                ["rm", "-rf", str(self.root)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError:
            shutil.rmtree(self.root, ignore_errors=True)

    def admin_uri(self, database: str = "postgres") -> str:
        return f"postgresql://tether:{self.password}@127.0.0.1:{self.port}/{database}"

    def uri(self) -> str:
        """A URI of a new, empty database."""
        import psycopg

        self._count += 1
        name = f"t{os.getpid()}_{self._count}_{int(time.time() * 1000) % 100000}"
        with psycopg.connect(self.admin_uri(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.admin_uri(name)


__all__ = ["PgCluster", "free_port"]
