"""Error types: the ones the command line turns into one clear line and a non-zero exit, and
the typed failures of a model call (:class:`ProviderError`) that retry and overflow decide on."""

from __future__ import annotations

from typing import Literal


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


class SessionWriteError(SessionFileError):
    """A finished message could not be appended to the session file (deleted, full disk, a
    path the filesystem refuses…). ``unsaved`` holds the messages that are not in the file,
    so the caller can still show them; the message reads ``FILE: cannot save the session: …``.
    """

    def __init__(self, path: object, detail: str, unsaved: list[dict] | None = None) -> None:
        prefix = f"{path}: "
        detail = detail[len(prefix) :] if detail.startswith(prefix) else detail
        detail = detail.removeprefix("cannot save the session: ")  # said once
        super().__init__(f"{path}: cannot save the session: {detail}")
        self.path = path
        self.unsaved: list[dict] = list(unsaved or [])


class SessionBusyError(SessionFileError):
    """Another process holds the session's write lease
    (:mod:`tether.builtin_plugins.storage.jsonl.files.lease`)."""

    def __init__(self, message: str, holder: object = None) -> None:
        super().__init__(message)
        self.holder = holder


class SessionChangedError(SessionFileError):
    """The session file changed on disk since this process read it (another writer): the
    append was refused so that the session is not split."""


class NoAgentError(TetherError):
    """A plugin asked the session to act (send a message, append an entry…) where no agent
    runs, e.g. in ``tether session compact``; ``action`` names what was asked."""

    def __init__(self, action: str) -> None:
        super().__init__(
            f"session.{action}() needs a running agent (tether chat/run); none runs here "
            "(tether session … commands run none)"
        )
        self.action = action


class HookError(TetherError):
    """A plugin's hook implementation failed, returned the wrong type or ran too long;
    ``plugin`` and ``hook`` name it."""

    def __init__(self, plugin: str | None, hook: str, detail: str, prefix: str = "") -> None:
        who = f"plugin '{plugin}'" if plugin else "a plugin"
        self.reason = f"{who} failed in {hook}: {detail}"
        super().__init__(f"{prefix}: {self.reason}" if prefix else self.reason)
        self.plugin = plugin
        self.hook = hook
        self.detail = detail
        self.prefix = prefix

    def prefixed(self, prefix: str) -> HookError:
        """The same failure, said as what did not happen (``prefix``) then why."""
        if self.prefix or not prefix:
            return self
        return type(self)(self.plugin, self.hook, self.detail, prefix)


class HookInterrupted(HookError):
    """A hook call was interrupted (Ctrl-C) while an agent ran: the turn is aborted."""

    exit_code = 130


class HookStillRunning(HookError):
    """The plugin has not returned from an earlier call of this hook (it passed the time
    limit or was interrupted): it is not called again until that call ends."""


class ProviderError(Exception):
    """A failed model call. ``status`` is the HTTP status when there was one; ``retry_after``
    is the server's ``Retry-After`` in seconds."""

    kind: Literal["overflow", "transient", "permanent", "aborted", "config"] = "permanent"

    def __init__(
        self, message: str, *, status: int | None = None, retry_after: float | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after

    @property
    def retryable(self) -> bool:
        return self.kind == "transient"


class ContextOverflowError(ProviderError):
    """The request did not fit the model's context window: compact and retry once."""

    kind = "overflow"


class TransientError(ProviderError):
    """Worth retrying: HTTP 408/409/429/5xx, connection errors, timeouts, streams cut short."""

    kind = "transient"


class PermanentError(ProviderError):
    """Retrying will not help: bad request, auth, unknown model, refusals."""

    kind = "permanent"


class AbortedError(ProviderError):
    """The caller aborted the call (``AbortSignal``)."""

    kind = "aborted"


class ProviderConfigError(ProviderError, TetherError):
    """No provider, model or key configured: the message says what to set, in one line.

    Also a :class:`TetherError`, so the CLI prints it as one ``tether: error:`` line.
    """

    kind = "config"


__all__ = [
    "AbortedError",
    "ContextOverflowError",
    "HookError",
    "HookInterrupted",
    "HookStillRunning",
    "NoAgentError",
    "PermanentError",
    "ProviderConfigError",
    "ProviderError",
    "SessionBusyError",
    "SessionChangedError",
    "SessionFileError",
    "SessionWriteError",
    "TetherError",
    "TransientError",
    "UsageError",
]
