"""models.json loading and the ProviderRegistry: resolution, keys, clients, clear errors."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest

from tests.servers import AnthropicServer, OpenAIServer, Usage
from tether.builtin_plugins.providers import anthropic as provider_anthropic
from tether.builtin_plugins.providers import faux as provider_faux
from tether.builtin_plugins.providers import http as http_client
from tether.builtin_plugins.providers import openai as provider_openai
from tether.builtin_plugins.providers.models.registry import ProviderRegistry
from tether.core.base.errors import TetherError
from tether.core.host.manager import create_plugin_manager
from tether.hookspecs import hookimpl
from tether.hookspecs.providers import LlmContext, ProviderConfigError, StreamOptions, drain

BUILTINS = [
    ("http_client", http_client),
    ("provider_openai", provider_openai),
    ("provider_anthropic", provider_anthropic),
    ("provider_faux", provider_faux),
]
CONTEXT = LlmContext(
    "sys", [{"role": "user", "content": [{"type": "text", "text": "hi"}], "timestamp": 1}]
)


def write_models(home: Path, providers: dict[str, Any]) -> Path:
    home.mkdir(parents=True, exist_ok=True)
    path = home / "models.json"
    path.write_text(json.dumps({"providers": providers}, indent=2))
    return path


def registry(
    home: Path, env: dict[str, str] | None = None, *extra: tuple[str, object], settings: Any = None
) -> ProviderRegistry:
    pm = create_plugin_manager(load_entry_points=False, plugins=[*BUILTINS, *extra], environ={})
    return ProviderRegistry(pm, home=home, environ=env or {}, settings=settings)


def test_entry_points_register_the_builtin_adapters(tmp_path: Path) -> None:
    pm = create_plugin_manager(environ={})
    apis = ProviderRegistry(pm, home=tmp_path).apis
    assert {"openai-completions", "anthropic-messages", "faux"} <= set(apis)


def test_resolve_models_json_entry(tmp_path: Path) -> None:
    write_models(
        tmp_path,
        {
            "local": {
                "baseUrl": "http://127.0.0.1:8080/v1",
                "api": "openai-completions",
                "headers": {"X-Team": "a"},
                "compat": {"maxTokensField": "max_tokens"},
                "models": [
                    {
                        "id": "qwen3",
                        "name": "Qwen 3",
                        "contextWindow": 32768,
                        "maxTokens": 8192,
                        "reasoning": True,
                        "input": ["text"],
                        "headers": {"X-Model": "b"},
                        "cost": {"input": 1, "output": 2},
                    }
                ],
            }
        },
    )
    reg = registry(tmp_path)
    model, adapter = reg.resolve("local/qwen3")
    assert adapter.api == "openai-completions"
    assert (model.provider, model.id, model.ref, model.name) == (
        "local",
        "qwen3",
        "local/qwen3",
        "Qwen 3",
    )
    assert (model.base_url, model.context_window, model.max_tokens, model.reasoning) == (
        "http://127.0.0.1:8080/v1",
        32768,
        8192,
        True,
    )
    assert model.input == ["text"]
    assert model.headers == {"X-Team": "a", "X-Model": "b"}
    assert model.cost == {"input": 1, "output": 2}
    assert model.extra == {"compat": {"maxTokensField": "max_tokens"}}
    assert reg.resolve(provider="local")[0].id == "qwen3"  # first listed model
    assert reg.resolve("qwen3")[0].ref == "local/qwen3"  # unique bare id
    assert reg.api_key(model) is None  # no apiKeyEnv/apiKey: a local server needs no key


def test_model_ids_with_slashes_and_known_provider_defaults(tmp_path: Path) -> None:
    write_models(tmp_path, {"openrouter": {"models": [{"id": "anthropic/claude-sonnet-4"}]}})
    reg = registry(tmp_path)
    model = reg.resolve("openrouter/anthropic/claude-sonnet-4")[0]
    assert (model.provider, model.id) == ("openrouter", "anthropic/claude-sonnet-4")
    assert model.base_url == "https://openrouter.ai/api/v1"
    assert model.api_key_env == "OPENROUTER_API_KEY"
    assert reg.resolve("anthropic/claude-sonnet-4")[0].provider == "openrouter"  # no provider
    unlisted = reg.resolve("anthropic/claude-new")[0]  # known provider, model not listed
    assert (unlisted.provider, unlisted.api, unlisted.context_window) == (
        "anthropic",
        "anthropic-messages",
        200000,
    )


def test_faux_always_available_without_config(tmp_path: Path) -> None:
    reg = registry(tmp_path / "empty-home")
    model, adapter = reg.resolve(provider="faux")
    assert (model.ref, adapter.api, reg.api_key(model)) == ("faux/faux-1", "faux", None)
    listed = [m.ref for m in reg.models()]
    assert "faux/faux-1" in listed
    assert all(ref.startswith("openai/") for ref in listed if ref != "faux/faux-1")


def test_settings_defaults(tmp_path: Path) -> None:
    write_models(
        tmp_path, {"local": {"baseUrl": "http://x/v1", "models": [{"id": "a"}, {"id": "b"}]}}
    )
    by_pair = registry(
        tmp_path, settings=SimpleNamespace(default_provider="local", default_model="b")
    )
    assert by_pair.resolve()[0].ref == "local/b"
    by_ref = registry(
        tmp_path, settings=SimpleNamespace(default_provider=None, default_model="local/a")
    )
    assert by_ref.resolve()[0].ref == "local/a"
    assert by_ref.resolve("faux/faux-1")[0].ref == "faux/faux-1"  # explicit beats defaults


def test_api_keys_env_wins_over_literal(tmp_path: Path) -> None:
    write_models(
        tmp_path,
        {
            "gw": {
                "baseUrl": "http://gw/v1",
                "apiKeyEnv": "GW_KEY",
                "apiKey": "literal",
                "models": [{"id": "m"}],
            }
        },
    )
    model = registry(tmp_path).resolve("gw/m")[0]
    assert registry(tmp_path, {"GW_KEY": "from-env"}).api_key(model) == "from-env"
    assert registry(tmp_path, {}).api_key(model) == "literal"


@pytest.mark.parametrize(
    ("providers", "call", "expected"),
    [
        ({}, lambda r: r.resolve(), r"no model selected: pass --provider/--model .*settings\.json"),
        (
            {},
            lambda r: r.resolve("nope/m"),
            r"unknown provider 'nope' in 'nope/m'; providers: .*openai.*models\.json",
        ),
        ({}, lambda r: r.resolve("gpt4o"), r"'gpt4o' is not listed; did you mean openai/gpt-4o"),
        ({}, lambda r: r.resolve(provider="nope"), r"unknown provider 'nope': add it .*models"),
        (
            {"x": {"baseUrl": "http://x", "models": []}},
            lambda r: r.resolve(provider="x"),
            r"provider 'x' lists no models: pass --model or add providers\.x\.models",
        ),
        (
            {"x": {"models": [{"id": "m"}]}},
            lambda r: r.resolve("x/m"),
            r"providers\.x in .*models\.json needs a 'baseUrl'",
        ),
        (
            {"x": {"baseUrl": "http://x", "api": "grpc-magic", "models": [{"id": "m"}]}},
            lambda r: r.resolve("x/m"),
            r"uses api 'grpc-magic' but no installed plugin",
        ),
        (
            {
                "x": {"baseUrl": "u", "models": [{"id": "m"}]},
                "y": {"baseUrl": "u", "models": [{"id": "m"}]},
            },
            lambda r: r.resolve("m"),
            r"'m' is listed by several providers: x/m, y/m",
        ),
        (
            {},
            lambda r: r.api_key(r.resolve("openai/gpt-4o")[0]),
            r"no API key for provider 'openai': set OPENAI_API_KEY",
        ),
    ],
)
def test_config_errors_say_what_to_set(
    tmp_path: Path, providers: dict[str, Any], call: Any, expected: str
) -> None:
    if providers:
        write_models(tmp_path, providers)
    with pytest.raises(ProviderConfigError, match=expected) as info:
        call(registry(tmp_path))
    assert "\n" not in str(info.value)
    assert isinstance(info.value, TetherError)  # the CLI prints it as one line


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"providers": {\n  "a": {,}\n}}', r"models\.json:2: invalid JSON"),
        ('{"providers": []}', r'expected \{"providers"'),
        (
            '{"providers": {"a": {"models": [{"name": "no id"}]}}}',
            r"providers\.a\.models\[0\]: expected an object with a string 'id'",
        ),
    ],
)
def test_bad_models_json(tmp_path: Path, text: str, expected: str) -> None:
    (tmp_path / "models.json").write_text(text)
    with pytest.raises(ProviderConfigError, match=expected):
        registry(tmp_path).models()


def test_third_party_adapter_overrides_builtin(tmp_path: Path) -> None:
    class Gateway:
        api = "openai-completions"

    class Plugin:
        @hookimpl
        def register_providers(self, register: Any) -> None:
            register(Gateway())

    reg = registry(tmp_path, None, ("gateway", Plugin()))
    assert isinstance(reg.apis["openai-completions"], Gateway)
    assert reg.apis["faux"].api == "faux"


def test_stream_uses_env_key_and_hooked_client(tmp_path: Path, openai_server: OpenAIServer) -> None:
    openai_server.write_models_json(tmp_path, "local", api_key_env="LOCAL_KEY")
    purposes: list[str] = []

    class Clients:
        @hookimpl
        def http_client(self, purpose: str) -> httpx.Client:
            purposes.append(purpose)
            return httpx.Client(headers={"x-proxy": "yes"})

    openai_server.text("hello from the server", usage=Usage(input=12, output=4))
    with registry(tmp_path, {"LOCAL_KEY": "k-123"}, ("clients", Clients())) as reg:
        model = reg.resolve("local/test-model")[0]
        events = list(reg.stream(model, CONTEXT))
    assert events[-1].type == "done"
    assert events[-1].message["content"] == [{"type": "text", "text": "hello from the server"}]
    headers = openai_server.last_request.headers
    assert headers["authorization"] == "Bearer k-123"
    assert headers["x-proxy"] == "yes"
    assert purposes == ["provider:openai-completions"]


def test_stream_without_key_is_an_error_event(tmp_path: Path, openai_server: OpenAIServer) -> None:
    openai_server.write_models_json(tmp_path, "local", api_key_env="LOCAL_KEY")
    reg = registry(tmp_path)
    events = list(reg.stream(reg.resolve("local/test-model")[0], CONTEXT))
    assert [e.type for e in events] == ["error"]
    assert isinstance(events[0].error, ProviderConfigError)
    assert "set LOCAL_KEY" in events[0].message["errorMessage"]
    assert openai_server.requests == []


def test_complete_with_prices_from_models_json(
    tmp_path: Path, anthropic_server: AnthropicServer
) -> None:
    write_models(
        tmp_path,
        {
            "anthropic": {
                "baseUrl": anthropic_server.base_url,
                "models": [
                    {
                        "id": "claude-test",
                        "cost": {"input": 3, "output": 15, "cacheRead": 0.3, "cacheWrite": 3.75},
                    }
                ],
            }
        },
    )
    anthropic_server.text(
        "summary", usage=Usage(input=1_000_000, output=100_000, cache_read=0, cache_write=0)
    )
    with registry(tmp_path, {"ANTHROPIC_API_KEY": "sk-ant"}) as reg:
        model = reg.resolve("anthropic/claude-test")[0]
        options = StreamOptions(max_tokens=500, stream=False)
        message, error = drain(reg.stream(model, CONTEXT, options))
    assert error is None
    assert anthropic_server.last_request.headers["x-api-key"] == "sk-ant"
    assert anthropic_server.last_request.body["max_tokens"] == 500
    assert anthropic_server.last_request.body["stream"] is False  # one non-streaming request
    assert message["content"] == [{"type": "text", "text": "summary"}]
    assert message["usage"]["cost"] == {
        "input": 3.0,
        "output": 1.5,
        "cacheRead": 0.0,
        "cacheWrite": 0.0,
        "total": 4.5,
    }


def test_an_exception_an_adapter_raises_has_the_keys_redacted(tmp_path: Path) -> None:
    key = "sk-raised-0123456789abcdef"

    class Broken:
        api = "broken"

        def stream(self, model: Any, context: Any, options: Any) -> Any:
            yield from ()
            raise RuntimeError(f"adapter bug, sent {options.api_key}")

    class Plugin:
        @hookimpl
        def register_providers(self, register: Any) -> None:
            register(Broken())

    entry = {"baseUrl": "http://x", "api": "broken", "apiKey": key, "models": [{"id": "m"}]}
    write_models(tmp_path, {"b": entry})
    reg = registry(tmp_path, None, ("broken", Plugin()))
    with pytest.raises(RuntimeError, match=r"sent \[redacted\]$"):
        list(reg.stream(reg.resolve("b/m")[0], CONTEXT))
