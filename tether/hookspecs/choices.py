"""Choices by name: summarizers, token counters and compaction strategies, registered by name.

Each of these three hooks collects named implementations; tether then uses ONE per kind,
chosen by (first match wins): the command-line flag (``--summarizer``, ``--counter``,
``--strategy``); the setting (``compaction.summarizer``, ``tokens.counter``,
``compaction.strategy``); a registration that claims the default with ``default=True`` (two
claims: a warning names both, the first by name is used); the built-in default — summarizer:
the ``default_summarizer`` hook's answer (built-in: ``llm`` when a model is known
(``compaction.model``, else the session's model if its provider is configured), else
``offline``); counter ``chars`` (pi's chars/4 estimate); strategy ``pi``. An installed plugin
never overrides an explicit choice; an unknown name is an error listing the registered ones.
``tether plugins`` shows what is registered and what is chosen, and why.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tether.hookspecs import hookspec

if TYPE_CHECKING:
    from tether.hookspecs.events import SummarizeRequest


@hookspec
def register_summarizers(register: Callable[..., None]) -> None:
    """Register summarizers by name: ``register(name, summarize, default=False)``.

    When: the first time a summary is needed in a process (compaction, ``/compact``, branch
    summaries) and for ``tether plugins``. Arguments: ``register`` takes a ``name`` (what
    ``compaction.summarizer``/``--summarizer`` select), a function ``summarize(request)`` and
    ``default`` — ``True`` asks to be used when the user chose nothing. ``summarize`` gets a
    ``tether.SummarizeRequest`` (``kind`` ``"compaction"``/``"turn_prefix"``/``"branch"``,
    ``messages``, ``previous_summary``, ``custom_instructions`` (``compaction.instructions``,
    then a manual compaction's or navigation's own; ``replace_instructions``: they replace the
    built-in prompt), ``max_tokens``, ``settings`` = the ``compaction`` block (camelCase),
    ``model`` = the session's ``{"provider", "modelId"}`` or ``None``, ``registry``,
    ``plugin_settings`` = the ``plugins.<name>`` section of the plugin that registered the
    summarizer (``{}`` when absent), ``app_settings`` = all the resolved settings) and must
    return a ``tether.Summary`` with text; raise to fail the operation (the session is left
    untouched). A split turn's two requests are made at once, from two threads.
    ``request.summarize_with(name, **changes)`` hands the request to another registered
    summarizer (``None``: the built-in default), e.g. the ``llm`` one on another model:
    ``request.summarize_with("llm", settings={**request.settings, "model": "p/m"})``;
    ``changes`` are fields of ``tether.SummarizeRequest`` (``max_tokens``, ``settings``,
    ``custom_instructions``, ``replace_instructions``, ``messages``…; another key raises
    ``TypeError``). It returns that summarizer's ``tether.Summary``, checked, or raises
    ``tether.TetherError``: an unknown name, the request handed to itself, or that summarizer
    failing (its exception, e.g. the provider's ``TransientError``, as ``__cause__``; tether
    retries no summary's model call). ``details.cost`` counts the calls listed in the
    ``details["requests"]`` of the ``Summary`` you return (docs/plugins.md, "Writing a
    summarizer").
    Return: nothing. Ordering: all plugins are called, built-ins first; a name registered
    twice keeps the first registration (a warning names both plugins).
    Built-ins: ``llm`` and ``offline``.

    Example::

        import tether

        def shout(request):
            text = f"## Goal\\n{len(request.messages)} messages"
            return tether.Summary(text=text, summarizer="shout")

        @tether.hookimpl
        def register_summarizers(register):
            register("shout", shout)   # used with {"compaction": {"summarizer": "shout"}}
    """


@hookspec(firstresult=True)
def default_summarizer(request: SummarizeRequest, warn: Callable[[str], None]) -> str | None:
    """Name the summarizer of a request when the user chose none.

    When: a summary is needed (compaction, ``/compact``, a branch summary) and neither
    ``--summarizer``, ``compaction.summarizer`` nor a registration claiming the default
    chose one; also when a summarizer hands a request on with ``summarize_with(None, …)``.
    Arguments: ``request`` — the ``tether.SummarizeRequest`` to be summarized (``kind``,
    ``settings`` = the ``compaction`` block, ``model``, ``registry``…); ``warn`` — gives the
    user one warning line (a repeated line is said once). Return: the name of a registered
    summarizer, or ``None`` to let the next implementation answer. Ordering: firstresult; the
    built-in answer (plugin ``llm_summarizer``) is ``trylast``: ``llm`` when a model is known
    (``compaction.model``, else the session's model if the registry knows its provider), else
    ``offline`` — with a warning when the session's provider is not configured. With no answer
    at all: ``llm``. An unknown name is an error listing the registered summarizers; an
    implementation that raises or returns something else than a string fails the summary with
    an error naming the plugin.

    Example::

        @hookimpl
        def default_summarizer(request, warn):
            if request.kind == "branch":
                return "offline"  # branch summaries without a model call
    """


@hookspec
def register_token_counters(register: Callable[..., None]) -> None:
    """Register token counters by name: ``register(name, count, default=False)``.

    When: the first time tokens are counted in a process (compaction thresholds, cut points,
    branch summaries, ``tether session estimate``) and for ``tether plugins``. Arguments:
    ``register`` takes a ``name`` (what ``tokens.counter``/``--counter`` select), a function
    ``count(messages, model) -> list[int]`` — one int per agent message; ``model`` is the
    session's model as its context records it (``{"provider", "modelId"}``) or ``None`` — and
    ``default``.
    Return: nothing. Ordering: all plugins are called, built-ins first; a name registered
    twice keeps the first registration. Built-ins: ``chars`` (pi's chars/4 estimate, the
    built-in default) and ``tiktoken`` (exact BPE counts, ``tokens.encoding``).

    Example::

        import tether

        @tether.hookimpl
        def register_token_counters(register):
            register("words", lambda messages, model: [len(str(m).split()) for m in messages])
    """


@hookspec
def register_compaction_strategies(register: Callable[..., None]) -> None:
    """Register compaction strategies by name: ``register(name, prepare, default=False)``.

    When: the first time a compaction is prepared in a process (``tether session
    prepare``/``compact``, ``/compact``, automatic compaction) and for ``tether plugins``.
    Arguments: ``register`` takes a ``name`` (what ``compaction.strategy``/``--strategy``
    select), a function ``prepare(request)`` and ``default``. ``prepare`` gets a
    ``tether.PrepareRequest`` (``path`` — the active branch, root first; ``settings`` — reserve
    and keep budgets, ``settings.options`` the ``compaction`` block; ``plugin_settings`` — the
    ``plugins.<name>`` section of the registering plugin; ``count`` — the chosen token counter;
    ``model`` — the session's ``{"provider", "modelId"}`` or ``None``) and returns a
    ``tether.CompactionPreparation`` (what to summarize, where the kept part starts) or
    ``tether.NothingToCompact`` with a reason. Its ``first_kept_entry_id`` must be on ``path``
    and not a ``toolResult``: else the compaction fails with one error naming the plugin and
    nothing is written. Return: nothing.
    Ordering: all plugins are called, built-ins first; a name registered twice keeps the first
    registration. Built-in: ``pi`` (pi 0.73's cut points, with tether's fixes).

    Example::

        import tether

        def keep_everything(request):
            return tether.NothingToCompact("this strategy never compacts")

        @tether.hookimpl
        def register_compaction_strategies(register):
            register("never", keep_everything)
    """


__all__ = [
    "default_summarizer",
    "register_compaction_strategies",
    "register_summarizers",
    "register_token_counters",
]
