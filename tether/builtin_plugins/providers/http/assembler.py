"""The base of the HTTP adapters' answer builders, with the end-of-stream check they share."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tether.builtin_plugins.providers.http.sse import SseEvent
from tether.builtin_plugins.providers.messages import finish_usage, new_assistant_message
from tether.providers import LlmContext, Model, PermanentError, StreamEvent, TransientError


class Assembler:
    """Builds the assistant message from one API's events (subclass per API)."""

    def __init__(self, model: Model, context: LlmContext) -> None:
        self.model = model
        self.context = context
        self.message = new_assistant_message(model)

    def feed(self, event: SseEvent) -> Iterator[StreamEvent]:  # pragma: no cover - abstract
        raise NotImplementedError

    def parse_body(self, data: dict[str, Any]) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    # What the transient error says when the stream stops before the API's end marker.
    incomplete = "stream ended before the response was complete"

    def finish(self, *, failed: bool = False) -> None:
        """Finalize blocks and usage; unless ``failed``, raise if the answer is incomplete.

        The end-of-stream check both HTTP adapters share: an unfinished stream is transient
        (retried), an answer whose stop reason is ``"error"`` raises :meth:`stop_error`.
        """
        self.finish_blocks()
        finish_usage(self.model, self.message["usage"])
        if failed:
            return
        if not self.complete():
            raise TransientError(self.incomplete)
        if self.message["stopReason"] == "error":
            raise self.stop_error(self.message.get("errorMessage", "provider error"))

    def finish_blocks(self) -> None:
        """Settle the blocks still being streamed (e.g. parse tool-call arguments)."""

    def complete(self) -> bool:  # pragma: no cover - abstract
        """Whether the API's end-of-answer marker arrived."""
        raise NotImplementedError

    def stop_error(self, text: str) -> Exception:
        """The error for an answer that stopped with ``stopReason: "error"``."""
        return PermanentError(text)
