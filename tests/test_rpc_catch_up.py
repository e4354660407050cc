"""A prompt's run waits for the RPC reader to handle the lines written with it: past the bound
only for the line the reader holds, never for a stream of lines, a stalled writer or a reader
that waits for the run itself."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from types import SimpleNamespace

import pytest

from tether.builtin_plugins.commands.rpc import prompting

BOUND = 0.1


@pytest.fixture(autouse=True)
def short_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prompting, "CATCH_UP_SECONDS", BOUND)


def _server() -> SimpleNamespace:
    return SimpleNamespace(
        caught_up=threading.Event(), lines_read=1, handling=False, settling=False
    )


def _waited(server: SimpleNamespace, reader: Callable[[], None]) -> float:
    thread = threading.Thread(target=reader, daemon=True)
    started = time.monotonic()
    thread.start()
    prompting._catch_up(server)
    return time.monotonic() - started


def test_the_run_waits_for_a_long_line_the_reader_holds_past_the_bound() -> None:
    server = _server()
    server.handling = True

    def reader() -> None:  # parses one line for several bounds, then has read everything
        time.sleep(5 * BOUND)
        server.handling = False
        server.caught_up.set()

    _waited(server, reader)
    assert server.caught_up.is_set()


def test_a_stream_of_new_lines_does_not_hold_the_run_off() -> None:
    server = _server()
    stop = threading.Event()

    def reader() -> None:  # a client that keeps the reader busy with short lines
        while not stop.is_set():
            server.handling = True
            server.lines_read += 1
            time.sleep(0.001)

    try:
        waited = _waited(server, lambda: reader())
    finally:
        stop.set()
    assert waited < 10 * BOUND
    assert not server.caught_up.is_set()


def test_a_writer_stalled_mid_line_ends_the_wait_at_the_bound() -> None:
    server = _server()  # the reader waits for bytes: it holds no line
    waited = _waited(server, lambda: None)
    assert BOUND <= waited < 10 * BOUND
    assert not server.caught_up.is_set()


def test_a_reader_waiting_for_the_run_ends_the_wait_at_once() -> None:
    server = _server()
    server.handling = True
    server.settling = True  # e.g. new_session written together with the prompt
    waited = _waited(server, lambda: None)
    assert waited < BOUND
