"""The public API is curated; the built-in plugins and their entry points match."""

from __future__ import annotations

import ast
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
        "peek_setting",
        "tether_home",
        "warn_once",
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
        "BranchPreparation",
        "NothingToCompact",
        "PrepareRequest",
        "SummarizeRequest",
        "Summary",
        "RetryDecision",
        "SummaryCheck",
        "SummaryAttempt",
        "SummaryPlan",
        "GateVerdict",
        "ModelRegistry",
        "message_from_entry",
        "context_message",
        "FileOps",
        "file_operations",
        "file_lists",
        "format_file_lists",
        "estimate_tokens",
        "is_cut_point",
        "find_valid_cut_points",
        "cut_problem",
        "Pins",
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


def _type_checking_imports(source: str) -> dict[str, str]:
    """Name → module of the ``from M import N`` lines under ``if TYPE_CHECKING:`` (``*``: the
    names of ``M.__all__``, as type checkers read it)."""

    found: dict[str, str] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for inner in ast.walk(node):
                if isinstance(inner, ast.ImportFrom):
                    module = inner.module or ""
                    for alias in inner.names:
                        names = [alias.asname or alias.name]
                        if alias.name == "*":
                            found.update(_star_homes(module))
                            continue
                        found.update(dict.fromkeys(names, module))
    return found


def _star_homes(module: str) -> dict[str, str]:
    """``module.__all__``, each name homed where ``module`` imports it from at its top level
    (``from X import N``: ``X``, so using the name never imports ``module``), else in it."""
    import importlib

    names = importlib.import_module(module).__all__
    source = Path(importlib.import_module(module).__file__ or "").read_text(encoding="utf-8")
    imported = {
        alias.asname or alias.name: node.module or ""
        for node in ast.parse(source).body
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tether")
        for alias in node.names
    }
    return {name: imported.get(name, module) for name in names}


def test_type_checkers_see_every_export() -> None:
    """The lazy exports (``_EXPORTS``, read by tether/_lazy.py) are exactly the names Python's
    parser finds imported under ``TYPE_CHECKING`` (what mypy, pyright and IDEs read)."""
    source = (ROOT / "tether" / "__init__.py").read_text(encoding="utf-8")
    assert _type_checking_imports(source) == tether._EXPORTS


def test_the_type_checking_check_sees_a_missing_name() -> None:
    source = "if TYPE_CHECKING:\n    from tether.hookspecs import hookimpl\n"
    assert _type_checking_imports(source) == {"hookimpl": "tether.hookspecs"}
    assert _type_checking_imports(source) != tether._EXPORTS


def test_the_export_reader_agrees_with_pythons_parser() -> None:
    """Aliases, comments, one-line and parenthesised imports, and the block's end."""
    from tether._lazy import type_checking_exports

    source = (
        "import os\n"
        "if TYPE_CHECKING:  # exports\n"
        "    from a.b import c, d as e  # two\n"
        "    from f import (\n"
        "        G,  # one\n"
        "        h as H,\n"
        "    )\n"
        "\n"
        "    from i import j\n"
        "from k import not_an_export\n"
    )
    expected = {"c": "a.b", "e": "a.b", "G": "f", "H": "f", "j": "i"}
    assert type_checking_exports(source) == _type_checking_imports(source) == expected


def test_a_star_export_is_the_modules_own_list() -> None:
    """``from M import *`` re-exports ``M.__all__``, read from M's source without importing it
    (one list, kept in M)."""
    from tether._lazy import type_checking_exports
    from tether.hookspecs import events

    source = "if TYPE_CHECKING:\n    from tether.hookspecs.events import *  # noqa: F403\n"
    expected = dict.fromkeys(events.__all__, "tether.hookspecs.events")
    assert type_checking_exports(source) == _type_checking_imports(source) == expected
    assert "PrepareRequest" in expected and "Block" in expected


def test_a_star_export_homes_a_reexported_name_where_it_comes_from() -> None:
    """A name the star module itself imports (an error class in ``tether.hookspecs.providers``)
    is homed where it is defined: using it never imports the heavier module."""
    from tether._lazy import type_checking_exports

    source = "if TYPE_CHECKING:\n    from tether.hookspecs.providers import *  # noqa: F403\n"
    found = type_checking_exports(source)
    assert found == _type_checking_imports(source)
    assert found["ProviderError"] == "tether.core.base.errors"
    assert found["Model"] == "tether.hookspecs.providers"


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
    from tether.builtin_plugins.commands.introspect.hooks_doc import hooks_markdown

    document = (ROOT / "docs" / "hooks.md").read_text(encoding="utf-8")
    assert document == hooks_markdown(), "regenerate with: tether hooks --markdown > docs/hooks.md"
    pm = create_plugin_manager(environ={}, load_entry_points=False)
    assert document.count("\n### `") == len(pm.hook_names())


def test_the_store_toolkit_is_exactly_the_curated_list() -> None:
    """``tether.storage`` is for store plugins: the contract, its records, errors, helpers."""
    import tether.storage

    assert set(tether.storage.__all__) == {
        "CURRENT_SESSION_VERSION",
        "ContextStream",
        "Held",
        "Pending",
        "SessionBusyError",
        "SessionChangedError",
        "SessionFileError",
        "UsageError",
        "check_store",
        "PluginScope",
        "default_plugins",
        "loads_std",
        "make_branch_summary",
        "make_compaction",
        "make_custom",
        "make_custom_message",
        "make_label",
        "make_message_entry",
        "make_model_change",
        "make_session_info",
        "make_thinking_level_change",
        "REOPEN",
        "BadRef",
        "BrokenLine",
        "ContextBatches",
        "EntryBatch",
        "EntryTable",
        "LoadedSession",
        "Problem",
        "SessionStore",
        "StaleRow",
        "StoreConnectionError",
        "StoreError",
        "date_parse_ms",
        "describe_uri",
        "entry_problem",
        "iso_from_ms",
        "iso_now",
        "json_error",
        "lease_session",
        "lease_store",
        "make_header",
        "new_entry_id",
        "new_session_id",
        "now_ms",
        "open_store",
        "parent_of",
        "parse_json_line",
        "parse_json_object",
        "uri_without_password",
    }
    for name in tether.storage.__all__:
        assert getattr(tether.storage, name) is not None, name


def test_the_store_plugins_use_the_public_toolkit_not_the_kernel() -> None:
    """The SQL and JSONL store plugins import ``tether.storage``, never ``tether.core.storage``."""
    from tests.test_import_graph import import_graph

    found = sorted(
        f"{name} -> {dep}"
        for name, deps in import_graph().items()
        if name.startswith(
            (
                "tether.builtin_plugins.storage.sqlite",
                "tether.builtin_plugins.storage.postgresql",
                "tether.builtin_plugins.storage.sql",
                "tether.builtin_plugins.storage.sql.rows",
                "tether.builtin_plugins.storage.sql.index_runs",
            )
        )
        for dep in deps
        if dep.startswith("tether.core.storage")
    )
    assert found == []


#: The public modules for plugins of one kind (docs/plugins.md, "Public modules"): each name is
#: a promise to third-party authors, so each list is curated here.
KIND_MODULES: dict[str, set[str]] = {
    "tether.cli": {
        "command_group",
        "WaitOpt",
        "UsageError",
        "HookInterrupted",
        "SessionWriteError",
        "LazySettings",
        "peek_section",
        "json_text",
        "ModelRequest",
        "assemble_system_prompt",
        "build_prompt_options",
        "collect_fact_cues",
        "ordered_hookimpls",
    },
    "tether.memory": {
        "USER_ROLE_ENTRY_TYPES",
        "entry_role",
        "role_in",
        "context_message",
        "compaction_summary_message",
        "message_from_entry",
        "model_of_source",
        "FileOps",
        "file_lists",
        "assistant_usage",
        "calculate_context_tokens",
        "should_compact",
        "context_tokens",
        "content_text",
        "block_parts",
        "js_stringify",
        "compaction_settings",
        "gate_line",
        "summary_budgets",
        "check_choices",
        "run_strategy",
        "token_counter",
        "strip_file_lists",
        "context_usage",
        "KINDS",
        "choose",
        "registered",
    },
    "tether.providers": {
        "Model",
        "Provider",
        "LlmContext",
        "StreamOptions",
        "StreamEvent",
        "IDLE_TIMEOUT",
        "drain",
        "empty_usage",
        "now_ms",
        "ProviderError",
        "ProviderConfigError",
        "TransientError",
        "PermanentError",
        "ContextOverflowError",
        "AbortedError",
        "prepare_for_provider",
        "BRANCH_SUMMARY_PREFIX",
        "COMPACTION_SUMMARY_PREFIX",
        "token_count",
        "drop_non_finite",
        "encode_json_body",
        "dumps_clean",
        "read_json_file",
        "tether_home",
        "warn_once",
    },
    "tether.sessions": {
        "sessions_root",
        "default_session_dir",
        "session_file_name",
        "list_sessions",
        "most_recent_session",
        "project_folders",
        "read_header",
        "session_files",
        "current_pins",
        "pin_entry",
        "pin_text",
        "unpin",
        "compaction_history",
        "context_usage_of",
        "session_stats",
        "stats_text",
        "economy_totals",
        "prune_history",
        "bulk",
    },
    "tether.tools": {
        "FunctionTool",
        "ToolContext",
        "ToolResult",
        "ToolError",
        "collect_tools",
        "order_tools",
        "annotated",
        "js_len",
        "js_slice",
        "js_number",
        "entry_text",
    },
}


def test_kind_modules_export_exactly_the_curated_names() -> None:
    import importlib

    for name, expected in KIND_MODULES.items():
        module = importlib.import_module(name)
        assert set(module.__all__) == expected, name
        for export in module.__all__:
            assert getattr(module, export) is not None, f"{name}.{export}"
        source = (ROOT / Path(*name.split("."))).with_suffix(".py").read_text(encoding="utf-8")
        assert _type_checking_imports(source) == module._EXPORTS, name


def test_a_name_in_tether_and_a_kind_module_is_one_object() -> None:
    import importlib

    for name in KIND_MODULES:
        module = importlib.import_module(name)
        for export in set(module.__all__) & set(tether.__all__):
            assert getattr(module, export) is getattr(tether, export), f"{name}.{export}"


def test_kind_modules_import_no_kernel_module_until_a_name_is_used() -> None:
    import subprocess
    import sys

    probe = (
        "import sys, tether.cli, tether.memory, tether.providers, tether.sessions, tether.tools; "
        "print(sorted(m for m in sys.modules "
        "if m.startswith(('tether.core', 'httpx', 'pydantic', 'typer'))))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
