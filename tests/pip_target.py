"""``pip install --no-deps --target SITE PROJECTS`` for the tests that install a plugin project
(the examples, the plugin of docs/plugins.md). An isolated build environment costs ~5 s of CPU
per call (a fresh setuptools installed into it); the dev extra pins a setuptools the projects'
``build-system`` accepts, so the build uses it in place. Without one, pip isolates as usual."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

SETUPTOOLS_MAJOR = 77  # the projects' ``requires = ["setuptools>=77"]``


def _setuptools_fits() -> bool:
    try:
        major = version("setuptools").split(".")[0]
    except PackageNotFoundError:
        return False
    return major.isdigit() and int(major) >= SETUPTOOLS_MAJOR


def pip_install(site: Path, *projects: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Install ``projects`` (paths, relative to ``cwd``) into ``site``; the finished process."""
    isolation = ["--no-build-isolation"] if _setuptools_fits() else []
    return subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", *isolation,
         "--target", str(site), *projects],
        cwd=cwd, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


__all__ = ["pip_install"]
