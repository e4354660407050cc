"""Built-in plugin ``offline_summarizer``: a structured summary without any model.

The summarizer ``offline``: chosen by ``compaction.summarizer``/``--summarizer offline``, and
the built-in default when no model is known (no ``compaction.model``, no session model). The
summary has pi's sections, built deterministically from the messages:

- Goal: the defining request (the first substantive user request), verbatim; kept as is by
  every later compaction (not a log of "Continue" turns).
- Constraints & Preferences: the user's rule sentences in any wording (never/always/must/
  don't/only/should/avoid/I prefer/we target/keep X in Y/"Constraint:"/use X, not Y…).
- Key Decisions: the user's choices ("let's go with X rather than Y", "we'll use X",
  "decided …") and assistant proposals the user accepted.
- Next Steps: the user's unanswered request and latest stated next step ("Next, …"), verbatim.
- Done/Blocked/Critical Context: edits, commands, unresolved failures with their exact error
  line, paths and names (one merged ``Paths:`` line, not one per compaction).

In update mode the previous summary's goal, constraints and decisions are carried forward;
its In Progress/Next Steps are replaced by newer ones. Size cap (documented): the summary
stays within ``max_tokens`` × 4 characters by dropping Done items first, then Critical
Context, In Progress and Blocked (oldest first); goal, constraints, decisions and next steps
are never dropped, so only they can exceed the cap. The text is the summary alone; the caller
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
    from tether.builtin_plugins.memory.offline_summarizer.facts import build_checkpoint, read_facts
    from tether.builtin_plugins.memory.offline_summarizer.sections import (
        merge,
        parse_summary,
        render,
    )

    facts = read_facts(request.messages)
    previous = parse_summary(request.previous_summary) if request.previous_summary else None
    # the defining request stays the goal; later requests are not a goal log
    goal_known = bool(previous and previous.goal)
    checkpoint = build_checkpoint(facts, request.custom_instructions, goal_known=goal_known)
    if previous is not None:
        checkpoint = merge(previous, checkpoint)
    budget = request.max_tokens * CHARS_PER_TOKEN if request.max_tokens > 0 else None
    text = render(checkpoint, request.kind, budget)
    details = {
        "messages": len(request.messages),
        "updated": bool(request.previous_summary),
    }
    from tether.hookspecs.events import Summary

    return Summary(text=text, summarizer="offline", details=details)


@hookimpl
def register_summarizers(register: Any) -> None:
    register("offline", offline_summary)


__all__ = ["offline_summary", "register_summarizers"]
