"""The layer rules docs/ARCHITECTURE.md states, checked on the direct imports of every module."""

from __future__ import annotations

import ast
from functools import cache

from tests.test_import_graph import PACKAGE
from tests.test_import_graph import import_graph as _walk

CORE = "tether.core."

#: The kernel's subpackages, bottom first. A subpackage imports only those before it: no import
#: runs back up (lazy and ``TYPE_CHECKING`` imports count). A new subpackage takes its place here.
LAYERS = (
    "base",  # errors, paths, settings
    "host",  # the plugin host: finding and loading plugins, calling one implementation, tracing
    "storage",  # records and the entry table (the store contract: tether.hookspecs.store)
    "context",  # pi's context rules over entries
    "session",  # the session tree over a store, opened through the open_store hook
    "choices",  # one registered summarizer, token counter or strategy chosen and called
    "hooks",  # the typed hook caller, answer checks, the session object hooks receive
    "agent",  # the agent loop, running tools, the prompt (their contract: tether.hookspecs)
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
    """A session is its tree over a store (the store contract: ``tether.hookspecs.store``); it
    asks the plugin host only to open the store."""
    allowed = (
        CORE + "storage",
        CORE + "context",
        CORE + "base",
        CORE + "host.manager",
        "tether.hookspecs.store",
    )
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


def _import_time_imports(source: str) -> set[str]:
    """The modules ``source`` imports when it is imported: top-level imports, not those under
    ``if TYPE_CHECKING:`` nor inside functions."""
    found: set[str] = set()
    body = list(ast.parse(source).body)
    while body:
        node = body.pop(0)
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            body.extend(node.orelse)
        elif isinstance(node, (ast.If, ast.Try)):
            body.extend([*node.body, *node.orelse, *getattr(node, "finalbody", [])])
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.update([node.module, *(f"{node.module}.{a.name}" for a in node.names)])
    return found


def test_the_contract_loads_no_kernel_module_but_the_errors() -> None:
    """``tether/hookspecs/`` (hooks, events, what a tool, a provider, a store are) is imported
    by plugins and the kernel alike: importing it loads no kernel module but ``base.errors``."""
    found = sorted(
        f"{path.stem} -> {dep}"
        for path in (PACKAGE / "hookspecs").glob("*.py")
        for dep in _import_time_imports(path.read_text(encoding="utf-8"))
        if dep.startswith(CORE) and not f"{dep}.".startswith(CORE + "base.errors.")
    )
    assert found == []


def test_the_import_time_check_skips_type_checking_and_functions() -> None:
    source = (
        "from typing import TYPE_CHECKING\nimport tether.core.base.paths\n"
        "if TYPE_CHECKING:\n    import tether.core.session.session\n"
        "def f():\n    import tether.core.agent.loop\n"
    )
    assert _import_time_imports(source) == {
        "typing",
        "typing.TYPE_CHECKING",
        "tether.core.base.paths",
    }


BUILTINS = "tether.builtin_plugins"

#: What built-in plugins may import: the public modules (what a third-party plugin imports).
PUBLIC = (
    "tether",
    "tether.hookspecs",
    "tether.storage",
    "tether.testing",
    "tether.cli",
    "tether.memory",
    "tether.providers",
    "tether.rules",
    "tether.sessions",
    "tether.tools",
)

#: The only kernel modules a built-in imports (at most 5 entries): built-in module (or package)
#: -> (the kernel modules it may import, why they are not public).
BUILTIN_EXCEPTIONS: dict[str, tuple[frozenset[str], str]] = {
    BUILTINS + ".commands.context": (
        frozenset(
            CORE + m
            for m in (
                "hooks.plugin_session",
                "harness.setup",
            )
        ),
        "`tether context` reproduces the harness's request byte for byte: the session view"
        " hooks receive and the prompt and thinking level as the harness sets them up",
    ),
    BUILTINS + ".commands.rpc.main": (
        frozenset({CORE + "cli.protocol_out"}),
        "RPC mode takes over the stdout the kernel CLI reserves for the protocol; one owner only",
    ),
    BUILTINS + ".providers.models.registry": (
        frozenset({CORE + "hooks.facade"}),
        "`tether` exports ProviderRegistry from here, so this module cannot import `tether` back"
        " (an import loop); it takes `Hooks` (public as `tether.Hooks`) from its kernel home",
    ),
    BUILTINS + ".commands.pi_forms": (
        frozenset({CORE + "cli.argv"}),
        "pi's command forms are rewritten before the kernel parses its own root options",
    ),
}


def _storage_pending() -> bool:
    """``tether.storage`` is not merged yet: kernel storage imports count as going there."""
    return not (PACKAGE / "storage.py").exists() and not (PACKAGE / "storage").is_dir()


def builtin_kernel_imports(graph: dict[str, set[str]]) -> list[str]:
    """Imports from a built-in plugin of a non-public tether module, beyond the exceptions."""
    found = []
    for name, deps in graph.items():
        if not name.startswith(BUILTINS):
            continue
        allowed: frozenset[str] = frozenset()
        for prefix, (modules, _reason) in BUILTIN_EXCEPTIONS.items():
            if name == prefix or name.startswith(prefix + "."):
                allowed = allowed | modules
        for dep in deps:
            if dep in PUBLIC or dep.startswith(BUILTINS) or dep in allowed:
                continue
            if dep.startswith("tether.hookspecs.") or dep.startswith("tether.storage."):
                continue
            if _storage_pending() and dep.startswith(CORE + "storage"):
                continue
            found.append(f"{name} -> {dep}")
    return sorted(found)


def test_builtins_import_only_public_modules() -> None:
    assert builtin_kernel_imports(import_graph()) == []


def test_at_most_five_builtin_exceptions_each_with_a_reason() -> None:
    assert len(BUILTIN_EXCEPTIONS) <= 5
    for modules, reason in BUILTIN_EXCEPTIONS.values():
        assert modules and all(m.startswith(CORE) for m in modules)
        assert len(reason) > 20


def test_the_public_check_sees_a_kernel_import() -> None:
    graph = {
        BUILTINS + ".tools.x": {"tether.tools", CORE + "agent.tools"},
        BUILTINS + ".commands.pi_forms": {CORE + "cli.argv", CORE + "cli.app"},
    }
    assert builtin_kernel_imports(graph) == [
        f"{BUILTINS}.commands.pi_forms -> {CORE}cli.app",
        f"{BUILTINS}.tools.x -> {CORE}agent.tools",
    ]


def test_the_contract_never_imports_a_builtin_plugin() -> None:
    """``tether.hookspecs`` is what every plugin builds on: a type it names lives there (or in
    the kernel), never in a built-in plugin that a user may disable or replace."""
    found = sorted(
        f"{name} -> {dep}"
        for name, deps in _imports_of("tether.hookspecs").items()
        for dep in deps
        if dep.startswith(BUILTINS)
    )
    assert found == []
