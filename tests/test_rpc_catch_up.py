"""A prompt's run waits for the RPC reader while it progresses, and not for a stalled writer."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace

import pytest

from tether.builtin_plugins.commands.rpc import prompting


def _server() -> SimpleNamespace:
    return SimpleNamespace(caught_up=threading.Event(), lines_read=0, parsing=False)


def test_the_run_waits_while_the_reader_parses_a_long_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(prompting, "CATCH_UP_SECONDS", 0.05)
    server = _server()
    server.parsing = True

    def reader() -> None:  # parses for many bounds, then takes in the last line and is done
        time.sleep(0.4)
        server.parsing = False
        server.lines_read += 1
        time.sleep(0.02)
        server.caught_up.set()

    thread = threading.Thread(target=reader)
    thread.start()
    prompting._catch_up(server)
    assert server.caught_up.is_set()
    thread.join()


def test_a_writer_stalled_mid_line_ends_the_wait_after_the_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(prompting, "CATCH_UP_SECONDS", 0.05)
    server = _server()
    started = time.monotonic()
    prompting._catch_up(server)
    assert not server.caught_up.is_set()
    assert time.monotonic() - started < 1.0
