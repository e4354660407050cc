"""Skills: ``SKILL.md`` files whose frontmatter describes when to use them (pi's skills).

Discovery in a skills directory: a directory holding ``SKILL.md`` is one skill (nothing
deeper is searched); other directories are searched recursively; loose ``*.md`` files directly
in the root are skills too. Dot entries and ``node_modules`` are skipped. Frontmatter keys:
``name`` (default: the parent directory's name; naming-rule violations are warnings only),
``description`` (required — without it the skill is not loaded) and
``disable-model-invocation`` (hidden from the prompt, still usable as ``/skill:name``).
The first skill registered under a name wins; later ones are reported as collisions.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_NAME_LENGTH = 64
MAX_DESCRIPTION_LENGTH = 1024
_NAME_CHARS = re.compile(r"^[a-z0-9-]+$")
_KEY_LINE = re.compile(r"^([A-Za-z0-9_-]+)\s*:\s*(.*)$")
_ESCAPE = re.compile(r"\\(.)")
_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "/": "/"}


@dataclass(frozen=True)
class Skill:
    """A loaded skill."""

    name: str
    description: str
    file_path: str
    base_dir: str
    disable_model_invocation: bool = False
    source: str = ""


def _scalar(raw: str) -> Any:
    value = raw.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        inner = value[1:-1]
        if value[0] == "'":
            return inner.replace("''", "'")
        return _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(0)), inner)
    if value in ("true", "True", "yes"):
        return True
    if value in ("false", "False", "no"):
        return False
    if " #" in value:
        value = value.split(" #", 1)[0].rstrip()
    return value


def parse_frontmatter(text: str) -> tuple[dict[str, Any], str]:
    """(keys, body) of a Markdown file with ``---`` YAML-style frontmatter.

    Supports what skill files use: ``key: value`` lines with plain, quoted or boolean values,
    and ``>`` / ``|`` block values on indented lines. Without frontmatter: ``({}, text)``.
    """
    normalized = text.replace("\r\n", "\n")
    if not normalized.startswith("---\n"):
        return {}, text
    end = normalized.find("\n---", 3)
    if end == -1:
        return {}, text
    block = normalized[4:end]
    rest = normalized[end + 4 :]
    body = rest[rest.find("\n") + 1 :] if "\n" in rest else ""
    data: dict[str, Any] = {}
    lines = block.split("\n")
    i = 0
    while i < len(lines):
        match = _KEY_LINE.match(lines[i])
        i += 1
        if not match:
            continue
        key, value = match.group(1), match.group(2).strip()
        if value[:1] in (">", "|"):
            chunk: list[str] = []
            while i < len(lines) and (lines[i].startswith((" ", "\t")) or not lines[i].strip()):
                chunk.append(lines[i].strip())
                i += 1
            joiner = " " if value.startswith(">") else "\n"
            data[key] = joiner.join(chunk).strip()
        else:
            data[key] = _scalar(value)
    return data, body


def _name_problems(name: str, parent: str) -> list[str]:
    problems = []
    if name != parent:
        problems.append(f'name "{name}" does not match parent directory "{parent}"')
    if len(name) > MAX_NAME_LENGTH:
        problems.append(f"name exceeds {MAX_NAME_LENGTH} characters ({len(name)})")
    if not _NAME_CHARS.match(name):
        problems.append(
            "name contains invalid characters (must be lowercase a-z, 0-9, hyphens only)"
        )
    if name.startswith("-") or name.endswith("-"):
        problems.append("name must not start or end with a hyphen")
    if "--" in name:
        problems.append("name must not contain consecutive hyphens")
    return problems


def load_skill_file(path: Path, source: str, warnings: list[str]) -> Skill | None:
    """One skill from its Markdown file, or ``None`` (reason appended to ``warnings``)."""
    try:
        meta, _ = parse_frontmatter(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        warnings.append(f"{path}: cannot read skill: {exc}")
        return None
    parent = path.parent.name
    description = meta.get("description")
    if not isinstance(description, str) or not description.strip():
        warnings.append(f"{path}: description is required; skill not loaded")
        return None
    if len(description) > MAX_DESCRIPTION_LENGTH:
        warnings.append(f"{path}: description exceeds {MAX_DESCRIPTION_LENGTH} characters")
    name = meta.get("name") if isinstance(meta.get("name"), str) and meta.get("name") else parent
    warnings.extend(f"{path}: {problem}" for problem in _name_problems(name, parent))
    return Skill(
        name=name,
        description=description,
        file_path=str(path),
        base_dir=str(path.parent),
        disable_model_invocation=meta.get("disable-model-invocation") is True,
        source=source,
    )


def load_skills_from_dir(
    directory: str | Path, source: str = "", warnings: list[str] | None = None
) -> list[Skill]:
    """Every skill under ``directory`` (see the module docstring for the rules)."""
    sink = warnings if warnings is not None else []
    return _scan(Path(directory), source, sink, root=True)


def _scan(directory: Path, source: str, warnings: list[str], *, root: bool) -> list[Skill]:
    if not directory.is_dir():
        return []
    marker = directory / "SKILL.md"
    if marker.is_file():
        skill = load_skill_file(marker, source, warnings)
        return [skill] if skill else []
    try:
        entries = sorted(directory.iterdir(), key=lambda p: p.name)
    except OSError:
        return []
    skills: list[Skill] = []
    for entry in entries:
        if entry.name.startswith(".") or entry.name == "node_modules":
            continue
        if entry.is_dir():
            skills.extend(_scan(entry, source, warnings, root=False))
        elif root and entry.is_file() and entry.name.endswith(".md"):
            skill = load_skill_file(entry, source, warnings)
            if skill:
                skills.append(skill)
    return skills


def load_skills(
    cwd: str | Path,
    home: str | Path | None = None,
    *,
    extra_dirs: Sequence[str | Path] = (),
    warnings: list[str] | None = None,
) -> list[Skill]:
    """Skills from ``extra_dirs``, ``<cwd>/.tether/skills`` and ``<home>/skills``, in that
    order of precedence (the first skill with a name wins)."""
    sink = warnings if warnings is not None else []
    sources: list[tuple[Path, str]] = [(Path(d), "path") for d in extra_dirs]
    sources.append((Path(cwd) / ".tether" / "skills", "project"))
    if home is not None:
        sources.append((Path(home) / "skills", "user"))
    by_name: dict[str, Skill] = {}
    seen_dirs: set[str] = set()
    for directory, source in sources:
        key = os.path.realpath(directory)
        if key in seen_dirs:
            continue
        seen_dirs.add(key)
        for skill in load_skills_from_dir(directory, source, sink):
            if skill.name in by_name:
                sink.append(
                    f"{skill.file_path}: skill name '{skill.name}' collides with "
                    f"{by_name[skill.name].file_path}; ignored"
                )
                continue
            by_name[skill.name] = skill
    return list(by_name.values())


_SKILL_COMMAND = re.compile(r"^/skill:(\S+)(?:\s+([\s\S]*))?$")


def expand_skill_command(text: str, skills: list[Skill]) -> str:
    """Expand ``/skill:<name> [args]`` into the skill's body wrapped in a ``<skill>`` block
    (pi's format); unknown names and other text pass through unchanged."""
    match = _SKILL_COMMAND.match(text.strip())
    if not match:
        return text
    skill = next((s for s in skills if s.name == match.group(1)), None)
    if skill is None:
        return text
    try:
        _, body = parse_frontmatter(Path(skill.file_path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return text
    block = (
        f'<skill name="{skill.name}" location="{skill.file_path}">\n'
        f"References are relative to {skill.base_dir}.\n\n{body.strip()}\n</skill>"
    )
    args = (match.group(2) or "").strip()
    return f"{block}\n\n{args}" if args else block


__all__ = [
    "Skill",
    "expand_skill_command",
    "load_skill_file",
    "load_skills",
    "load_skills_from_dir",
    "parse_frontmatter",
]
