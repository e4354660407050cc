"""The layer rules docs/ARCHITECTURE.md states, checked on the direct imports of every module."""

from __future__ import annotations

from functools import cache

from tests.test_import_graph import PACKAGE
from tests.test_import_graph import import_graph as _walk

CORE = "tether.core."

#: The kernel's subpackages, bottom first. A subpackage imports only those before it: no import
#: runs back up (lazy and ``TYPE_CHECKING`` imports count). A new subpackage takes its place here.
LAYERS = (
    "base",  # errors, paths, settings
    "host",  # the plugin host: finding and loading plugins, calling one implementation, tracing
    "storage",  # the store contract (stores themselves are plugins)
    "context",  # pi's context rules over entries
    "session",  # the session tree over a store, opened through the open_store hook
    "choices",  # one registered summarizer, token counter or strategy chosen and called
    "hooks",  # the typed hook caller, answer checks, the session object hooks receive
    "agent",  # the agent loop, tools, the provider contract
    "memory",  # compaction and branch summaries
    "harness",  # an agent bound to a session
    "cli",  # the command line
)


@cache
def import_graph() -> dict[str, set[str]]:
    return _walk()


def _imports_of(prefix: str) -> dict[str, set[str]]:
    return {name: deps for name, deps in import_graph().items() if name.startswith(prefix)}


def _outside(prefix: str, allowed: tuple[str, ...]) -> list[str]:
    return sorted(
        f"{name} -> {dep}"
        for name, deps in _imports_of(prefix).items()
        for dep in deps
        if not dep.startswith((prefix, *allowed))
    )


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 3 and module.startswith(CORE) else None


def arrows_up(graph: dict[str, set[str]]) -> list[str]:
    """Imports from a kernel layer to one above it (or to a subpackage not in :data:`LAYERS`)."""
    rank = {name: i for i, name in enumerate(LAYERS)}
    found = []
    for name, deps in graph.items():
        low = _layer(name)
        for dep in deps:
            high = _layer(dep)
            if low is None or high is None or low == high:
                continue
            if rank.get(high, len(rank)) > rank.get(low, -1):
                found.append(f"{name} -> {dep}")
    return sorted(found)


def test_the_layer_list_names_every_kernel_subpackage() -> None:
    found = {p.name for p in (PACKAGE / "core").iterdir() if (p / "__init__.py").exists()}
    assert found == set(LAYERS)


def test_no_import_runs_back_up_between_kernel_layers() -> None:
    assert arrows_up(import_graph()) == []


def test_the_arrow_check_sees_an_import_up() -> None:
    graph = {
        CORE + "base.errors": {CORE + "cli.app"},
        CORE + "cli.app": {CORE + "base.errors", CORE + "cli.argv"},
    }
    assert arrows_up(graph) == [f"{CORE}base.errors -> {CORE}cli.app"]


def test_storage_knows_only_records_files_and_errors() -> None:
    assert _outside(CORE + "storage", (CORE + "base.errors",)) == []


def test_context_is_functions_over_storage_records() -> None:
    assert _outside(CORE + "context", (CORE + "storage",)) == []


def test_session_builds_on_storage_and_context() -> None:
    """A session is its tree over a store; it asks the plugin host only to open the store."""
    allowed = (CORE + "storage", CORE + "context", CORE + "base", CORE + "host.manager")
    assert _outside(CORE + "session", allowed) == []


def test_inner_layers_never_import_memory_or_the_harness() -> None:
    inner = [CORE + layer for layer in LAYERS[: LAYERS.index("agent") + 1]]
    found = sorted(
        f"{name} -> {dep}"
        for prefix in inner
        for name, deps in _imports_of(prefix).items()
        for dep in deps
        if dep.startswith((CORE + "memory", CORE + "harness", "tether.builtin_plugins"))
    )
    assert found == []


def test_the_loop_knows_neither_the_agent_nor_its_state() -> None:
    deps = import_graph()[CORE + "agent.loop"]
    assert not deps & {CORE + "agent.agent", CORE + "agent.state"}


def test_the_bottom_layer_imports_no_other_layer() -> None:
    assert _outside(CORE + "base", ()) == []
