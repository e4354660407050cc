"""``tether models [SEARCH] [--json]``: every provider and model tether can use.

One row per model: context window, output limit, reasoning, input kinds, and whether the
provider's key is there (``present``, ``missing`` naming the variable to set, or ``not needed``
for local servers and ``faux``). A provider that lists no model (``ollama``, ``openrouter``,
``anthropic``…) takes any id; its row shows the values such a model gets.
"""

from __future__ import annotations

import json
import sys
from typing import Any

ANY_ID = "(any id)"


def key_status(provider: dict[str, Any], environ: Any) -> dict[str, Any]:
    """``{"key": "present"|"missing"|"not needed", "keyEnv": NAME|None}`` of a provider."""
    env = provider.get("apiKeyEnv")
    if env and environ.get(env):
        return {"key": "present", "keyEnv": env}
    if provider.get("apiKey"):
        return {"key": "present", "keyEnv": env}
    return {"key": "missing" if env else "not needed", "keyEnv": env}


def _model_json(model: Any, listed: bool) -> dict[str, Any]:
    return {
        "id": model.id if listed else None,
        "name": model.name if listed else None,
        "contextWindow": model.context_window,
        "maxTokens": model.max_tokens,
        "reasoning": model.reasoning,
        "input": list(model.input),
        "cost": dict(model.cost),
    }


def catalog(pm: Any) -> list[dict[str, Any]]:
    """The providers (models.json and the provider plugins) with their models, as JSON."""
    import os

    from tether.builtin_plugins.providers.models.models_file import build_model
    from tether.builtin_plugins.providers.models.registry import ProviderRegistry

    registry = ProviderRegistry(pm)
    out = []
    for name, provider in registry.config.items():
        listed = provider.get("models") or []
        entries = listed or [{"id": ANY_ID}]
        models = [_model_json(build_model(name, provider, e), bool(listed)) for e in entries]
        out.append(
            {
                "name": name,
                "api": str(provider.get("api", "openai-completions")),
                "baseUrl": provider.get("baseUrl") or None,
                **key_status(provider, os.environ),
                "models": models,
            }
        )
    return out


def _matches(search: str, provider: dict[str, Any], model: dict[str, Any]) -> bool:
    text = f"{provider['name']}/{model['id'] or ''} {model['name'] or ''}".lower()
    return all(word in text for word in search.lower().split())


def _key_cell(provider: dict[str, Any]) -> str:
    if provider["key"] == "missing":
        return f"missing: set {provider['keyEnv']}"
    if provider["key"] == "present" and provider["keyEnv"]:
        return f"present ({provider['keyEnv']})"
    return str(provider["key"])


def render(providers: list[dict[str, Any]]) -> list[str]:
    """A table: model, context, max output, reasoning, input, key."""
    rows = [("MODEL", "CONTEXT", "MAX OUT", "REASONING", "INPUT", "KEY")]
    for provider in providers:
        for model in provider["models"]:
            rows.append(
                (
                    f"{provider['name']}/{model['id'] or ANY_ID}",
                    str(model["contextWindow"]),
                    str(model["maxTokens"]),
                    "yes" if model["reasoning"] else "no",
                    ",".join(model["input"]),
                    _key_cell(provider),
                )
            )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return [
        "  ".join([*(cell.ljust(w) for cell, w in zip(row, widths, strict=False)), row[-1]])
        for row in rows
    ]


def print_models(pm: Any, search: str | None, as_json: bool) -> None:
    providers = catalog(pm)
    if search:
        for provider in providers:
            provider["models"] = [m for m in provider["models"] if _matches(search, provider, m)]
        providers = [p for p in providers if p["models"]]
    if as_json:
        sys.stdout.write(json.dumps({"providers": providers}, indent=1) + "\n")
        return
    if not providers:
        sys.stdout.write(f"No model matches '{search}'.\n")
        return
    sys.stdout.write("\n".join(render(providers)) + "\n")


__all__ = ["catalog", "key_status", "print_models", "render"]
