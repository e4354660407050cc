"""A change the user only asks about is settled by the user's next decision.

"hmm the store rejects that build number … use the git commit count instead?", the assistant
names a catch, then "fine, go with the plain CI build number": the question was a thought
out loud, the decision is what holds. A user sentence ending in a question mark that asks
for a change (a ``change`` cue: instead, switch to, 改用…) stays in the ledger as said; the
decision of the user's next message (a fact of kind ``decision``) replaces it. A message
without a decision leaves it as it is.
"""

from __future__ import annotations

from collections.abc import Sequence

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.ledger import Ledger
from tether.builtin_plugins.memory.fact_ledger.words import FUNCTION_WORDS, stemmed, words_of

_ASKED = ("?", "？")


def change_questions(filed: Sequence[Fact], cues: Cues) -> list[Fact]:
    """The rules of ``filed`` (one user message's facts) that ask for a change."""
    return [
        f
        for f in filed
        if f.kind in ("constraint", "decision")
        and f.text.rstrip().endswith(_ASKED)
        and cues.has("change", f.text)
    ]


def settle_questions(ledger: Ledger, asked: Sequence[Fact], filed: Sequence[Fact]) -> None:
    """Retire the still-live questions ``asked`` by the first decision of ``filed`` (the
    next user message's facts) that is on their subject: it shares a word with the question
    or the sentences said with it ("build number"), so "yes. we'll use cron for scheduling"
    settles no "switch to RQ instead?"."""
    decision = next((f for f in filed if f.kind == "decision" and f.live), None)
    if decision is None:
        return
    mine = stemmed(words_of(decision.text)) - FUNCTION_WORDS
    for question in asked:
        said = " ".join(f.text for f in ledger.facts if f.source == question.source)
        if question.live and question is not decision and mine & stemmed(words_of(said)):
            ledger.retire(question, decision)


__all__ = ["change_questions", "settle_questions"]
