"""Memory hooks: summarizers, token counters and compaction strategies, registered by name.

Each of these three hooks collects named implementations; tether then uses ONE per kind,
chosen by (first match wins): the command-line flag (``--summarizer``, ``--counter``,
``--strategy``); the setting (``compaction.summarizer``, ``tokens.counter``,
``compaction.strategy``); a registration that claims the default with ``default=True`` (two
claims: a warning names both, the first by name is used); the built-in default — summarizer
``llm`` when a model is known (``compaction.model``, else the session's model), else
``offline``; counter ``chars`` (pi's chars/4 estimate); strategy ``pi``. An installed plugin
never overrides an explicit choice; an unknown name is an error listing the registered ones.
``tether plugins`` shows what is registered and what is chosen, and why.
"""

from __future__ import annotations

from collections.abc import Callable

from tether.hookspecs import hookspec


@hookspec
def register_summarizers(register: Callable[..., None]) -> None:
    """Register summarizers by name: ``register(name, summarize, default=False)``.

    When: the first time a summary is needed in a process (compaction, ``/compact``, branch
    summaries) and for ``tether plugins``. Arguments: ``register`` takes a ``name`` (what
    ``compaction.summarizer``/``--summarizer`` select), a function ``summarize(request)`` and
    ``default`` — ``True`` asks to be used when the user chose nothing. ``summarize`` gets a
    ``tether.SummarizeRequest`` (``kind`` ``"compaction"``/``"turn_prefix"``/``"branch"``,
    ``messages``, ``previous_summary``, ``custom_instructions``, ``max_tokens``, ``settings``
    = the ``compaction`` block, ``model``, ``registry``, ``app_settings`` for the plugin's own
    section) and must return a ``tether.Summary`` with text; raise to fail the operation (the
    session is left untouched). ``request.summarize_with(name, **changes)`` hands the request
    to another registered summarizer (``None``: the built-in default).
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


@hookspec
def register_token_counters(register: Callable[..., None]) -> None:
    """Register token counters by name: ``register(name, count, default=False)``.

    When: the first time tokens are counted in a process (compaction thresholds, cut points,
    branch summaries, ``tether session estimate``) and for ``tether plugins``. Arguments:
    ``register`` takes a ``name`` (what ``tokens.counter``/``--counter`` select), a function
    ``count(messages, model) -> list[int]`` — one int per agent message; ``model`` is the
    model record (``provider``, ``id``, ``contextWindow``…) or ``None`` — and ``default``.
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
    and keep budgets, ``settings.options`` the ``compaction`` block; ``count`` — the chosen
    token counter; ``model``) and returns a ``tether.CompactionPreparation`` (what to summarize,
    where the kept part starts) or ``tether.NothingToCompact`` with a reason. Return: nothing.
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


__all__ = ["register_compaction_strategies", "register_summarizers", "register_token_counters"]
