"""Which session ``tether chat`` / ``tether run`` work in, and the harness around it.

Session options (spec §2.14): ``-c/--continue`` opens the most recent session of this project
(a new one if there is none); ``-r/--resume`` lets the user pick (``run``: the most recent);
``--session PATH|ID`` opens a file or an id prefix (this project first, then all);
``--fork PATH|ID`` copies a session into a new one of this project; ``--no-session`` keeps
everything in memory; by default a new session is created. "Most recent" is
:mod:`tether.core.session_catalog`'s single notion (design §8.14).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tether.core.errors import UsageError

Picker = Callable[[list[Any]], Path | None]


@dataclass
class SessionOptions:
    """The session and model options shared by ``chat`` and ``run``."""

    continue_recent: bool = False
    resume: bool = False
    session: str | None = None
    fork: str | None = None
    no_session: bool = False
    name: str | None = None
    provider: str | None = None
    model: str | None = None
    thinking: str | None = None

    def check(self) -> None:
        chosen = [
            flag
            for flag, on in (
                ("--continue", self.continue_recent),
                ("--resume", self.resume),
                ("--session", self.session is not None),
                ("--fork", self.fork is not None),
                ("--no-session", self.no_session),
            )
            if on
        ]
        if len(chosen) > 1:
            raise UsageError(f"{' and '.join(chosen)} cannot be used together")


def model_request(options: SessionOptions) -> Any:
    """``--provider P --model M`` / ``--model P/M`` / ``--model ID`` / ``--provider P``."""
    from tether.core.harness_setup import ModelRequest

    if options.provider:
        return ModelRequest(provider=options.provider, model=options.model)
    return ModelRequest(ref=options.model)


def open_session(
    options: SessionOptions, cwd: str, settings: Any, *, pick: Picker | None = None
) -> tuple[Any, str]:
    """``(session, reason)`` for the options; ``reason`` is the ``session_start`` reason."""
    from tether.core.session import Session
    from tether.core.session_catalog import find_session, list_sessions, project_folder

    options.check()
    folder = project_folder(cwd, settings)
    fsync = getattr(getattr(settings, "session", None), "fsync", None)
    if options.no_session:
        return Session.in_memory(cwd), "startup"
    if options.fork:
        source = find_session(options.fork, folder)
        return Session.fork_from(source, cwd, folder), "fork"
    if options.session:
        return Session.open(find_session(options.session, folder), fsync=fsync), "resume"
    if options.continue_recent or options.resume:
        sessions = list_sessions(folder)
        if options.resume and pick is not None:
            chosen = pick(sessions)
            if chosen is None:
                raise UsageError("no session chosen")
            return Session.open(chosen, fsync=fsync), "resume"
        if sessions:
            return Session.open(sessions[0].path, fsync=fsync), "resume"
    return Session.create(cwd, folder, fsync=fsync), "startup"


def build_harness(
    pm: Any, options: SessionOptions, *, pick: Picker | None = None, cwd: str | None = None
) -> tuple[Any, str]:
    """The harness for the options (not started) and its ``session_start`` reason."""
    from tether.core.harness import Harness
    from tether.core.settings import load_settings

    cwd = cwd or os.getcwd()
    settings = load_settings(cwd)
    session, reason = open_session(options, cwd, settings, pick=pick)
    harness = Harness(
        pm,
        session,
        settings=settings,
        model=model_request(options),
        thinking=options.thinking,
        cwd=cwd,
    )
    if options.name:
        harness.set_name(options.name)
    return harness, reason


def describe_session(summary: Any) -> str:
    """One line for a numbered list: time, name or first message, file name."""
    from datetime import datetime

    from tether.core.session import Session

    when = datetime.fromtimestamp(summary.modified_ms / 1000).strftime("%Y-%m-%d %H:%M")
    title = ""
    try:
        session = Session.open(summary.path, readonly=True)
        title = session.session_name or _first_user_text(session) or "(no messages)"
    except Exception:  # noqa: BLE001 - a damaged file still gets a line
        title = "(unreadable)"
    title = title.replace("\n", " ")
    if len(title) > 60:
        title = title[:59] + "…"
    return f"{when}  {title}  [{summary.path.name}]"


def _first_user_text(session: Any) -> str:
    for entry in session.entries():
        message = entry.get("message") if entry.get("type") == "message" else None
        if isinstance(message, dict) and message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, str):
                return content
            texts = [b.get("text", "") for b in content or [] if b.get("type") == "text"]
            if any(texts):
                return " ".join(texts)
    return ""


def pick_from_list(
    sessions: list[Any],
    *,
    ask: Callable[[str], str] = input,
    say: Callable[[str], None] = print,
    limit: int = 20,
) -> Path | None:
    """A numbered list of sessions; the user types a number (empty: none)."""
    if not sessions:
        say("No sessions in this project yet.")
        return None
    shown = sessions[:limit]
    for number, summary in enumerate(shown, 1):
        say(f"{number:>3}. {describe_session(summary)}")
    answer = ask("Resume which session? [1] ").strip() or "1"
    if not answer.isdigit() or not 1 <= int(answer) <= len(shown):
        say(f"not a number between 1 and {len(shown)}")
        return None
    return Path(shown[int(answer) - 1].path)


__all__ = [
    "SessionOptions",
    "build_harness",
    "describe_session",
    "model_request",
    "open_session",
    "pick_from_list",
]
