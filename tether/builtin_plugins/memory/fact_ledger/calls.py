"""What a tool call acted on, and the key its failure is filed under (a later success of the
same call resolves it)."""

from __future__ import annotations

import json
from typing import Any


def call_target(name: str, args: Any) -> str:
    """What a tool call acted on: the command, the path, the pattern."""
    if not isinstance(args, dict):
        return ""
    if name == "bash":
        return str(args.get("command", "")).strip()
    if isinstance(args.get("path"), str) and name in ("read", "write", "edit", "ls"):
        return str(args["path"])
    parts = [str(args[k]) for k in ("pattern", "path") if isinstance(args.get(k), str)]
    return " in ".join(parts) if parts else json.dumps(args, ensure_ascii=False)[:120]


def error_key(name: str, target: str) -> str:
    """The key of a failing call: a later success of the same call resolves it."""
    return json.dumps([name, target], ensure_ascii=False)


__all__ = ["call_target", "error_key"]
