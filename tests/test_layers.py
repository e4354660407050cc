"""The layer rules docs/ARCHITECTURE.md states, checked on the direct imports of every module."""

from __future__ import annotations

from functools import cache

from tests.test_import_graph import import_graph as _walk

CORE = "tether.core."


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


def test_storage_knows_only_records_files_and_errors() -> None:
    assert _outside(CORE + "storage", (CORE + "host.errors",)) == []


def test_context_is_functions_over_storage_records() -> None:
    assert _outside(CORE + "context", (CORE + "storage",)) == []


def test_session_builds_on_storage_and_context() -> None:
    allowed = (CORE + "storage", CORE + "context", CORE + "host")
    assert _outside(CORE + "session", allowed) == []


def test_inner_layers_never_import_memory_or_the_harness() -> None:
    inner = [CORE + layer for layer in ("storage", "context", "session", "agent")]
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


def test_the_host_leaf_modules_import_no_layer() -> None:
    leaves = {CORE + "host." + name for name in ("errors", "paths", "settings", "settings_peek")}
    leaves.add(CORE + "host.trace")
    found = sorted(f"{leaf} -> {dep}" for leaf in leaves for dep in import_graph()[leaf] - leaves)
    assert found == []
