"""Shared pytest fixtures. Keep each fixture small and documented; group by area."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator

import pytest

# -- bytecode caches for this run (before anything else is imported) ------------------------------


def _bytecode_cache_for_this_run() -> None:
    """With ``PYTHONDONTWRITEBYTECODE`` set, every ``tether`` the tests start (several
    hundred) would compile 100-300 modules from source, 0.1 s of CPU or more each time.
    Keep the caches in a private folder of this run instead (``PYTHONPYCACHEPREFIX``:
    nothing is written into the source tree), which the pytest-xdist workers and every child
    process inherit; it is removed at the end. A child under a file-size limit must still
    set ``PYTHONDONTWRITEBYTECODE=1`` (a cut-short write would leave a truncated cache)."""
    if not sys.dont_write_bytecode:
        return  # Python's usual caches serve (or an outer run set this up)
    prefix = tempfile.mkdtemp(prefix="tether-tests-pycache-")
    atexit.register(shutil.rmtree, prefix, ignore_errors=True)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = prefix
    sys.pycache_prefix, sys.dont_write_bytecode = prefix, False


_bytecode_cache_for_this_run()

from tests.servers import AnthropicServer, OpenAIServer  # noqa: E402

# -- one plugin manager per test ----------------------------------------------------------------


@pytest.fixture(autouse=True, scope="session")
def _plugin_scope() -> Iterator[None]:
    """Sessions a test opens without a plugin manager share the run's (each worker's) manager
    of the installed plugins, made when first needed (``tether.storage.PluginScope``). Nothing
    may change it: a test that needs other plugins makes its own manager and passes it, or
    enters a ``PluginScope`` of its own. (One per test instead: +16% CPU on session-heavy
    files, a manager being ~40 ms of plugin registration.)"""
    from tether.core.session.opening import PluginScope

    with PluginScope():
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


# -- how many workers ``-n auto`` starts -------------------------------------------------------


@pytest.hookimpl(optionalhook=True)  # a run with -p no:xdist knows no such hook
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """One worker more than there are cores: about a fifth of the suite's time is spent waiting
    on child processes, sockets and the PostgreSQL server, and a third worker on two cores
    fills it (the whole suite: 207 s with two workers, 183 s with three, on two cores)."""
    return (os.cpu_count() or 1) + 1


# -- the compiling of a cold run, shared by the pytest-xdist workers (tests/compile_share.py) ---


def pytest_sessionstart(session: pytest.Session) -> None:
    """Each worker writes its share of the bytecode caches before it collects the suite."""
    from tests.compile_share import share_compiling

    share_compiling(session.config)


# -- the order tests start in (pytest-xdist hands them out in collection order) ------------------

# The longest tests (several seconds each, most of it in child processes; the first one
# installs pi's npm package): started first, so none of them is left alone at the end.
SLOW_FIRST = (
    "tests/test_rpc_pi_client.py",
    "tests/test_store_commands.py::test_every_command_works_in_a_database_store",
    "tests/test_store_safety.py::test_sessions_are_private_whatever_the_umask",
    "tests/test_session_lease.py::test_concurrent_writers_never_split_the_session",
    "tests/test_session_lease.py::test_readers_are_never_blocked_by_a_lease",
    "tests/test_linear_context.py::test_the_cli_takes_one_pass_for_a_large_branch",
    "tests/test_run_feedback.py::test_run_shows_compaction_progress",
    "tests/test_rpc_protocol.py::test_prompts_sent_back_to_back_run_in_the_order_sent",
    "tests/test_session_stats.py::test_session_stats_match_the_context_and_list_compactions",
    "tests/test_split_safety.py::test_two_broken_lines_give_the_same_context_problems",
    "tests/test_store_errors.py::test_bad_store_uris_are_one_line_each",
    "tests/test_context_request.py::test_openai_bodies_equal_what_the_server_received",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """:data:`SLOW_FIRST` first, everything else in its usual order."""
    items.sort(key=lambda item: not item.nodeid.startswith(SLOW_FIRST))
