"""Calling the chosen summarizer, token counter and compaction strategy.

:func:`token_counter` is THE way to count tokens (the harness, compaction, branch summaries,
``tether session estimate``/``prepare`` all use it). Each call of a chosen implementation is
checked: an exception or a wrong answer is one :class:`TetherError` naming the plugin, the
kind and the registered name.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import partial
from typing import Any

from tether.core.base.errors import TetherError
from tether.core.choices.registry import (
    KINDS,
    Choice,
    check_named,
    choose,
    registered,
    unknown_name,
)
from tether.core.context.cuts import cut_problem
from tether.core.host.calls import call_implementation, detail_of, implementations, warn
from tether.hookspecs.events import (
    CompactionPreparation,
    CompactionSettings,
    Entry,
    Message,
    NothingToCompact,
    PrepareRequest,
    SummarizeRequest,
    Summary,
)

Count = Callable[[list[Message]], list[int]]


class ChoiceError(TetherError):
    """A chosen implementation failed; the message already names its plugin (a strategy that
    called a failing counter passes this on unchanged, so the counter's plugin is blamed)."""


def setting_of(settings: Any, kind: str) -> str | None:
    """The setting naming ``kind``'s choice (``None``/``""``/``"auto"`` = not set).

    ``settings`` is a :class:`tether.core.base.settings.Settings`, or ``None`` to read the files
    without pydantic (fast commands)."""
    if settings is None:
        from tether.core.base.settings_peek import peek_setting

        section, key = KINDS[kind].setting.split(".")
        value = peek_setting(section, key)
    elif kind == "counter":
        value = settings.tokens.counter
    else:
        value = getattr(settings.compaction, kind, None)
    return None if value in (None, "", "auto") else str(value)


def check_choices(pm: Any, settings: Any, **flags: str | None) -> None:
    """Before any work: an unknown name of a kind (``summarizer=--summarizer's value``…),
    from its flag or else its setting, is one error naming the flag or setting."""
    for kind, flag in flags.items():
        check_named(pm, kind, flag=flag, setting=setting_of(settings, kind))


def _failed(choice: Choice, exc: BaseException) -> ChoiceError:
    return ChoiceError(
        f"plugin '{choice.plugin}' failed in {choice.kind} '{choice.name}': {detail_of(exc)}"
    )


def _call(choice: Choice, *args: Any) -> Any:
    """``choice.function(*args)``; any failure but a nested choice's is one line naming it."""
    try:
        return choice.function(*args)
    except ChoiceError:  # a nested choice (a counter in a strategy) failed
        raise
    except Exception as exc:  # a plugin can fail in any way: one line naming it
        raise _failed(choice, exc) from exc


def plugin_section(settings: Any, plugin: str) -> dict[str, Any]:
    """The ``plugins.<plugin>`` section of ``settings`` (``None``: read from the files)."""
    if settings is None:
        from tether.core.base.settings_peek import peek_setting

        section = peek_setting("plugins", plugin)
    else:
        section = settings.extra("plugins").get(plugin)
    return dict(section) if isinstance(section, dict) else {}


def token_counter(
    pm: Any, settings: Any = None, *, model: dict[str, Any] | None = None, flag: str | None = None
) -> Count:
    """``count(messages) -> list[int]`` of the chosen counter, for ``model``."""
    choice = choose(pm, "counter", flag=flag, setting=setting_of(settings, "counter"))

    def count(messages: list[Message]) -> list[int]:
        counts = _call(choice, messages, model)
        if not isinstance(counts, list) or len(counts) != len(messages):
            got = f"{len(counts)} counts" if isinstance(counts, list) else type(counts).__name__
            raise ChoiceError(
                f"plugin '{choice.plugin}': counter '{choice.name}' returned {got} "
                f"for {len(messages)} messages"
            )
        return counts

    return count


def run_strategy(
    pm: Any,
    path: list[Entry],
    settings: CompactionSettings,
    count: Count,
    *,
    model: dict[str, Any] | None = None,
    flag: str | None = None,
    app_settings: Any = None,
) -> CompactionPreparation | NothingToCompact:
    """Ask the chosen strategy (flag, ``settings.strategy``, a claim, ``pi``) to prepare.

    The answer is checked: its first kept entry is on ``path`` and not a ``toolResult``
    (:func:`~tether.core.context.cuts.cut_problem`). ``app_settings`` (the resolved
    ``Settings``; ``None``: read from the files) gives the strategy its plugin's section."""
    choice = choose(pm, "strategy", flag=flag, setting=settings.strategy)
    request = PrepareRequest(
        path=path,
        settings=settings,
        count=count,
        model=model,
        plugin_settings=plugin_section(app_settings, choice.plugin),
    )
    answer = _call(choice, request)
    if isinstance(answer, CompactionPreparation):
        problem = cut_problem(path, answer.first_kept_entry_id)
        if problem is not None:
            raise ChoiceError(f"plugin '{choice.plugin}': strategy '{choice.name}': {problem}")
        answer.strategy = choice.name
        return answer
    if isinstance(answer, NothingToCompact):
        return answer
    raise ChoiceError(
        f"plugin '{choice.plugin}': strategy '{choice.name}' returned "
        f"{type(answer).__name__}, not a CompactionPreparation or NothingToCompact"
    )


def default_summarizer(pm: Any, request: SummarizeRequest) -> str:
    """The summarizer the ``default_summarizer`` hook names for ``request`` (the built-in
    answer: plugin ``llm_summarizer``); with no answer, :data:`KINDS`' default."""
    say = partial(warn, pm)
    for plugin, impl in implementations(pm, "default_summarizer"):
        try:
            name = call_implementation(impl, {"request": request, "warn": say})
        except Exception as exc:  # a plugin can fail in any way: one line naming it
            raise ChoiceError(
                f"plugin '{plugin}' failed in default_summarizer: {detail_of(exc)}"
            ) from exc
        if name is not None:
            if not isinstance(name, str):
                raise ChoiceError(
                    f"plugin '{plugin}' failed in default_summarizer: returned "
                    f"{type(name).__name__}, expected a summarizer's name or None"
                )
            return name
    return KINDS["summarizer"].builtin_default


def run_summarizer(pm: Any, request: SummarizeRequest) -> Summary:
    """The chosen summarizer's :class:`Summary` of ``request`` (checked: a ``Summary`` with
    text). ``request.summarize_with`` lets it hand the request to another one by name."""
    wanted = (request.settings or {}).get("summarizer")
    setting = None if wanted in (None, "", "auto") else str(wanted)
    choice = choose(
        pm, "summarizer", setting=setting, builtin_default=lambda: default_summarizer(pm, request)
    )
    return _summarize(pm, choice, request)


def _summarize(pm: Any, choice: Choice, request: SummarizeRequest) -> Summary:
    def delegate(name: str | None, changes: dict[str, Any]) -> Summary:
        wanted = name or default_summarizer(pm, request)
        found = registered(pm, "summarizer")
        if wanted not in found:  # named by the plugin, not by --summarizer
            raise unknown_name(KINDS["summarizer"], wanted, "summarize_with", found)
        other = choose(pm, "summarizer", flag=wanted)
        if other.name == choice.name:
            raise TetherError(f"summarizer '{choice.name}' handed the request to itself")
        return _summarize(pm, other, dataclasses.replace(request, **changes))

    request.delegate = delegate
    request.plugin_settings = plugin_section(request.app_settings, choice.plugin)
    answer = _call(choice, request)
    if not isinstance(answer, Summary):
        raise ChoiceError(
            f"plugin '{choice.plugin}': summarizer '{choice.name}' returned "
            f"{type(answer).__name__}, not a Summary"
        )
    if not answer.text.strip() and not answer.reply_problem:  # a problem goes to the gate
        raise ChoiceError(
            f"plugin '{choice.plugin}': summarizer '{choice.name}' returned an empty summary"
        )
    problem = answer.reply_problem  # named after the summarizer chosen, whoever wrote it
    if problem and not problem.startswith(f"summarizer '{choice.name}'"):
        problem = f"summarizer '{choice.name}': {problem}"
    if answer.summarizer != choice.name or problem != answer.reply_problem:
        answer = dataclasses.replace(answer, summarizer=choice.name, reply_problem=problem)
    return answer


__all__ = [
    "ChoiceError",
    "check_choices",
    "Count",
    "run_strategy",
    "run_summarizer",
    "setting_of",
    "token_counter",
]
