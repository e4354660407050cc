"""The import graph of ``tether/``: no import loops, and the kernel never imports a plugin.

Every ``import``/``from … import`` anywhere in a module counts (inside functions and
``if TYPE_CHECKING:`` blocks too: a lazy import is still a loop), relative imports resolved.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tether"

# No known loops: the harness's collaborators depend on protocols, not on the harness.
KNOWN_LOOPS: list[set[str]] = []


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The tether modules ``name`` imports (``from pkg import mod`` counts as ``pkg.mod``)."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            targets.add(module)
            targets.update(f"{module}.{alias.name}" for alias in node.names)
    return {t for t in targets if t in modules and t != name}


@cache
def _graph() -> dict[str, frozenset[str]]:
    modules = _modules()
    return {name: frozenset(_imports(name, path, modules)) for name, path in modules.items()}


def import_graph() -> dict[str, set[str]]:
    """Module → the tether modules it imports (a copy of the worker's one walk of the source:
    parsing ~300 files is ~1 s of CPU, and several tests of three files ask for the graph)."""
    return {name: set(deps) for name, deps in _graph().items()}


def import_loops(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    loops: list[set[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    loops.append(component)
    return loops


def test_the_checker_finds_a_loop() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert import_loops(graph) == [{"a", "b", "c"}]


def test_the_walk_sees_lazy_and_relative_imports(tmp_path: Path) -> None:
    module = tmp_path / "mod.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from tether.core.session.session import Session\n"
        "def f():\n    from . import loop\n"
        "    import tether.builtin_plugins.storage.format.stringify\n"
    )
    modules = {
        n: Path()
        for n in (
            "tether.core.session.session",
            "tether.core.agent.loop",
            "tether.builtin_plugins.storage.format.stringify",
        )
    }
    found = _imports("tether.core.agent.mod", module, modules)
    assert found == {
        "tether.core.session.session",
        "tether.core.agent.loop",
        "tether.builtin_plugins.storage.format.stringify",
    }


def test_no_import_loops() -> None:
    loops = import_loops(import_graph())
    assert sorted(map(sorted, loops)) == sorted(map(sorted, KNOWN_LOOPS)) == []


def test_no_kernel_module_imports_the_harness_class() -> None:
    """The harness's collaborators take a protocol or arguments, never ``Harness`` itself."""
    graph = import_graph()
    users = {
        name
        for name, targets in graph.items()
        if name.startswith("tether.core") and "tether.core.harness.harness" in targets
    }
    assert users == set()


def test_no_method_annotates_self() -> None:
    """No mixin spread over modules: a ``self: SomeClass`` annotation marks one."""
    found = []
    for name, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.args.args:
                first = node.args.args[0]
                if first.arg == "self" and first.annotation is not None:
                    found.append(f"{name}.{node.name}")
    assert found == []


def test_the_kernel_imports_no_plugin() -> None:
    graph = import_graph()
    leaks = {
        (name, target)
        for name, targets in graph.items()
        if name.startswith("tether.core")
        for target in targets
        if target.startswith("tether.builtin_plugins")
    }
    assert not leaks
