"""PostgreSQL specifics on a real server: a restart mid-turn, appends whose outcome the
broken connection hid, two connections as from two machines."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.servers import OpenAIServer
from tests.store_backends import Backend, make_backend
from tests.store_helpers import CORPUS, ROOT, assistant_message, user_message

SAMPLE = next(p for p in CORPUS if p.stem == "g09-bash-exec")


@pytest.fixture
def pg(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    return make_backend(request, "postgresql", tmp_path / "store")


def texts(session: Any) -> list[str]:
    out = []
    for entry in session.entries():
        message = entry.get("message") if entry.get("type") == "message" else None
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list) and content and isinstance(content[0], dict):
            out.append(str(content[0].get("text")))
    return out


def test_a_restart_mid_turn_is_one_error_and_the_session_resumes(
    pg: Backend, pg_cluster: Any, openai_server: OpenAIServer
) -> None:
    ref = pg.add(SAMPLE)
    openai_server.write_models_json(pg.folder / "home")
    openai_server.text("the answer", headers_delay=2.0)
    env = {k: v for k, v in pg.env.items() if v is not None}
    run = subprocess.Popen(
        [sys.executable, "-m", "tether", "run", "--session", ref, "--provider", "test", "question"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, **env},
    )
    deadline = time.monotonic() + 60
    while not openai_server.requests and time.monotonic() < deadline:
        time.sleep(0.05)
    pg_cluster.restart()  # while the model is answering
    out, err = run.communicate(timeout=120)
    assert run.returncode == 1
    assert "the answer" in out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tether: error: "), err
    assert "connection to the database was lost" in lines[0] and "Traceback" not in err

    openai_server.text("answered again")
    again = pg.tether("run", "--session", ref, "--provider", "test", "question two")
    assert again.returncode == 0, again.stderr
    session = pg.open(ref, readonly=True)
    said = texts(session)
    assert said.count("question") == 1 and said.count("question two") == 1
    assert said[-1] == "answered again"
    ids = [e["id"] for e in session.entries()]
    assert len(ids) == len(set(ids))


def test_an_append_whose_commit_was_not_acknowledged_is_not_written_twice(pg: Backend) -> None:
    from tether.core.storage.database import StoreConnectionError

    ref = pg.add(SAMPLE)
    session = pg.open(ref)
    store = session.store
    real = store.driver.append_lines

    def commit_then_lose_the_answer(*args: Any, **kwargs: Any) -> int:
        real(*args, **kwargs)
        raise StoreConnectionError("the connection to the database was lost (simulated)")

    store.driver.append_lines = commit_then_lose_the_answer
    with pytest.raises(StoreConnectionError):
        session.append_message(user_message("sent once"))
    store.driver.append_lines = real
    session.append_message(assistant_message("and answered"))
    said = texts(pg.open(ref, readonly=True))
    assert said[-2:] == ["sent once", "and answered"] and said.count("sent once") == 1


def test_a_restart_between_appends_costs_one_error_then_the_writer_goes_on(
    pg: Backend, pg_cluster: Any
) -> None:
    from tether.core.storage.database import StoreConnectionError

    ref = pg.add(SAMPLE)
    session = pg.open(ref)
    session.append_message(user_message("before"))
    pg_cluster.restart()
    with pytest.raises(StoreConnectionError, match="connection to the database was lost"):
        session.append_message(assistant_message("during"))
    session.flush()  # the failed write is retried on the next call
    said = texts(pg.open(ref, readonly=True))
    assert said[-2:] == ["before", "during"] and said.count("during") == 1


def test_loading_streams_the_lines_and_reads_only_the_snapshot(pg: Backend) -> None:
    # The lines come through one binary COPY on a thread while the scanner indexes them;
    # lines appended after the header row was read are not part of this read.
    from tether.core.storage.database import join_session_bytes

    database = pg.database()
    ref = pg.add(SAMPLE)
    streamed = database.read_streamed(ref)
    assert streamed is not None and database.read_streamed("no-such-id") is None
    writer = pg.open(ref)
    writer.append_message(user_message("written meanwhile"))
    assert join_session_bytes(streamed) == SAMPLE.read_bytes()  # the chunks, taken now
    assert texts(pg.open(ref, readonly=True))[-1] == "written meanwhile"


def test_a_failed_streamed_read_is_one_error_where_the_chunks_are_taken() -> None:
    from tether.builtin_plugins.storage.postgresql.stream import Prefetched
    from tether.core.storage.database import StoreConnectionError

    def produce() -> Any:
        yield b"first"
        raise OSError("connection reset")

    chunks = Prefetched(produce, lambda exc: StoreConnectionError(f"db#s: lost ({exc})"))
    taken = []
    with pytest.raises(StoreConnectionError, match=r"^db#s: lost \(connection reset\)$"):
        for chunk in chunks:
            taken.append(chunk)
    assert taken == [b"first"]
