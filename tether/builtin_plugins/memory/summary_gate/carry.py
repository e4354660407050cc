"""Finding what a summary lacks, naming it in a retry note, and the carried-forward block.

An item is present when its words appear in the summary in the same order — case, quotes,
markdown and punctuation aside (``"Never write outside the out/ directory."`` is found in
``- **Never** write outside the `out/` directory``); a leading ``Decision:``/``Constraint:``
label is ignored. An exact identifier (a flag, a pin, an error line, a command line) and a file
are present only verbatim (the file lists count for files); a section when a heading of any
level has its name.

The carried-forward block (:func:`carried_block`) lists the missing items verbatim under
``## Carried Forward (restored by the summary gate)``, grouped by their section
(``### Constraints & Preferences``…), so a later summarizer reads them where they belong. It is
never longer than :data:`CARRY_MAX_CHARS`; when the missing items do not fit, the gate hands
the compaction to the offline summarizer instead.
"""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.summary_gate.required import SECTIONS, RequiredItem

CARRY_MAX_CHARS = 4000  # the carried-forward block's cap (documented in docs/plugins.md)
CARRY_HEADING = "## Carried Forward (restored by the summary gate)"
NOT_GIVEN = "(not given by the summarizer)"
_NON_WORD = re.compile(r"[\W_]+")
_LABEL = re.compile(r"^\W*(?:key )?(?:decision|constraint)s?\W*:\s*", re.IGNORECASE)
_BLOCK_ORDER = (
    *SECTIONS[:2], "Key Decisions", "Next Steps", "Done", "Blocked", "Critical Context",
    "Modified Files",
)  # fmt: skip


def normalized(text: str) -> str:
    """Words only, lower case, single spaces, padded with a space on each side."""
    return " " + " ".join(_NON_WORD.sub(" ", text.casefold()).split()) + " "


def _has_section(text: str, name: str) -> bool:
    return (
        re.search(rf"^#{{1,6}}\s*{re.escape(name)}\b", text, re.MULTILINE | re.IGNORECASE)
        is not None
    )


def missing_items(text: str, file_lists: str, items: list[RequiredItem]) -> list[RequiredItem]:
    """The items of ``items`` that ``text`` (and, for files, ``file_lists``) lacks."""
    words, flat = normalized(text), " ".join(text.split())
    with_lists = text + "\n" + file_lists
    out = []
    for item in items:
        if item.rule == "section":
            found = _has_section(text, item.text)
        elif item.rule == "file":
            found = item.text in with_lists
        elif item.rule == "identifier":  # exact: "--workers 6" is not "workers: 6"
            found = " ".join(item.text.split()) in flat
        else:
            wanted = normalized(_LABEL.sub("", item.text))
            found = not wanted.strip() or wanted in words
        if not found:
            out.append(item)
    return out


def retry_note(missing: list[RequiredItem], problem: str | None) -> str:
    """The instruction added to the retry: exactly what was wrong or missing."""
    lines = []
    if problem:
        lines.append(
            f"Your previous answer was not a summary ({problem}). Answer with the summary text "
            "only: no tool calls, within the length limit."
        )
    sections = [i.text for i in missing if i.rule == "section"]
    if sections:
        lines.append("Your previous summary lacked these sections: " + ", ".join(sections) + ".")
    items = [i for i in missing if i.rule != "section"]
    if items:
        lines.append(
            "Your previous summary left out these items; include each one verbatim, in the "
            "user's own words, under its section:"
        )
        lines += [f'- {i.section}: "{i.text}"' for i in items]
    return "\n".join(lines)


#: How a carried item of a rule is written (``{}``: its text verbatim); a rule not listed is
#: quoted, unless its text already opens with a quote.
_LINES = {
    "file": "- `{}`",
    "identifier": "- `{}`",
    "error": '- Last error: "{}"',
    "fixed": '- Fixed since: "{}"',
    "request": '- Request: "{}"',
}


def _line(item: RequiredItem) -> str:
    if item.rule == "section":
        return f"- {NOT_GIVEN}"
    if item.rule in _LINES:
        return _LINES[item.rule].format(item.text)
    text = item.text
    return f"- {text}" if text[:1] in "\"'“" else f'- "{text}"'


def carried_block(missing: list[RequiredItem]) -> str:
    """The missing items, verbatim, under their section headings ("" when none)."""
    if not missing:
        return ""
    groups: dict[str, list[str]] = {}
    order = [*_BLOCK_ORDER, *(s for s in SECTIONS if s not in _BLOCK_ORDER)]
    for item in missing:
        groups.setdefault(item.section, [])
        if item.rule != "section":
            groups[item.section].append(_line(item))
    parts = [CARRY_HEADING]
    for name in sorted(groups, key=lambda n: order.index(n) if n in order else len(order)):
        body = groups[name] or [f"- {NOT_GIVEN}"]
        parts.append(f"### {name}\n" + "\n".join(body))
    return "\n".join(parts)


__all__ = [
    "CARRY_HEADING",
    "CARRY_MAX_CHARS",
    "carried_block",
    "missing_items",
    "normalized",
    "retry_note",
]
