"""Feature code the kernel reaches through hooks: the model registry (``model_registry``),
provider error wording (``context_overflow``), pi's tool-argument rules
(``tool_arguments_validator``) and pi's top-level forms (``route_command_line``). Each is a
built-in plugin that another plugin replaces and a user can disable; the kernel names no one.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.harness_helpers import NO_THIRD_PARTY, open_harness
from tether.builtin_plugins.providers.models.registry import ProviderRegistry
from tether.core.base.errors import HookError, ProviderConfigError
from tether.core.base.settings import load_settings
from tether.core.cli.app import main
from tether.core.harness.run import CompactNow, RunController, Stop, TurnState
from tether.core.hooks.facade import NO_MODEL_REGISTRY, Hooks
from tether.core.host.manager import create_plugin_manager
from tether.hookspecs import hookimpl
from tether.hookspecs.providers import Model

FAUX = "faux/faux-1"
MODEL = Model(provider="faux", id="faux-1", api="faux", context_window=200_000)


def _pm(*plugins: tuple[str, object], disabled: tuple[str, ...] = ()) -> Any:
    return create_plugin_manager(environ=NO_THIRD_PARTY, plugins=plugins, disabled=disabled)


# -- context_overflow ------------------------------------------------------------------------


def _after_failure(pm: Any, text: str, settings: Any) -> Any:
    """The run controller's step after a failed call with ``text`` and no typed error."""
    runs = RunController(Hooks(pm))
    runs.start(new_prompt=True)
    failed = {"role": "assistant", "content": [], "stopReason": "error", "errorMessage": text}
    failed.update(provider="faux", model="faux-1")
    runs.note_assistant(failed, None)
    user = {"role": "user", "content": "hi", "timestamp": 1}
    state = TurnState(
        aborted=lambda: False,
        model=MODEL,
        messages=[user, failed],
        queued=lambda: False,
        settings=settings,
        count=lambda ms: [1 for _ in ms],
    )
    return runs.after_turn(state)


class Words:
    """A provider plugin that knows its own way of saying "context overflow"."""

    @hookimpl
    def context_overflow(self, message: dict[str, Any]) -> bool | None:
        return "budget exhausted" in (message.get("errorMessage") or "") or None


def test_an_overflow_in_a_plugins_words_is_compacted(tmp_path: Path) -> None:
    settings = load_settings(tmp_path, home=tmp_path)
    step = _after_failure(_pm(("words", Words())), "budget exhausted", settings)
    assert isinstance(step, CompactNow) and step.reason == "overflow" and step.will_retry
    assert isinstance(_after_failure(_pm(), "budget exhausted", settings), Stop)


def test_pis_wording_is_the_provider_errors_plugins(tmp_path: Path) -> None:
    settings = load_settings(tmp_path, home=tmp_path)
    assert isinstance(_after_failure(_pm(), "prompt is too long", settings), CompactNow)
    without = _pm(disabled=("provider_errors",))
    assert isinstance(_after_failure(without, "prompt is too long", settings), Stop)


def test_a_wrong_overflow_answer_names_the_plugin() -> None:
    class Wrong:
        @hookimpl
        def context_overflow(self) -> str:
            return "yes"

    message = {"stopReason": "error", "errorMessage": "x"}
    with pytest.raises(HookError, match="plugin 'wrong' failed in context_overflow: returned str"):
        Hooks(_pm(("wrong", Wrong()))).context_overflow(message=message, context_window=10)


# -- model_registry --------------------------------------------------------------------------


class CountingRegistry(ProviderRegistry):
    made: list[CountingRegistry] = []

    def __init__(self, pm: Any, settings: Any = None) -> None:
        super().__init__(pm, settings=settings)
        self.calls = 0
        CountingRegistry.made.append(self)

    def stream(self, model: Any, context: Any, options: Any = None) -> Any:
        self.calls += 1
        return super().stream(model, context, options)


class Catalogue:
    @hookimpl
    def model_registry(self, pm: Any, settings: Any) -> Any:
        return CountingRegistry(pm, settings)


def test_the_harness_calls_models_through_a_plugins_registry(home: Path, tmp_path: Path) -> None:
    CountingRegistry.made.clear()
    with open_harness(_pm(("catalogue", Catalogue())), tmp_path, home, FAUX) as harness:
        result = harness.prompt("hello")
        registry = harness.registry
    assert result.final["content"][0]["text"] == "You said: hello"
    assert isinstance(registry, CountingRegistry) and registry.calls == 1


def test_no_registry_is_one_line_and_a_wrong_one_names_the_plugin() -> None:
    with pytest.raises(ProviderConfigError, match="no plugin provides the model registry"):
        Hooks(_pm(disabled=("model_registry",))).model_registry()

    class Wrong:
        @hookimpl
        def model_registry(self) -> int:
            return 42

    with pytest.raises(HookError, match="'wrong' failed in model_registry: returned int, which"):
        Hooks(_pm(("wrong", Wrong()))).model_registry()


def test_run_without_the_registry_plugin_says_so(home: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tether", "--disable-plugin", "model_registry", "run"]
        + ["--no-session", "--provider", "faux", "hi"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**_env(), "TETHER_HOME": str(home)},
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == f"tether: error: {NO_MODEL_REGISTRY}\n"


def _env() -> dict[str, str]:
    import os

    return {**os.environ, **NO_THIRD_PARTY, "TETHER_FSYNC": "0"}


# -- tool_arguments_validator ----------------------------------------------------------------


def _tool_call(monkeypatch: pytest.MonkeyPatch, arguments: dict[str, Any]) -> None:
    call = {"name": "ls", "arguments": arguments, "id": "c1"}
    monkeypatch.setenv("TETHER_FAUX_SCRIPT", json.dumps([{"toolCalls": [call]}, "done"]))


def _tool_result(pm: Any, home: Path, cwd: Path) -> dict[str, Any]:
    with open_harness(pm, cwd, home, FAUX) as harness:
        harness.prompt("list")
        return next(m for m in harness.agent.state.messages if m["role"] == "toolResult")


class Strict:
    @hookimpl
    def tool_arguments_validator(self) -> Any:
        def validate(tool_name: str, schema: dict[str, Any], arguments: Any) -> Any:
            raise ValueError(f"{tool_name}: this house takes no arguments")

        return validate


def test_a_plugins_argument_check_is_what_the_model_reads(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tool_call(monkeypatch, {"path": "."})
    result = _tool_result(_pm(("strict", Strict())), home, tmp_path)
    assert result["isError"] and result["content"][0]["text"] == "ls: this house takes no arguments"


def test_pis_argument_rules_are_the_tool_arguments_plugins(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tool_call(monkeypatch, {"path": ".", "limit": "many"})
    result = _tool_result(_pm(), home, tmp_path)
    assert result["isError"]
    assert result["content"][0]["text"].startswith('Validation failed for tool "ls":')
    _tool_call(monkeypatch, {"path": ".", "limit": "many"})
    unchecked = _tool_result(_pm(disabled=("tool_arguments",)), home, tmp_path)
    assert not unchecked["content"][0]["text"].startswith("Validation failed")


# -- route_command_line ----------------------------------------------------------------------


class Habits:
    @hookimpl
    def route_command_line(self, args: list[str]) -> list[str] | None:
        return ["--version", *args[1:]] if args[:1] == ["what"] else None


def test_a_plugin_rewrites_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["what"], pm=_pm(("habits", Habits()))) == 0
    assert capsys.readouterr().out.startswith("tether ")


def test_pis_forms_are_the_pi_forms_plugins(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--list-models", "faux"], pm=_pm()) == 0
    assert "faux/faux-1" in capsys.readouterr().out
    assert main(["--list-models", "faux"], pm=_pm(disabled=("pi_forms",))) == 2
    assert "No such option: --list-models" in capsys.readouterr().err


def test_plugins_and_hooks_are_the_introspect_commands_plugins(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["hooks", "pins"], pm=_pm()) == 0
    out = capsys.readouterr().out
    assert out.startswith("pins") and "Provide the pins" in out and "memory.pins" not in out
    assert main(["plugins", "--all", "--json"], pm=_pm()) == 0
    names = {row["name"] for row in json.loads(capsys.readouterr().out)["plugins"]}
    assert {"introspect_commands", "pins", "stats_commands"} <= names
    for command in ("plugins", "hooks"):
        assert main([command], pm=_pm(disabled=("introspect_commands",))) == 2
        assert f"No such command '{command}'" in capsys.readouterr().err


def test_a_typo_of_a_command_is_said_as_the_plugin_says_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["sesions"], pm=_pm()) == 2
    assert capsys.readouterr().err.startswith("tether: error: No such command 'sesions'")
