"""Error types that the command line turns into one clear line and a non-zero exit."""

from __future__ import annotations


class TetherError(Exception):
    """An error meant for the user: its message is one line naming what and where.

    ``exit_code`` is what the CLI exits with (1 by default, 2 for usage errors).
    """

    exit_code = 1

    def __init__(self, message: str, *, exit_code: int | None = None) -> None:
        super().__init__(message)
        if exit_code is not None:
            self.exit_code = exit_code


class UsageError(TetherError):
    """A command was called with arguments that cannot work."""

    exit_code = 2


class SessionFileError(TetherError):
    """A session file is missing, unreadable or damaged; the message names the file and line."""


class SessionBusyError(SessionFileError):
    """Another process holds the session's write lease (:mod:`tether.core.lease`)."""

    def __init__(self, message: str, holder: object = None) -> None:
        super().__init__(message)
        self.holder = holder


class SessionChangedError(SessionFileError):
    """The session file changed on disk since this process read it (another writer): the
    append was refused so that the session is not split."""


__all__ = [
    "SessionBusyError",
    "SessionChangedError",
    "SessionFileError",
    "TetherError",
    "UsageError",
]
