"""Built-in plugin ``offline_summarizer``: a structured summary without any model.

The summarizer ``offline``: chosen by ``compaction.summarizer``/``--summarizer offline``, and
the built-in default when no model is known (no ``compaction.model``, no session model). The
summary has pi's sections, built deterministically from the messages:

- Goal, Constraints & Preferences, Key Decisions, Next Steps, Blocked: the live facts of the
  fact ledger (:mod:`tether.builtin_plugins.memory.fact_ledger`), verbatim, in any language
  with a cue table; a retired (changed) value is never shown, its replacement names the
  ``recall`` query that finds it. The ledger continues from the previous compaction's details.
- Done: the user's requests and the edits and commands, newest :data:`~.facts.MAX_DONE`.
- In Progress / Next Steps: the unanswered request and the latest stated next step.
- Critical Context: paths and names (one merged ``Paths:`` line), errors seen, identifiers.

Size cap (documented): the summary stays within ``max_tokens`` × 4 characters by dropping
Done items first, then Critical Context, In Progress and Blocked (oldest first); goal,
constraints, decisions and next steps are never dropped, so only they can exceed the cap. The
text is the summary alone; the caller
appends the ``<read-files>``/``<modified-files>`` blocks, as for the LLM summarizer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tether.hookspecs import hookimpl

if TYPE_CHECKING:
    from tether.hookspecs.events import SummarizeRequest, Summary

CHARS_PER_TOKEN = 4  # pi's estimate; the rendered summary stays within max_tokens by it


def offline_summary(request: SummarizeRequest) -> Summary:
    """Summarize ``request`` deterministically (no network, linear in the messages)."""
    from tether.builtin_plugins.memory.fact_ledger import build_ledger
    from tether.builtin_plugins.memory.offline_summarizer.checkpoint import build_checkpoint
    from tether.builtin_plugins.memory.offline_summarizer.facts import read_facts
    from tether.builtin_plugins.memory.offline_summarizer.sections import parse_summary, render
    from tether.hookspecs.events import Summary

    facts = read_facts(request.messages)
    previous = parse_summary(request.previous_summary) if request.previous_summary else None
    ledger = build_ledger(
        request.messages,
        request.entry_ids,
        previous_details=request.previous_details if request.previous_summary else None,
        previous_summary=request.previous_summary,
        cue_tables=request.fact_cues,
    )
    checkpoint = build_checkpoint(facts, ledger, request.custom_instructions, previous)
    budget = request.max_tokens * CHARS_PER_TOKEN if request.max_tokens > 0 else None
    text = render(checkpoint, request.kind, budget)
    details = {
        "messages": len(request.messages),
        "updated": bool(request.previous_summary),
        "facts": len(ledger.live()),
    }
    return Summary(text=text, summarizer="offline", details=details)


@hookimpl
def register_summarizers(register: Any) -> None:
    register("offline", offline_summary)


__all__ = ["offline_summary", "register_summarizers"]
