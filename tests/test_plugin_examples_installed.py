"""The example plugins' tests need only ``tether`` (its testing kit) and pytest: no ``tests``
package of this repository. Every example's tests are checked for such imports; the two
in-process ones are run for real, pip-installed on their own into a temporary folder and
run from a copy outside the repository (the subprocess-heavy two run in the suite itself).
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.pip_target import pip_install

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(
    p for p in (ROOT / "plugin_examples").iterdir() if (p / "pyproject.toml").exists()
)
RUN_STANDALONE = ("tether-git-status", "tether-tool-guard")


def _imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_example_tests_import_tether_and_their_plugin_only(example: Path) -> None:
    files = sorted((example / "tests").glob("*.py"))
    assert files
    for file in files:
        found = _imported(file)
        assert not {n for n in found if n == "tests" or n.startswith("tests.")}, file
        private = {n for n in found if n.startswith("tether.") and n != "tether.testing"}
        assert not private, f"{file}: {sorted(private)}"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """Copies of the standalone examples without their packages, and the folder where pip
    installed those (one pip call: its build environment costs seconds)."""
    root = tmp_path_factory.mktemp("examples")
    site = root / "site"
    for name in RUN_STANDALONE:
        shutil.copytree(ROOT / "plugin_examples" / name, root / name)
    done = pip_install(site, *(f"./{name}" for name in RUN_STANDALONE), cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    for name in RUN_STANDALONE:
        (package,) = [p for p in (root / name).glob("tether_*/__init__.py")]
        shutil.rmtree(package.parent)  # the installed copy is the one imported
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TETHER_", "PYTEST_"))}
    env["PYTHONPATH"] = str(site)
    return root, env


@pytest.mark.parametrize("name", RUN_STANDALONE)
def test_example_passes_installed_on_its_own(
    installed: tuple[Path, dict[str, str]], name: str
) -> None:
    root, env = installed
    copy = root / name
    probe = subprocess.run([sys.executable, "-c", "import tests.harness_helpers"],
                           cwd=copy, env=env, capture_output=True, text=True)  # fmt: skip
    assert probe.returncode != 0  # no tests package of this repository on the path
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(copy),
         "-c", os.devnull, "tests"],
        cwd=copy, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert " passed" in done.stdout and "failed" not in done.stdout
