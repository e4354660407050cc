"""The public API is curated; the built-in plugins and their entry points match."""

from __future__ import annotations

import inspect
import tomllib
from pathlib import Path

import tether
from tether.core.host.manager import create_plugin_manager

ROOT = Path(__file__).resolve().parent.parent


def test_public_names_are_exactly_the_curated_list() -> None:
    expected = {
        "__version__",
        "hookimpl",
        "hookspec",
        "create_plugin_manager",
        "PluginManager",
        "PluginError",
        "Hooks",
        "TetherError",
        "SessionFileError",
        "SessionBusyError",
        "SessionChangedError",
        "Session",
        "SessionLease",
        "SessionContext",
        "build_session_context",
        "build_context_from_path",
        "convert_to_llm",
        "load_settings",
        "Settings",
        "Harness",
        "Agent",
        "ProviderRegistry",
        "Model",
        "ProviderError",
        "compact",
        "navigate_tree",
        "FunctionTool",
        "ToolResult",
        "ToolContext",
        "Section",
        "Provider",
        "SessionStore",
        "PromptOptions",
        "HookSession",
        "NoAgentError",
        "HookError",
        "Message",
        "Entry",
        "InputEvent",
        "BeforeAgentStartEvent",
        "ContextEvent",
        "PruneEvent",
        "PrunedContext",
        "BeforeToolCallEvent",
        "ToolResultEvent",
        "AgentEvent",
        "BeforeCompactEvent",
        "CompactEvent",
        "CompactionSettings",
        "BeforeTreeEvent",
        "TreeEvent",
        "BeforeForkEvent",
        "Block",
        "Cancel",
        "CustomCompaction",
        "CustomBranchSummary",
        "CompactionPreparation",
        "NothingToCompact",
        "PrepareRequest",
        "SummarizeRequest",
        "Summary",
        "RetryDecision",
        "SummaryCheck",
        "SummaryAttempt",
        "GateVerdict",
    }
    assert set(tether.__all__) == expected
    for name in tether.__all__:
        assert getattr(tether, name) is not None, name
    assert "tether.core.harness.harness" not in dir(tether)


def test_import_tether_is_cheap() -> None:
    import subprocess
    import sys

    probe = (
        "import sys, tether; "
        "print(sorted(m for m in ('httpx', 'pydantic', 'typer', 'tether.core.session.session') "
        "if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_builtin_modules_and_entry_points_are_the_same_set() -> None:
    """Every module of ``builtin_plugins/`` that implements a hook is an entry point, and every
    entry point is such a module (helpers implement none)."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    declared = set(pyproject["project"]["entry-points"]["tether.plugins"].values())
    plugins_dir = ROOT / "tether" / "builtin_plugins"
    implementing = set()
    for path in plugins_dir.rglob("*.py"):
        if "@hookimpl" in path.read_text(encoding="utf-8"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            implementing.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    assert declared == implementing


def test_every_builtin_is_loaded_as_a_builtin() -> None:
    pm = create_plugin_manager(environ={})
    builtins = {r.name for r in pm.records.values() if r.builtin and r.status == "loaded"}
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert builtins == set(pyproject["project"]["entry-points"]["tether.plugins"])


def test_hookspec_docstrings_are_full_contracts() -> None:
    pm = create_plugin_manager(environ={}, load_entry_points=False)
    for name in pm.hook_names():
        spec = getattr(pm.hook, name).spec
        doc = inspect.getdoc(spec.function) or ""
        for part in ("When:", "Return", "Ordering:", "Example"):
            assert part in doc, f"hook {name}: docstring lacks {part!r}"


def test_kernel_does_not_import_builtin_plugins() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in (ROOT / "tether" / "core").rglob("*.py")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if line.strip().startswith(("import tether.builtin_plugins", "from tether.builtin_plugins"))
    ]
    assert offenders == []


def test_hook_reference_document_is_up_to_date() -> None:
    from tether.core.host.docs import hooks_markdown

    document = (ROOT / "docs" / "hooks.md").read_text(encoding="utf-8")
    assert document == hooks_markdown(), "regenerate with: tether hooks --markdown > docs/hooks.md"
    pm = create_plugin_manager(environ={}, load_entry_points=False)
    assert document.count("\n### `") == len(pm.hook_names())
