"""Filing a next step (see :mod:`.ledger`): the latest one stated is the one in force, and one
said with a change cue and a value (not a name) that gives a live rule a new value ("then move
night mode to 23:00", "然后 晚上模式 改成 23:00") is that rule's new value, not a step."""

from __future__ import annotations

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.extract import Statement
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.implicit import values
from tether.builtin_plugins.memory.fact_ledger.negation import rule_cue
from tether.builtin_plugins.memory.fact_ledger.supersede import Ledger, supersede


def _measured(text: str, cues: Cues) -> bool:
    """Whether ``text`` states a value other than a plain name (a time, a size, a count, a
    numbered name: "then move the buzzer to GPIO18"): only such a step gives a rule a new
    value ("make it spit out a CSV" changes no rule)."""
    return any(
        value.cls != "name" or any(ch.isdigit() for ch in value.text)
        for value in values(text, cues)
    )


def file_next_step(ledger: Ledger, fact: Fact, statement: Statement, cues: Cues | None) -> bool:
    """Retire what the new next step ``fact`` replaces; True when ``fact`` changed a rule and
    is now a constraint (the caller files it again under its new kind)."""
    if statement.change and cues is not None and _measured(fact.text, cues):
        supersede(ledger, fact, statement, cues)
        if any(f.replaced_by == fact.id for f in ledger.facts if f.kind != "identifier"):
            fact.kind = "constraint"
            return True
    moved = False
    for old in ledger.live("next_step"):
        if old is fact or old.source == fact.source:
            continue  # the steps of one message stand together
        if cues is not None and rule_cue(old.text, cues) == "rule":
            old.kind, moved = "constraint", True  # "The deadline is 14 March, so next …"
        else:  # stays once its step is done; what it named ("the tag points at 3f9c2ab1")
            for child in ledger.live("identifier"):  # is no less true for that: its
                if child.parent == old.id:  # identifiers stay, standing on their own
                    child.parent = ""
            ledger.retire(old, fact)
    return moved


__all__ = ["file_next_step"]
