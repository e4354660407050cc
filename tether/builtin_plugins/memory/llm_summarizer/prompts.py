"""The LLM summarizer's prompts (tether's own wording) and the layout of its request.

The request has pi's structure: a system prompt and ONE user message whose single text block
is ``<conversation>\\n…\\n</conversation>\\n\\n``, then — in update mode —
``<previous-summary>\\n…\\n</previous-summary>\\n\\n``, then the instructions, optionally
followed by ``\\n\\nAdditional focus: <text>``. The sections asked for are exactly pi's;
beyond pi, the checkpoints ask for the user's constraints and decisions verbatim and for the
user's latest stated next step, and the latest value of every changed fact (issue 23); an
update leaves out the previous ``## Pinned`` section
(the kernel adds the pinned texts back).

The wording lives in ``prompts.md`` beside this module (prose, one block per piece); this
module puts the pieces together.
"""

from __future__ import annotations

import re
from pathlib import Path

_MARKER = re.compile(r"^<!-- prompt: (\S+) -->\n", re.MULTILINE)


def _read_blocks(path: Path) -> dict[str, str]:
    """The ``<!-- prompt: NAME -->`` blocks of ``path``, without their trailing blank lines."""
    parts = _MARKER.split(path.read_text(encoding="utf-8"))[1:]
    return {name: body.rstrip("\n") for name, body in zip(parts[::2], parts[1::2], strict=True)}


_BLOCKS = _read_blocks(Path(__file__).with_name("prompts.md"))
# Sentences several prompts share, filled in wherever a block names them.
_SHARED = {
    name: _BLOCKS[name]
    for name in ("exact", "keep_verbatim", "latest_values", "pinned_note", "user_next_step")
}


def _fill(name: str, **values: str) -> str:
    """Block ``name`` with its ``{placeholders}``: the shared sentences and ``values``."""
    return _BLOCKS[name].format(**_SHARED, **values)


def _placeholders() -> dict[str, dict[str, str]]:
    """The ``checkpoint.placeholders`` table: per prompt kind, the words per placeholder."""
    header, _rule, *rows = (
        line[2:-2].split(" | ") for line in _BLOCKS["checkpoint.placeholders"].splitlines()
    )
    table: dict[str, dict[str, str]] = {kind: {} for kind in header[1:]}
    for name, *cells in rows:
        for kind, cell in zip(header[1:], cells, strict=True):
            if cell != "-":
                table[kind][name] = cell
    return table


def _checkpoint(kind: str, words: dict[str, str]) -> str:
    """pi's checkpoint sections after the task of ``kind``, ``words`` under the headings (and
    Critical Context when they have one)."""
    critical = words.get("critical")
    section = f"\n\n{_fill('critical', critical=critical)}" if critical else ""
    return _fill("checkpoint", **{**words, "critical": section}, task=_fill(kind))


def _turn_prefix(kind: str) -> str:
    """pi's three turn-prefix sections after the task of ``kind``."""
    progress = _BLOCKS[f"{kind}.progress"]
    return _fill(kind, sections=_fill("turnPrefix.sections", progress=progress))


SYSTEM_PROMPT = _BLOCKS["system"]
KEEP_VERBATIM = _SHARED["keep_verbatim"]
LATEST_VALUES = _SHARED["latest_values"]
PINNED_NOTE = _SHARED["pinned_note"]
USER_NEXT_STEP = _SHARED["user_next_step"]

_WORDS = _placeholders()
INSTRUCTIONS: dict[str, str] = {
    "summary": _checkpoint("summary", _WORDS["summary"]),
    "updateSummary": _checkpoint("updateSummary", _WORDS["updateSummary"]),
    "turnPrefix": _turn_prefix("turnPrefix"),
    "updateTurnPrefix": _turn_prefix("updateTurnPrefix"),
    "branchSummary": _checkpoint("branchSummary", _WORDS["branchSummary"]),
    "updateBranchSummary": _fill("updateBranchSummary"),
}


def prompt_kind(request_kind: str, *, update: bool) -> str:
    """pi's request kind for a ``SummarizeRequest.kind`` (``update`` = a summary to fold into)."""
    base = {"compaction": "summary", "turn_prefix": "turnPrefix", "branch": "branchSummary"}
    kind = base.get(request_kind, "summary")
    if not update:
        return kind
    return {"summary": "updateSummary"}.get(kind, "update" + kind[0].upper() + kind[1:])


def instructions_for(
    kind: str, custom_instructions: str | None = None, *, replace: bool = False
) -> str:
    """The instruction text; ``Additional focus`` appended, or replacing it when ``replace``."""
    custom = (custom_instructions or "").strip()
    if custom and replace:
        return custom
    base = INSTRUCTIONS[kind]
    return f"{base}\n\nAdditional focus: {custom}" if custom else base


def user_text(conversation: str, instructions: str, previous_summary: str | None = None) -> str:
    """The single user text block of a summarization request (pi's layout)."""
    text = f"<conversation>\n{conversation}\n</conversation>\n\n"
    if previous_summary:
        text += f"<previous-summary>\n{previous_summary}\n</previous-summary>\n\n"
    return text + instructions


__all__ = [
    "INSTRUCTIONS",
    "KEEP_VERBATIM",
    "LATEST_VALUES",
    "PINNED_NOTE",
    "SYSTEM_PROMPT",
    "USER_NEXT_STEP",
    "instructions_for",
    "prompt_kind",
    "user_text",
]
