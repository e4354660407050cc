"""Memory hooks: the plan of the requests a compaction's summary takes; what a branch summary
is made of; the summary gate that checks every compaction summary before it is written; what a
compaction entry records beyond pi's; pinned texts; cue words of the fact ledger. The
summarizers, token counters and compaction strategies themselves are chosen by name
(:mod:`tether.hookspecs.choices`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tether.hookspecs import hookspec

if TYPE_CHECKING:
    from tether.hookspecs.branch import BranchPreparation
    from tether.hookspecs.events import (
        CompactionPreparation,
        Entry,
        Message,
        SummarizeRequest,
        Summary,
    )
    from tether.hookspecs.gate import GateVerdict, SummaryCheck, SummaryPlan
    from tether.hookspecs.pins import Pins
    from tether.hookspecs.session_protocol import HookSession


@hookspec
def register_fact_cues(register: Callable[..., None]) -> None:
    """Register the cue words of a language for the fact ledger: ``register(language, cues)``.

    When: once per process, the first time a compaction needs the fact ledger (the offline
    summarizer and the summary gate read what the user stated into typed facts). Arguments:
    ``register`` takes a ``language`` name (``"de"``, ``"ja"``…) and ``cues``, a mapping from a
    cue kind to phrases: ``constraint`` (a rule or preference), ``decision`` (a choice made),
    ``next_step`` (opens a sentence that says what comes next), ``change`` (a new value
    replaces an old one), ``revoke`` (an earlier rule stops), ``accept`` (a reply accepting the
    assistant's proposal), ``proposal`` (the assistant proposes), ``filler`` (a turn that only
    keeps the work going), ``task`` (opens a request for work: a verb), ``replaces`` (followed
    by the value being replaced: "instead of"), ``gone`` (preceded by a value no longer
    in use: "is gone"), ``select`` (takes the value chosen: "use", "with"; the same sentence
    with one word swapped after it is a change), ``current`` (says a value holds now:
    "now", "现在"), ``goal`` (asks for the work itself, however politely: "I'd like you to",
    "希望您能"), ``choice`` (closes a terse choice right after a named value: "Redis it is",
    "Redis 吧"), ``ask`` (opens a question that asks: "what", "should we", "怎么"),
    ``complaint`` (makes a question a complaint, so a preference: "why … again", "can we
    not", "又"), ``provisional`` (says a value holds for now only: "for now", "先用"), ``mask``
    (words that only look like a cue, blanked before matching). An ASCII phrase matches whole
    words, case aside; ``"switch ... to"`` with words between, ``"can go $"`` at a sentence's
    end, ``"update:"`` only with its colon; any other phrase matches as a substring. An
    unknown kind fails the compaction with one line naming it (the session is left
    untouched).
    Also ``soft_change`` (a casual change that counts only with another value of the same
    subject: "go with", "nah", "就用"), ``discard`` (a named thing goes: "remove", "删掉";
    revokes an identifier said earlier) and ``revert`` (back to the value before the latest
    change, or of the latest message: "go back to the old", "scratch that", "用回原来的").
    Subjects are data too: ``subject:KEY`` (nouns naming a subject: ``subject:queue`` →
    "Warteschlange"), ``value:KEY`` (well-known values of it: "RabbitMQ") and ``part:KEY``
    (words naming a part a value is for: ``part:prod`` → "Produktion"); a key names one
    subject in every language, so a value stated in one language and changed in another is
    found.
    Return: nothing. Ordering: all plugins are called, built-ins first; tables add up (a
    language registered twice: the later table replaces the earlier). Built-ins: English
    (``en``) and Chinese (``zh``) ship with the ledger and need no registration; so do smaller
    Spanish (``es``), French (``fr``), German (``de``), Portuguese (``pt``), Italian (``it``),
    Dutch (``nl``), Japanese (``ja``) and Korean (``ko``) tables (rules, next steps, decisions,
    values held for now and only unambiguous change words: "passe à", "ab jetzt", "troca
    pro", "に変更"); a plugin registering ``de`` replaces the built-in German table.

    Example::

        import tether

        @tether.hookimpl
        def register_fact_cues(register):
            register("de", {
                "constraint": ["immer", "niemals", "muss", "bitte keine"],
                "change": ["stattdessen", "ab jetzt"],
                "next_step": ["als nächstes", "danach"],
                "subject:queue": ["Warteschlange"],
                "part:prod": ["Produktion"],
            })
    """


@hookspec(firstresult=True)
def plan_summary(
    preparation: CompactionPreparation,
    request: SummarizeRequest,
    custom_instructions: str | None,
    note: str | None,
    keep: frozenset[str],
) -> SummaryPlan | None:
    """Say which summarizer requests a compaction's summary takes, and how their answers merge.

    When: at each compaction tether summarizes (not one supplied by ``session_before_compact``),
    after the strategy prepared it and before the chosen summarizer is called; again for each
    retry or fallback of the summary gate. Arguments: ``preparation`` — the strategy's
    ``tether.CompactionPreparation``; ``request`` — a ``tether.SummarizeRequest`` with the
    fields every request shares (model, registry, settings, signal; derive one with
    ``request.derive(kind, messages, max_tokens, previous_summary, instructions)``);
    ``custom_instructions`` — the compaction's custom instructions; ``note`` — the gate's retry
    note (``None`` on a first attempt); ``keep`` — names of parts whose earlier answers the
    retry keeps (ask nothing for them). Return: a ``tether.SummaryPlan`` — ``requests``, at most
    two ``(part, request)`` pairs, which tether sends to the chosen summarizer at once (progress
    says ``summarizing N messages (history)``), and ``merge(parts)``, which gets every part's
    ``tether.Summary`` by name (asked and kept) and returns the ``tether.SummaryAttempt`` the gate
    checks (its ``parts`` name what ``SummaryCheck.retry(note, parts)`` can ask again); ``None``
    lets the next implementation answer. With no answer at all the compaction fails (session
    unchanged). A summarizer's failure fails the compaction as it always does; a plan that
    raises or answers something else fails it naming the plugin.
    Ordering: firstresult; the built-in plan (plugin ``compaction_strategy``: pi's history at
    ``0.8 × reserveTokens`` and, for a split turn, its prefix at ``0.5 ×``, joined by pi's
    separator) is ``trylast``, so an installed plan replaces it.

    Example::

        import tether

        @tether.hookimpl
        def plan_summary(preparation, request, custom_instructions, note):
            messages = [*preparation.messages_to_summarize, *preparation.turn_prefix_messages]
            one = request.derive(
                "compaction", messages, 4096, preparation.previous_summary, custom_instructions
            )

            def merge(parts):
                answer = parts["compaction"]
                return tether.SummaryAttempt(answer.text, [answer], dict(parts))

            return tether.SummaryPlan([("compaction", one)], merge)
    """


@hookspec
def compaction_details(
    preparation: CompactionPreparation,
    summaries: list[Summary],
    answers: list[Summary],
    summarizer: str,
    summary: str,
    count: Callable[[list[Message]], list[int]],
    started: float,
) -> dict[str, Any] | None:
    """Add tether's own keys to a compaction entry's ``details`` (pi ignores them).

    When: at each compaction tether summarized and a summary gate answered (``gate_summary``;
    pi mode — the gate disabled — writes pi's details only), after the summary is final and
    before the entry is written; not for a compaction supplied by ``session_before_compact``.
    Arguments: ``preparation`` — the strategy's ``tether.CompactionPreparation``;
    ``summaries`` — the summarizers' ``tether.Summary`` answers the summary comes from;
    ``answers`` — every answer a summarizer gave for this compaction, each once: those, and
    those the summary gate asked again or replaced (a retry, a fallback's failed calls);
    ``summarizer`` — the registered name(s) that wrote it (``"a+b"`` for a split turn's two);
    ``summary`` — its text without the file lists; ``count(messages) -> list[int]`` — the
    chosen token counter; ``started`` — ``time.perf_counter()`` when the compaction began.
    Return: a dict of JSON values, merged into ``details`` after ``summarizer`` and ``gate``,
    or ``None`` to add nothing. A plugin that raises or answers something else fails the
    compaction naming the plugin (session unchanged). Ordering: every implementation is
    called, in pluggy's order (installed plugins before the built-ins); a later answer's key
    replaces an earlier one's. The built-in
    (plugin ``compaction_cost``) adds ``cost``: ``{tokensBefore, tokensAfter, summarizer,
    model, usage: {input, output}, durationMs}`` — ``usage`` and ``model`` over every answer
    (what the calls the gate threw away cost too): the sums of each answer's
    ``details["requests"][i]["usage"]`` ``{"input", "output"}`` and its ``details["model"]``
    (``"provider/id"``) — shown by ``tether session stats``.

    Example::

        import tether

        @tether.hookimpl
        def compaction_details(preparation, summary):
            replaced = len(preparation.messages_to_summarize)
            return {"myStats": {"messagesReplaced": replaced, "summaryChars": len(summary)}}
    """


@hookspec(firstresult=True)
def prepare_branch_summary(
    entries: list[Entry],
    count: Callable[[list[Message]], list[int]],
    context_window: int | None,
    reserve_tokens: int,
) -> BranchPreparation | None:
    """Choose what a branch summary is made of: the messages of the entries left behind.

    When: at a tree navigation that summarizes the branch it leaves (``/tree``, ``tether
    session branch --summarize``…), after ``session_before_tree`` let it go on and before the
    chosen summarizer is called; not when a plugin supplied the summary. Arguments:
    ``entries`` — the abandoned entries, oldest first (from below the common ancestor down to
    the old leaf; compactions and branch summaries included); ``count(messages) ->
    list[int]`` — the chosen token counter; ``context_window`` — the session model's window
    (``None``: unknown); ``reserve_tokens`` — the setting ``branchSummary.reserveTokens``.
    Return: a ``tether.BranchPreparation`` — its ``messages`` go to the summarizer (kind
    ``branch``; none: pi's "No content to summarize" entry), its ``file_ops`` give the file
    lists after the summary; ``None`` lets the next implementation answer. With no answer at
    all the navigation fails (nothing written); so does an implementation that raises or
    answers something else, naming the plugin.
    Ordering: firstresult; the built-in (plugin ``compaction_strategy``: pi's newest messages
    within ``(contextWindow or 128000) − reserveTokens``, tool results left out) is
    ``trylast``, so an installed one replaces it.

    Example::

        import tether

        @tether.hookimpl
        def prepare_branch_summary(entries):  # only what the user said on the branch
            said = [
                (entry["id"], entry["message"])
                for entry in entries
                if entry.get("type") == "message" and entry["message"]["role"] == "user"
            ]
            return tether.BranchPreparation(
                messages=[message for _, message in said],
                entry_ids=[entry_id for entry_id, _ in said],
            )
    """


@hookspec(firstresult=True)
def gate_summary(check: SummaryCheck, session: HookSession) -> GateVerdict | None:
    """Check a compaction's summary before it is written; repair or replace it.

    When: after the summarizer answered (for a split turn: both answers, requested at once,
    merged) and before the compaction entry is written — for every summarizer (``llm``,
    ``offline``, a plugin's), not for a compaction supplied by ``session_before_compact``
    (written verbatim). Arguments:
    ``check`` — a ``tether.SummaryCheck``: ``check.text`` the summary (without the file lists),
    ``check.attempt.summaries`` the summarizers' answers (``reply_problem`` set when a model's
    reply was a tool call, cut at the output limit or empty; ``check.attempt.parts``: the same
    by part, ``compaction`` and ``turn_prefix``), ``check.preparation`` (previous
    summary, the messages replaced), ``check.messages``, ``check.file_lists`` /
    ``check.modified_files``, ``check.previous_details`` (the previous compaction entry's
    ``details``), ``check.max_chars``; ``check.retry(note)`` summarizes again with ``note`` added
    to the instructions (``check.retry(note, parts)``: only those parts of a split turn, the
    others kept), ``check.fallback("offline")`` with another summarizer (``check.fallback(
    "offline", parts)``: only those parts, the others' latest answers kept) (both return a
    ``tether.SummaryAttempt`` and raise what the summarizer raises; ``check.aborted`` says the
    user aborted). ``session`` — the :class:`tether.HookSession`.
    Return: a ``tether.GateVerdict`` — its ``text`` is written (tether appends the file lists),
    its ``report()`` is stored as ``details.gate`` of the entry and shown (a CLI line, the
    ``compaction_end`` event, ``session compact --json``); ``None`` — no gate: the summary is
    written as it is, except an answer with a ``reply_problem``, which fails the compaction
    (session unchanged). A gate that raises fails the compaction, naming the plugin.
    Ordering: firstresult; the built-in gate (plugin ``summary_gate``) is ``trylast``, so an
    installed gate replaces it (or block it: ``--disable-plugin summary_gate``).

    Example::

        import tether

        @tether.hookimpl
        def gate_summary(check):
            if "## Goal" in check.text:
                return tether.GateVerdict(check.text, "passed")
            again = check.retry("Start the summary with a '## Goal' section.")
            if "## Goal" in again.text:
                return tether.GateVerdict(
                    again.text, "retried", missing=["section Goal"], summaries=again.summaries
                )
            text = "## Goal\\n(not stated)\\n\\n" + check.text
            return tether.GateVerdict(text, "carried_forward", missing=["section Goal"])
    """


@hookspec(firstresult=True)
def pins() -> Pins | None:
    """Provide the pins: texts kept verbatim in every summary tether writes.

    When: at each compaction and branch summary (before the summarizers run and before the
    entry is written), and when a plugin calls ``session.pins()``, ``session.pin(text)`` or
    ``session.unpin(pin_id)``. Arguments: none. Return: a :class:`tether.Pins` (``pins``,
    ``pin``, ``unpin``, ``previous_summary``, ``stored_summary``) or ``None`` to let the next
    implementation answer. Ordering: firstresult; the built-in answer (plugin ``pins``: the
    ``tether.pin``/``tether.unpin`` custom entries, a ``## Pinned`` section before the file
    lists) is ``trylast``, so a plugin wins. With no answer at all, summaries are stored as
    written, ``session.pins()`` is ``[]`` and ``session.pin`` fails with one line. If an
    implementation raises or answers something without those methods, the compaction (or
    the call) fails with one error naming the plugin and the hook, and nothing is written.

    Example::

        class WikiPins:  # pins live in a team wiki: summaries stay as written
            def pins(self, session):
                return []

            def pin(self, session, text):
                raise TetherError("pin it in the wiki")

            def unpin(self, session, pin_id):
                raise TetherError("unpin it in the wiki")

            def previous_summary(self, text, branch):
                return text

            def stored_summary(self, summary, branch):
                return summary

        @hookimpl
        def pins():
            return WikiPins()
    """


__all__ = [
    "compaction_details",
    "gate_summary",
    "pins",
    "plan_summary",
    "prepare_branch_summary",
    "register_fact_cues",
]
