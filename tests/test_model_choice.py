"""The model and thinking level of a session are a plugin's choice (``choose_model``,
``choose_thinking_level``); the built-in ``model_choice`` plugin keeps pi's rule."""

from __future__ import annotations

from typing import Any

import pytest

from tests.harness_helpers import (
    NO_THIRD_PARTY,
    open_harness,
    plugin_manager,
    read_entries,
)
from tether.core.base.errors import HookError, ProviderConfigError, TetherError
from tether.core.host.manager import create_plugin_manager
from tether.hookspecs import hookimpl


class TeamDefaults:
    """Nothing asked for: the team's model, thinking ``low``."""

    @hookimpl
    def choose_model(self, registry: Any, ref: Any, provider: Any, model: Any) -> Any:
        if not (ref or provider or model):
            return registry.find_model("faux", "faux-1")
        return None

    @hookimpl(tryfirst=True)
    def choose_thinking_level(self, requested: Any) -> Any:
        return "low" if requested is None else None


def test_a_plugin_chooses_the_model_and_level_of_a_new_session(home, tmp_path):
    pm = plugin_manager(("team", TeamDefaults()))
    with open_harness(pm, tmp_path, home) as harness:  # no --model, no default model
        assert (harness.model.ref, harness.thinking_level) == ("faux/faux-1", "low")
        file = harness.session.file
        harness.prompt("hi")
    entries = read_entries(file)
    assert (entries[1]["type"], entries[1]["provider"], entries[1]["modelId"]) == (
        "model_change",
        "faux",
        "faux-1",
    )
    assert (entries[2]["type"], entries[2]["thinkingLevel"]) == ("thinking_level_change", "low")


def test_the_builtin_choice_asked_for_is_checked_and_said_as_before(home, tmp_path):
    with open_harness(plugin_manager(), tmp_path, home, "faux/faux-1") as harness:
        assert harness.thinking_level == "medium"  # the default, faux-1 reasons
        with pytest.raises(TetherError) as caught:
            harness.set_thinking_level("turbo")
        assert str(caught.value) == (
            "unknown thinking level 'turbo': expected one of off, minimal, low, medium, high, xhigh"
        )
        with pytest.raises(ProviderConfigError) as missing:
            harness.set_model("nowhere/nothing")
        assert "model_choice" not in str(missing.value)  # the registry's own line
        harness.set_thinking_level("high")
        assert harness.thinking_level == "high"


def test_without_a_choice_binding_fails_with_one_line(home, tmp_path):
    pm = create_plugin_manager(environ=NO_THIRD_PARTY, disabled=["model_choice"])
    with pytest.raises(ProviderConfigError, match=r"is 'model_choice' disabled\?"):
        open_harness(pm, tmp_path, home, "faux/faux-1")


def test_each_choice_without_an_answer_is_its_own_error():
    from tether import Hooks
    from tether.core.base.errors import UsageError
    from tether.core.harness.setup import ModelRequest, choose_model, choose_thinking_level

    hooks = Hooks(create_plugin_manager(environ=NO_THIRD_PARTY, disabled=["model_choice"]))
    with pytest.raises(ProviderConfigError, match=r"^no plugin chose a model \("):
        choose_model(hooks, None, ModelRequest("faux/faux-1"))
    with pytest.raises(UsageError, match=r"^no plugin chose a thinking level \("):
        choose_thinking_level(hooks, "high")


class WrongAnswer:
    @hookimpl(tryfirst=True)
    def choose_model(self) -> Any:
        return "faux/faux-1"  # a name, not a Model


def test_a_wrong_answer_names_the_plugin(home, tmp_path):
    with pytest.raises(HookError, match=r"plugin 'wrong' failed in choose_model: returned str"):
        open_harness(plugin_manager(("wrong", WrongAnswer())), tmp_path, home)
