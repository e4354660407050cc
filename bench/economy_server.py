"""The loopback model of ``bench/economy.py``: an OpenAI-compatible server that logs every
request and reports usage.

Turn requests (they offer tools) are answered from directives in the last user message:
``@tool NAME {json}`` lines are one tool call each, in order (step k is answered when k
assistant messages follow that user message), then ``@reply TEXT``. A request without tools is
a summarization request (pi's or tether's): its answer is a fixed summary that keeps, verbatim,
every line of the request with ``FACT-`` in it (a summarizer that keeps the key facts; the
same for both sides). ``prompt_tokens`` is the request's messages and tools as JSON, / 4.
Streaming (SSE, usage in the last chunk) and plain JSON answers are both served.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

FACT = re.compile(r"[^\n]*FACT-\d+[^\n]*")


def text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "\n".join(
        p.get("text", "") for p in content or [] if isinstance(p, dict) and p.get("type") == "text"
    )


@dataclass
class Logged:
    kind: str  # "turn" or "summary"
    messages: list[dict[str, Any]]
    prompt_tokens: int


@dataclass
class Model:
    log: list[Logged] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(self, body: dict[str, Any]) -> tuple[str, list[dict[str, Any]], int]:
        """``(text, tool calls, prompt tokens)`` for one request (logged)."""
        messages = body.get("messages") or []
        tokens = max(1, len(json.dumps([messages, body.get("tools") or []])) // 4)
        kind = "turn" if body.get("tools") else "summary"
        with self.lock:
            self.log.append(Logged(kind, messages, tokens))
            n = len(self.log)
        if kind == "summary":
            return summary(messages), [], tokens
        last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
        prompt = text_of(messages[last_user].get("content")) if last_user >= 0 else ""
        steps = [line[6:].strip() for line in prompt.split("\n") if line.startswith("@tool ")]
        done = sum(1 for m in messages[last_user + 1 :] if m.get("role") == "assistant")
        if done < len(steps):
            name, _, args = steps[done].partition(" ")
            call = {"id": f"call_{n:05d}", "type": "function"}
            call["function"] = {"name": name, "arguments": args or "{}"}
            return f"Step {done + 1}: {name}.", [call], tokens
        reply = next((line[7:] for line in prompt.split("\n") if line.startswith("@reply ")), "")
        return reply or "Done.", [], tokens


def summary(messages: list[dict[str, Any]]) -> str:
    """A summary that keeps every ``FACT-`` line it was shown (each once, in order)."""
    seen: dict[str, None] = {}
    for message in messages:
        for line in FACT.findall(text_of(message.get("content"))):
            seen.setdefault(line.strip(), None)
    facts = "\n".join(f"- {line}" for line in seen) or "- (none)"
    return (
        "## Goal\nWork through the scripted maintenance session.\n\n"
        f"## Constraints & Preferences\n{facts}\n\n## Progress\n### Done\n- [x] earlier turns\n\n"
        "## Next Steps\n1. continue"
    )


class Server:
    """The model on ``127.0.0.1`` (a thread); :attr:`model` holds the log."""

    def __init__(self) -> None:
        self.model = Model()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self.model))
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def reset(self) -> None:
        self.model = self.httpd.RequestHandlerClass.model = Model()  # type: ignore[attr-defined]

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _handler(model: Model) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            size = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(size) or b"{}")
            text, calls, tokens = type(self).model.answer(body)  # type: ignore[attr-defined]
            out = max(1, (len(text) + len(json.dumps(calls))) // 4)
            usage = {"prompt_tokens": tokens, "completion_tokens": out}
            usage["total_tokens"] = tokens + out
            finish = "tool_calls" if calls else "stop"
            if not body.get("stream"):
                message: dict[str, Any] = {"role": "assistant", "content": text}
                if calls:
                    message["tool_calls"] = calls
                choice = {"index": 0, "message": message, "finish_reason": finish}
                data = {"id": "x", "object": "chat.completion", "choices": [choice]}
                self._send("application/json", json.dumps({**data, "usage": usage}).encode())
                return
            chunks = [{"role": "assistant", "content": text}]
            chunks += [{"tool_calls": [{"index": i, **c}]} for i, c in enumerate(calls)]
            events = [
                {"choices": [{"index": 0, "delta": d, "finish_reason": None}]} for d in chunks
            ]
            events.append({"choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
            events.append({"choices": [], "usage": usage})
            stream = b"".join(b"data: " + json.dumps(e).encode() + b"\n\n" for e in events)
            self._send("text/event-stream", stream + b"data: [DONE]\n\n")

        def _send(self, kind: str, payload: bytes) -> None:
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    Handler.model = model  # type: ignore[attr-defined]
    return Handler


__all__ = ["Logged", "Model", "Server", "summary", "text_of"]
