"""Streaming command output with bounded memory (pi's output accumulator).

Keeps a decoded rolling tail (about four times the byte limit) for the model, counts lines and
bytes of everything, and once the output passes the limits writes all raw bytes so far, and
every byte after, to a private temp file (:mod:`._bash_logs`) whose path goes into the
truncation notice.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass

from tether.builtin_plugins.tools._shared.truncate import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_LINES,
    Truncation,
    truncate_tail,
    utf8_len,
)


@dataclass
class OutputSnapshot:
    """The tail-truncated text and, when the output was too long, the full-output file."""

    content: str
    truncation: Truncation
    full_output_path: str | None


class OutputBuffer:
    """Accumulates raw output chunks; :meth:`snapshot` gives the model's view at any time."""

    def __init__(
        self,
        *,
        max_lines: int = DEFAULT_MAX_LINES,
        max_bytes: int = DEFAULT_MAX_BYTES,
        temp_prefix: str = "tether-bash",
    ) -> None:
        self.max_lines = max_lines
        self.max_bytes = max_bytes
        self._rolling = max(max_bytes * 2, 1)
        self._prefix = temp_prefix
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._raw_chunks: list[bytes] = []
        self._tail = ""
        self._tail_bytes = 0
        self._tail_at_line_start = True
        self.raw_bytes = 0
        self.decoded_bytes = 0
        self.total_lines = 1
        self.last_line_bytes = 0
        self.temp_path: str | None = None
        self._temp_file: object | None = None
        self._finished = False

    def append(self, data: bytes) -> None:
        self.raw_bytes += len(data)
        self._add_text(self._decoder.decode(data))
        if self._temp_file is not None or self._needs_file():
            self._open_file()
            self._temp_file.write(data)  # type: ignore[attr-defined]
        elif data:
            self._raw_chunks.append(data)

    def finish(self) -> None:
        """Flush the decoder; the temp file stays open until :meth:`close`."""
        if self._finished:
            return
        self._finished = True
        self._add_text(self._decoder.decode(b"", final=True))
        if self._needs_file():
            self._open_file()

    def close(self) -> None:
        if self._temp_file is not None:
            self._temp_file.close()  # type: ignore[attr-defined]
            self._temp_file = None

    def snapshot(self, *, persist_if_truncated: bool = True) -> OutputSnapshot:
        cut = truncate_tail(
            self._snapshot_text(), max_lines=self.max_lines, max_bytes=self.max_bytes
        )
        truncated = self.total_lines > self.max_lines or self.decoded_bytes > self.max_bytes
        by = None
        if truncated:
            by = cut.truncated_by or ("bytes" if self.decoded_bytes > self.max_bytes else "lines")
        cut.truncated = truncated
        cut.truncated_by = by
        cut.total_lines = self.total_lines
        cut.total_bytes = self.decoded_bytes
        if persist_if_truncated and truncated:
            self._open_file()
        return OutputSnapshot(cut.content, cut, self.temp_path)

    def _needs_file(self) -> bool:
        return (
            self.raw_bytes > self.max_bytes
            or self.decoded_bytes > self.max_bytes
            or self.total_lines > self.max_lines
        )

    def _open_file(self) -> None:
        if self.temp_path is not None:
            return
        from tether.builtin_plugins.tools.bash.logs import new_log_file

        self.temp_path, self._temp_file = new_log_file(self._prefix)
        for chunk in self._raw_chunks:
            self._temp_file.write(chunk)
        self._raw_chunks = []

    def _add_text(self, text: str) -> None:
        if not text:
            return
        size = utf8_len(text)
        self.decoded_bytes += size
        self._tail += text
        self._tail_bytes += size
        if self._tail_bytes > self._rolling * 2:
            self._trim_tail()
        newlines = text.count("\n")
        if newlines == 0:
            self.last_line_bytes += size
        else:
            self.total_lines += newlines
            self.last_line_bytes = utf8_len(text[text.rfind("\n") + 1 :])

    def _trim_tail(self) -> None:
        raw = self._tail.encode("utf-8", "surrogatepass")
        if len(raw) <= self._rolling:
            self._tail_bytes = len(raw)
            return
        start = len(raw) - self._rolling
        while start < len(raw) and (raw[start] & 0xC0) == 0x80:
            start += 1
        if start > 0:
            self._tail_at_line_start = raw[start - 1] == 0x0A
        self._tail = raw[start:].decode("utf-8", "surrogatepass")
        self._tail_bytes = utf8_len(self._tail)

    def _snapshot_text(self) -> str:
        if self._tail_at_line_start:
            return self._tail
        newline = self._tail.find("\n")
        return self._tail if newline == -1 else self._tail[newline + 1 :]


__all__ = ["OutputBuffer", "OutputSnapshot"]
