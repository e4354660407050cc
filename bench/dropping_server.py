"""A summarizing "model" that drops facts on purpose, behind a loopback OpenAI-compatible server.

:class:`DroppingModel` answers each summarization request of tether's ``llm`` summarizer with a
checkpoint in pi's sections holding every known fact (``bench/fidelity_sessions.py``) that its
request shows (in the conversation, the previous summary or a retry note; the exact command
lines too, never dropped) — except what it
drops on purpose, in turn: a constraint, the decisions, the error, the next step, the files,
the goal; or it answers with a tool call, or a reply cut at the output limit; every ninth
answer is faithful. A retry (its instructions name what was missing) is answered faithfully
for half the modes and with the same fault for the others, so the gate's retry, its
carried-forward block and its offline fallback all run.

:func:`start` serves it with ``tests/servers``' OpenAI-compatible server (real HTTP on
127.0.0.1) and writes a ``models.json`` naming it as provider ``loop``, model ``dropper-1``.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.servers

from tests.servers import OpenAIServer, Reply, ToolCall  # noqa: E402
from tests.servers.base import request_texts  # noqa: E402

MODES = (
    "drop_constraint",
    "drop_decisions",
    "drop_error",
    "drop_next_step",
    "drop_files",
    "drop_goal",
    "tool_call",
    "length",
    "faithful",
)
STUBBORN = {"drop_decisions", "drop_next_step", "drop_goal", "tool_call"}  # fault again on retry
RETRY_MARKERS = ("Your previous summary", "Your previous answer was not a summary")
MODEL = "loop/dropper-1"
TURN_PREFIX_HEADING = "## Original Request"


@dataclass
class DroppingModel:
    """Writes checkpoints from the facts of ``kinds`` a request shows, dropping some on purpose."""

    kinds: list[Any]
    answered: int = 0
    log: list[str] = field(default_factory=list)  # the mode of every answer

    def _mode(self, retry: bool) -> str:
        first = MODES[(self.answered - (1 if retry else 0)) % len(MODES)]
        mode = "faithful" if retry and first not in STUBBORN else first
        if not retry:
            self.answered += 1
        self.log.append(mode)
        return mode

    def __call__(self, body: Any) -> Reply:
        text = request_texts(body)
        instructions = text.rsplit("</", 1)[-1]  # after the conversation / previous summary
        if TURN_PREFIX_HEADING in instructions:  # a split turn's prefix: answered faithfully
            return Reply(text=self.turn_prefix(text))
        retry = any(marker in text for marker in RETRY_MARKERS)
        mode = self._mode(retry)
        if mode == "tool_call":
            return Reply(
                text="Step 1: reading the files.", tool_calls=[ToolCall("read", {"path": "a.py"})]
            )
        summary = self.checkpoint(text, mode)
        if mode == "length":
            return Reply(text=summary[: len(summary) // 2], stop="length")
        return Reply(text=summary)

    def _facts(self, seen: str) -> dict[str, list[str]]:
        facts: dict[str, list[str]] = {}
        for kind in self.kinds:
            for category, items in kind.facts().items():
                facts.setdefault(category, []).extend(i for i in items if i in seen)
        return facts

    def commands(self, seen: str) -> str:
        """The exact command lines ``seen`` shows (an identifier the user stated: never
        dropped, so a faithful retry holds everything)."""
        ran = [f"- Ran `{k.command}`" for k in self.kinds if k.command and k.command in seen]
        return "\n".join(ran) or "- (none)"

    def turn_prefix(self, seen: str) -> str:
        """pi's three turn-prefix sections with the facts the prefix shows."""
        shown = [
            i for items in self._facts(seen.split("</conversation>")[0]).values() for i in items
        ]
        lines = "\n".join(f"- {i}" for i in shown) or "- (none)"
        sections = f"## Early Progress\n{lines}\n\n## Context for Suffix\n- (none)"
        return f"{TURN_PREFIX_HEADING}\n- Continue the work\n\n{sections}"

    def checkpoint(self, seen: str, mode: str) -> str:
        """pi's sections with every fact ``seen`` shows, minus what ``mode`` drops."""
        facts = self._facts(seen)
        if mode == "drop_constraint":
            facts["constraints"] = facts.get("constraints", [])[1:]
        dropped = {
            "drop_decisions": "decisions",
            "drop_error": "error",
            "drop_next_step": "next_step",
        }
        dropped |= {"drop_files": "files", "drop_goal": "goal"}
        if mode in dropped:
            facts[dropped[mode]] = []

        def items(category: str, prefix: str = "- ") -> str:
            return "\n".join(f"{prefix}{i}" for i in facts.get(category, [])) or "- (none)"

        return (
            f"## Goal\n{items('goal')}\n\n## Constraints & Preferences\n{items('constraints')}\n\n"
            f"## Progress\n### Done\n{items('files', '- [x] Changed ')}\n\n### In Progress\n"
            f"- [ ] Progress checks\n\n### Blocked\n{items('error')}\n\n"
            f"## Key Decisions\n{items('decisions')}\n\n## Next Steps\n{items('next_step', '1. ')}"
            f"\n\n## Critical Context\n{self.commands(seen)}"
        )


def start(kinds: list[Any], home: Path) -> tuple[OpenAIServer, DroppingModel]:
    """The server (started; ``stop()`` it) answering with a :class:`DroppingModel`; writes
    ``home/models.json`` for the provider ``loop``."""
    server = OpenAIServer().start()
    model = DroppingModel(list(kinds))
    server.responder = model
    entry = {"id": "dropper-1", "contextWindow": 128000, "maxTokens": 16384, "input": ["text"]}
    provider = {"baseUrl": server.base_url, "api": server.api, "models": [entry]}
    home.mkdir(parents=True, exist_ok=True)
    (home / "models.json").write_text(json.dumps({"providers": {"loop": provider}}), "utf-8")
    return server, model


__all__ = ["MODEL", "MODES", "DroppingModel", "start"]
