"""Provider defaults come from the provider plugins (``register_provider_defaults``), not from
the kernel: a third-party plugin adds or re-points a provider by name; blocking a provider
plugin removes its names; models.json extends what is registered; keys stay redacted."""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path
from typing import Any

from tests.plugin_fakes import write_distribution
from tests.servers import OpenAIServer
from tests.store_helpers import run_tether
from tether.builtin_plugins.providers import anthropic as provider_anthropic
from tether.builtin_plugins.providers import faux as provider_faux
from tether.builtin_plugins.providers import http as http_client
from tether.builtin_plugins.providers import openai as provider_openai
from tether.builtin_plugins.providers.models.registry import ProviderRegistry
from tether.core.host.manager import create_plugin_manager
from tether.hookspecs import hookimpl

BUILTINS = [
    ("http_client", http_client),
    ("provider_openai", provider_openai),
    ("provider_anthropic", provider_anthropic),
    ("provider_faux", provider_faux),
]
SECRET = "gw-secret-0123456789"
GATEWAY_PLUGIN = """
from tether.hookspecs import hookimpl

@hookimpl
def register_provider_defaults(register):
    register("gateway", {{"api": "openai-completions", "baseUrl": "{base_url}",
                         "apiKeyEnv": "GATEWAY_TOKEN", "models": [{{"id": "gw-1"}}]}})
"""
ENV = {"TETHER_LOAD_PLUGINS": None, "TETHER_DISABLE_PLUGINS": None, "OPENAI_API_KEY": None}


def _tether(tmp_path: Path, *args: str, **env: str | None) -> subprocess.CompletedProcess[str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    full = {**ENV, "TETHER_HOME": str(home), "HOME": str(home), **env}
    return run_tether(*args, cwd=tmp_path, env=full)


def test_an_installed_plugin_registers_a_provider_by_name(tmp_path: Path) -> None:
    with OpenAIServer() as server:
        site = tmp_path / "site"
        source = GATEWAY_PLUGIN.format(base_url=server.base_url)
        write_distribution(
            site, "tether-gateway", "0.1", {"gateway": "gateway"}, {"gateway": source}
        )
        server.text("hello from the gateway")
        server.error(401, f"Incorrect API key provided: {SECRET}")
        run = ("run", "--no-session", "--provider", "gateway", "hi")
        done = _tether(tmp_path, *run, PYTHONPATH=str(site), GATEWAY_TOKEN=SECRET)
        assert done.returncode == 0, done.stderr
        assert done.stdout == "hello from the gateway\n"
        request = server.last_request
        assert request.headers["authorization"] == f"Bearer {SECRET}"
        assert request.body["model"] == "gw-1"
        failed = _tether(tmp_path, *run, PYTHONPATH=str(site), GATEWAY_TOKEN=SECRET)
        assert failed.returncode != 0
        assert SECRET not in failed.stdout + failed.stderr  # its key variable is redacted
        assert "[redacted]" in failed.stderr


def test_blocking_a_provider_plugin_removes_its_provider_names(tmp_path: Path) -> None:
    done = _tether(
        tmp_path, "run", "--no-session", "--provider", "openai", "hi",
        TETHER_DISABLE_PLUGINS="provider_openai",
    )  # fmt: skip
    assert done.returncode != 0
    assert "unknown provider 'openai'" in done.stderr
    assert "Traceback" not in done.stderr
    faux = _tether(tmp_path, "run", "--no-session", "--provider", "faux", "hi")
    assert faux.returncode == 0 and faux.stdout == "You said: hi\n", faux.stderr


class Repoint:
    """A third-party plugin pointing ``openai`` at a gateway."""

    @hookimpl
    def register_provider_defaults(self, register: Any) -> None:
        register("openai", {"api": "openai-completions", "baseUrl": "http://gw.invalid/v1"})


class Broken:
    @hookimpl
    def register_provider_defaults(self, register: Any) -> None:
        register("half", {"api": "faux"})
        register("bad", ["not", "a", "mapping"])


def _registry(tmp_path: Path, *extra: tuple[str, object], stderr: Any = None) -> ProviderRegistry:
    pm = create_plugin_manager(
        load_entry_points=False, plugins=[*BUILTINS, *extra], environ={}, stderr=stderr
    )
    return ProviderRegistry(pm, home=tmp_path, environ={})


def test_a_plugin_overrides_a_builtin_default_and_models_json_extends_it(
    tmp_path: Path,
) -> None:
    (tmp_path / "models.json").write_text(
        json.dumps({"providers": {"openai": {"models": [{"id": "gpt-x", "contextWindow": 999}]}}})
    )
    model, _ = _registry(tmp_path, ("repoint", Repoint())).resolve("openai/gpt-x")
    assert model.base_url == "http://gw.invalid/v1"  # the plugin's, not the built-in's
    assert model.context_window == 999 and model.api_key_env is None
    builtin, _ = _registry(tmp_path).resolve("openai/gpt-x")
    assert builtin.base_url == "https://api.openai.com/v1"
    assert builtin.api_key_env == "OPENAI_API_KEY"


def test_a_bad_registration_names_the_plugin_and_drops_only_its_providers(
    tmp_path: Path,
) -> None:
    err = io.StringIO()
    registry = _registry(tmp_path, ("broken", Broken()), stderr=err)
    assert {"openai", "anthropic", "openrouter", "ollama", "faux"} <= set(registry.config)
    assert "half" not in registry.config and "bad" not in registry.config
    warning = err.getvalue()
    assert "plugin 'broken' failed in register_provider_defaults" in warning
    assert "must be a mapping" in warning
    assert registry.resolve("faux/faux-1")[0].name == "Faux (offline, scripted)"


def test_the_kernel_names_no_provider() -> None:
    core = Path(__file__).resolve().parent.parent / "tether" / "core"
    names = ("api.openai.com", "api.anthropic.com", "openrouter.ai", "11434", "OPENAI_API_KEY")
    found = [
        f"{path.relative_to(core)}: {name}"
        for path in core.rglob("*.py")
        for name in names
        if name in path.read_text(encoding="utf-8")
    ]
    assert found == []
