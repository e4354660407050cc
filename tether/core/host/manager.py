"""The plugin manager: entry-point discovery, load order, blocking, allowlisting.

Built-in features are the ``tether`` distribution's own entry points in the ``tether.plugins``
group and are loaded first; third-party plugins are loaded after them, so pluggy calls them
earlier for ordinary hooks. A third-party plugin named like a built-in is reported and skipped
(never imported). Plugins come from installed distributions only: the ``tether`` command
leaves out the folder Python put first on ``sys.path`` (see :func:`installed_path`). Every app
or test builds its own manager with :func:`create_plugin_manager` — there is no global one.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from importlib.machinery import PathFinder
from typing import Any, TextIO

import pluggy

from tether.core.host.calls import watch_calls
from tether.core.host.plugin_checks import cannot_be_hook, unknown_hooks
from tether.hookspecs import PROJECT_NAME, SPEC_MODULES

ENTRY_POINT_GROUP = "tether.plugins"
BUILTIN_DISTRIBUTION = "tether"
ENV_DISABLE = "TETHER_DISABLE_PLUGINS"
ENV_ALLOW = "TETHER_LOAD_PLUGINS"


class PluginError(Exception):
    """A plugin could not be loaded in a way that must stop tether (a broken built-in)."""


@dataclass
class PluginRecord:
    """What the manager knows about one plugin, for ``tether plugins``."""

    name: str
    distribution: str
    version: str
    builtin: bool
    status: str  # loaded | blocked | not-allowed | failed | skipped (named like a built-in)
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


# importlib.metadata's syntax of an entry point's value: ``module[:attr.path] [extras]``.
_ENTRY_POINT_VALUE = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((\[.*\])\s*)?$")


@dataclass(frozen=True)
class _EntryPoint:
    """An entry point read by :func:`_scan_sys_path`; ``load`` as ``importlib.metadata``'s."""

    value: str

    def load(self) -> Any:
        match = _ENTRY_POINT_VALUE.match(self.value)
        if match is None:
            raise ValueError(f"invalid entry point value {self.value!r}")
        target: Any = import_module(match.group("module"))
        for attr in filter(None, (match.group("attr") or "").split(".")):
            target = getattr(target, attr)
        return target


def _read_text(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError):
        return None


def _group_entries(text: str, group: str) -> Iterator[tuple[str, str]]:
    """``(name, value)`` of the ``[group]`` section of an ``entry_points.txt``."""
    section = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line.strip("[]")
        elif section == group and "=" in line:
            name, value = line.split("=", 1)
            yield name.strip(), value.strip()


def _name_and_version(info: str) -> tuple[str, str]:
    """``Name`` and ``Version`` from the headers of a dist-info's METADATA (or PKG-INFO)."""
    text = _read_text(os.path.join(info, "METADATA"))
    text = text or _read_text(os.path.join(info, "PKG-INFO")) or ""
    found: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            break  # the headers end at the first empty line
        if line[0] in " \t":  # a folded header's continuation
            continue
        key, colon, value = line.partition(":")
        if not colon:
            break  # not a header: the email parser ends the headers here too
        found.setdefault(key.strip().lower(), value.strip())
        if "name" in found and "version" in found:
            break
    return found.get("name", ""), found.get("version", "")


def installed_path() -> list[str]:
    """``sys.path`` without the entry Python itself put first, for the ``tether`` command.

    Unless ``-P``/``-I``/``PYTHONSAFEPATH`` is in effect, Python starts ``sys.path`` with the
    current folder (``python -m tether``, ``-c``) or the script's folder (the ``tether``
    console script): a ``*.dist-info`` there is whatever lies in the folder the user happens to
    be in, not an installed distribution. Everything after it — site-packages, ``.pth``
    entries, ``PYTHONPATH`` (explicit, so honoured even when it names the current folder) —
    is where installed distributions live. Call it before anything changes ``sys.path``.
    """
    if getattr(sys.flags, "safe_path", False) or sys.flags.isolated:
        return list(sys.path)
    return list(sys.path[1:])


def _scan_sys_path(
    group: str, path: Sequence[str] | None = None
) -> list[tuple[str, str, str, Any]] | None:
    """``(distribution, version, name, entry point)`` for ``group``, read straight from the
    ``*.dist-info`` / ``*.egg-info`` folders on ``path`` (default ``sys.path``), in path order
    (as importlib does).

    Importing ``importlib.metadata`` and parsing every distribution's metadata costs ~30 ms at
    each start; this reads only the files that matter. Returns ``None`` when the path holds
    what only ``importlib.metadata`` reads (zip files, eggs, other distribution finders).
    """
    if any(f is not PathFinder and hasattr(f, "find_distributions") for f in sys.meta_path):
        return None
    header = f"[{group}]"
    found: list[tuple[str, str, str, Any]] = []
    for root in sys.path if path is None else path:
        if not isinstance(root, str) or root.lower().endswith(".egg"):
            return None
        try:
            children = os.listdir(root or ".")
        except NotADirectoryError:  # a zip file
            return None
        except OSError:
            continue
        for child in children:
            if not child.lower().endswith((".dist-info", ".egg-info")):
                continue
            info = os.path.join(root, child)
            text = _read_text(os.path.join(info, "entry_points.txt"))
            if not text or header not in text:
                continue
            entries = list(_group_entries(text, group))
            if entries:
                dist_name, version = _name_and_version(info)
                found += [(dist_name, version, n, _EntryPoint(v)) for n, v in entries]
    return found


def _scan_importlib_metadata(
    group: str, path: Sequence[str] | None = None
) -> list[tuple[str, str, str, Any]]:
    """What :func:`_scan_sys_path` returns, through ``importlib_metadata`` (any finder).

    The ``importlib-metadata`` backport gives the same behaviour on every Python version.
    """
    from importlib_metadata import distributions

    found: list[tuple[str, str, str, Any]] = []
    for dist in distributions() if path is None else distributions(path=list(path)):
        entries = [ep for ep in dist.entry_points if ep.group == group]
        if entries:
            dist_name = (dist.metadata["Name"] or "").strip()
            found += [(dist_name, dist.version or "", ep.name, ep) for ep in entries]
    return found


def _discover(path: Sequence[str] | None) -> tuple[list[_Candidate], list[_Candidate]]:
    """Return (built-in, third-party) entry points of the ``tether.plugins`` group."""
    entries = _scan_sys_path(ENTRY_POINT_GROUP, path)
    if entries is None:
        entries = _scan_importlib_metadata(ENTRY_POINT_GROUP, path)
    builtins: list[_Candidate] = []
    third: list[_Candidate] = []
    seen: set[tuple[str, str]] = set()
    for dist_name, version, name, entry_point in entries:
        key = (dist_name.lower(), name)
        if key in seen:  # the same distribution visible twice on sys.path
            continue
        seen.add(key)
        candidate = _Candidate(name, entry_point.value, dist_name, version, entry_point)
        if dist_name.lower() == BUILTIN_DISTRIBUTION:
            builtins.append(candidate)
        else:
            third.append(candidate)
    third.sort(key=lambda c: (c.distribution.lower(), c.name))
    return builtins, third


class PluginManager(pluggy.PluginManager):
    """pluggy's manager plus the records ``tether plugins`` shows, the warnings and the
    observer of hook calls (``watch_hook_calls``)."""

    def __init__(self, stderr: TextIO | None = None) -> None:
        super().__init__(PROJECT_NAME)
        self.records: dict[str, PluginRecord] = {}
        self.warnings: list[str] = []
        self.observer: Any = None  # set in watch_hook_calls (host/calls.py observe)
        self.stderr = stderr

    def warn(self, message: str) -> None:
        """Write ``tether: warning: message`` once per manager (repeats are dropped)."""
        if message in self.warnings:
            return
        self.warnings.append(message)
        (self.stderr if self.stderr is not None else sys.stderr).write(
            f"tether: warning: {message}\n"
        )

    def parse_hookimpl_opts(self, plugin: Any, name: str) -> Any:
        """pluggy's answer; a quick "no" for a module's plain value (:func:`cannot_be_hook`)."""
        return None if cannot_be_hook(plugin, name) else super().parse_hookimpl_opts(plugin, name)

    def hook_names(self) -> list[str]:
        """All declared hook names, sorted."""
        return sorted(name for name in dir(self.hook) if not name.startswith("_"))


def _add_hookspecs(pm: PluginManager) -> None:
    for module_name in SPEC_MODULES:
        pm.add_hookspecs(import_module(module_name))


def create_plugin_manager(
    *,
    load_entry_points: bool = True,
    plugins: Iterable[tuple[str, object]] = (),
    disabled: Iterable[str] = (),
    environ: Mapping[str, str] | None = None,
    stderr: TextIO | None = None,
    path: Sequence[str] | None = None,
) -> PluginManager:
    """Build a plugin manager with every hookspec declared and the plugins loaded.

    ``plugins`` are extra ``(name, module_or_object)`` pairs registered after the entry
    points (library use and tests). ``disabled`` adds names to ``TETHER_DISABLE_PLUGINS``.
    ``path`` is where distributions are looked for (default ``sys.path``; the CLI passes
    :func:`installed_path`). Raises :class:`PluginError` for a broken built-in; a third-party
    plugin that fails to load, or is named like a built-in, is reported and skipped.
    """
    env = os.environ if environ is None else environ
    err = stderr if stderr is not None else sys.stderr
    pm = PluginManager(err)
    _add_hookspecs(pm)
    blocked = _split_names(env.get(ENV_DISABLE)) | set(disabled)
    allow_raw = env.get(ENV_ALLOW)
    allowlist = None if allow_raw is None else _split_names(allow_raw)

    if load_entry_points:
        builtins, third = _discover(path)
        builtin_names = {c.name: c for c in builtins}
        for cand in builtins:
            _load(pm, cand, builtin=True, blocked=blocked)
        for cand in third:
            clash = builtin_names.get(cand.name)
            # a clashing plugin is listed under its own key: the built-in keeps its name
            key = f"{cand.distribution}:{cand.name}" if clash else cand.name
            if allowlist is not None and cand.name not in allowlist:
                pm.records[key] = PluginRecord(
                    cand.name, cand.distribution, cand.version, False, "not-allowed", cand.value
                )
            elif clash is not None:
                _skip_clash(pm, key, cand, clash, blocked=blocked)
            else:
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
            hooks=sorted(caller.name for caller in pm.get_hookcallers(obj) or []),
        )

    pm.check_pending()
    watch_calls(pm, env)
    return pm


def _skip_clash(
    pm: PluginManager, key: str, cand: _Candidate, builtin: _Candidate, *, blocked: set[str]
) -> None:
    """A third-party entry point named like a built-in: listed, never imported; reported
    unless the user blocked the name."""
    record = PluginRecord(cand.name, cand.distribution, cand.version, False, "skipped", cand.value)
    pm.records[key] = record
    if cand.name in blocked:
        record.status = "blocked"
        return
    record.error = f"has the name of the built-in plugin from '{builtin.distribution}'"
    pm.warn(
        f"plugin '{cand.name}' from distribution '{cand.distribution}' has the name of the "
        f"built-in plugin from '{builtin.distribution}' and was skipped; uninstall it "
        f"(pip uninstall {cand.distribution}) or rename its entry point"
    )


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
        pm.warn(
            f"plugin '{cand.name}' ({cand.distribution} {cand.version}) failed to load and was "
            f"skipped: {detail}"
        )
        return
    try:
        pm.register(plugin, name=cand.name)
    except ValueError as exc:
        if builtin:
            raise PluginError(
                f"plugin '{cand.name}' from '{cand.distribution}' could not be registered: {exc}"
            ) from exc
        record.status = "failed"
        record.error = str(exc).splitlines()[0]
        pm.warn(
            f"plugin '{cand.name}' from '{cand.distribution}' could not be registered and was "
            f"skipped: {record.error}"
        )
        return
    except pluggy.PluginValidationError as exc:
        if builtin:
            raise PluginError(f"built-in plugin '{cand.name}' is invalid: {exc}") from exc
        pm.unregister(name=cand.name) if pm.has_plugin(cand.name) else None
        record.status = "failed"
        record.error = str(exc).splitlines()[0]
        pm.warn(f"plugin '{cand.name}' is invalid and was skipped: {record.error}")
        return
    callers = pm.get_hookcallers(plugin) or []  # one look: it scans every hook
    unknown = unknown_hooks(callers)
    if unknown is not None:
        if builtin:
            raise PluginError(f"built-in plugin '{cand.name}' is invalid: {unknown}")
        pm.unregister(name=cand.name)
        record.status, record.error = "failed", unknown
        pm.warn(f"plugin '{cand.name}' implements an {unknown} and was skipped")
        return
    record.hooks = sorted(caller.name for caller in callers)


__all__ = [
    "ENTRY_POINT_GROUP",
    "PluginError",
    "PluginManager",
    "PluginRecord",
    "create_plugin_manager",
    "installed_path",
]
