"""Shared pytest fixtures. Keep each fixture small and documented; group by area."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.servers import AnthropicServer, OpenAIServer

# -- loopback LLM servers (tests/servers) --------------------------------------------------------


@pytest.fixture
def openai_server() -> Iterator[OpenAIServer]:
    """A scripted OpenAI chat-completions server; models.json ``baseUrl`` = ``.base_url``."""
    with OpenAIServer() as server:
        yield server


@pytest.fixture
def anthropic_server() -> Iterator[AnthropicServer]:
    """A scripted Anthropic Messages server; models.json ``baseUrl`` = ``.base_url``."""
    with AnthropicServer() as server:
        yield server


# -- a throwaway PostgreSQL cluster (tests/pg_cluster.py) -----------------------------------------


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[object]:
    """One PostgreSQL server per test process (started on first use, stopped at the end): each
    pytest-xdist worker has its own, so a test may restart or stop it. ``pg_cluster.uri()``
    makes a new empty database. Without PostgreSQL the test skips (fails under ``CI=true``)."""
    from tests import needs
    from tests.pg_cluster import PgCluster

    cluster = PgCluster(needs.postgresql()).start()
    try:
        yield cluster
    finally:
        cluster.stop()
