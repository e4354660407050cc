"""A store URI as the commands show or store it: without its password."""

from __future__ import annotations


def uri_without_password(uri: str) -> str:
    """``uri`` with no password at all (``user@host``), for what is shown or stored: a
    session header's ``parentSession``, ``session show``'s ``file``."""
    head, sep, rest = uri.partition("://")
    if not sep or "@" not in rest.split("/", 1)[0]:
        return uri
    creds, _, host = rest.partition("@")
    return f"{head}://{creds.split(':', 1)[0]}@{host}"


__all__ = ["uri_without_password"]
