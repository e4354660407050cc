"""In RPC mode, standard output carries protocol lines only.

:func:`reserve_stdout` moves the process's standard output to a private descriptor for the
protocol writer, then points descriptor 1 at standard error and ``sys.stdout`` at
``sys.stderr``. Whatever a plugin prints (at import, while registering, in any hook), writes
with ``os.write(1, …)``, or lets a subprocess inherit, reaches stderr. The CLI reserves it
before plugins are imported (``tether rpc``, ``tether --mode rpc``); :func:`protocol_stdout`
hands the reserved stream to the RPC server.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

_reserved: list[TextIO] = []


def reserve_stdout() -> Callable[[], None]:
    """Keep standard output for the protocol (see the module doc); returns what undoes it.

    Where ``sys.stdout`` is not descriptor 1 (an in-process caller capturing output), only
    ``sys.stdout`` is swapped."""
    original = sys.stdout
    original.flush()
    try:
        if original.fileno() != 1:
            raise OSError("not descriptor 1")
        saved = os.dup(1)  # not inherited by subprocesses
    except (OSError, ValueError, AttributeError):  # io.UnsupportedOperation is an OSError
        _reserved.append(original)
        sys.stdout = sys.stderr
        return _undo(original, None)
    try:
        os.dup2(2, 1)
    except OSError:  # no descriptor 2: keep 1 as it was, the Python-level swap still holds
        os.close(saved)
        _reserved.append(original)
        sys.stdout = sys.stderr
        return _undo(original, None)
    stream = io.TextIOWrapper(
        io.FileIO(saved, "w"),
        encoding=getattr(original, "encoding", None) or "utf-8",
        errors=getattr(original, "errors", None) or "strict",
    )
    _reserved.append(stream)
    sys.stdout = sys.stderr
    return _undo(original, stream)


def _undo(original: TextIO, stream: TextIO | None) -> Callable[[], None]:
    def undo() -> None:
        if stream is not None:
            try:
                stream.flush()
            except (OSError, ValueError):  # the reader went away
                pass
            sys.stderr.flush()
            os.dup2(stream.fileno(), 1)
            try:
                stream.close()
            except (OSError, ValueError):
                pass
        if _reserved:
            _reserved.pop()
        sys.stdout = original

    return undo


@contextmanager
def protocol_stdout() -> Iterator[TextIO]:
    """The stream kept for the protocol: the one reserved already, else one reserved now
    (and given back at the end)."""
    if _reserved:
        yield _reserved[-1]
        return
    undo = reserve_stdout()
    try:
        yield _reserved[-1]
    finally:
        undo()


__all__ = ["protocol_stdout", "reserve_stdout"]
