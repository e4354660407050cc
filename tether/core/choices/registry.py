"""Choices by name: summarizers, token counters and compaction strategies.

Plugins register implementations under a name through ``register_summarizers``,
``register_token_counters`` and ``register_compaction_strategies``
(:mod:`tether.hookspecs.choices`); the kernel picks ONE per kind, first match wins:

1. the command-line flag (``--summarizer``, ``--counter``, ``--strategy``);
2. the setting (``compaction.summarizer``, ``tokens.counter``, ``compaction.strategy``);
3. a registration that claims the default (``register(name, fn, default=True)``); when
   several do, a warning names them all and the first by name is used;
4. the built-in default: summarizer ``llm`` when a model is known (``compaction.model`` or
   the session's, if its provider is configured), else ``offline``; counter ``chars`` (pi's
   chars/4); strategy ``pi``.

An installed plugin therefore never overrides an explicit choice, and an unknown name is one
error line listing the registered names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from tether.core.base.errors import TetherError
from tether.core.host.calls import call_registration, observe, warn

Why = Literal["flag", "setting", "default-claim", "built-in default"]


@dataclass(frozen=True)
class Kind:
    """One kind of named choice: its hook, setting, flag and built-in default."""

    name: str
    hook: str
    setting: str
    flag: str
    builtin_default: str


KINDS: dict[str, Kind] = {
    "summarizer": Kind(
        "summarizer", "register_summarizers", "compaction.summarizer", "--summarizer", "llm"
    ),
    "counter": Kind("counter", "register_token_counters", "tokens.counter", "--counter", "chars"),
    "strategy": Kind(
        "strategy", "register_compaction_strategies", "compaction.strategy", "--strategy", "pi"
    ),
}


@dataclass(frozen=True)
class _Implementation:
    """A ``kind``'s implementation ``name`` → ``function``, registered by ``plugin``."""

    kind: str
    name: str
    plugin: str
    function: Callable[..., Any]


@dataclass(frozen=True)
class Registered(_Implementation):
    """One registration; ``default`` if it claims to be the default."""

    default: bool = False


@dataclass(frozen=True)
class Choice(_Implementation):
    """The registration the kernel picked, and why."""

    why: Why


class _Staging:
    """``register_*`` one plugin at a time; a plugin that raises loses all its names."""

    def __init__(self, pm: Any, kind: Kind) -> None:
        self.pm = pm
        self.kind = kind
        self.found: dict[str, Registered] = {}
        self.pending: list[Registered] = []

    def arguments(self, plugin: str) -> dict[str, Any]:
        self.pending = []
        kind = self.kind.name

        def register(name: str, function: Callable[..., Any], *, default: bool = False) -> None:
            if not isinstance(name, str) or not name.strip():
                raise TypeError(f"a {kind} needs a non-empty name, got {name!r}")
            if not callable(function):
                raise TypeError(f"{kind} '{name}': {function!r} is not callable")
            self.pending.append(Registered(kind, name, plugin, function, bool(default)))

        return {"register": register}

    def keep(self, plugin: str) -> None:
        for item in self.pending:
            first = self.found.get(item.name)
            if first is None:
                self.found[item.name] = item
            elif first.plugin != plugin:
                warn(
                    self.pm,
                    f"{self.kind.name} '{item.name}' is registered by plugins '{first.plugin}' "
                    f"and '{plugin}'; the one of '{first.plugin}' (loaded first) is used",
                )
        self.pending = []

    def drop(self, plugin: str) -> None:
        self.pending = []


def registered(pm: Any, kind: str) -> dict[str, Registered]:
    """Every registration of ``kind`` by name (collected once per set of plugins)."""
    spec = KINDS[kind]
    caller = getattr(pm.hook, spec.hook)
    key = tuple(id(impl) for impl in caller.get_hookimpls())
    cache: dict[str, tuple[tuple[int, ...], dict[str, Registered]]]
    cache = pm.__dict__.setdefault("_tether_named_choices", {})
    hit = cache.get(kind)
    if hit is not None and hit[0] == key:
        return hit[1]
    staging = _Staging(pm, spec)
    call_registration(pm, spec.hook, staging)  # plugin by plugin, built-ins first
    cache[kind] = (key, staging.found)
    return staging.found


def plural(kind: str) -> str:
    """``summarizers``, ``counters``, ``strategies``."""
    return f"{kind[:-1]}ies" if kind.endswith("y") else f"{kind}s"


def unknown_name(kind: Kind, name: str, source: str, found: dict[str, Registered]) -> TetherError:
    """The one-line error for ``name``, given by ``source``, that no plugin registered."""
    names = ", ".join(sorted(found)) or "none"
    return TetherError(
        f"unknown {kind.name} '{name}' (from {source}); registered {plural(kind.name)}: {names}"
    )


def _traced(pm: Any, choice: Choice) -> Choice:
    """Tell the hook-call observer (``TETHER_TRACE_PLUGINS``) which plugin a choice went to."""
    observe(pm, "chose", choice.kind, choice.name, choice.why, choice.plugin)
    return choice


def choose(
    pm: Any,
    kind: str,
    *,
    flag: str | None = None,
    setting: str | None = None,
    builtin_default: str | Callable[[], str] | None = None,
) -> Choice:
    """The registration of ``kind`` to use: flag, else setting, else a default claim, else
    the built-in default (``builtin_default`` overrides :data:`KINDS`' one, e.g. ``offline``
    when no model is known; a function is called only when it comes to that). Raises a
    one-line :class:`TetherError` for an unknown name."""
    spec = KINDS[kind]
    found = registered(pm, kind)
    for why, source, wanted in (("flag", spec.flag, flag), ("setting", spec.setting, setting)):
        if wanted:
            item = found.get(wanted)
            if item is None:
                raise unknown_name(spec, wanted, source, found)
            return _traced(pm, Choice(kind, item.name, item.plugin, item.function, why))  # type: ignore[arg-type]
    claims = sorted((r for r in found.values() if r.default), key=lambda r: r.name)
    if claims:
        if len(claims) > 1:
            _warn_once(pm, kind, claims)
        first = claims[0]
        return _traced(pm, Choice(kind, first.name, first.plugin, first.function, "default-claim"))
    if callable(builtin_default):
        builtin_default = builtin_default()
    fallback = builtin_default or spec.builtin_default
    item = found.get(fallback)
    if item is None:
        raise TetherError(
            f"no {kind} named '{fallback}' (the built-in default) is registered — is its plugin "
            f"disabled? Registered {plural(kind)}: {', '.join(sorted(found)) or 'none'}"
        )
    return _traced(pm, Choice(kind, item.name, item.plugin, item.function, "built-in default"))


def check_named(pm: Any, kind: str, *, flag: str | None, setting: str | None) -> None:
    """Before any work: an unknown name given by ``flag`` (else by ``setting``) is one
    :class:`TetherError` naming where it came from; nothing named is fine."""
    if flag or setting:
        choose(pm, kind, flag=flag, setting=setting)


def _warn_once(pm: Any, kind: str, claims: list[Registered]) -> None:
    warned: set[str] = pm.__dict__.setdefault("_tether_claims_warned", set())
    if kind in warned:
        return
    warned.add(kind)
    who = ", ".join(f"'{r.name}' (plugin '{r.plugin}')" for r in claims)
    warn(
        pm,
        f"several {kind}s claim the default: {who}; using '{claims[0].name}' (first by name) — "
        f"choose one with the setting {KINDS[kind].setting}",
    )


__all__ = [
    "KINDS",
    "Choice",
    "Kind",
    "Registered",
    "check_named",
    "choose",
    "plural",
    "registered",
    "unknown_name",
]
