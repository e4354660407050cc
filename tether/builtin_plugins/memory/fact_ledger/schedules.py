"""Schedules and dates change as a whole: "0 2 * * *" → "30 3 * * *" and "每天凌晨 2 点" →
"凌晨 4 点半" are one value each, never "0" → "30" number by number (the goal's note names the
whole old and new value)."""

from __future__ import annotations

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.implicit import shape_change, values

#: Classes whose values change as a whole: "0 2 * * *" → "30 3 * * *", not "0" → "30".
WHOLE = ("schedule", "clock", "date")


def whole_pairs(new: str, old: str, cues: Cues) -> list[tuple[str, str]]:
    """``(old value, new value)`` of each schedule or date of ``old`` that ``new``, giving its
    subject another value, replaces as a whole (a part of the old one said again, "2 点和备份
    冲突了", is no new value)."""
    if not shape_change(new, old, cues, cued=True):
        return []
    out = []
    for o in values(old, cues):
        if o.cls not in WHOLE or o.text in new:
            continue
        for n in values(new, cues):
            if n.cls == o.cls and n.text not in old and n.text not in o.text:
                out.append((o.text, n.text))
                break
    return out


__all__ = ["WHOLE", "whole_pairs"]
