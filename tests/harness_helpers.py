"""Helpers for the harness and end-to-end tests: a tether home pointing at a loopback server,
plugin managers without third-party plugins, and the "file context = what was sent" check."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from tests import store_helpers
from tether.core.host.manager import create_plugin_manager

PROVIDER = "loop"
REPO = Path(__file__).resolve().parents[1]
NO_THIRD_PARTY = {"TETHER_LOAD_PLUGINS": ""}  # installed example plugins stay out of the way
FAST_RETRY = {"retry": {"baseDelayMs": 1, "maxDelayMs": 2000}}


def write_home(
    home: Path,
    server: Any = None,
    *,
    api: str = "openai-completions",
    settings: dict[str, Any] | None = None,
    **model_fields: Any,
) -> Path:
    """A tether home: ``models.json`` with provider ``loop`` → ``server``, ``settings.json``."""
    home.mkdir(parents=True, exist_ok=True)
    providers: dict[str, Any] = {}
    if server is not None:
        providers[PROVIDER] = {
            "baseUrl": server.base_url,
            "api": api,
            "apiKey": "test-key",
            "models": [server.model_entry(**model_fields)],
        }
    (home / "models.json").write_text(json.dumps({"providers": providers}))
    (home / "settings.json").write_text(json.dumps({**FAST_RETRY, **(settings or {})}))
    return home


def use_home(home: Path, monkeypatch: Any) -> Path:
    """Point ``TETHER_HOME`` at ``home`` (fsync off) for the rest of the test; ``home``."""
    monkeypatch.setenv("TETHER_HOME", str(home))
    monkeypatch.setenv("TETHER_FSYNC", "0")
    return home


def plugin_manager(*plugins: tuple[str, object]) -> Any:
    """Built-ins plus ``plugins`` (name, module-or-object); no installed third-party plugin."""
    return create_plugin_manager(environ=NO_THIRD_PARTY, plugins=plugins)


def open_harness(pm: Any, cwd: Path, home: Path, model: str | None = None, **kwargs: Any) -> Any:
    """A started harness on a new session of ``cwd`` (``TETHER_HOME`` must point at ``home``)."""
    from tether.core.base.settings import load_settings
    from tether.core.harness.harness import Harness
    from tether.core.session.session import Session

    settings = load_settings(cwd, home=home)
    session = kwargs.pop("session", None) or Session.create(str(cwd), home=home)
    harness = Harness(pm, session, settings=settings, model=model, cwd=str(cwd), **kwargs)
    return harness.start()


def chat_requests(server: Any) -> list[Any]:
    """Bodies of the streamed chat requests (summaries are non-streamed and left out)."""
    return [r.body for r in server.requests if isinstance(r.body, dict) and r.body.get("stream")]


def expected_openai_messages(file: Path, body: dict[str, Any], model: Any) -> list[Any]:
    """What tether would send for the session file's context minus its final answer: the
    file re-opened, built, converted and prepared like the agent does (the compaction summary
    with the note naming the replaced span, as the built-in ``recall`` tool is offered)."""
    from tether.builtin_plugins.providers.http.calls import prepared_context
    from tether.builtin_plugins.providers.openai.completions import convert_messages
    from tether.builtin_plugins.tools.recall.replaced import with_replaced_note
    from tether.core.context.convert import convert_to_llm
    from tether.core.session.session import Session
    from tether.hookspecs.providers import LlmContext

    session = Session.open(file, readonly=True)
    messages = session.build_context().messages
    assert messages and messages[-1]["role"] == "assistant"
    system = body["messages"][0]["content"] if body["messages"][0]["role"] == "system" else ""
    sent = with_replaced_note(messages[:-1], session.get_branch())  # the recall tool's span note
    context = LlmContext(system, convert_to_llm(sent))
    return convert_messages(model, prepared_context(model, context))


def assert_file_matches_last_request(file: Path, server: Any, model: Any) -> None:
    """Session.open + build_context gives the context the agent sent in its last request."""
    body = chat_requests(server)[-1]
    assert expected_openai_messages(file, body, model) == body["messages"]


def run_tether(
    *args: str,
    home: Path,
    cwd: Path,
    env: dict[str, str | None] | None = None,
    stdin_text: str | None = None,
    timeout: float = 60,
) -> subprocess.CompletedProcess[str]:
    """``python -m tether ARGS`` in ``cwd`` with ``TETHER_HOME=home`` (no third-party plugins);
    ``stdin_text`` is fed to stdin (else stdin is empty)."""
    full_env = {
        "TETHER_HOME": str(home),
        "TETHER_FSYNC": "0",
        "PYTHONPATH": str(REPO),
        **NO_THIRD_PARTY,
        **(env or {}),
    }
    return store_helpers.run_tether(
        *args, cwd=cwd, env=full_env, stdin_text=stdin_text or "", timeout=timeout
    )


def session_files(home: Path) -> list[Path]:
    return sorted((home / "sessions").glob("*/*.jsonl"))


def read_entries(file: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in file.read_text().splitlines() if line.strip()]
