"""pi's ``SessionInfo`` as JSON (``tether session list --json``), shared by the stores'
listings: the keys in pi's order, ``name`` and ``parentSessionPath`` only when set."""

from __future__ import annotations

from typing import Any


def session_info_json(
    where: dict[str, Any], info: Any, parent: str | None, **rest: Any
) -> dict[str, Any]:
    """``where`` (the file's path, or the store), then ``info``'s id, cwd, name, ``parent``,
    created, modified and message count, then ``rest`` in the order given."""
    out: dict[str, Any] = {**where, "id": info.id, "cwd": info.cwd}
    if info.name is not None:
        out["name"] = info.name
    if parent is not None:
        out["parentSessionPath"] = parent
    out.update(created=info.created, modified=info.modified, messageCount=info.message_count)
    return {**out, **rest}


__all__ = ["session_info_json"]
