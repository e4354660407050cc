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

@hookimpl
def count_tokens(messages, model):
    return [7 for _ in messages]
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
