"""A pure-Python directory walk that respects ``.gitignore`` (grep and find use it).

Rules come from ``.gitignore`` and ``.ignore`` files in every visited directory, and from
those of its ancestors up to the enclosing git repository's root (plus ``.git/info/exclude``).
Deeper files win over shallower ones; inside one file the last matching rule wins; ``!``
re-includes; a trailing ``/`` matches directories only; an ignored directory is not entered.
Hidden files are included (like ``rg --hidden`` / ``fd --hidden``); ``.git`` is always skipped.
Entries come in sorted order, so results are deterministic.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

IGNORE_FILES = (".gitignore", ".ignore")
ALWAYS_SKIPPED = frozenset({".git"})


def glob_to_regex(glob: str) -> str:
    """Translate a glob (``*``, ``?``, ``[...]``, ``**``, ``{a,b}``) to a regex body; ``*``
    and ``?`` do not cross ``/``."""
    out: list[str] = []
    i = 0
    depth = 0
    while i < len(glob):
        c = glob[i]
        if c == "*":
            if glob.startswith("**", i):
                i += 2
                if i < len(glob) and glob[i] == "/":
                    out.append("(?:.*/)?")
                    i += 1
                else:
                    out.append(".*")
                continue
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            end = glob.find("]", i + 2)
            if end == -1:
                out.append(re.escape(c))
            else:
                body = glob[i + 1 : end]
                if body[:1] in ("!", "^"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = end
        elif c == "{":
            depth += 1
            out.append("(?:")
        elif c == "}" and depth:
            depth -= 1
            out.append(")")
        elif c == "," and depth:
            out.append("|")
        elif c == "\\" and i + 1 < len(glob):
            i += 1
            out.append(re.escape(glob[i]))
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


@lru_cache(maxsize=512)
def compile_glob(glob: str) -> re.Pattern[str]:
    return re.compile(glob_to_regex(glob) + r"\Z", re.DOTALL)


@dataclass(frozen=True)
class IgnoreRule:
    regex: re.Pattern[str]
    negate: bool
    dir_only: bool
    anchored: bool  # matched against the path relative to the ignore file's directory


def parse_ignore_file(text: str) -> list[IgnoreRule]:
    """The rules of one ``.gitignore``-style file."""
    rules: list[IgnoreRule] = []
    for raw in text.splitlines():
        line = raw.rstrip("\r")
        if not line.strip() or line.startswith("#"):
            continue
        line = re.sub(r"(?<!\\)\s+$", "", line)
        negate = line.startswith("!")
        if negate:
            line = line[1:]
        if line.startswith("\\"):
            line = line[1:]
        dir_only = line.endswith("/")
        line = line.rstrip("/")
        if not line:
            continue
        anchored = "/" in line
        line = line.lstrip("/")
        rules.append(IgnoreRule(compile_glob(line), negate, dir_only, anchored))
    return rules


@dataclass
class _Layer:
    base: str  # absolute directory of the ignore file
    rules: list[IgnoreRule]


def _read_rules(directory: str, names: tuple[str, ...] = IGNORE_FILES) -> list[IgnoreRule]:
    rules: list[IgnoreRule] = []
    for name in names:
        try:
            with open(os.path.join(directory, name), encoding="utf-8", errors="replace") as f:
                rules.extend(parse_ignore_file(f.read()))
        except OSError:
            continue
    return rules


def _ancestor_layers(root: str) -> list[_Layer]:
    """Ignore layers of the directories above ``root`` up to the git repository root."""
    chain: list[str] = []
    probe = root
    while not os.path.isdir(os.path.join(probe, ".git")):
        parent = os.path.dirname(probe)
        if parent == probe:
            return []  # not inside a repository: only the rules below root apply
        chain.append(parent)
        probe = parent
    layers = [_Layer(d, _read_rules(d)) for d in reversed(chain)]
    exclude = _read_rules(os.path.join(probe, ".git", "info"), ("exclude",))
    if exclude:
        layers.insert(0, _Layer(probe, exclude))
    return [layer for layer in layers if layer.rules]


def is_ignored(layers: list[_Layer], path: str, is_dir: bool) -> bool:
    """Decide with the deepest layer that has a matching rule (last match in it wins)."""
    name = os.path.basename(path)
    for layer in reversed(layers):
        rel = os.path.relpath(path, layer.base).replace(os.sep, "/")
        if rel.startswith(".."):
            continue
        decision = None
        for rule in layer.rules:
            if rule.dir_only and not is_dir:
                continue
            target = rel if rule.anchored else name
            if rule.regex.match(target):
                decision = not rule.negate
        if decision is not None:
            return decision
    return False


@dataclass
class WalkEntry:
    path: str  # absolute
    rel: str  # POSIX path relative to the walk's root
    is_dir: bool


def walk(root: str, *, respect_ignore: bool = True) -> Iterator[WalkEntry]:
    """Every file and directory below ``root`` (not ``root`` itself), depth first, sorted."""
    root = os.path.abspath(root)
    base_layers = _ancestor_layers(root) if respect_ignore else []
    yield from _walk_dir(root, root, base_layers, respect_ignore)


def _walk_dir(
    root: str, directory: str, layers: list[_Layer], respect_ignore: bool
) -> Iterator[WalkEntry]:
    if respect_ignore:
        own = _read_rules(directory)
        if own:
            layers = [*layers, _Layer(directory, own)]
    try:
        with os.scandir(directory) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        if entry.name in ALWAYS_SKIPPED:
            continue
        try:
            is_dir = entry.is_dir()
        except OSError:
            continue
        if respect_ignore and is_ignored(layers, entry.path, is_dir):
            continue
        rel = os.path.relpath(entry.path, root).replace(os.sep, "/")
        yield WalkEntry(entry.path, rel, is_dir)
        if is_dir and not entry.is_symlink():
            yield from _walk_dir(root, entry.path, layers, respect_ignore)


__all__ = ["WalkEntry", "compile_glob", "glob_to_regex", "is_ignored", "parse_ignore_file", "walk"]
