"""Pinned facts: which pins are in force on a branch, and the ``## Pinned`` section of summaries.

A pin is a ``custom`` entry ``{"customType": "tether.pin", "data": {"pinId", "text",
"entryId"}}`` (``entryId``: the entry whose text was pinned, or ``None``); an unpin is a
``custom`` entry ``{"customType": "tether.unpin", "data": {"pinId"}}``. pi never sends
``custom`` entries to the model, so a file with pins opens in pi with the same context.

The pins in force at an entry are the pins on the path from the root to it, minus the ones
unpinned on that path — so a pin made on one branch does not hold on its siblings.

Every compaction and branch summary tether writes ends (before its file lists) with a
``## Pinned`` section holding each pinned text verbatim (:func:`with_pins`); a ``## Pinned``
section a summarizer wrote itself (copied from the previous summary, say) is replaced, never
repeated. The gate and other checks get the texts with :func:`pinned_texts`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from tether.builtin_plugins import camel_json
from tether.memory import content_text, strip_file_lists

PIN_TYPE = "tether.pin"
UNPIN_TYPE = "tether.unpin"
PINNED_HEADING = "## Pinned"

_PINNED_LINE = re.compile(r"^#{1,6}\s*pinned\s*#*\s*$", re.IGNORECASE)
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
# where a summarizer's Pinned section ends: a heading of pi's summary layouts, the split-turn
# separator or a file list (a pinned text may hold other headings of its own)
_SECTION_NAMES = {
    "goal",
    "constraints & preferences",
    "progress",
    "done",
    "in progress",
    "blocked",
    "key decisions",
    "next steps",
    "critical context",
    "original request",
    "early progress",
    "context for suffix",
}
_ENDS = {"---", "**turn context (split turn):**", "<read-files>", "<modified-files>"}


@dataclass(frozen=True)
class Pin:
    """One pin in force: its id, the text kept verbatim, the pinned entry (if any) and the id
    of the ``custom`` entry that holds it."""

    pin_id: str
    text: str
    entry_id: str | None
    holder_id: str

    def as_json(self) -> dict[str, Any]:
        """``{"pinId", "text", "entryId", "holderId"}`` (what ``session pins --json`` prints)."""
        return camel_json(self)


def _custom_data(entry: dict[str, Any], custom_type: str) -> dict[str, Any] | None:
    if entry.get("type") != "custom" or entry.get("customType") != custom_type:
        return None
    data = entry.get("data")
    return data if isinstance(data, dict) else None


def pins_in_force(branch: Iterable[dict[str, Any]]) -> list[Pin]:
    """The pins on ``branch`` (root first) not unpinned on it, in the order they were made.

    Malformed pin entries (no text, no id) are ignored; a pin id seen twice counts once."""
    pins: dict[str, Pin] = {}
    for entry in branch:
        data = _custom_data(entry, PIN_TYPE)
        if data is not None:
            pin_id, text = data.get("pinId"), data.get("text")
            if isinstance(pin_id, str) and pin_id and isinstance(text, str) and text.strip():
                pinned = data.get("entryId")
                entry_id = pinned if isinstance(pinned, str) else None
                pins.setdefault(pin_id, Pin(pin_id, text, entry_id, str(entry.get("id"))))
            continue
        data = _custom_data(entry, UNPIN_TYPE)
        if data is not None and isinstance(data.get("pinId"), str):
            pins.pop(data["pinId"], None)
    return list(pins.values())


def pinned_texts(branch: Iterable[dict[str, Any]]) -> list[str]:
    """The texts of the pins in force on ``branch`` (root first), verbatim, oldest pin first.

    This is what every summary written at the end of ``branch`` must carry."""
    return [pin.text for pin in pins_in_force(branch)]


def entry_text(entry: dict[str, Any]) -> str | None:
    """The text of an entry that can be pinned by id — a user or assistant message (its text
    blocks, joined by newlines) or a custom message; ``None`` for anything else or no text."""
    kind = entry.get("type")
    if kind == "message":
        message = entry.get("message")
        if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
            return None
        text = content_text(message.get("content"), "\n")
    elif kind == "custom_message":
        text = content_text(entry.get("content"), "\n")
    else:
        return None
    return text if text.strip() else None


def pin_data(pin_id: str, text: str, entry_id: str | None = None) -> dict[str, Any]:
    """The ``data`` of a ``tether.pin`` entry."""
    return {"pinId": pin_id, "text": text, "entryId": entry_id}


def unpin_data(pin_id: str) -> dict[str, Any]:
    """The ``data`` of a ``tether.unpin`` entry."""
    return {"pinId": pin_id}


def render_pinned(texts: Sequence[str]) -> str:
    """``## Pinned`` and one ``- `` item per text, verbatim (``""`` when there is none)."""
    if not texts:
        return ""
    return PINNED_HEADING + "\n" + "\n".join(f"- {text}" for text in texts)


def _ends_section(line: str) -> bool:
    stripped = line.strip()
    if stripped.lower() in _ENDS or stripped.startswith(("<read-files>", "<modified-files>")):
        return True
    heading = _HEADING.match(stripped)
    return bool(heading) and heading.group(1).strip().lower() in _SECTION_NAMES


def _remove_block(text: str, block: str) -> str:
    """``text`` without each whole occurrence of ``block``: at a line start, followed by the
    end, a blank line or a line that ends a section (not by more items of a longer list)."""
    if not block:
        return text
    start = text.find(block)
    while start >= 0:
        end = start + len(block)
        rest = text[end:]
        next_line = rest[1:].split("\n", 1)[0] if rest.startswith("\n") else None
        whole_lines = start == 0 or text[start - 1] == "\n"
        if whole_lines and (
            not rest
            or (next_line is not None and (not next_line.strip() or _ends_section(next_line)))
        ):
            text = text[:start] + text[end:]
            start = text.find(block, start)
        else:
            start = text.find(block, start + 1)
    return text


def strip_pinned(text: str, known: Iterable[Sequence[str]] = ()) -> str:
    """``text`` without its ``## Pinned`` section(s); unchanged when it has none.

    The renderings of ``known`` pin lists are removed exactly first (a pinned text may hold
    lines that look like headings); any other ``Pinned`` heading is removed with the lines up
    to the next heading of pi's summary layout, the split-turn separator or a file list."""
    if not any(_PINNED_LINE.match(line.strip()) for line in text.splitlines()):
        return text
    for texts in sorted((list(k) for k in known), key=lambda k: -len(render_pinned(k))):
        text = _remove_block(text, render_pinned(texts))
    kept: list[str] = []
    skipping = False
    for line in text.split("\n"):
        if _PINNED_LINE.match(line.strip()):
            skipping = True
            continue
        if skipping and _ends_section(line):
            skipping = False
        if not skipping:
            kept.append(line)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip("\n")


def _latest_compaction(branch: Sequence[dict[str, Any]]) -> int | None:
    for index in range(len(branch) - 1, -1, -1):
        if branch[index].get("type") == "compaction":
            return index
    return None


def without_pins(previous: str | None, branch: Sequence[dict[str, Any]]) -> str | None:
    """The previous summary on ``branch`` without the ``## Pinned`` section tether rendered
    into it (removed exactly, so a text later unpinned whose lines look like headings never
    reaches a summarizer as sections of its own); ``None`` and pin-less text unchanged."""
    if not previous:
        return previous
    latest = _latest_compaction(branch)
    earlier = pinned_texts(branch[: latest + 1]) if latest is not None else []
    return strip_pinned(previous, known=(earlier, pinned_texts(branch)))


def with_pins(summary: str, branch: Sequence[dict[str, Any]]) -> str:
    """``summary`` with the ``## Pinned`` section of the pins in force on ``branch``, placed
    before its trailing file lists; a ``## Pinned`` section already in it is replaced (so an
    unpinned text leaves the summary). Without pins and without such a section: unchanged."""
    texts = pinned_texts(branch)
    latest = _latest_compaction(branch)
    earlier = pinned_texts(branch[: latest + 1]) if latest is not None else []
    body = strip_file_lists(summary)
    lists = summary[len(body) :]
    cleaned = strip_pinned(body, known=(texts, earlier))
    if not texts:
        return cleaned + lists if cleaned != body else summary
    return f"{cleaned.rstrip()}\n\n{render_pinned(texts)}{lists}"


__all__ = [
    "PINNED_HEADING",
    "PIN_TYPE",
    "UNPIN_TYPE",
    "Pin",
    "entry_text",
    "pin_data",
    "pinned_texts",
    "pins_in_force",
    "render_pinned",
    "strip_pinned",
    "without_pins",
    "unpin_data",
    "with_pins",
]
