"""Shared pytest fixtures. Keep each fixture small and documented; group by area."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

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


# -- a tether home (tests/harness_helpers.py) ----------------------------------------------------


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``TETHER_HOME`` set to a fresh home with the test settings and models (``write_home``);
    a module may define its own ``home`` fixture instead."""
    from tests.harness_helpers import use_home, write_home

    return use_home(write_home(tmp_path / "home"), monkeypatch)


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
# installs pi's npm package, the two files pip-install plugins in module fixtures): started
# first, so none of them is left alone at the end. pytest-xdist deals out consecutive chunks,
# so a whole file named here stays together. Measured with ``--durations``; a name that no
# longer matches any test is dropped by nothing, so keep the list true.
SLOW_FIRST = (
    "tests/test_rpc_pi_client.py",
    "tests/test_doc_blocks.py",
    "tests/test_store_commands.py::test_every_command_works_in_a_database_store",
    "tests/test_store_index.py::test_the_index_and_the_scan_agree_on_every_fixture",
    "tests/test_store_safety.py::test_sessions_are_private_whatever_the_umask",
    "tests/test_store_safety.py::test_a_fifo_or_a_device_is_refused_at_once",
    "tests/test_fastjson.py::test_every_fixture_line_parses_and_prints_the_same",
    "tests/test_store_pg_turns.py::test_a_restart_while_a_tool_runs_does_not_lose_the_rest",
    "tests/test_store_conformance.py::test_a_second_writer_process_is_stopped_by_the_lease",
    "tests/test_plugin_examples_installed.py",
    "tests/test_session_lease.py::test_concurrent_writers_never_split_the_session",
    "tests/test_session_lease.py::test_readers_are_never_blocked_by_a_lease",
    "tests/test_run_feedback.py::test_run_shows_compaction_progress",
    "tests/test_bench_fidelity_families.py::test_a_tiny_slice_runs_on_both_tracks",
    "tests/test_html_export.py::test_page_in_a_real_browser",
    "tests/test_context_runs.py::test_the_cli_writes_a_long_branch_as_the_reference_would",
    "tests/test_rpc_protocol.py::test_prompts_sent_back_to_back_run_in_the_order_sent",
    "tests/test_session_stats.py::test_session_stats_match_the_context_and_list_compactions",
    "tests/test_store_errors.py::test_an_unreachable_server_and_wrong_credentials_are_one_line",
    "tests/test_context_request.py::test_openai_bodies_equal_what_the_server_received",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """:data:`SLOW_FIRST` first, everything else in its usual order. Under pytest-xdist each of
    ``n`` workers is first sent a chunk of ``len(items) // n // 4`` consecutive tests: the slow
    groups are dealt in turn to the front of each chunk, so they start at once on every worker
    instead of queueing up on the first one. Every worker computes the same order."""
    groups: list[list[pytest.Item]] = [[] for _ in SLOW_FIRST]
    rest = []
    for item in items:
        found = next((i for i, name in enumerate(SLOW_FIRST) if item.nodeid.startswith(name)), None)
        (rest if found is None else groups[found]).append(item)
    workerinput = getattr(config, "workerinput", None)
    workers = int(workerinput["workercount"]) if workerinput else 1
    chunk = max(len(items) // workers // 4, 2)
    ordered: list[pytest.Item] = []
    for lane in range(workers):
        ordered += [item for group in groups[lane::workers] for item in group]
        take = max((lane + 1) * chunk - len(ordered), 0) if lane < workers - 1 else 0
        ordered += rest[:take]
        del rest[:take]
    items[:] = ordered + rest
