"""models.json and the provider registry: "provider/model" → (Model, Provider), keys, clients.

``<tether home>/models.json`` (``TETHER_HOME`` or ``~/.tether``), pi-like::

    {"providers": {
       "<name>": {
         "baseUrl": "https://api.openai.com/v1",
         "api": "openai-completions" | "anthropic-messages" | "faux" | <a plugin's api>,
         "apiKeyEnv": "OPENAI_API_KEY",      # env var holding the key (preferred)
         "apiKey": "sk-...",                 # or a literal key (the env var wins if set)
         "headers": {"X-Extra": "1"},        # sent with every request
         "compat": {...},                    # adapter options, see the adapter's docstring
         "models": [{"id": "gpt-4o", "name": "GPT-4o", "contextWindow": 128000,
                     "maxTokens": 16384, "reasoning": false, "input": ["text", "image"],
                     "cost": {"input": 2.5, "output": 10, "cacheRead": 1.25, "cacheWrite": 0}}]
       }}}

``cost`` is $ per million tokens (0 without it). Provider-level ``contextWindow``/``maxTokens``/
``reasoning``/``input`` are defaults for its models. Names plugins register with
``register_provider_defaults`` (the built-ins: ``openai``, ``anthropic``, ``openrouter``,
``ollama``, ``faux``) need no ``baseUrl``/``api``/``apiKeyEnv``; a models.json entry of the same
name extends it. An unlisted model id of a configured provider gets the provider's defaults.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import Any

from tether.builtin_plugins.providers.messages import fail_message, new_assistant_message
from tether.builtin_plugins.providers.models.models_file import (
    build_model,
    load_models_file,
    merge_provider,
    models_path,
)
from tether.builtin_plugins.providers.models.redact import Redactor, secret_values
from tether.core.hooks.facade import Hooks
from tether.providers import (
    LlmContext,
    Model,
    Provider,
    ProviderConfigError,
    StreamEvent,
    StreamOptions,
)

#: ``--api-key``: keys for this process only, by provider name; they win over models.json and
#: the environment and are never written anywhere (pi's runtime override).
_RUNTIME_KEYS: dict[str, str] = {}


def set_runtime_key(provider: str, key: str | None) -> None:
    """Use ``key`` for ``provider`` in this process (``None``: forget it)."""
    if key is None:
        _RUNTIME_KEYS.pop(provider, None)
    else:
        _RUNTIME_KEYS[provider] = key


class _ProviderRegistration:
    """Collects one plugin's adapters apart until its ``register_providers`` has returned;
    the first adapter of an api wins (pluggy's call order: third-party plugins first)."""

    def __init__(self) -> None:
        self.found: dict[str, Provider] = {}
        self.pending: list[Any] = []

    def arguments(self, plugin: str) -> dict[str, Any]:
        self.pending = []
        return {"register": self.pending.append}

    def keep(self, plugin: str) -> None:
        for provider in self.pending:
            self.found.setdefault(str(provider.api), provider)

    def drop(self, plugin: str) -> None:
        self.pending = []


class _DefaultsRegistration:
    """Collects one plugin's ``register_provider_defaults`` apart. Called in registration
    order (the ``trylast`` built-ins first, in load order), a later registration of a name
    replaces an earlier one, keeping its place: an installed plugin wins over a built-in."""

    def __init__(self) -> None:
        self.found: dict[str, dict[str, Any]] = {}
        self.pending: list[tuple[str, dict[str, Any]]] = []

    def arguments(self, plugin: str) -> dict[str, Any]:
        self.pending = []
        return {"register": self._register}

    def _register(self, name: str, defaults: Mapping[str, Any]) -> None:
        if not isinstance(name, str) or not name:
            raise TypeError(f"provider name must be a non-empty string, not {name!r}")
        if not isinstance(defaults, Mapping):
            raise TypeError(f"defaults of provider '{name}' must be a mapping")
        models = defaults.get("models", [])
        if not isinstance(models, list) or not all(
            isinstance(m, Mapping) and isinstance(m.get("id"), str) for m in models
        ):
            raise TypeError(f"models of provider '{name}' must be objects with a string 'id'")
        self.pending.append((name, {**defaults, "models": [dict(m) for m in models]}))

    def keep(self, plugin: str) -> None:
        for name, defaults in self.pending:
            self.found[name] = defaults

    def drop(self, plugin: str) -> None:
        self.pending = []


class ProviderRegistry:
    """Providers registered by plugins plus the models of models.json, for one plugin manager.

    ``ProviderRegistry(pm)`` reads ``<tether home>/models.json``; ``resolve("openai/gpt-4o")``
    → ``(Model, Provider)``; ``stream`` fills in the API key and the HTTP client
    (``http_client`` hook, purpose ``"provider:<api>"``). Close it (or use ``with``) to close
    the clients.
    """

    def __init__(
        self,
        pm: Any,
        *,
        home: Path | None = None,
        environ: Mapping[str, str] | None = None,
        settings: Any = None,
    ) -> None:
        self.pm = pm
        self.path = models_path(home)
        self.environ = os.environ if environ is None else environ
        self.settings = settings
        self._clients: dict[str, Any] = {}

    # -- what is configured ------------------------------------------------------------------

    @cached_property
    def apis(self) -> dict[str, Provider]:
        """Adapters by api name. pluggy calls later-loaded plugins first, so the first
        registration of an api wins: a third-party plugin overrides a built-in adapter."""
        staging = _ProviderRegistration()
        Hooks(self.pm).register_providers(staging)
        return staging.found

    @cached_property
    def defaults(self) -> dict[str, dict[str, Any]]:
        """Providers that work by name alone, as plugins registered them
        (``register_provider_defaults``)."""
        staging = _DefaultsRegistration()
        Hooks(self.pm).register_provider_defaults(staging)
        return staging.found

    @cached_property
    def config(self) -> dict[str, dict[str, Any]]:
        """Provider objects: the registered defaults merged with models.json."""
        file = load_models_file(self.path)
        defaults = self.defaults
        names = list(dict.fromkeys([*file, *defaults]))
        return {n: merge_provider(defaults.get(n, {}), file.get(n, {})) for n in names}

    def models(self) -> list[Model]:
        """Every listed model, models.json order first."""
        return [build_model(n, p, m) for n, p in self.config.items() for m in p["models"]]

    # -- resolution --------------------------------------------------------------------------

    def resolve(
        self, ref: str | None = None, *, provider: str | None = None, model: str | None = None
    ) -> tuple[Model, Provider]:
        """``"provider/model"`` (or ``provider=``/``model=``, or the settings' defaults) →
        (Model, Provider). Raises :class:`ProviderConfigError` saying what to configure."""
        if ref:
            provider, model = self._split_ref(ref, provider)
        if provider is None and model is None and self.settings is not None:
            provider = getattr(self.settings, "default_provider", None)
            model = getattr(self.settings, "default_model", None)
            if provider is None and model and "/" in model:
                return self.resolve(model)
        found = self._find(provider, model)
        return found, self.adapter(found)

    def find_model(self, provider: str, model: str) -> Model:
        """The :class:`Model` :meth:`resolve` would give for ``provider``/``model``, without its
        adapter (no provider code is loaded): for figures such as the context window."""
        return self._find(provider, model)

    def _split_ref(self, ref: str, provider: str | None) -> tuple[str | None, str]:
        """``"p/m"`` → (p, m) when p is a provider; a listed id containing ``/`` (OpenRouter's
        ``"vendor/model"``) wins over reading its vendor as a provider of the same name."""
        head, sep, tail = ref.partition("/")
        if not sep or head not in self.config or provider not in (None, head):
            return provider, ref
        if any(m["id"] == tail for m in self.config[head]["models"]) or provider == head:
            return head, tail
        if sum(m.id == ref for m in self.models()) == 1:
            return None, ref
        return head, tail

    def adapter(self, model: Model) -> Provider:
        """The registered adapter for ``model.api``."""
        adapter = self.apis.get(model.api)
        if adapter is None:
            raise ProviderConfigError(
                f"provider '{model.provider}' uses api '{model.api}' but no installed plugin "
                f"provides it (available: {', '.join(sorted(self.apis)) or 'none'})"
            )
        return adapter

    def _find(self, provider: str | None, model: str | None) -> Model:
        where = str(self.path)
        if provider is None and model is None:
            raise ProviderConfigError(
                "no model selected: pass --provider/--model (try --provider faux), or set "
                f"defaultProvider/defaultModel in {self.path.parent / 'settings.json'} "
                f"and the provider in {where}"
            )
        if provider is None:
            hits = [m for m in self.models() if m.id == model]
            if len(hits) == 1:
                return hits[0]
            if hits:
                refs = ", ".join(m.ref for m in hits)
                raise ProviderConfigError(f"model '{model}' is listed by several providers: {refs}")
            raise ProviderConfigError(self._unknown_model(str(model)))
        entry = self.config.get(provider)
        if entry is None:
            known = ", ".join(self.config)
            raise ProviderConfigError(
                f"unknown provider '{provider}': add it under \"providers\" in {where} "
                f"(known: {known})"
            )
        listed = {m["id"]: m for m in entry["models"]}
        if model is None:
            if not listed:
                raise ProviderConfigError(
                    f"provider '{provider}' lists no models: pass --model or add "
                    f"providers.{provider}.models in {where}"
                )
            model = next(iter(listed))
        if (
            provider not in self.defaults
            and not entry.get("baseUrl")
            and entry.get("api") != "faux"
        ):
            raise ProviderConfigError(f"providers.{provider} in {where} needs a 'baseUrl'")
        return build_model(provider, entry, listed.get(model, {"id": model}))

    def _unknown_model(self, ref: str) -> str:
        """Why ``ref`` names no model: close matches among the listed ones, else the providers
        that take any id (``tether models`` lists them all)."""
        import difflib

        head, sep, _ = ref.partition("/")
        names = {m.id: m.ref for m in self.models()} | {m.ref: m.ref for m in self.models()}
        found = difflib.get_close_matches(ref, list(names), n=3, cutoff=0.6)
        close = list(dict.fromkeys(names[name] for name in found))
        lead = f"unknown provider '{head}' in '{ref}'" if sep else f"model '{ref}' is not listed"
        if close:
            return f"{lead}; did you mean {' or '.join(close)}? (see: tether models)"
        return (
            f"{lead}; providers: {', '.join(self.config)} (see: tether models; a provider "
            f"takes any model id as PROVIDER/ID; add providers in {self.path})"
        )

    def api_key(self, model: Model) -> str | None:
        """The key for ``model``: a ``--api-key`` for its provider, else its ``apiKeyEnv``
        variable, else the literal ``apiKey``. ``None`` for providers that need none (local
        servers, faux)."""
        if model.provider in _RUNTIME_KEYS:
            return _RUNTIME_KEYS[model.provider]
        if model.api_key_env and self.environ.get(model.api_key_env):
            return self.environ[model.api_key_env]
        if model.api_key:
            return model.api_key
        if model.api_key_env:
            raise ProviderConfigError(
                f"no API key for provider '{model.provider}': set {model.api_key_env} "
                f"(or apiKey/apiKeyEnv of providers.{model.provider} in {self.path})"
            )
        return None

    # -- calls -------------------------------------------------------------------------------

    def client(self, purpose: str) -> Any:
        """The ``httpx.Client`` for ``purpose`` from the ``http_client`` hook (cached)."""
        if purpose not in self._clients:
            self._clients[purpose] = Hooks(self.pm).http_client(purpose)
        return self._clients[purpose]

    def _options(self, model: Model, options: StreamOptions | None) -> StreamOptions:
        """A copy of ``options`` with the key and client filled in."""
        options = replace(options) if options is not None else StreamOptions()
        if options.api_key is None:
            options.api_key = self.api_key(model)
        if options.client is None and model.api != "faux":
            options.client = self.client(f"provider:{model.api}")
        if options.idle_timeout is None and self.settings is not None:
            block = getattr(self.settings, "provider", None)
            idle_ms = getattr(block, "idle_timeout_ms", None)
            if isinstance(idle_ms, int):
                options.idle_timeout = idle_ms / 1000
        return options

    def stream(
        self, model: Model, context: LlmContext, options: StreamOptions | None = None
    ) -> Iterator[StreamEvent]:
        """``provider.stream`` with key and client filled in. A configuration problem (no
        key, no adapter) comes back as a single ``error`` event, never as an exception."""
        try:
            adapter = self.adapter(model)
            options = self._options(model, options)
        except ProviderConfigError as error:
            message = fail_message(new_assistant_message(model), error)
            return iter([StreamEvent("error", message=message, error=error)])
        return _redacted(adapter.stream(model, context, options), lambda: self.redactor(options))

    def redactor(self, options: StreamOptions | None = None) -> Redactor:
        """What hides the configured keys (and the call's own) in error texts."""
        try:
            config = self.config
        except Exception:  # noqa: BLE001 - a broken models.json: redact what is known
            config = {}
        values = [*secret_values(config, self.environ), *_RUNTIME_KEYS.values()]
        if options is not None and options.api_key:
            values.append(options.api_key)
        return Redactor(values)

    def fresh(self) -> ProviderRegistry:
        """The same configuration with HTTP clients of its own (for another thread)."""
        home, environ, settings = self.path.parent, self.environ, self.settings
        return ProviderRegistry(self.pm, home=home, environ=environ, settings=settings)

    def close(self) -> None:
        for client in self._clients.values():
            close = getattr(client, "close", None)
            if callable(close):
                close()
        self._clients.clear()

    def __enter__(self) -> ProviderRegistry:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _redacted(
    events: Iterator[StreamEvent], make_redactor: Callable[[], Redactor]
) -> Iterator[StreamEvent]:
    """``events`` with keys removed from the final error (message and typed error) and from
    an exception the adapter raises; the secrets are gathered only when an error comes (not on
    every call)."""
    try:
        for event in events:
            if event.type == "error":
                redactor = make_redactor()
                if redactor:
                    redactor.message(event.message)
                    redactor.error(event.error)
            yield event
    except Exception as error:
        make_redactor().error(error)
        raise
    finally:
        close = getattr(events, "close", None)
        if callable(close):
            close()  # an abandoned stream ends its HTTP call now, not when collected


__all__ = ["ProviderRegistry", "build_model", "load_models_file", "models_path", "set_runtime_key"]
