"""The plugin contract: ``import tether`` is all a plugin needs; one typed session protocol.

The examples under ``plugin_examples/`` import only ``tether``; every type a hookspec names is
exported by ``tether``; the hook reference's examples run; every hook's ``session`` is a
:class:`tether.HookSession`, whose act side raises one clear error where no agent runs.
"""

from __future__ import annotations

import ast
import inspect
import re
import textwrap
import types
from pathlib import Path

import pytest

import tether
from tether.core.host.manager import create_plugin_manager

ROOT = Path(__file__).resolve().parent.parent


def _example_modules() -> list[Path]:
    found = []
    for project in sorted((ROOT / "plugin_examples").iterdir()):
        for package in sorted(project.iterdir()):
            if (package / "__init__.py").exists() and package.name != "tests":
                found.extend(sorted(package.rglob("*.py")))
    return found


def _private_imports(path: Path) -> list[str]:
    """``tether.<anything>`` imports of a module (``import tether`` / ``from tether import``
    are the public way)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found += [f"{path.name}:{node.lineno} {n}" for n in names if n.startswith("tether.")]
    return found


def test_plugin_examples_import_only_the_public_tether() -> None:
    modules = _example_modules()
    assert len({p.parts[-3] for p in modules}) == 4, modules  # all four examples are checked
    offenders = [hit for path in modules for hit in _private_imports(path)]
    assert offenders == []


NOT_TYPES = {
    "Any", "Callable", "Mapping", "None", "list", "dict", "str", "int", "bool", "tuple", "float",
    "frozenset",
}  # fmt: skip


def test_every_type_a_hook_receives_or_returns_is_exported() -> None:
    pm = create_plugin_manager(environ={}, load_entry_points=False)
    named: set[str] = set()
    for name in pm.hook_names():
        spec = getattr(pm.hook, name).spec.function
        annotations = [str(a) for a in inspect.get_annotations(spec).values()]
        named |= {w for a in annotations for w in re.findall(r"[A-Za-z_]\w*", a)}
    missing = sorted(n for n in named - NOT_TYPES if n not in tether.__all__)
    assert missing == []
    assert "HookSession" in named  # every hook's session is typed


def test_every_hook_with_a_session_argument_types_it_as_the_protocol() -> None:
    pm = create_plugin_manager(environ={}, load_entry_points=False)
    for name in pm.hook_names():
        spec = getattr(pm.hook, name).spec.function
        annotations = inspect.get_annotations(spec)
        if "session" in annotations:
            assert annotations["session"] == "HookSession", name


def _example(hook: str) -> str:
    pm = create_plugin_manager(environ={}, load_entry_points=False)
    doc = inspect.getdoc(getattr(pm.hook, hook).spec.function) or ""
    return textwrap.dedent(doc.split("Example::", 1)[1]).strip("\n")


def test_the_register_tools_example_of_the_reference_works(tmp_path: Path) -> None:
    module = types.ModuleType("hello_plugin")
    exec("from tether import *\n" + _example("register_tools"), module.__dict__)  # noqa: S102
    from tether.core.agent.tools import collect_tools

    pm = create_plugin_manager(environ={}, plugins=[("hello_plugin", module)])
    tool = collect_tools(pm)["hello"]
    result = tool.execute("call-1", {"name": "Ada"}, tether.ToolContext(cwd=str(tmp_path)))
    assert result.content == [{"type": "text", "text": "Hello, Ada!"}]


def test_the_session_protocol_in_a_running_agent_and_in_a_session_command(
    tmp_path: Path,
) -> None:
    from tether.core.base.settings import Settings
    from tether.core.hooks.facade import Hooks
    from tether.core.hooks.plugin_session import PluginSession
    from tether.core.session.session import Session

    session = Session.in_memory(str(tmp_path))
    first = session.append_message({"role": "user", "content": "hi", "timestamp": 1})
    settings = Settings.model_validate({"plugins": {"mine": {"level": 3}}})
    view = PluginSession.reading(
        session, Hooks(create_plugin_manager(environ={})), None, settings=settings
    )
    assert isinstance(view, tether.HookSession)
    assert view.plugin_settings("mine") == {"level": 3}
    assert view.plugin_settings("other") == {}
    assert view.leaf_id == first and view.get_entry(first)["type"] == "message"
    assert [e["id"] for e in view.entries()] == [first] == [e["id"] for e in view.get_branch()]
    assert view.header["type"] == "session" and view.cwd == str(tmp_path)
    assert view.thinking_level == "off" and view.model is None and not view.has_agent
    for action, call in (
        ("send_message", lambda: view.send_message({"customType": "x", "content": "y"})),
        ("send_user_message", lambda: view.send_user_message("go")),
        ("append_entry", lambda: view.append_entry("state", {})),
        ("set_label", lambda: view.set_label(first, "here")),
        ("set_name", lambda: view.set_name("a name")),
    ):
        with pytest.raises(tether.NoAgentError, match=rf"session\.{action}\(\) needs a running"):
            call()
    assert len(session) == 1  # nothing was written


def test_typed_errors_of_guards_and_observers_are_contained_and_named() -> None:
    from tether.core.hooks.facade import Hooks
    from tether.hookspecs import hookimpl

    class Broken:
        @hookimpl
        def agent_event(self, event):
            raise tether.TetherError("observer broke")

        @hookimpl
        def before_tool_call(self, event):
            raise tether.TetherError("guard broke")

    warnings: list[str] = []
    pm = create_plugin_manager(environ={}, load_entry_points=False, plugins=[("broken", Broken())])
    hooks = Hooks(pm, on_warning=warnings.append)
    hooks.agent_event(event=tether.AgentEvent("turn_start"), session=None)  # does not raise
    event = tether.BeforeToolCallEvent("c1", "bash", {"command": "ls"})
    verdict = hooks.before_tool_call(event=event, session=None)
    assert isinstance(verdict, tether.Block)
    assert verdict.reason == "blocked: plugin 'broken' failed in before_tool_call: guard broke"
    assert warnings == [
        "plugin 'broken' failed in agent_event: observer broke",
        "plugin 'broken' failed in before_tool_call: guard broke; the bash call was blocked",
    ]
