"""Which session ``tether chat`` / ``tether run`` work in, and the harness around it.

Session options (pi's): ``-c/--continue`` opens the most recent session of this project
(a new one if there is none); ``-r/--resume`` lets the user pick (``run``: the most recent);
``--session PATH|ID`` opens a file or an id prefix (this project first, then all);
``--fork PATH|ID`` copies a session into a new one of this project; ``--no-session`` keeps
everything in memory; by default a new session is created. "Most recent" is
:mod:`tether.builtin_plugins.storage.jsonl.listing`'s single notion, shared with ``tether
sessions``.
An existing session is read only once its lease is held (``--wait``, :mod:`._lease_cli`), so a
waiting run continues from what the previous writer left, not from a stale copy.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tether import SessionFileError
from tether.builtin_plugins.commands import SessionOptions
from tether.cli import UsageError

Picker = Callable[[list[Any]], Path | None]
Claim = Callable[[Path], Any]


def project_folder(cwd: str, settings: Any = None) -> Path:
    """Where the sessions of ``cwd`` live: setting ``session.dir`` or the per-project folder."""
    from tether.sessions import default_session_dir

    configured = getattr(getattr(settings, "session", None), "dir", None)
    return Path(os.path.expanduser(configured)) if configured else default_session_dir(cwd)


def looks_like_path(ref: str) -> bool:
    """pi's rule: a ``/`` or ``\\`` or a ``.jsonl`` ending makes ``--session`` a path."""
    return "/" in ref or "\\" in ref or ref.endswith(".jsonl")


def find_session(ref: str, folder: Path, *, create: bool = False) -> Path:
    """``--session PATH|ID``: a path as is, else an id prefix — this project first, then all.
    With ``create``, a path that does not exist yet is returned (a new session goes there)."""
    from tether.builtin_plugins.storage.jsonl.listing import (
        project_folders,
        read_header,
        session_files,
    )
    from tether.sessions import sessions_root

    if looks_like_path(ref):
        path = Path(os.path.expanduser(ref))
        try:
            exists = path.exists()
        except OSError as exc:  # e.g. a name too long for the filesystem
            raise SessionFileError(f"{path}: cannot open the session: {exc.strerror}") from None
        if not exists and not create:
            raise UsageError(f"{path}: no such session file")
        return path
    for folders in ([folder], project_folders(sessions_root())):
        hits = {}
        for path in (p for f in folders for p in session_files(f)):
            header = read_header(path)
            if header is not None and header["id"].startswith(ref):
                hits[path] = header["id"]
        if len(hits) == 1:
            return next(iter(hits))
        if hits:
            ids = ", ".join(sorted(set(hits.values()))[:5])
            raise UsageError(f"session id prefix '{ref}' is ambiguous: {ids}")
    raise UsageError(f"no session with an id starting with '{ref}' (see: tether sessions --all)")


def model_request(options: SessionOptions) -> Any:
    """``--provider P --model M`` / ``--model P/M`` / ``--model ID`` / ``--provider P``."""
    from tether.cli import ModelRequest

    if options.provider:
        return ModelRequest(provider=options.provider, model=options.model)
    return ModelRequest(ref=options.model)


def open_session(
    options: SessionOptions,
    cwd: str,
    settings: Any,
    *,
    pick: Picker | None = None,
    claim: Claim | None = None,
    plugins: Any = None,
) -> tuple[Any, str]:
    """``(session, reason)`` for the options; ``reason`` is the ``session_start`` reason.
    ``claim(path)`` is called before an existing session file is read (to take its lease).
    ``plugins``: the plugin manager whose ``open_store`` opens the session's store."""
    from tether import Session
    from tether.builtin_plugins.storage.jsonl.listing import list_sessions, most_recent_session

    options.check()
    from tether.builtin_plugins.commands import store_configured

    if store_configured() and not options.no_session:
        from tether.builtin_plugins.commands.agent.stored import open_stored
        from tether.builtin_plugins.commands.store_select import active_database

        return open_stored(active_database(cwd), options, cwd, pick=pick, claim=claim)
    folder = project_folder(cwd, settings)
    fsync = getattr(getattr(settings, "session", None), "fsync", None)

    def existing(path: Path) -> Any:
        if claim is not None:
            claim(path)
        # a new path: a new session (pi)
        return Session.open(path, fsync=fsync, create=True, plugins=plugins)

    if options.no_session:
        return Session.in_memory(cwd), "startup"
    if options.fork:
        source = find_session(options.fork, folder)
        from tether.builtin_plugins.commands.session.file_copies import fork_from

        return fork_from(source, cwd, folder, plugins=plugins), "fork"
    if options.session:
        path = find_session(options.session, folder, create=True)
        return existing(path), ("resume" if path.exists() else "startup")
    if options.resume and pick is not None:
        sessions = list_sessions([folder])
        if sessions:
            chosen = pick(sessions)
            if chosen is None:
                raise UsageError("no session chosen")
            return existing(chosen), "resume"
    if options.continue_recent or options.resume:
        recent = most_recent_session(folder)
        if recent is not None:
            return existing(recent), "resume"
    return Session.create(cwd, folder, fsync=fsync, plugins=plugins), "startup"


def build_harness(
    pm: Any, options: SessionOptions, *, pick: Picker | None = None, cwd: str | None = None
) -> tuple[Any, str]:
    """The harness for the options (not started) and its ``session_start`` reason. The
    harness holds the session's lease until it is closed."""
    from tether import Harness, load_settings
    from tether.builtin_plugins.commands.lease_options import claim

    cwd = cwd or os.getcwd()
    settings = load_settings(cwd, overrides=options.settings_overrides() or None)
    if options.api_key is not None:
        use_api_key(pm, options, settings)
    leases: list[Any] = []
    try:
        session, reason = open_session(
            options,
            cwd,
            settings,
            pick=pick,
            claim=lambda p: leases.append(claim(p, options.wait)),
            plugins=pm,
        )
        harness = Harness(
            pm,
            session,
            settings=settings,
            model=model_request(options),
            thinking=options.thinking,
            cwd=cwd,
        )
    finally:
        for lease in leases:  # the harness took its own share of the lease
            if lease is not None:
                lease.release()
    if options.no_tools:
        drop_builtin_tools(harness, keep=options.tools)
    elif options.tools is not None:
        keep_tools(harness, options.tools)
    if options.name:
        harness.set_name(options.name)
    return harness, reason


def use_api_key(pm: Any, options: SessionOptions, settings: Any) -> None:
    """``--api-key KEY``: the key of the chosen model's provider for this process (pi needs a
    ``--model`` or ``--provider`` to know whose key it is)."""
    from tether.builtin_plugins.providers.models.registry import ProviderRegistry, set_runtime_key

    if not options.provider and not options.model:
        raise UsageError("--api-key needs --model or --provider (the key of which provider?)")
    provider = options.provider
    if provider is None:
        with ProviderRegistry(pm, settings=settings) as registry:
            provider = registry.resolve(options.model)[0].provider
    set_runtime_key(provider, options.api_key)


def drop_builtin_tools(harness: Any, keep: str | None = None) -> None:
    """``--no-tools``: none of tether's own tools, the plugins' tools kept (pi's rule);
    ``--tools a,b`` next to it adds these back."""
    from tether.tools import collect_tools

    origins: dict[str, str] = {}
    collect_tools(harness.pm, origins=origins)
    records = getattr(harness.pm, "records", {})
    builtin = {
        name for name, plugin in origins.items() if getattr(records.get(plugin), "builtin", False)
    }
    wanted = {name.strip() for name in (keep or "").split(",") if name.strip()}
    if wanted:
        keep_tools(harness, ",".join(wanted | {t.name for t in harness.tools} - builtin))
        return
    kept = [tool for tool in harness.tools if tool.name not in builtin]
    harness.tools = kept
    harness.agent.state.tools = kept


def keep_tools(harness: Any, names: str) -> None:
    """``--tools a,b``: only these tools, in tether's order; an unknown name is an error
    listing the tools there are. ``--tools ''`` means none."""
    wanted = [name.strip() for name in names.split(",") if name.strip()]
    known = [tool.name for tool in harness.tools]
    unknown = [name for name in wanted if name not in known]
    if unknown:
        harness.close("quit")
        raise UsageError(
            f"--tools: unknown tool{'s' if len(unknown) > 1 else ''} {', '.join(unknown)} "
            f"(available: {', '.join(known) or 'none'})"
        )
    kept = [tool for tool in harness.tools if tool.name in wanted]
    harness.tools = kept
    harness.agent.state.tools = kept


def describe_session(info: Any) -> str:
    """One line for a numbered list: time, name or first message, file name."""
    title = " ".join((info.name or info.first_message).split())
    if len(title) > 60:
        title = title[:59] + "…"
    return f"{info.modified[:16].replace('T', ' ')}  {title}  [{Path(info.path).name}]"


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
    if not answer.isdecimal() or not 1 <= int(answer) <= len(shown):  # "²" is no number
        say(f"not a number between 1 and {len(shown)}")
        return None
    return Path(shown[int(answer) - 1].path)


__all__ = [
    "build_harness",
    "describe_session",
    "drop_builtin_tools",
    "find_session",
    "keep_tools",
    "looks_like_path",
    "model_request",
    "open_session",
    "pick_from_list",
    "project_folder",
    "use_api_key",
]
