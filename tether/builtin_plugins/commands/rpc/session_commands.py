"""The RPC commands about the session: new, switch, fork, clone, name, stats, bash, export.

Handlers as in :mod:`.commands`: ``(server, command)`` → the response's ``data`` (``...``:
none), or an exception whose message is the error response.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tether.builtin_plugins.commands.rpc.bash import bash_result

Handler = Callable[[Any, dict[str, Any]], Any]
#: Where ``export_html`` finds the HTML renderer of ``session export --html``:
#: ``write_html(session, output: Path) -> Path`` (imported when the command comes).
HTML_EXPORT_MODULE = "tether.builtin_plugins.commands.session.html_export"
HTML_EXPORT_FUNCTION = "write_html"
SKILL_SCOPES = {"project": "project", "user": "user"}  # pi's SourceInfo.scope of a skill


def text_of(content: Any) -> str:
    """A user message's text: string content, or its text blocks joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            str(b.get("text", ""))
            for b in content
            if isinstance(b, dict) and b.get("type") == "text"
        )
    return ""


def new_session(server: Any, command: dict[str, Any]) -> Any:
    h = server.harness
    parent = command.get("parentSession")
    if isinstance(parent, str) and parent:
        h.resume(h.session.new_session(parent_session=parent))
    else:
        h.new_session()
    server.queues.clear()
    return {"cancelled": False}


def switch_session(server: Any, command: dict[str, Any]) -> Any:
    path = command.get("sessionPath")
    if not isinstance(path, str) or not path:
        raise ValueError("sessionPath must be a path")
    server.harness.resume(path)
    server.queues.clear()
    return {"cancelled": False}


def fork(server: Any, command: dict[str, Any]) -> Any:
    entry_id = command.get("entryId")
    entry = server.harness.session.get_entry(entry_id) if isinstance(entry_id, str) else None
    message = (entry or {}).get("message") or {}
    if entry is None or entry.get("type") != "message" or message.get("role") != "user":
        raise ValueError("Invalid entry ID for forking")
    text = server.harness.fork(entry_id)
    return {
        "text": text if text is not None else text_of(message.get("content")),
        "cancelled": text is None,
    }


def clone(server: Any, command: dict[str, Any]) -> Any:
    if not server.harness.session.leaf_id:
        raise ValueError("Cannot clone session: no current entry selected")
    return {"cancelled": not server.harness.clone()}


def get_fork_messages(server: Any, command: dict[str, Any]) -> Any:
    messages = []
    for entry in server.harness.session.entries():
        message = entry.get("message") if entry.get("type") == "message" else None
        if isinstance(message, dict) and message.get("role") == "user":
            text = text_of(message.get("content"))
            if text:
                messages.append({"entryId": entry["id"], "text": text})
    return {"messages": messages}


def get_last_assistant_text(server: Any, command: dict[str, Any]) -> Any:
    for message in reversed(server.harness.agent.state.messages):
        if message.get("role") != "assistant":
            continue
        if message.get("stopReason") == "aborted" and not message.get("content"):
            continue
        return {"text": text_of(message.get("content")).strip() or None}
    return {"text": None}


def set_session_name(server: Any, command: dict[str, Any]) -> Any:
    name = command.get("name")
    if name is not None and not isinstance(name, str):
        raise ValueError("name must be a string")
    name = (name or "").strip()
    if not name:
        raise ValueError("Session name cannot be empty")
    server.harness.set_name(name)
    return ...


def get_session_stats(server: Any, command: dict[str, Any]) -> Any:
    from tether.memory import token_counter
    from tether.sessions import context_usage_of, session_stats

    h = server.harness
    messages = list(h.agent.state.messages)
    count = token_counter(h.pm, h.settings, model=h.view.model)
    window = h.model.context_window if h.model is not None else None
    usage = context_usage_of(h.session.get_branch(), messages, count, window)
    file = str(h.session.file) if h.session.file is not None else None
    return session_stats(messages, session_file=file, session_id=h.session.session_id, usage=usage)


def bash(server: Any, command: dict[str, Any]) -> Any:
    text = command.get("command")
    if not isinstance(text, str):
        raise ValueError("command must be a string")
    message = server.bash.run(text)
    server.store_bash(message)
    return bash_result(message)


def abort_bash(server: Any, command: dict[str, Any]) -> Any:
    server.bash.abort()
    return ...


def export_html(server: Any, command: dict[str, Any]) -> Any:
    """The whole session as one HTML page (default: ``<session file name>.html`` in the
    working folder), by the renderer of ``session export --html``."""
    import importlib
    from pathlib import Path

    h = server.harness
    try:
        write_html = getattr(importlib.import_module(HTML_EXPORT_MODULE), HTML_EXPORT_FUNCTION)
    except (ImportError, AttributeError):
        raise ValueError("HTML export is not available in this tether") from None
    output = command.get("outputPath")
    if output is not None and not isinstance(output, str):
        raise ValueError("outputPath must be a string")
    stem = Path(h.session.file).stem if h.session.file is not None else h.session.session_id
    target = Path(output) if isinstance(output, str) and output else Path(h.cwd) / f"{stem}.html"
    return {"path": str(write_html(h.session, target))}


def get_commands(server: Any, command: dict[str, Any]) -> Any:
    """The skills (``/skill:NAME``); tether has no prompt templates or plugin commands yet."""
    from tether.builtin_plugins.prompt.skill_loader import load_skills
    from tether.providers import tether_home

    commands = []
    for skill in load_skills(server.harness.cwd, tether_home()):
        commands.append(
            {
                "name": f"skill:{skill.name}",
                "description": skill.description,
                "source": "skill",
                "sourceInfo": {
                    "path": skill.file_path,
                    "source": "local",
                    "scope": SKILL_SCOPES.get(skill.source, "temporary"),
                    "origin": "top-level",
                    "baseDir": skill.base_dir,
                },
            }
        )
    return {"commands": commands}


HANDLERS: dict[str, Handler] = {
    "new_session": new_session,
    "switch_session": switch_session,
    "fork": fork,
    "clone": clone,
    "get_fork_messages": get_fork_messages,
    "get_last_assistant_text": get_last_assistant_text,
    "set_session_name": set_session_name,
    "get_session_stats": get_session_stats,
    "bash": bash,
    "abort_bash": abort_bash,
    "export_html": export_html,
    "get_commands": get_commands,
}

__all__ = ["HANDLERS", "HTML_EXPORT_FUNCTION", "HTML_EXPORT_MODULE", "text_of"]
