"""What a store says when it fails, and how a store URI is named in messages (as the
commands show or store one: ``tether.storage.uri_without_password``)."""

from __future__ import annotations

from tether.core.base.errors import SessionFileError

REOPEN = "not appending, so the session is not split; reopen the session to continue"


class StoreError(SessionFileError):
    """A store failed: bad URI, unreachable server, refused login, other schema."""


class StoreConnectionError(StoreError):
    """The connection to the database broke (a restart, a network failure): the outcome of an
    append in flight is unknown until the store reconnects and looks."""


def describe_uri(uri: str) -> str:
    """``uri`` without its password, for messages (``user:***@host``)."""
    head, sep, rest = uri.partition("://")
    if not sep or "@" not in rest.split("/", 1)[0]:
        return uri
    creds, _, host = rest.partition("@")
    user = creds.split(":", 1)[0]
    return f"{head}://{user}{':***' if ':' in creds else ''}@{host}"


__all__ = [
    "REOPEN",
    "StoreConnectionError",
    "StoreError",
    "describe_uri",
]
