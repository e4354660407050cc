"""The tree stays ruff-clean (ruff is part of the dev extra)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert exe, "ruff is not installed: python -m pip install -e '.[dev]'"
    return subprocess.run([exe, *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_ruff_check_is_clean() -> None:
    result = _ruff("check", ".", "--output-format", "concise")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean() -> None:
    result = _ruff("format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_module_has_at_most_400_lines() -> None:
    """The project rule: small modules with one concept (split one that grows past 400)."""
    folders = [ROOT / "tether", ROOT / "plugin_examples"]
    sizes = {
        path.relative_to(ROOT).as_posix(): len(path.read_bytes().splitlines())
        for folder in folders
        for path in folder.rglob("*.py")
    }
    assert {name: n for name, n in sizes.items() if n > 400} == {}
