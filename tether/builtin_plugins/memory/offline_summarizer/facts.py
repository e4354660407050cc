"""Progress read from agent messages for the offline summarizer, in one linear pass.

What the user stated (goal, constraints, decisions, next steps, errors, identifiers) is the
fact ledger's (:mod:`tether.builtin_plugins.memory.fact_ledger`); this pass reads the work
itself — actions done, failures seen, paths and names, whether the last request was answered —
and :func:`build_checkpoint` renders both. Error lines, paths and names are copied verbatim.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tether.builtin_plugins.memory.fact_ledger import default_cues
from tether.builtin_plugins.memory.fact_ledger.calls import call_target
from tether.builtin_plugins.memory.fact_ledger.errorline import failure_lines
from tether.builtin_plugins.memory.fact_ledger.extract import error_line as ledger_error_line
from tether.builtin_plugins.memory.offline_summarizer.scan import find_functions, find_paths
from tether.builtin_plugins.memory.offline_summarizer.sections import Checkpoint, parse_summary
from tether.memory import content_text

MAX_QUOTE = 300
MAX_GOAL = 2000
MAX_DONE = 40
MAX_PATHS = 60
MAX_FUNCTIONS = 40
MAX_ERRORS = 12

#: White space that breaks or tabs a line; runs of plain spaces within a line are its own
#: (``#define USE_DMA   1   // …`` is quoted as written).
_WHITESPACE = re.compile(r" *[^\S ]\s*")


def quote(text: str, limit: int = MAX_QUOTE) -> str:
    """Line breaks and tabs folded to one space (a line's own spaces kept), cut at ``limit``
    characters with an ellipsis."""
    flat = _WHITESPACE.sub(" ", text).strip()
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def text_of(content: Any) -> str:
    """The text blocks of a message's content, joined by newlines (string content as-is)."""
    return content_text(content, "\n", lambda text: str(text or ""))


def error_line(text: str) -> str:
    """The line of ``text`` that states the error, verbatim (the ledger's reading), cut to
    :data:`MAX_QUOTE`."""
    return ledger_error_line(text)[:MAX_QUOTE]


def _describe(name: str, target: str) -> str:
    first_line = target.splitlines()[0] if target else ""
    shown = quote(first_line, 160) + (" …" if "\n" in target else "")
    return f"`{name}` on `{shown}`" if shown else f"`{name}`"


@dataclass
class Facts:
    """What one pass over the messages found."""

    requests: list[str] = field(default_factory=list)  # substantive ones (no "Continue")
    done: dict[str, int] = field(default_factory=dict)  # action → times, most recent last
    errors: dict[tuple[str, str], str] = field(default_factory=dict)  # unresolved
    error_lines: list[str] = field(default_factory=list)
    paths: dict[str, None] = field(default_factory=dict)
    functions: dict[str, None] = field(default_factory=dict)
    last_action: str = ""
    answered: bool = True
    embedded: list[Checkpoint] = field(default_factory=list)

    def note_path(self, path: str) -> None:
        if path and len(self.paths) < 10 * MAX_PATHS:
            self.paths[path] = None

    def scan_code_words(self, text: str) -> None:
        for path in find_paths(text):
            self.note_path(path)
        for name in find_functions(text):
            if len(self.functions) < 10 * MAX_FUNCTIONS:
                self.functions[name] = None

    def fail(self, key: tuple[str, str], text: str, more: tuple[str, ...] | None = None) -> None:
        """A failure of ``key``: its error line open, and seen with the other lines that name
        the failure (``more``; by default those of ``text``: :func:`.errorline.failure_lines`)."""
        line = error_line(text)
        self.errors.pop(key, None)
        self.errors[key] = line
        extra = failure_lines(text)[1:] if more is None else more
        for seen in (line, *(quote(m) for m in extra)):
            if seen not in self.error_lines:
                self.error_lines.append(seen)

    def succeed(self, key: tuple[str, str], action: str | None) -> None:
        self.errors.pop(key, None)
        if action:
            times = self.done.pop(action, 0)  # re-inserted: most recent last
            self.done[action] = times + 1
            self.last_action = action


def _read_user(facts: Facts, text: str) -> None:
    if not text.strip():
        return
    short = " ".join(text.split())
    if not (len(short) <= 120 and default_cues().has("filler", short)):
        facts.requests.append(text)
        facts.answered = False
    facts.scan_code_words(text)


def _read_assistant(facts: Facts, message: dict[str, Any], calls: dict[str, Any]) -> None:
    has_calls = False
    texts: list[str] = []
    for block in message.get("content") or []:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text":
            texts.append(str(block.get("text") or ""))
        elif block.get("type") == "toolCall":
            has_calls = True
            name, args = str(block.get("name", "")), block.get("arguments")
            calls[str(block.get("id", ""))] = (name, args)
            if isinstance(args, dict) and isinstance(args.get("path"), str):
                facts.note_path(args["path"])
    for text in texts:
        facts.scan_code_words(text)
    stop = message.get("stopReason")
    if stop == "error":
        facts.fail(("model", ""), str(message.get("errorMessage") or "Unknown error"))
    elif not has_calls and stop != "aborted" and any(t.strip() for t in texts):
        facts.answered = True


def _read_tool_result(facts: Facts, message: dict[str, Any], calls: dict[str, Any]) -> None:
    name, args = calls.get(str(message.get("toolCallId", "")), (message.get("toolName"), None))
    name = str(name or message.get("toolName") or "tool")
    target = call_target(name, args)
    text = text_of(message.get("content"))
    if message.get("isError"):
        facts.fail((name, target), text)
        return
    action = None
    if name == "edit":
        action = f"Edited `{target}`"
    elif name == "write":
        action = f"Wrote `{target}`"
    elif name == "bash":
        action = f"Ran `{quote(target.splitlines()[0] if target else '', 160)}`"
    facts.succeed((name, target), action)
    if name == "edit" and target:  # an edit also clears an earlier failed write, and back
        facts.errors.pop(("write", target), None)
    elif name == "write" and target:
        facts.errors.pop(("edit", target), None)


def _read_bash_execution(facts: Facts, message: dict[str, Any]) -> None:
    if message.get("excludeFromContext"):
        return
    command = str(message.get("command", ""))
    key = ("bash", command.strip())
    exit_code = message.get("exitCode")
    if message.get("cancelled"):
        facts.fail(key, "cancelled by the user")
    elif exit_code not in (0, None):
        output = str(message.get("output", ""))
        more = failure_lines(output)[1:]
        facts.fail(key, f"exit code {exit_code}: {error_line(output)}", more)
    else:
        facts.succeed(key, f"Ran `{quote(command, 160)}` (user shell)")


def read_facts(messages: list[dict[str, Any]], facts: Facts | None = None) -> Facts:
    """One pass over agent messages (user, assistant, toolResult, bashExecution, summaries);
    ``facts`` continues from earlier facts (the summary gate seeds a still unresolved error)."""
    facts = facts if facts is not None else Facts()
    calls: dict[str, Any] = {}
    for message in messages:
        role = message.get("role")
        if role == "user":
            _read_user(facts, text_of(message.get("content")))
        elif role == "assistant":
            _read_assistant(facts, message, calls)
        elif role == "toolResult":
            _read_tool_result(facts, message, calls)
        elif role == "bashExecution":
            _read_bash_execution(facts, message)
        elif role in ("branchSummary", "compactionSummary"):
            facts.embedded.append(parse_summary(str(message.get("summary", ""))))
    return facts


__all__ = ["Facts", "error_line", "quote", "read_facts", "text_of"]
