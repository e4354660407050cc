"""What ``tether run`` / ``tether -p`` sends, as pi's print mode builds it.

- piped stdin (stdin not a terminal) is read to its end, trimmed, and merged into the first
  message; ``echo "prompt" | tether -p`` makes it the whole prompt. A message ``-`` is stdin
  in its place instead (tether's own form). An empty stdin is no input.
- ``@FILE`` arguments are inlined into the first message, each as
  ``<file name="/abs/path">`` … ``</file>``; a PNG, JPEG, GIF or WebP image is attached as an
  image when the model takes images (``input`` of its models.json entry), else left out with
  one warning. An empty file is skipped; a missing one is one error line.
- several messages are sent one after the other, each once the previous turn has ended.

The first message is stdin, then the files, then the first message argument (pi's order);
tether puts a blank line after stdin so that its last word and the prompt's first do not run
together (pi joins them with nothing).
"""

from __future__ import annotations

import base64
import os
import select
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from tether.builtin_plugins import file_error_line
from tether.cli import UsageError

#: How long stdin may stay silent before tether says it is waiting for it (seconds).
STDIN_NOTE_AFTER = 2.0

_IMAGE_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)


def image_type(head: bytes) -> str | None:
    """The mime type of an image pi attaches (PNG, JPEG, GIF, WebP) from its first bytes."""
    for magic, mime in _IMAGE_MAGIC:
        if head.startswith(magic):
            return mime
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    return None


@dataclass
class FileArg:
    """One ``@FILE``: the argument, its absolute path, and its text or its image bytes."""

    arg: str
    path: str
    text: str | None = None
    image: bytes | None = None
    mime: str | None = None


@dataclass
class Inputs:
    """The messages of one print-mode run, read before any session is opened."""

    messages: list[str]
    files: list[FileArg] = field(default_factory=list)
    stdin: str | None = None

    def turns(
        self, takes_images: bool, warn: Callable[[str], None]
    ) -> list[tuple[str, list[dict[str, Any]]]]:
        """``[(text, images), …]``: the first message merged with stdin and the files, then
        the other messages as they are."""
        images: list[dict[str, Any]] = []
        inlined = ""
        for file in self.files:
            if file.text is not None:
                inlined += f'<file name="{file.path}">\n{file.text}\n</file>\n'
                continue
            inlined += f'<file name="{file.path}"></file>\n'
            if takes_images:
                data = base64.b64encode(file.image or b"").decode("ascii")
                images.append({"type": "image", "data": data, "mimeType": file.mime})
            else:
                warn(f"@{file.arg}: the model takes no images; only the file's name is sent")
        rest = list(self.messages)
        first = rest.pop(0) if rest else ""
        lead = f"{self.stdin}\n\n" if self.stdin and (inlined or first) else (self.stdin or "")
        return [(lead + inlined + first, images), *((text, []) for text in rest)]


def read_file_arg(arg: str, cwd: str) -> FileArg | None:
    """``@arg`` read from disk (``None`` for an empty file); one :class:`UsageError` line
    when it is missing, a directory or unreadable."""
    path = os.path.abspath(os.path.join(cwd, os.path.expanduser(arg)))
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        raise UsageError(f"@{arg}: no such file ({path})") from None
    except OSError as exc:
        raise UsageError(file_error_line(f"@{arg}", exc, f"read {path}")) from None
    if not data:
        return None
    mime = image_type(data[:16])
    if mime is not None:
        return FileArg(arg, path, image=data, mime=mime)
    return FileArg(arg, path, text=data.decode("utf-8", errors="replace"))


def _wait_readable(stream: BinaryIO, note: Callable[[], None]) -> None:
    """Say once that tether waits for stdin when it stays silent (an open, idle pipe)."""
    try:
        ready, _, _ = select.select([stream], [], [], STDIN_NOTE_AFTER)
    except (OSError, ValueError, TypeError):  # not selectable: just read
        return
    if not ready:
        note()


def read_piped_stdin(stream: Any = None, *, note: Callable[[], None] | None = None) -> str | None:
    """All of stdin when it is not a terminal, trimmed (pi's rule); ``None`` when stdin is a
    terminal, closed or empty."""
    stream = sys.stdin if stream is None else stream
    if stream is None:
        return None
    try:
        if stream.closed or stream.isatty():
            return None
        raw = getattr(stream, "buffer", stream)
        if note is not None:
            _wait_readable(raw, note)
        data = raw.read()
    except (OSError, ValueError):
        return None
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    return text.strip() or None


def _waiting_note() -> None:
    sys.stderr.write(
        "tether: reading the prompt from stdin until it ends (run with '< /dev/null' to "
        "send only the arguments)\n"
    )
    sys.stderr.flush()


def read_inputs(
    args: Sequence[str], cwd: str | None = None, stdin: Any = None, *, read_stdin: bool = True
) -> Inputs:
    """The messages and ``@FILE`` arguments of ``args`` with piped stdin (``read_stdin``), read
    now. A message ``-`` is replaced by stdin (read whole, even from a terminal)."""
    cwd = cwd or os.getcwd()
    stream = sys.stdin if stdin is None else stdin
    messages: list[str] = []
    files: list[FileArg] = []
    dash = False
    for arg in args:
        if arg.startswith("@") and len(arg) > 1:
            found = read_file_arg(arg[1:], cwd)
            if found is not None:
                files.append(found)
        elif arg == "-" and read_stdin:
            dash = True
            messages.append(stream.read() if stream is not None else "")
        else:
            messages.append(arg)
    piped = None
    if read_stdin and not dash:
        piped = read_piped_stdin(stream, note=_waiting_note if args else None)
    inputs = Inputs(messages, files, piped)
    if read_stdin and not inputs.messages and not inputs.files and inputs.stdin is None:
        raise UsageError('no prompt: give one (tether -p "PROMPT"), @FILE, or pipe it on stdin')
    return inputs


__all__ = ["FileArg", "Inputs", "image_type", "read_file_arg", "read_inputs", "read_piped_stdin"]
