"""The ``tool_guard`` plugin: ``before_tool_call`` refuses calls that match its rules.

A refused call never runs; the reason is the error tool result the model reads, so it can
choose another way. Rules:

- ``bash``: the command is matched against regular expressions (defaults:
  :data:`DEFAULT_BLOCKED_COMMANDS` — ``rm -rf /`` and ``~``, ``mkfs``, ``dd`` onto a device,
  a fork bomb, ``chmod -R 777 /``, ``git push --force``);
- ``write`` / ``edit``: the ``path`` must resolve inside the project (the session's working
  directory) or inside one of ``allowedWriteDirs``.

Settings (``.tether/settings.json`` or ``~/.tether/settings.json``), read with
``session.plugin_settings("tool_guard")`` — the plugin's entry-point name::

    {"plugins": {"tool_guard": {
        "blockedCommands": ["\\\\bsudo\\\\b"],   # added to the defaults
        "replaceDefaults": false,              # true: only your patterns
        "allowedWriteDirs": ["/tmp/scratch"],  # writes allowed here too
        "writeTools": ["write", "edit"]}}}
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass, field
from typing import Any

from tether import BeforeToolCallEvent, Block, HookSession, hookimpl

PLUGIN_NAME = "tool_guard"

#: (pattern, what it is) — matched with ``re.search`` against the whole command. Recursive
#: deletes of ``/`` or the home directory are found by :func:`deletes_root_or_home` instead.
DEFAULT_BLOCKED_COMMANDS: tuple[tuple[str, str], ...] = (
    (r"\bmkfs(\.\w+)?\b", "formatting a file system"),
    (r"\bdd\b[^;|&]*\bof=/dev/", "dd onto a device"),
    (r":\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:", "fork bomb"),
    (r"\bchmod\s+(-[a-zA-Z]*R[a-zA-Z]*\s+)+0?777\s+/(\s|$)", "chmod -R 777 /"),
    (r"\bgit\s+push\b[^;|&]*(\s--force\b|\s-f\b)", "force push"),
)
ROOT_OR_HOME = frozenset({"/", "/*", "~", "~/", "~/*", "$HOME", "$HOME/", "$HOME/*", "${HOME}"})
DEFAULT_WRITE_TOOLS = ("write", "edit")


@dataclass
class Rules:
    """The guard's rules, from the settings section ``plugins.tool_guard``."""

    commands: list[tuple[re.Pattern[str], str]] = field(default_factory=list)
    check_rm: bool = True
    allowed_write_dirs: list[str] = field(default_factory=list)
    write_tools: tuple[str, ...] = DEFAULT_WRITE_TOOLS

    @classmethod
    def from_settings(cls, config: dict[str, Any]) -> Rules:
        patterns: list[tuple[str, str]] = (
            [] if config.get("replaceDefaults") else list(DEFAULT_BLOCKED_COMMANDS)
        )
        patterns += [(p, f"matches /{p}/") for p in config.get("blockedCommands", [])]
        return cls(
            commands=[(re.compile(p), why) for p, why in patterns],
            check_rm=not config.get("replaceDefaults"),
            allowed_write_dirs=[str(d) for d in config.get("allowedWriteDirs", [])],
            write_tools=tuple(config.get("writeTools", DEFAULT_WRITE_TOOLS)),
        )


def deletes_root_or_home(command: str) -> bool:
    """Whether some ``rm`` in ``command`` recursively deletes ``/`` or the home directory
    (flags in any form: ``-rf``, ``-fr``, ``-r -f``, ``--recursive``)."""
    for segment in re.split(r"&&|\|\||[;&|\n]", command):
        try:
            words = shlex.split(segment, posix=True)
        except ValueError:
            words = segment.split()
        for index, word in enumerate(words):
            if word != "rm" and not word.endswith("/rm"):
                continue
            args = words[index + 1 :]
            flags = [a for a in args if a.startswith("-") and a != "--"]
            letters = "".join(f[1:] for f in flags if not f.startswith("--"))
            recursive = "r" in letters or "R" in letters or "--recursive" in flags
            targets = {a for a in args if not a.startswith("-")}
            if recursive and targets & ROOT_OR_HOME:
                return True
    return False


def check_command(command: str, rules: Rules) -> str | None:
    """Why ``command`` is refused, or ``None``."""
    if rules.check_rm and deletes_root_or_home(command):
        return (
            "tool-guard: refused bash command (recursive delete of / or the home directory): "
            + command.strip()
        )
    for pattern, why in rules.commands:
        if pattern.search(command):
            return f"tool-guard: refused bash command ({why}): {command.strip()}"
    return None


def _inside(path: str, folder: str) -> bool:
    folder = os.path.realpath(folder)
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def check_write(path: str, cwd: str, rules: Rules) -> str | None:
    """Why writing ``path`` is refused (outside the project and the allowed dirs), or ``None``."""
    expanded = os.path.expanduser(path)
    resolved = os.path.realpath(os.path.join(cwd, expanded))
    if any(_inside(resolved, folder) for folder in [cwd, *rules.allowed_write_dirs]):
        return None
    return (
        f"tool-guard: refused to write {path}: it is outside the project ({cwd}); "
        "write inside the project or ask the user"
    )


@hookimpl
def before_tool_call(event: BeforeToolCallEvent, session: HookSession) -> Block | None:
    """Block bash commands and writes that break the rules; the reason reaches the model."""
    rules = Rules.from_settings(session.plugin_settings(PLUGIN_NAME))
    if event.tool_name == "bash":
        reason = check_command(str(event.input.get("command", "")), rules)
        return Block(reason) if reason else None
    if event.tool_name in rules.write_tools and isinstance(event.input.get("path"), str):
        reason = check_write(event.input["path"], session.cwd, rules)
        return Block(reason) if reason else None
    return None
