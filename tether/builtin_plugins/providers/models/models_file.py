"""models.json: where it is, how it is read (one clear line per problem), and how a provider
entry and one of its model entries become a :class:`Model` (format:
:mod:`tether.builtin_plugins.providers.models.registry`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tether.providers import (
    Model,
    ProviderConfigError,
    drop_non_finite,
    read_json_file,
    tether_home,
    warn_once,
)

MODELS_FILE = "models.json"
_MODEL_KEYS = {"id", "name", "contextWindow", "maxTokens", "reasoning", "input", "cost", "headers"}
_PROVIDER_KEYS = {"baseUrl", "api", "apiKeyEnv", "apiKey", "headers", "models"}


def models_path(home: Path | None = None) -> Path:
    return (home or tether_home()) / MODELS_FILE


def load_models_file(path: Path) -> dict[str, dict[str, Any]]:
    """The ``providers`` object of a models.json (``{}`` when the file is absent)."""
    data = read_json_file(path, ProviderConfigError, "models.json")
    providers = data.get("providers", {}) if isinstance(data, dict) else None
    if not isinstance(providers, dict):
        raise ProviderConfigError(f'{path}: expected {{"providers": {{"<name>": {{...}}}}}}')
    for name, entry in providers.items():
        if not isinstance(entry, dict):
            raise ProviderConfigError(f"{path}: providers.{name}: expected an object")
        for message in drop_non_finite(entry, f"{path}: providers.{name}"):  # 1e999, NaN
            warn_once(message)
        models = entry.get("models", [])
        if not isinstance(models, list):
            raise ProviderConfigError(f"{path}: providers.{name}.models: expected a list")
        for i, item in enumerate(models):
            if not isinstance(item, dict) or not isinstance(item.get("id"), str):
                raise ProviderConfigError(
                    f"{path}: providers.{name}.models[{i}]: expected an object with a string 'id'"
                )
    return providers


def merge_provider(defaults: Mapping[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    merged = {**defaults, **entry}
    listed = {m["id"]: m for m in defaults.get("models", [])}
    listed.update({m["id"]: m for m in entry.get("models", [])})
    merged["models"] = list(listed.values())
    return merged


def build_model(name: str, provider: dict[str, Any], entry: dict[str, Any]) -> Model:
    """A :class:`Model` from a provider object and one of its model objects (or ``{"id"}``)."""

    def pick(key: str, default: Any) -> Any:
        return entry.get(key, provider.get(key, default))

    extra = {k: v for k, v in provider.items() if k not in _PROVIDER_KEYS | _MODEL_KEYS}
    extra.update({k: v for k, v in entry.items() if k not in _MODEL_KEYS})
    shared, own = provider.get("compat"), entry.get("compat")
    if isinstance(shared, dict) and isinstance(own, dict):  # the model's fields win, one by one
        extra["compat"] = {**shared, **own}
    return Model(
        provider=name,
        id=entry["id"],
        api=str(pick("api", "openai-completions")),
        base_url=str(pick("baseUrl", "")),
        api_key_env=provider.get("apiKeyEnv"),
        context_window=int(pick("contextWindow", 128000)),
        max_tokens=int(pick("maxTokens", 16384)),
        reasoning=bool(pick("reasoning", False)),
        input=list(pick("input", ["text"])),
        headers={**(provider.get("headers") or {}), **(entry.get("headers") or {})},
        name=str(entry.get("name") or entry["id"]),
        extra=extra,
        cost=dict(entry.get("cost") or {}),
        api_key=provider.get("apiKey"),
    )


__all__ = ["MODELS_FILE", "build_model", "load_models_file", "merge_provider", "models_path"]
