"""The loopback LLM servers of tests/servers answer without a hidden wait: a reply's headers
and body leave in separate writes, so with Nagle's algorithm on the body waited for the
client's delayed ACK (at least 40 ms on Linux) on every request of the suite."""

from __future__ import annotations

import statistics
import time

import httpx
import pytest

from tests.servers import AnthropicServer, OpenAIServer, Reply


@pytest.mark.parametrize("server_class", [OpenAIServer, AnthropicServer])
@pytest.mark.parametrize("stream", [False, True])
def test_a_request_on_a_kept_alive_connection_takes_no_delayed_ack(
    server_class: type[OpenAIServer] | type[AnthropicServer], stream: bool
) -> None:
    timings = []
    with server_class() as server, httpx.Client(base_url=server.url) as client:
        for _ in range(9):
            server.push(Reply(text="hello"))
            body = {"model": "test-model", "messages": [], "stream": stream, "max_tokens": 5}
            started = time.perf_counter()
            with client.stream("POST", server.endpoint, json=body) as response:
                response.read()
            timings.append(time.perf_counter() - started)
            assert response.status_code == 200 and response.content
    assert statistics.median(timings) < 0.03, timings  # 0.040 s or more with Nagle on
