"""A summarizing "model" whose checkpoints are well formed but hold none of the session's facts.

:class:`FactFreeModel` answers every summarization request (a retry too) with a tidy checkpoint
in pi's sections, written in general terms: no goal, constraint, value or identifier of the
conversation. Whatever of the session's facts reaches the next context then got there through
the summary gate alone. :func:`start` serves it on a loopback OpenAI-compatible server (real
HTTP on 127.0.0.1) as provider ``blank``, model ``factfree-1``, adding it to ``models.json``.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.servers

from dropping_server import TURN_PREFIX_HEADING  # noqa: E402

from tests.servers import OpenAIServer, Reply  # noqa: E402
from tests.servers.base import request_texts  # noqa: E402

MODEL = "blank/factfree-1"
CHECKPOINT = """## Goal
- Continue the user's current software task in this repository.

## Constraints & Preferences
- Follow the conventions already used in the codebase.

## Progress
### Done
- [x] Worked through the earlier requests and tool runs

### In Progress
- [ ] The task the user asked for most recently

### Blocked
- (none)

## Key Decisions
- **Approach**: keep changes incremental and verified by the test suite

## Next Steps
1. Carry on from the latest request and re-run the tests.

## Critical Context
- The conversation covered code edits, test runs and the user's instructions."""
TURN_PREFIX = f"""{TURN_PREFIX_HEADING}
- Continue the work the user asked for

## Early Progress
- Some tool calls ran

## Context for Suffix
- The turn continues below"""


@dataclass
class FactFreeModel:
    """Answers each request with :data:`CHECKPOINT` (or :data:`TURN_PREFIX` for a split turn)."""

    answered: int = 0

    def __call__(self, body: Any) -> Reply:
        self.answered += 1
        instructions = request_texts(body).rsplit("</", 1)[-1]
        if TURN_PREFIX_HEADING in instructions:
            return Reply(text=TURN_PREFIX)
        return Reply(text=CHECKPOINT)


def start(home: Path) -> tuple[OpenAIServer, FactFreeModel]:
    """The server (started; ``stop()`` it); adds provider ``blank`` to ``home/models.json``."""
    server = OpenAIServer().start()
    model = FactFreeModel()
    server.responder = model
    entry = {"id": "factfree-1", "contextWindow": 128000, "maxTokens": 16384, "input": ["text"]}
    provider = {"baseUrl": server.base_url, "api": server.api, "models": [entry]}
    path = home / "models.json"
    home.mkdir(parents=True, exist_ok=True)
    data = json.loads(path.read_text("utf-8")) if path.is_file() else {"providers": {}}
    data["providers"]["blank"] = provider
    path.write_text(json.dumps(data), "utf-8")
    return server, model


__all__ = ["MODEL", "FactFreeModel", "start"]
