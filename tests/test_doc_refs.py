"""Documentation references: every ``tether/…`` path the docs name exists, and no docstring or
comment in ``tether/`` points at a document that is not shipped ("spec §…", "design §…")."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
PATH = re.compile(r"(?<![\w./-])(tether/[\w./-]*[\w/])")


def test_no_references_to_unshipped_documents() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted((ROOT / "tether").rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"(spec|design|pi's) ?§|§ ?\d", line)
    ]
    assert found == []


def test_every_tether_path_named_in_the_docs_exists() -> None:
    missing = [
        f"{doc.name}: {name}"
        for doc in DOCS
        for name in PATH.findall(doc.read_text(encoding="utf-8"))
        if not (ROOT / name.rstrip("/")).exists()
        and not (ROOT / (name.rstrip("/") + ".py")).exists()
    ]
    assert missing == []


def test_the_docs_name_paths() -> None:
    names = PATH.findall((ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8"))
    assert len(set(names)) >= 40


def test_the_architecture_names_every_kernel_module() -> None:
    """A newcomer finds every room: each module of a ``tether/core/`` layer is named in its
    row of the architecture's table (a new module without a line there fails)."""
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    rows = {
        match.group(1): match.group(0)
        for match in re.finditer(r"^\| `tether/core/(\w+)/` \|.*$", text, re.M)
    }
    missing = [
        f"core/{layer.name}/{module.name}"
        for layer in sorted((ROOT / "tether" / "core").iterdir())
        if layer.is_dir() and layer.name != "__pycache__"
        for module in sorted(layer.glob("*.py"))
        if module.name != "__init__.py" and f"`{module.name}`" not in rows.get(layer.name, "")
    ]
    assert missing == []
