"""tether.testing — an in-process kit for testing a plugin (docs/plugins.md "The testing kit").

One call opens a temporary tether home and project, a session in it, and a harness whose model
is the offline ``faux`` model answering from a script you give::

    from tether.testing import faux_session

    with faux_session(plugins=[("notes", plugin)], script=["Hi."]) as t:
        result = t.prompt("hello")                  # one turn, to the end
        assert result.text == "Hi."
        assert t.requests[-1].messages[-1]["role"] == "user"   # what the model received
        assert t.context()[-1]["role"] == "assistant"          # as `session context` shows it

A script is a list of faux steps, one per model call (a summary written by the ``llm``
summarizer during a compaction is a model call too): a string is the answer text; an object
may carry ``text``, ``thinking``, ``toolCalls`` (``[{"name", "arguments", "id"?}]``),
``stopReason``, ``usage`` and ``error`` (``{"kind": "transient|overflow|permanent",
"message"}``). When the steps run out the model echoes: ``You said: <prompt>``.

While the block runs, ``TETHER_HOME`` points at the temporary home (``TETHER_FSYNC=0``,
``TETHER_FAUX_SCRIPT`` unset); both are restored afterwards. Not thread-safe: one kit at a
time per process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tether.hookspecs import hookimpl

FAUX_MODEL = "faux/faux-1"
KIT_PLUGIN = "tether_testing"
CLEARED = frozenset(
    {"TETHER_FAUX_SCRIPT", "TETHER_LOAD_PLUGINS", "TETHER_DISABLE_PLUGINS", "TETHER_TRACE_PLUGINS"}
)


@dataclass
class Request:
    """One model call as the faux model received it (``model``: its ``provider/id``)."""

    model: str
    system_prompt: str
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]]


class ScriptedFaux:
    """The kit's plugin: registers a ``faux`` adapter that answers from :attr:`steps` and
    records every request in :attr:`requests` (it wins over the built-in ``faux`` adapter)."""

    def __init__(self, steps: Iterable[Any] = ()) -> None:
        self.steps: list[Any] = list(steps)
        self.requests: list[Request] = []

    @hookimpl
    def register_providers(self, register: Any) -> None:
        from tether.builtin_plugins.providers.faux.provider import FauxProvider

        kit = self

        class Recording(FauxProvider):
            def next_step(self, model: Any) -> Any:
                return kit.steps.pop(0) if kit.steps else None

            def stream(self, model: Any, context: Any, options: Any) -> Any:
                kit.requests.append(
                    Request(
                        f"{model.provider}/{model.id}",
                        context.system_prompt,
                        json.loads(json.dumps(context.messages)),
                        list(context.tools),
                    )
                )
                return super().stream(model, context, options)

        register(Recording())


class FauxSession:
    """A started harness on a temporary session (see the module docstring)."""

    def __init__(self, harness: Any, faux: ScriptedFaux, home: Path, cwd: Path) -> None:
        self.harness = harness
        self.faux = faux
        self.home = home
        self.cwd = cwd
        self.warnings: list[str] = harness.warnings

    @property
    def session(self) -> Any:
        """The :class:`tether.Session` the harness writes to."""
        return self.harness.session

    @property
    def file(self) -> Path | None:
        """The session file (written once the session has an assistant message)."""
        file = self.session.file
        return Path(file) if file else None

    @property
    def requests(self) -> list[Request]:
        """Every model call so far, oldest first."""
        return self.faux.requests

    def script(self, *steps: Any) -> None:
        """Add faux steps for the next model calls."""
        self.faux.steps.extend(steps)

    def prompt(self, text: str, images: list[dict[str, Any]] | None = None) -> Any:
        """Run one turn to the end (tool calls, retries, compactions): a ``RunResult``
        (``.text``, ``.messages``, ``.failure``, ``.stop_reason``)."""
        return self.harness.prompt(text, images, source="run")

    def compact(self, custom_instructions: str | None = None) -> Any:
        """Compact now, as ``/compact`` does; the ``CompactionOutcome``."""
        return self.harness.compact(custom_instructions)

    def context(self, hooks: bool = True) -> list[dict[str, Any]]:
        """The session's context at its leaf as ``tether session context`` shows it: after
        the plugins' ``context`` hooks (what the model is sent); ``hooks=False``: before them
        (what the session holds)."""
        messages: list[dict[str, Any]] = self.session.build_context().messages
        if not hooks:
            return messages
        return list(self.harness.hooks.context(messages=messages, session=self.harness.view))

    def entries(self) -> list[dict[str, Any]]:
        """The session's entries in file order (the header not included)."""
        return list(self.session.entries())

    def file_lines(self) -> list[dict[str, Any]]:
        """The session file's lines, parsed (``[]`` before it is written)."""
        file = self.file
        if file is None or not file.exists():
            return []
        return [json.loads(line) for line in file.read_text(encoding="utf-8").splitlines()]


@contextmanager
def _environment(values: Mapping[str, str | None]) -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in values}
    try:
        _set_environment(values)
        yield
    finally:
        _set_environment(saved)


def _set_environment(values: Mapping[str, str | None]) -> None:
    """Set each variable of ``values``; ``None`` unsets it."""
    for name, value in values.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def write_settings(folder: Path, settings: Mapping[str, Any] | None) -> None:
    """``folder/settings.json`` with ``settings`` (nothing when ``None``)."""
    if settings is not None:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "settings.json").write_text(json.dumps(settings), encoding="utf-8")


@contextmanager
def faux_session(
    *,
    plugins: Sequence[tuple[str, object]] = (),
    script: Iterable[Any] = (),
    settings: Mapping[str, Any] | None = None,
    project_settings: Mapping[str, Any] | None = None,
    models: Mapping[str, Any] | None = None,
    model: str = FAUX_MODEL,
    installed: bool = False,
    disabled: Iterable[str] = (),
    directory: str | os.PathLike[str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
) -> Iterator[FauxSession]:
    """A :class:`FauxSession`: built-in plugins plus ``plugins`` (``(name, module)`` pairs),
    the faux model scripted with ``script``.

    ``settings`` is the home's ``settings.json``, ``project_settings`` the project's
    ``.tether/settings.json``, ``models`` the home's ``models.json`` (a provider with
    ``"api": "faux"`` answers from the same script) and ``model`` the session's model.
    ``installed=True`` also loads the installed third-party plugins (by default they stay
    out, so only ``plugins`` are tested); ``disabled`` blocks plugins by name
    (``"summary_gate"``…). ``directory`` holds the home and the project (default: a
    temporary folder removed afterwards); ``cwd`` is the project (default ``directory/project``).
    """
    from tether.builtin_plugins.providers.models.registry import ProviderRegistry
    from tether.core.base.settings import load_settings
    from tether.core.harness.harness import Harness
    from tether.core.host.manager import create_plugin_manager
    from tether.core.session.opening import PluginScope
    from tether.core.session.session import Session

    with _folder(directory) as root:
        home, project = root / "home", Path(cwd) if cwd is not None else root / "project"
        home.mkdir(parents=True, exist_ok=True)
        project.mkdir(parents=True, exist_ok=True)
        write_settings(home, settings)
        write_settings(project / ".tether", project_settings)
        if models is not None:
            (home / "models.json").write_text(json.dumps(models), encoding="utf-8")
        faux = ScriptedFaux(script)
        environ = {"TETHER_HOME": str(home), "TETHER_FSYNC": "0", "TETHER_FAUX_SCRIPT": None}
        with _environment(environ):
            loaded = dict(os.environ) if installed else {**os.environ, "TETHER_LOAD_PLUGINS": ""}
            pm = create_plugin_manager(
                environ=loaded, plugins=[*plugins, (KIT_PLUGIN, faux)], disabled=disabled
            )
            app_settings = load_settings(project, home=home)
            registry = ProviderRegistry(pm, home=home, settings=app_settings)
            session = Session.create(str(project), home=home, plugins=pm)
            harness = Harness(
                pm,
                session,
                settings=app_settings,
                registry=registry,
                model=model,
                cwd=str(project),
                on_warning=lambda _line: None,
            )
            try:
                with PluginScope(pm):  # the test's sessions opened without one use it
                    yield FauxSession(harness.start(), faux, home, project)
            finally:
                harness.close()


@contextmanager
def _folder(directory: str | os.PathLike[str] | None) -> Iterator[Path]:
    if directory is not None:
        yield Path(directory)
        return
    with tempfile.TemporaryDirectory(prefix="tether-testing-") as made:
        yield Path(made)


def run_cli(
    *args: str,
    home: str | os.PathLike[str],
    cwd: str | os.PathLike[str],
    script: Sequence[Any] | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """``python -m tether ARGS`` in a subprocess, with ``TETHER_HOME=home`` and, when given,
    the faux ``script`` (``TETHER_FAUX_SCRIPT``); ``env`` adds variables. Installed plugins
    load as for a user (the caller's ``TETHER_LOAD_PLUGINS``/``TETHER_DISABLE_PLUGINS`` are
    not passed on)."""
    full = {k: v for k, v in os.environ.items() if k not in CLEARED}
    full.update({"TETHER_HOME": str(home), "TETHER_FSYNC": "0", **(env or {})})
    if script is not None:
        full["TETHER_FAUX_SCRIPT"] = json.dumps(list(script))
    return subprocess.run(
        [sys.executable, "-m", "tether", *args],
        cwd=cwd,
        env=full,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


__all__ = [
    "FAUX_MODEL",
    "FauxSession",
    "Request",
    "ScriptedFaux",
    "faux_session",
    "run_cli",
    "write_settings",
]
