"""The LLM summarizer's prompts (tether's own wording) and the layout of its request.

The request has pi's structure: a system prompt and ONE user message whose single text block
is ``<conversation>\\n…\\n</conversation>\\n\\n``, then — in update mode —
``<previous-summary>\\n…\\n</previous-summary>\\n\\n``, then the instructions, optionally
followed by ``\\n\\nAdditional focus: <text>``. The sections asked for are exactly pi's;
beyond pi, the checkpoints ask for the user's constraints and decisions verbatim and for the
user's latest stated next step, and the latest value of every changed fact (issue 23); an
update leaves out the previous ``## Pinned`` section
(the kernel adds the pinned texts back).
"""

from __future__ import annotations

SYSTEM_PROMPT = (
    "You write context checkpoints. You are shown the transcript of a working session between "
    "a user and an AI coding assistant, and your only job is to condense it into the "
    "structured summary that the instructions describe.\n\n"
    "You are not a participant: do not reply to the user, do not carry on the assistant's "
    "work and do not answer questions found in the transcript. Output the summary and nothing "
    "else."
)

_EXACT = "Copy file paths, function names and error messages exactly as they appear."

# What a checkpoint must never lose (issue 9): the user's own rules and choices, word for word,
# and where the user said the work goes next.
KEEP_VERBATIM = (
    "Carry every constraint, requirement, preference and decision the user stated into the "
    "checkpoint verbatim, in the user's own words (quote them; never paraphrase, merge or "
    "drop one, however old or minor it looks), and keep the ones from an earlier checkpoint."
)
# Issue 23: a value the user changed is kept in its latest form only, in the user's language.
LATEST_VALUES = (
    "When the user changed something (another host, version, library, limit or option, a rule "
    'withdrawn, "instead", "from now on", "no longer", in any language), carry only the '
    "latest value, quoted in the user's own words and language, and mark it as changed; never "
    "list the replaced value as current. Fill every section with real content: leave no "
    "bracketed placeholder of this template in your answer."
)
# The harness appends the pinned texts itself (the ``pins`` plugin): the model must not
# copy that section, or it would be repeated (or paraphrased) in the new checkpoint.
PINNED_NOTE = (
    "If the previous checkpoint has a `## Pinned` section, leave that section out of your "
    "answer: the user pinned those texts and they are added back after it, word for word."
)
USER_NEXT_STEP = (
    "Next Steps starts with the next step the user stated most recently, in the user's words "
    "(or the user's last request that is not finished yet); do not invent a next step."
)

_CHECKPOINT_LAYOUT = """## Goal
{goal}

## Constraints & Preferences
- {constraints}

## Progress
### Done
- [x] {done}

### In Progress
- [ ] {in_progress}

### Blocked
- {blocked}

## Key Decisions
- **[Decision]**: {decision}

## Next Steps
1. {next_steps}
"""

_CRITICAL = """
## Critical Context
- {critical}
"""


def _checkpoint_instructions(
    task: str, answer_with: str, *, critical: str | None = None, **placeholders: str
) -> str:
    """``task``, then pi's checkpoint sections (with Critical Context when ``critical``)."""
    sections = _CHECKPOINT_LAYOUT.format(**placeholders)
    if critical is not None:
        sections += _CRITICAL.format(critical=critical)
    return (
        f"{task}\n\n{answer_with}, headings spelled exactly as shown:\n\n{sections}"
        f"\n{KEEP_VERBATIM} {LATEST_VALUES} {USER_NEXT_STEP}\n\n"
        f"Be brief in every other respect. {_EXACT}"
    )


def _turn_prefix_sections(progress: str) -> str:
    """pi's three turn-prefix sections; ``progress`` is the Early Progress placeholder."""
    return (
        "## Original Request\n[What the user asked for in this turn]\n\n"
        f"## Early Progress\n- [{progress}]\n\n"
        "## Context for Suffix\n- [Facts needed to make sense of the kept recent work]\n\n"
    )


# HISTORY, UPDATE and BRANCH_INSTRUCTIONS have the same shape (one placeholder per pi section,
# filled by _checkpoint_instructions): the wording of each placeholder is the prompt itself.
HISTORY_INSTRUCTIONS = _checkpoint_instructions(
    "Condense the transcript above into a checkpoint that a different assistant will read to "
    "pick the work up where it stopped. That assistant sees only this checkpoint and the most "
    "recent messages, so keep everything it needs to continue.",
    "Answer with these sections",
    critical='[Facts, data and references the work cannot continue without, or "(none)"]',
    goal="[The outcome the user wants; several lines if the session covered several tasks]",
    constraints='[Rules, requirements and preferences the user stated, or "(none)"]',
    done="[Finished work and changes]",
    in_progress="[Work that was under way]",
    blocked="[Problems that stop progress, if any]",
    decision="[Why it was made]",
    next_steps="[The user's latest stated next step first, then what else to do, in order]",
)

UPDATE_INSTRUCTIONS = _checkpoint_instructions(
    "The transcript above holds only the messages that came AFTER the checkpoint given in "
    "<previous-summary>. Write the new checkpoint by folding them into it:\n"
    "- keep every fact of the previous checkpoint unless the new messages make it obsolete;\n"
    "- add the new progress, decisions and context;\n"
    "- move items from In Progress to Done once they are finished;\n"
    "- rewrite Next Steps for the state the work is in now.\n" + PINNED_NOTE,
    "Answer with the same sections",
    critical="[Earlier context kept, new context added]",
    goal="[The goals so far, plus any new ones]",
    constraints="[Earlier ones kept, new ones added]",
    done="[Earlier finished items and the newly finished ones]",
    in_progress="[What is under way now]",
    blocked="[Blockers that still hold; drop the resolved ones]",
    decision="[Why it was made] (earlier decisions kept)",
    next_steps="[The user's latest stated next step first, then the rest for the current state]",
)

TURN_PREFIX_INSTRUCTIONS = (
    "The transcript above is the beginning of a single turn that was too long to keep whole. "
    "The end of that turn (the most recent work) stays in the context word for word; this "
    "beginning is replaced by your summary. Write what a reader of the kept end needs to know "
    "from the beginning:\n\n"
    + _turn_prefix_sections("Work done and decisions taken in this beginning")
    + f"Keep it short: only what the kept part depends on. {_EXACT}"
)

TURN_PREFIX_UPDATE_INSTRUCTIONS = (
    "The transcript above continues the beginning of a long turn whose earlier part is "
    "summarized in <previous-summary>. Fold it into that summary, keeping its facts, with the "
    "same three sections, headings spelled exactly as shown:\n\n"
    + _turn_prefix_sections("Work done and decisions taken so far")
    + f"Keep it short. {_EXACT}"
)

BRANCH_INSTRUCTIONS = _checkpoint_instructions(
    "The transcript above is a branch of the conversation that the user is now leaving. "
    "Summarize it so that whoever comes back to it later knows what was tried and how far it "
    "got.",
    "Answer with these sections",
    goal="[What the user was trying to achieve in this branch]",
    constraints='[Rules, requirements and preferences the user stated, or "(none)"]',
    done="[Finished work and changes]",
    in_progress="[Work started but not finished]",
    blocked="[Problems that stopped progress, if any]",
    decision="[Why it was made]",
    next_steps="[What would continue this work]",
)

BRANCH_UPDATE_INSTRUCTIONS = (
    "The transcript above continues the branch summarized in <previous-summary>. Fold it into "
    "that summary, keeping its facts and adding the new ones, with the same sections "
    "(Goal, Constraints & Preferences, Progress with Done / In Progress / Blocked, "
    f"Key Decisions, Next Steps), headings spelled exactly as before. {KEEP_VERBATIM} "
    f"{LATEST_VALUES} {USER_NEXT_STEP} {PINNED_NOTE} {_EXACT}"
)

INSTRUCTIONS: dict[str, str] = {
    "summary": HISTORY_INSTRUCTIONS,
    "updateSummary": UPDATE_INSTRUCTIONS,
    "turnPrefix": TURN_PREFIX_INSTRUCTIONS,
    "updateTurnPrefix": TURN_PREFIX_UPDATE_INSTRUCTIONS,
    "branchSummary": BRANCH_INSTRUCTIONS,
    "updateBranchSummary": BRANCH_UPDATE_INSTRUCTIONS,
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
