"""A change that names only its value: "make it 2 hours", "bump it to 50", "改成 8 小时吧".

Such a sentence has no subject words of its own: it changes the latest earlier rule stating
a value of its class (a duration, a size, a count…), from another message. And once filed,
it borrows the subject of the rule it replaced: a later "member session timeout 8 hours"
changes "make it 2 hours" (which replaced "member session timeout 30 minutes") as it would
change the sentence it took the place of.
"""

from __future__ import annotations

from collections.abc import Callable

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.implicit import shape_change, values
from tether.builtin_plugins.memory.fact_ledger.words import memo_per_cues, vocabulary, words_of

_BLANKED = ("change", "soft_change", "revert", "constraint", "decision", "select")
_PARTICLES = vocabulary("cjk_closing_particles")  # of a CJK sentence: no subject
_FILLER = vocabulary("bare_filler")  # words of a bare change that name no subject


@memo_per_cues
def bare(text: str, cues: Cues) -> bool:
    """Whether ``text`` states one value and no subject ("make it 2 hours")."""
    found = values(text, cues)
    if len(found) != 1:
        return False
    text = cues.blank(text.replace(found[0].text, " "), _BLANKED)
    rest = {
        w
        for w in words_of(text)
        if w not in _FILLER and not w.isdigit() and not set(w) <= _PARTICLES
    }
    return not rest


def bare_change(fact: Fact, rules: list[Fact], cues: Cues) -> list[Fact]:
    """The latest earlier rule (another message) stating another value of the class of the
    one value ``fact`` states, when ``fact`` names no subject (see the module)."""
    if not bare(fact.text, cues):
        return []
    mine = values(fact.text, cues)[0]
    for old in reversed(rules[-250:]):
        if old is fact or not old.live or old.source == fact.source:
            continue
        said = values(old.text, cues)
        if any(v.cls == mine.cls and v.text != mine.text for v in said):
            return [old]
    return []


def inherited(
    fact: Fact, rules: list[Fact], cues: Cues, replaced: Callable[[Fact], list[Fact]]
) -> list[Fact]:
    """The earlier bare rules whose borrowed subject ``fact`` gives another value."""
    out = []
    for old in rules[-250:]:
        if old is fact or not old.live or old.source == fact.source or not bare(old.text, cues):
            continue
        prior = replaced(old)[:1]
        if prior and shape_change(fact.text, f"{prior[0].text} {old.text}", cues):
            out.append(old)
    return out


__all__ = ["bare", "bare_change", "inherited"]
