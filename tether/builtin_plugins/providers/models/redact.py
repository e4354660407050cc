"""Keeping API keys out of sessions and output.

Some providers quote the key they were sent in an error body ("Incorrect API key provided:
sk-…"). The provider registry passes every failed call through a :class:`Redactor`, so the
``errorMessage`` stored in the session, the typed error and everything printed from them
(stderr, ``--json`` events) show ``[redacted]`` instead of a key.

The values redacted: the ``apiKey`` literals of models.json, the variables its ``apiKeyEnv``
entries name, credential headers it configures (``Authorization``, ``x-api-key``…), the
well-known key variables (:data:`WELL_KNOWN_KEY_VARS`) and any variable
whose name ends in ``_API_KEY``. Values shorter than :data:`MIN_SECRET_LENGTH` are left alone
(redacting "abc" everywhere would garble text and hide nothing).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

REDACTED = "[redacted]"
MIN_SECRET_LENGTH = 8
WELL_KNOWN_KEY_VARS = (
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "OPENROUTER_API_KEY",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "GROQ_API_KEY",
    "MISTRAL_API_KEY",
    "XAI_API_KEY",
    "DEEPSEEK_API_KEY",
    "TOGETHER_API_KEY",
    "FIREWORKS_API_KEY",
    "CEREBRAS_API_KEY",
    "AZURE_OPENAI_API_KEY",
    "HF_TOKEN",
)


class Redactor:
    """Replaces every known secret value in a text by :data:`REDACTED`."""

    def __init__(self, values: Iterable[str]) -> None:
        kept = {v.strip() for v in values if isinstance(v, str)}
        # longest first, so a key that contains another is replaced whole
        self.values = sorted(
            (v for v in kept if len(v) >= MIN_SECRET_LENGTH), key=len, reverse=True
        )

    def __bool__(self) -> bool:
        return bool(self.values)

    def text(self, text: str) -> str:
        for value in self.values:
            if value in text:
                text = text.replace(value, REDACTED)
        return text

    def message(self, message: dict[str, Any] | None) -> None:
        """Redact a message's ``errorMessage`` in place."""
        if isinstance(message, dict) and isinstance(message.get("errorMessage"), str):
            message["errorMessage"] = self.text(message["errorMessage"])

    def error(self, error: BaseException | None) -> None:
        """Redact an exception's message in place (its ``args``)."""
        if error is not None and error.args:
            error.args = tuple(self.text(a) if isinstance(a, str) else a for a in error.args)


def secret_values(
    providers: Mapping[str, Mapping[str, Any]], environ: Mapping[str, str]
) -> list[str]:
    """The key values of a provider configuration (models.json, merged) and environment."""
    values: list[str] = []
    names = set(WELL_KNOWN_KEY_VARS)
    names.update(n for n in environ if n.endswith("_API_KEY"))
    for entry in providers.values():
        if not isinstance(entry, Mapping):
            continue
        literal = entry.get("apiKey")
        if isinstance(literal, str):
            values.append(literal)
        named = entry.get("apiKeyEnv")
        if isinstance(named, str):
            names.add(named)
        headers = entry.get("headers")
        if isinstance(headers, Mapping):
            values.extend(_header_secrets(headers))
    values.extend(environ[n] for n in names if environ.get(n))
    return values


def _header_secrets(headers: Mapping[str, Any]) -> list[str]:
    """Values of configured headers that carry credentials (``Authorization``, ``*-key``…)."""
    out: list[str] = []
    for name, value in headers.items():
        lowered = str(name).lower()
        if isinstance(value, str) and any(w in lowered for w in ("auth", "key", "token")):
            out.append(value)
            scheme, _, credential = value.partition(" ")
            if credential and scheme.lower() in ("bearer", "basic", "token"):
                out.append(credential)
    return out


__all__ = ["MIN_SECRET_LENGTH", "REDACTED", "WELL_KNOWN_KEY_VARS", "Redactor", "secret_values"]
