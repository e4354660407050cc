"""Shared pytest fixtures. Keep each fixture small and documented; group by area."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator

import pytest

from tests.servers import AnthropicServer, OpenAIServer

# -- parallel workers (pytest-xdist) -------------------------------------------------------------


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "alone: the test measures its own wall time; no other test runs meanwhile"
    )


@pytest.fixture(autouse=True)
def _alone_or_together(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    """Under pytest-xdist every test holds a shared lock, an ``alone`` test the exclusive one
    (a turnstile lets it in ahead of the tests that arrive while it waits). Without workers
    this does nothing."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        yield
        return
    shared = tmp_path_factory.getbasetemp().parent  # one folder for the workers of a run
    alone = request.node.get_closest_marker("alone") is not None
    with (
        open(shared / "alone.turnstile", "a") as turnstile,
        open(shared / "alone.lock", "a") as lock,
    ):
        fcntl.flock(turnstile, fcntl.LOCK_EX)
        fcntl.flock(lock, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        fcntl.flock(turnstile, fcntl.LOCK_UN)
        yield


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
