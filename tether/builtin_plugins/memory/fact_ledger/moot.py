"""An open error about what a replaced rule chose is moot: "OSError: No wkhtmltopdf
executable found" once "use wkhtmltopdf for pdf rendering" gave way to WeasyPrint. It is
retired with the rule, as moot (no longer blocking, nor an error to show as seen), unless the
new rule names it too."""

from __future__ import annotations

import re
from typing import Protocol

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.implicit import values

MOOT = "moot"  # the status of such an error (not "resolved": no success cleared it)
MIN_NAME = 3  # characters of a name an error must name ("Go" is too short to tell)


class Ledger(Protocol):
    def live(self, *kinds: str) -> list[Fact]: ...

    def retire(self, old: Fact, new: Fact | None, status: str = "retired") -> None: ...


def _named(name: str, text: str) -> bool:
    pattern = r"(?<![\w.-])" + re.escape(name) + r"(?![\w-])"
    return re.search(pattern, text, re.IGNORECASE) is not None


def resolve_moot(ledger: Ledger, old: Fact, new: Fact, cues: Cues | None) -> None:
    """Resolve the open errors naming a name ``old`` chose that ``new`` does not name."""
    if cues is None or old.kind not in ("constraint", "decision", "request"):
        return
    said = new.text
    span = cues.find("replaces", said)
    if span is not None:  # "ebooklib instead of Pandoc" names Pandoc only as the old one
        after = said[span[1] :].split(None, 1)
        said = said[: span[0]] + (after[1] if len(after) > 1 else "")
    names = [
        v.text
        for v in values(old.text, cues)
        if v.cls == "name" and len(v.text) >= MIN_NAME and not _named(v.text, said)
    ]
    if not names:
        return
    for error in ledger.live("error"):
        if any(_named(name, error.text) for name in names):
            ledger.retire(error, new, status=MOOT)


__all__ = ["MOOT", "resolve_moot"]
