"""The ``git_status`` plugin: a custom message with the branch and ``git status --porcelain``.

Implements ``before_agent_start``: before every prompt it asks git (in the session's working
directory) for the current branch and the changed files and returns one custom message
(``customType`` ``"git-status"``). tether stores it as a ``custom_message`` entry and sends it
to the model with the prompt. Outside a git repository (or without git) it does nothing.

Settings (``.tether/settings.json`` or ``~/.tether/settings.json``), read with
``session.plugin_settings("git_status")`` — the plugin's entry-point name::

    {"plugins": {"git_status": {"display": false, "maxFiles": 50}}}

``display`` — whether a UI shows the message (it is always sent to the model); ``maxFiles`` —
how many changed files are listed (the rest are counted).
"""

from __future__ import annotations

import subprocess
from typing import Any

from tether import BeforeAgentStartEvent, HookSession, hookimpl

CUSTOM_TYPE = "git-status"
PLUGIN_NAME = "git_status"
DEFAULT_MAX_FILES = 50
GIT_TIMEOUT = 5.0


def _git(cwd: str, *args: str) -> str | None:
    """stdout of ``git <args>`` in ``cwd``, or ``None`` if git fails or is missing."""
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def read_git_status(cwd: str) -> dict[str, Any] | None:
    """``{"branch", "changes"}`` for the repository containing ``cwd``; ``None`` outside one."""
    if (_git(cwd, "rev-parse", "--is-inside-work-tree") or "").strip() != "true":
        return None
    branch = (_git(cwd, "branch", "--show-current") or "").strip()
    if not branch:
        head = (_git(cwd, "rev-parse", "--short", "HEAD") or "").strip()
        branch = f"(detached at {head})" if head else "(no branch)"
    porcelain = _git(cwd, "status", "--porcelain") or ""
    changes = [line for line in porcelain.splitlines() if line.strip()]
    return {"branch": branch, "changes": changes}


def format_status(status: dict[str, Any], max_files: int = DEFAULT_MAX_FILES) -> str:
    """The text the model reads."""
    lines = [f"Git branch: {status['branch']}"]
    changes = status["changes"]
    if not changes:
        lines.append("Working tree clean (git status --porcelain is empty).")
        return "\n".join(lines)
    lines.append("Changed files (git status --porcelain):")
    lines.extend(changes[:max_files])
    if len(changes) > max_files:
        lines.append(f"… and {len(changes) - max_files} more")
    return "\n".join(lines)


@hookimpl
def before_agent_start(
    event: BeforeAgentStartEvent, session: HookSession
) -> list[dict[str, Any]] | None:
    """Inject the git status as a custom message (skipped outside a git repository)."""
    status = read_git_status(session.cwd)
    if status is None:
        return None
    config = session.plugin_settings(PLUGIN_NAME)
    max_files = int(config.get("maxFiles", DEFAULT_MAX_FILES))
    return [
        {
            "customType": CUSTOM_TYPE,
            "content": format_status(status, max_files),
            "display": bool(config.get("display", False)),
            "details": status,
        }
    ]
