"""Settings: ``<home>/settings.json``, then ``<project>/.tether/settings.json``, then environment.

Keys are camelCase like pi's ``settings.json``. Unknown sections are kept so plugins can read
their own (``settings.extra("myPlugin")``). Import this module only where settings are needed:
pydantic is not imported by fast read-only commands.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tether.core.base.errors import TetherError
from tether.core.base.paths import read_json_file, tether_home


class _Section(BaseModel):
    model_config = ConfigDict(populate_by_name=True, extra="allow")


class CompactionSettingsModel(_Section):
    enabled: bool = True
    reserve_tokens: int = Field(16384, alias="reserveTokens", ge=0)
    keep_recent_tokens: int = Field(20000, alias="keepRecentTokens", ge=0)
    model: str | None = None  # "provider/model" of the summarizer; default: the session's
    summarizer: str | None = None  # a registered summarizer's name; default: see named_choices
    strategy: str | None = None  # a registered compaction strategy's name; default: "pi"
    # added to the built-in summary prompt (every compaction and branch summary); with
    # replaceInstructions they replace it
    instructions: str | None = None
    replace_instructions: bool | None = Field(None, alias="replaceInstructions")  # None: false


class BranchSummarySettings(_Section):
    reserve_tokens: int = Field(16384, alias="reserveTokens", ge=0)


class SessionSettings(_Section):
    fsync: bool = True
    dir: str | None = None
    store: str | None = None  # jsonl (default), sqlite:///PATH, postgresql://USER@HOST/DB
    # a database store: how long an append tries again after the connection broke (0: never)
    reconnect_seconds: float = Field(30.0, alias="reconnectSeconds", ge=0)


class TokenSettings(_Section):
    counter: str | None = None  # a registered token counter's name; default: "chars" (pi's)
    encoding: str = "o200k_base"


class RetrySettings(_Section):
    enabled: bool = True
    max_retries: int = Field(3, alias="maxRetries", ge=0)
    base_delay_ms: int = Field(2000, alias="baseDelayMs", ge=0)
    max_delay_ms: int = Field(60000, alias="maxDelayMs", ge=0)


class ProviderSettings(_Section):
    """How long a streamed model call may go without data (keep-alives do not count) before
    it fails as transient (and is retried); 0: no limit."""

    idle_timeout_ms: int = Field(300000, alias="idleTimeoutMs", ge=0)


class Settings(_Section):
    """The merged settings of one tether process."""

    default_provider: str | None = Field(None, alias="defaultProvider")
    default_model: str | None = Field(None, alias="defaultModel")
    default_thinking_level: str | None = Field(None, alias="defaultThinkingLevel")
    compaction: CompactionSettingsModel = Field(default_factory=CompactionSettingsModel)
    branch_summary: BranchSummarySettings = Field(
        default_factory=BranchSummarySettings, alias="branchSummary"
    )
    session: SessionSettings = Field(default_factory=SessionSettings)
    tokens: TokenSettings = Field(default_factory=TokenSettings)
    retry: RetrySettings = Field(default_factory=RetrySettings)
    provider: ProviderSettings = Field(default_factory=ProviderSettings)
    custom_prompt: str | None = Field(None, alias="systemPrompt")
    append_system_prompt: str | None = Field(None, alias="appendSystemPrompt")
    block_images: bool = Field(False, alias="blockImages")

    def extra(self, name: str) -> dict[str, Any]:
        """A plugin's own settings section (``{}`` when absent)."""
        value = (self.model_extra or {}).get(name)
        return value if isinstance(value, dict) else {}


def _read_json(path: Path) -> dict[str, Any]:
    data = read_json_file(path, TetherError, "settings")
    if not isinstance(data, dict):
        raise TetherError(f"{path}: settings must be a JSON object, got {type(data).__name__}")
    return data


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _env_overrides(env: dict[str, str] | os._Environ[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "TETHER_FSYNC" in env:
        out["session"] = {"fsync": env["TETHER_FSYNC"].lower() not in ("0", "false", "no", "off")}
    if env.get("TETHER_STORE"):
        out.setdefault("session", {})["store"] = env["TETHER_STORE"]
    if "TETHER_TOKEN_COUNTER" in env:
        out["tokens"] = {"counter": env["TETHER_TOKEN_COUNTER"]}
    return out


def load_settings(
    cwd: str | Path | None = None,
    *,
    home: Path | None = None,
    overrides: dict[str, Any] | None = None,
) -> Settings:
    """Merge global, project and environment settings (later wins) into a :class:`Settings`."""
    home = home or tether_home()
    project = Path(cwd or os.getcwd()) / ".tether" / "settings.json"
    merged: dict[str, Any] = {}
    sources = [(home / "settings.json", _read_json(home / "settings.json"))]
    if project.resolve() != (home / "settings.json").resolve():
        sources.append((project, _read_json(project)))
    for _, data in sources:
        merged = _merge(merged, data)
    merged = _merge(merged, _env_overrides(os.environ))
    if overrides:
        merged = _merge(merged, overrides)
    try:
        return Settings.model_validate(merged)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        names = ", ".join(str(path) for path, data in sources if data)
        raise TetherError(
            f"settings ({names or 'defaults'}): field '{where}': {first['msg']}"
        ) from exc


__all__ = ["Settings", "load_settings", "tether_home"]
