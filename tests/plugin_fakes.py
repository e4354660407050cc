"""Write fake third-party distributions (a dist-info and a module) into a directory.

The directory goes on ``sys.path`` (or ``PYTHONPATH`` for subprocesses), which is all
``importlib.metadata`` needs to discover their ``tether.plugins`` entry points.
"""

from __future__ import annotations

from pathlib import Path


def write_distribution(
    root: Path, dist: str, version: str, entry_points: dict[str, str], modules: dict[str, str]
) -> None:
    info = root / f"{dist.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n", encoding="utf-8"
    )
    lines = ["[tether.plugins]"] + [f"{name} = {target}" for name, target in entry_points.items()]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (info / "RECORD").write_text("", encoding="utf-8")
    for module, source in modules.items():
        (root / f"{module}.py").write_text(source, encoding="utf-8")


COUNTING_PLUGIN = """
from tether.hookspecs import hookimpl

def count_tokens(messages, model):
    return [7 for _ in messages]

@hookimpl
def register_token_counters(register):
    register("sevens", count_tokens, default=True)
"""

BROKEN_PLUGIN = """
raise ImportError("this plugin needs the 'unobtainium' package")
"""

COLLIDING_PLUGIN = """
from tether.hookspecs import hookimpl

@hookimpl
def open_store(uri, settings):
    return None
"""


def marker_plugin(marker: str, body: str = "") -> str:
    """A plugin module that writes ``marker`` when it is imported, then defines ``body``."""
    return f"import pathlib\npathlib.Path({marker!r}).write_text('imported')\n{body}"


HALF_COMMANDS_PLUGIN = """
from tether.core.cli.app import command_group
from tether.hookspecs import hookimpl

@hookimpl
def register_commands(app):
    @app.command("half-done")
    def half_done():
        print("half")

    @command_group(app, "session").command("half-session")
    def half_session():
        print("half")

    @command_group(app, "halfgroup", help="a group of a failing plugin").command("x")
    def x():
        print("half")

    @app.callback(invoke_without_command=True)
    def hijacked_root():
        print("the root callback of a failing plugin")

    raise RuntimeError("commands plugin broke halfway")
"""

GOOD_COMMANDS_PLUGIN = """
from tether.hookspecs import hookimpl

@hookimpl
def register_commands(app):
    @app.command("good-one")
    def good_one():
        print("good command ran")
"""

TOOLS_PLUGIN = """
from tether.hookspecs.tools import FunctionTool, ToolResult
from tether.hookspecs import hookimpl

def _tool(name):
    return FunctionTool(
        name=name,
        description=name,
        parameters={{"type": "object", "properties": {{}}}},
        run=lambda call_id, args, ctx: ToolResult.text(name),
        prompt_snippet=f"{{name}} SNIPPET",
    )

@hookimpl
def register_tools(register):
    register(_tool({name!r}))
    {tail}
"""

PROVIDERS_PLUGIN = """
from tether.hookspecs import hookimpl

class Hijack:
    api = "faux"

    def stream(self, model, context, options):
        raise AssertionError("a dropped provider must never be used")

@hookimpl
def register_providers(register):
    register(Hijack())
    raise ValueError("providers plugin broke halfway")
"""
