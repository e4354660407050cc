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


def test_the_readme_is_a_short_front_page() -> None:
    """The README stays a front page (at most 200 lines); the detail lives in docs/."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    for heading in ("## Requirements", "## Quickstart", "## Use a real model", "## The faux model"):
        assert heading in text


def test_the_pi_flags_the_readme_says_tether_refuses_are_refused(tmp_path: Path) -> None:
    """Each pi flag the README lists as not taken is one error line and exit 2, never a prompt."""
    from tests.cli_in_process import run_in_process

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = text[text.index("except pi's extension") : text.index("each is one error line")]
    flags = sorted(set(re.findall(r"`(--[a-z-]+)", listed)) - {"--disable-plugin", "--tools"})
    assert len(flags) >= 10
    for flag in flags:
        args = (
            [flag]
            if flag.startswith("--no-") or flag in ("--offline", "--verbose")
            else [flag, "x"]
        )
        done = run_in_process("-p", *args, "--provider", "faux", "hi", home=tmp_path, cwd=tmp_path)
        assert done.returncode == 2, (flag, done.stdout, done.stderr)
        assert done.stdout == ""
        assert f"No such option: {flag}" in done.stderr and len(done.stderr.splitlines()) <= 2
