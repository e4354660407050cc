"""Parsing streamed provider output: server-sent events and incomplete JSON arguments."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any


@dataclass
class SseEvent:
    event: str
    data: str


@dataclass
class SseParser:
    event: str = ""
    data: list[str] = field(default_factory=list)

    def line(self, line: str) -> SseEvent | None:
        if line == "":
            return self.flush()
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "event":
            self.event = value
        elif name == "data":
            self.data.append(value)
        return None

    def flush(self) -> SseEvent | None:
        if not self.event and not self.data:
            return None
        out = SseEvent(self.event or "message", "\n".join(self.data))
        self.event, self.data = "", []
        return out


def is_keepalive(event: SseEvent) -> bool:
    """A keep-alive event (Anthropic's ``ping``), not data. Comment lines and blank lines
    never become events."""
    return event.event == "ping" or event.data.strip() in ('{"type": "ping"}', '{"type":"ping"}')


def iter_sse(lines: Iterable[str]) -> Iterator[SseEvent]:
    """Server-sent events from text lines (without line endings)."""
    parser = SseParser()
    for line in lines:
        event = parser.line(line)
        if event is not None:
            yield event
    event = parser.flush()
    if event is not None:
        yield event


def parse_partial_json(text: str) -> dict[str, Any]:
    """Arguments from (possibly incomplete) streamed JSON; ``{}`` when nothing parses."""
    text = text.strip()
    if not text:
        return {}
    for candidate in (text, _close_json(text), _close_json(_trim_to_boundary(text))):
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        return value if isinstance(value, dict) else {}
    return {}


def _scan(text: str) -> tuple[list[str], bool]:
    stack: list[str] = []
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]" and stack:
            stack.pop()
    return stack, in_string


def _close_json(text: str) -> str:
    stack, in_string = _scan(text)
    if in_string:
        text = (text[:-1] if text.endswith("\\") else text) + '"'
    return text + "".join(reversed(stack))


def _trim_to_boundary(text: str) -> str:
    """Drop a trailing incomplete key/value: cut at the last ``,`` (or keep an open ``{``)."""
    cut = max(text.rfind(","), text.rfind("{") + 1, text.rfind("[") + 1)
    return text[:cut].rstrip(",") if cut > 0 else text
