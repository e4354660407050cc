"""The pruning stage's state for one session: incremental, stepwise, restored from the file.

:class:`PruneStage` follows the agent's message list from call to call. A call whose list
continues the previous one (same first message, the previous last message still in its
place) costs only the new messages; any other list (a compaction, ``/tree``, another
session) is read again once, with the branch, to restore the boundary the file records.

Rule (a step): tool results of the current turn (after the last user message) and the newest
``keep`` tokens of tool output are kept; the older ones not yet pruned are replaced together,
but only once that frees at least ``min_free`` tokens. Pruned results stay pruned, so between
two steps the messages sent start with the same bytes. Each step is recorded as a ``custom``
entry (``customType`` :data:`PRUNE_TYPE`, which pi skips): ``through`` — the newest pruned
tool result's entry id; every tool result up to it on the branch is pruned, so a restarted
process sends the same placeholders.
"""

from __future__ import annotations

import bisect
import time
from dataclasses import dataclass, field
from typing import Any

from tether.builtin_plugins.memory.token_estimate import estimate_tokens

PRUNE_TYPE = "tether.prune"
MIN_PRUNED_TOKENS = 100  # a tool result this small stays: its placeholder would save nothing

Message = dict[str, Any]


def placeholder_text(entry_id: str, tool: str, tokens: int) -> str:
    """What the model reads instead of a pruned tool result."""
    left = f"[{tool} output left out (entry {entry_id}, ~{tokens} tokens); "
    return f'{left}recall id="{entry_id}" reads it]'


def placeholder(message: Message, entry_id: str, tokens: int) -> Message:
    """A copy of the tool result ``message`` whose content is the placeholder text."""
    tool = str(message.get("toolName") or "tool")
    text = placeholder_text(entry_id, tool, tokens)
    return {**message, "content": [{"type": "text", "text": text}]}


@dataclass
class Budget:
    """The settings a step obeys (tokens: pi's chars/4 estimate)."""

    keep: int
    min_free: int


@dataclass
class _Tool:
    index: int  # position in the message list
    tokens: int
    call_id: str
    entry_id: str | None = None
    saving: int = 0  # tokens a placeholder saves (0: too small or no entry id)


@dataclass
class PruneStage:
    """Pruning state of one session (see the module documentation)."""

    first: Any = None  # the list's first message object, and its last one seen
    last: Any = None
    count: int = 0
    tools: list[_Tool] = field(default_factory=list)
    indexes: list[int] = field(default_factory=list)  # tools' positions in the list
    tool_tokens: list[int] = field(default_factory=lambda: [0])  # prefix sums over tools
    savings: list[int] = field(default_factory=lambda: [0])  # prefix sums (resolved tools)
    last_user: int = -1  # index of the last user message
    pruned: int = 0  # tools[:pruned] are pruned
    placeholders: dict[int, Message] = field(default_factory=dict)
    total: int = 0  # estimated tokens of every message
    sent_saved: int = 0  # what the last real call left out
    # the branch's tool result entries, in order: (toolCallId, entry id)
    stored: list[tuple[str, str]] = field(default_factory=list)
    walked_to: str | None = None  # the leaf the id map was built up to
    steps: int = 0

    # -- following the message list ------------------------------------------------------------

    def follow(self, messages: list[Message], session: Any) -> None:
        """Catch up with ``messages``: only the new ones, unless the list is another one."""
        n = self.count
        continues = (
            n > 0
            and len(messages) >= n
            and messages[0] is self.first
            and messages[n - 1] is self.last
        )
        if not continues:
            self._reset(messages, session)
            return
        self._add(messages, n, session)

    def _reset(self, messages: list[Message], session: Any) -> None:
        self.__init__()  # type: ignore[misc]
        branch = session.get_branch()
        through = None
        for entry in branch:
            if entry.get("type") == "custom" and entry.get("customType") == PRUNE_TYPE:
                data = entry.get("data")
                if isinstance(data, dict) and isinstance(data.get("through"), str):
                    through = data["through"]
            self._note_entry(entry)
        self.walked_to = session.leaf_id
        self._add(messages, 0, session)
        if through is not None:
            at = next((i for i, t in enumerate(self.tools) if t.entry_id == through), -1)
            self._prune_to(at + 1)
        self.sent_saved = self.saved

    def _note_entry(self, entry: dict[str, Any]) -> None:
        message = entry.get("message") if entry.get("type") == "message" else None
        if isinstance(message, dict) and message.get("role") == "toolResult":
            self.stored.append((str(message.get("toolCallId") or ""), str(entry.get("id"))))

    def _walk_new_entries(self, session: Any) -> None:
        """Entries appended since the last walk (from the leaf back to where it stopped)."""
        leaf = session.leaf_id
        found: list[dict[str, Any]] = []
        at = leaf
        while at is not None and at != self.walked_to:
            entry = session.get_entry(at)
            if entry is None:
                break
            found.append(entry)
            at = entry.get("parentId")
        for entry in reversed(found):
            self._note_entry(entry)
        self.walked_to = leaf

    def _add(self, messages: list[Message], start: int, session: Any) -> None:
        for index in range(start, len(messages)):
            message = messages[index]
            tokens = estimate_tokens(message)
            self.total += tokens
            role = message.get("role")
            if role == "user":
                self.last_user = index
            elif role == "toolResult":
                tool = _Tool(index, tokens, str(message.get("toolCallId") or ""))
                self.tools.append(tool)
                self.indexes.append(index)
                self.tool_tokens.append(self.tool_tokens[-1] + tokens)
        if messages:
            self.first, self.last, self.count = messages[0], messages[-1], len(messages)
        if len(self.savings) - 1 < len(self.tools):
            self._resolve(messages, session)

    def _resolve(self, messages: list[Message], session: Any) -> None:
        """Entry ids (and savings) of the tool results still without one. The context ends
        with the branch, so its tool results are the branch's last ones, in order (matched
        from the end: a provider that reuses call ids cannot mix them up)."""
        first = len(self.savings) - 1  # tools[first:] have no saving recorded yet
        self._walk_new_entries(session)
        offset = len(self.stored) - len(self.tools)
        for at in range(first, len(self.tools)):
            tool = self.tools[at]
            if offset + at < 0 or self.stored[offset + at][0] != tool.call_id:
                break  # not stored (yet): it and the newer ones wait for the next call
            entry_id = self.stored[offset + at][1]
            tool.entry_id = entry_id
            if tool.tokens >= MIN_PRUNED_TOKENS:
                stub = placeholder(messages[tool.index], entry_id, tool.tokens)
                tool.saving = max(0, tool.tokens - estimate_tokens(stub))
            self.savings.append(self.savings[-1] + tool.saving)

    # -- steps -----------------------------------------------------------------------------------

    @property
    def saved(self) -> int:
        return self.savings[min(self.pruned, len(self.savings) - 1)]

    def candidates(self, budget: Budget) -> int:
        """How many tools (oldest first) a step would prune: those before the newest
        ``keep`` tokens of tool output and before the current turn."""
        total = self.tool_tokens[-1]
        # the first tool whose output, with all newer ones, fits in ``keep``
        start = bisect.bisect_left(self.tool_tokens, total - budget.keep)
        turn = bisect.bisect_right(self.indexes, self.last_user)
        end = min(start, turn, len(self.savings) - 1)
        return max(end, self.pruned)

    def step(self, budget: Budget) -> int:
        """The tools pruned after a step now (``self.pruned`` when no step is due)."""
        end = self.candidates(budget)
        freeable = self.savings[end] - self.savings[self.pruned]
        if end > self.pruned and freeable > 0 and freeable >= budget.min_free:
            return end
        return self.pruned

    def _prune_to(self, end: int) -> None:
        for tool in self.tools[self.pruned : end]:
            if tool.saving > 0 and tool.entry_id is not None:
                # the message object is re-read from the list when the answer is built
                self.placeholders[tool.index] = {}
        self.pruned = max(self.pruned, end)

    def apply(self, messages: list[Message]) -> list[Message]:
        """``messages`` with the pruned tool results replaced by their placeholders."""
        out = list(messages)
        for index, stub in self.placeholders.items():
            if not stub:
                tool = self._tool_at(index)
                stub = placeholder(messages[index], str(tool.entry_id), tool.tokens)
                self.placeholders[index] = stub
            out[index] = stub
        return out

    def _tool_at(self, index: int) -> _Tool:
        return self.tools[bisect.bisect_left(self.indexes, index)]

    def run(
        self, messages: list[Message], session: Any, budget: Budget, *, preview: bool
    ) -> tuple[list[Message], int, int, dict[str, Any] | None]:
        """``(messages to send, freed, saved, report)`` for one call (see the hookspec)."""
        started = time.perf_counter()
        self.follow(messages, session)
        before = self.saved
        end = self.step(budget)
        if preview:  # what the next call sends, with nothing committed
            out = self.apply(messages)
            for tool in self.tools[self.pruned : end]:
                if tool.saving > 0 and tool.entry_id is not None:
                    out[tool.index] = placeholder(messages[tool.index], tool.entry_id, tool.tokens)
            saved = self.savings[end]
            return out, max(0, saved - self.sent_saved), saved, None
        report = None
        if end > self.pruned:
            newly = [t.entry_id for t in self.tools[self.pruned : end] if t.saving > 0]
            through = next(t.entry_id for t in reversed(self.tools[:end]) if t.entry_id)
            self._prune_to(end)
            self.steps += 1
            report = {
                "through": through,
                "entries": newly,
                "tokensBefore": self.total - before,
                "tokensAfter": self.total - self.saved,
                "keepToolTokens": budget.keep,
                "minFreeTokens": budget.min_free,
                "summarizer": "prune",
                "model": None,
                "usage": {"input": 0, "output": 0},
            }
        out = self.apply(messages)
        freed = max(0, self.saved - self.sent_saved)
        self.sent_saved = self.saved
        if report is not None:
            report["durationMs"] = round((time.perf_counter() - started) * 1000, 3)
        return out, freed, self.saved, report


__all__ = ["PRUNE_TYPE", "Budget", "PruneStage", "placeholder", "placeholder_text"]
