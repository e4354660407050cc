"""A ``tether --mode rpc`` subprocess for the RPC tests: send commands, read responses/events."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent


class RpcProcess:
    """``tether --mode rpc ARGS`` in ``cwd`` with ``TETHER_HOME=home`` (built-in plugins and
    ``extra_env``); every stdout line is parsed into :attr:`lines` as it arrives."""

    def __init__(
        self, home: Path, cwd: Path, *args: str, extra_env: dict[str, str] | None = None
    ) -> None:
        env = {**os.environ, "TETHER_HOME": str(home), "TETHER_FSYNC": "0"}
        env.update({"TETHER_LOAD_PLUGINS": "", "PYTHONPATH": str(REPO)})
        env.update(extra_env or {})
        env.pop("TETHER_DISABLE_PLUGINS", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tether", "--mode", "rpc", *args],
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.lines: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        self.raw: list[bytes] = []
        self.not_json: list[bytes] = []  # stdout lines that are not JSON: close() fails on any
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.raw.append(raw)
            try:
                record = json.loads(raw)
            except ValueError:
                self.not_json.append(raw)
                continue
            self.lines.put(record)

    def send_raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, command: dict[str, Any]) -> None:
        self.send_raw(json.dumps(command).encode() + b"\n")

    def next(self, timeout: float = 20.0) -> dict[str, Any]:
        record = self.lines.get(timeout=timeout)
        self.seen.append(record)
        return record

    def until(self, predicate: Any, timeout: float = 20.0) -> list[dict[str, Any]]:
        """Records up to and including the first one ``predicate`` accepts."""
        out = []
        while True:
            record = self.next(timeout)
            out.append(record)
            if predicate(record):
                return out

    def seen_or_next(self, kind: str, timeout: float = 20.0) -> dict[str, Any]:
        """The first record of type ``kind`` seen so far, else the next one to come."""
        for record in self.seen:
            if record.get("type") == kind:
                return record
        return self.until(lambda r: r.get("type") == kind, timeout)[-1]

    def call(self, command: dict[str, Any], timeout: float = 20.0) -> dict[str, Any]:
        """Send ``command`` with an id; return its response (events before it are kept)."""
        cid = command.setdefault("id", f"t{len(self.seen)}-{command['type']}")
        self.send(command)
        return self.until(lambda r: r.get("type") == "response" and r.get("id") == cid, timeout)[-1]

    def data(self, command: dict[str, Any]) -> Any:
        response = self.call(command)
        assert response["success"] is True, response
        return response.get("data")

    def prompt(self, text: str, **fields: Any) -> list[dict[str, Any]]:
        """Prompt and return every record up to the run's ``agent_end``."""
        response = self.call({"type": "prompt", "message": text, **fields})
        assert response["success"] is True, response
        return self.until(lambda r: r.get("type") == "agent_end")

    def close(self, timeout: float = 20.0) -> tuple[int, str]:
        """End stdin; the exit code and stderr."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        code = self.proc.wait(timeout)
        self.reader.join(timeout)  # every stdout line read
        assert self.proc.stderr is not None
        stderr = self.proc.stderr.read().decode()
        assert self.not_json == [], f"not protocol lines on stdout: {self.not_json}"
        return code, stderr


def write_models(home: Path, server: Any, *, reasoning: bool = False) -> None:
    """models.json with provider ``test`` → the loopback ``server`` (model ``test-model``)."""
    home.mkdir(parents=True, exist_ok=True)
    entry = {"baseUrl": server.base_url, "api": server.api}
    entry["models"] = [server.model_entry("test-model", reasoning=reasoning)]
    (home / "models.json").write_text(json.dumps({"providers": {"test": entry}}))
