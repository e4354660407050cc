"""Collecting the cue tables plugins register through ``register_fact_cues``.

The kernel only gathers them (language → table, checked to be a mapping of names to lists of
strings) and hands them to summarizers and the summary gate with each compaction; what the
cue kinds mean is the fact ledger's business (a built-in plugin), not the kernel's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tether.core.host.calls import call_registration


class _Tables:
    """The ``register_fact_cues`` registration: tables per plugin, kept or dropped whole."""

    def __init__(self, pm: Any) -> None:
        self.pm = pm
        self.pending: dict[str, dict[str, Any]] = {}
        self.tables: dict[str, Any] = {}

    def arguments(self, plugin: str) -> dict[str, Any]:
        mine = self.pending.setdefault(plugin, {})

        def register(language: str, cues: Mapping[str, Any]) -> None:
            if not isinstance(language, str) or not isinstance(cues, Mapping):
                raise TypeError("register(language, cues) takes a name and a mapping")
            for kind, phrases in cues.items():
                if isinstance(phrases, str) or not all(isinstance(p, str) for p in phrases):
                    raise TypeError(f"cues[{kind!r}] must be a list of strings")
            mine[language] = {str(k): list(v) for k, v in cues.items()}

        return {"register": register}

    def keep(self, plugin: str) -> None:
        self.tables.update(self.pending.pop(plugin, {}))

    def drop(self, plugin: str) -> None:
        self.pending.pop(plugin, None)


def collect_fact_cues(pm: Any) -> dict[str, Any]:
    """Every registered table (language → cue kind → phrases), once per plugin manager."""
    cache = pm.__dict__.get("_tether_fact_cues")
    if cache is None:
        tables = _Tables(pm)
        call_registration(pm, "register_fact_cues", tables)
        cache = pm.__dict__["_tether_fact_cues"] = tables.tables
    return dict(cache)


__all__ = ["collect_fact_cues"]
