"""The plugin manager: entry-point discovery, load order, blocking, allowlisting, tracing.

Built-in features are the ``tether`` distribution's own entry points in the ``tether.plugins``
group and are loaded first; third-party plugins are loaded after them, so pluggy calls them
earlier for ordinary hooks. Every app or test builds its own manager with
:func:`create_plugin_manager` — there is no global one.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, TextIO

import pluggy

from tether.hookspecs import PROJECT_NAME, SPEC_MODULES

ENTRY_POINT_GROUP = "tether.plugins"
BUILTIN_DISTRIBUTION = "tether"
ENV_DISABLE = "TETHER_DISABLE_PLUGINS"
ENV_ALLOW = "TETHER_LOAD_PLUGINS"
ENV_TRACE = "TETHER_TRACE_PLUGINS"


class PluginError(Exception):
    """A plugin could not be loaded in a way that must stop tether (collision, broken built-in)."""


@dataclass
class PluginRecord:
    """What the manager knows about one plugin, for ``tether plugins``."""

    name: str
    distribution: str
    version: str
    builtin: bool
    status: str  # loaded | blocked | not-allowed | failed
    module: str = ""
    error: str = ""
    hooks: list[str] = field(default_factory=list)


@dataclass
class _Candidate:
    name: str
    value: str
    distribution: str
    version: str
    entry_point: Any


def _split_names(raw: str | None) -> set[str]:
    if not raw:
        return set()
    return {part.strip() for part in raw.replace(";", ",").split(",") if part.strip()}


def _discover() -> tuple[list[_Candidate], list[_Candidate]]:
    """Return (built-in, third-party) entry points of the ``tether.plugins`` group."""
    from importlib.metadata import distributions

    builtins: list[_Candidate] = []
    third: list[_Candidate] = []
    seen: set[tuple[str, str]] = set()
    for dist in distributions():
        dist_name = (dist.metadata["Name"] or "").strip()
        for ep in dist.entry_points:
            if ep.group != ENTRY_POINT_GROUP:
                continue
            key = (dist_name.lower(), ep.name)
            if key in seen:  # the same distribution visible twice on sys.path
                continue
            seen.add(key)
            candidate = _Candidate(ep.name, ep.value, dist_name, dist.version or "", ep)
            if dist_name.lower() == BUILTIN_DISTRIBUTION:
                builtins.append(candidate)
            else:
                third.append(candidate)
    third.sort(key=lambda c: (c.distribution.lower(), c.name))
    return builtins, third


class PluginManager(pluggy.PluginManager):
    """pluggy's manager plus the records ``tether plugins`` shows and the load warnings."""

    def __init__(self) -> None:
        super().__init__(PROJECT_NAME)
        self.records: dict[str, PluginRecord] = {}
        self.warnings: list[str] = []

    def hook_names(self) -> list[str]:
        """All declared hook names, sorted."""
        return sorted(name for name in dir(self.hook) if not name.startswith("_"))


def _add_hookspecs(pm: PluginManager) -> None:
    for module_name in SPEC_MODULES:
        pm.add_hookspecs(import_module(module_name))


def _hooks_of(pm: PluginManager, plugin: object) -> list[str]:
    return sorted(caller.name for caller in pm.get_hookcallers(plugin) or [])


def _enable_tracing(pm: PluginManager, stream: TextIO) -> None:
    def before(hook_name: str, impls: list[Any], kwargs: Mapping[str, Any]) -> None:
        names = ", ".join(pm.get_name(impl.plugin) or "?" for impl in impls)
        stream.write(f"[tether trace] {hook_name}({', '.join(kwargs)}) -> [{names}]\n")

    def after(outcome: Any, hook_name: str, impls: list[Any], kwargs: Mapping[str, Any]) -> None:
        if outcome.exception is not None:
            stream.write(f"[tether trace] {hook_name} raised {outcome.exception!r}\n")

    pm.add_hookcall_monitoring(before, after)


def create_plugin_manager(
    *,
    load_entry_points: bool = True,
    plugins: Iterable[tuple[str, object]] = (),
    disabled: Iterable[str] = (),
    environ: Mapping[str, str] | None = None,
    stderr: TextIO | None = None,
) -> PluginManager:
    """Build a plugin manager with every hookspec declared and the plugins loaded.

    ``plugins`` are extra ``(name, module_or_object)`` pairs registered after the entry
    points (library use and tests). ``disabled`` adds names to ``TETHER_DISABLE_PLUGINS``.
    Raises :class:`PluginError` for a broken built-in or a third-party name that collides
    with a built-in; a third-party plugin that fails to import is recorded and skipped.
    """
    env = os.environ if environ is None else environ
    err = stderr if stderr is not None else sys.stderr
    pm = PluginManager()
    _add_hookspecs(pm)
    blocked = _split_names(env.get(ENV_DISABLE)) | set(disabled)
    allow_raw = env.get(ENV_ALLOW)
    allowlist = None if allow_raw is None else _split_names(allow_raw)

    if load_entry_points:
        builtins, third = _discover()
        builtin_names = {c.name: c for c in builtins}
        for cand in builtins:
            _load(pm, cand, builtin=True, blocked=blocked)
        for cand in third:
            if cand.name in builtin_names:
                raise PluginError(
                    f"plugin name collision: '{cand.name}' from distribution "
                    f"'{cand.distribution}' has the name of the built-in plugin from "
                    f"'{builtin_names[cand.name].distribution}'; rename its entry point"
                )
            if allowlist is not None and cand.name not in allowlist:
                pm.records[cand.name] = PluginRecord(
                    cand.name, cand.distribution, cand.version, False, "not-allowed", cand.value
                )
                continue
            _load(pm, cand, builtin=False, blocked=blocked)

    for name, obj in plugins:
        if name in blocked:
            pm.set_blocked(name)
            pm.records[name] = PluginRecord(name, "(registered)", "", False, "blocked")
            continue
        pm.register(obj, name=name)
        pm.records[name] = PluginRecord(
            name,
            "(registered)",
            "",
            False,
            "loaded",
            getattr(obj, "__name__", type(obj).__name__),
            hooks=_hooks_of(pm, obj),
        )

    pm.check_pending()
    for warning in pm.warnings:
        err.write(f"tether: warning: {warning}\n")
    if env.get(ENV_TRACE, "") not in ("", "0", "false", "no"):
        _enable_tracing(pm, err)
    return pm


def _load(pm: PluginManager, cand: _Candidate, *, builtin: bool, blocked: set[str]) -> None:
    record = PluginRecord(cand.name, cand.distribution, cand.version, builtin, "loaded", cand.value)
    pm.records[cand.name] = record
    if cand.name in blocked:
        pm.set_blocked(cand.name)
        record.status = "blocked"
        return
    try:
        plugin = cand.entry_point.load()
    except Exception as exc:  # a plugin's import can fail in any way
        detail = f"{type(exc).__name__}: {exc}".splitlines()[0]
        if builtin:
            raise PluginError(f"built-in plugin '{cand.name}' failed to load: {detail}") from exc
        record.status = "failed"
        record.error = detail
        pm.warnings.append(
            f"plugin '{cand.name}' ({cand.distribution} {cand.version}) failed to load and was "
            f"skipped: {detail}"
        )
        return
    try:
        pm.register(plugin, name=cand.name)
    except ValueError as exc:
        raise PluginError(
            f"plugin '{cand.name}' from '{cand.distribution}' could not be registered: {exc}"
        ) from exc
    except pluggy.PluginValidationError as exc:
        if builtin:
            raise PluginError(f"built-in plugin '{cand.name}' is invalid: {exc}") from exc
        pm.unregister(name=cand.name) if pm.has_plugin(cand.name) else None
        record.status = "failed"
        record.error = str(exc).splitlines()[0]
        pm.warnings.append(f"plugin '{cand.name}' is invalid and was skipped: {record.error}")
        return
    record.hooks = _hooks_of(pm, plugin)


__all__ = [
    "ENTRY_POINT_GROUP",
    "PluginError",
    "PluginManager",
    "PluginRecord",
    "create_plugin_manager",
]
