"""Built-in plugin `http_client`: the default ``httpx.Client`` for every purpose.

Answers the ``http_client(purpose)`` hook last (``trylast``), so a plugin that returns its own
client (a proxy, custom TLS, a test transport) always wins. Timeouts suit LLM streaming: a
quick connect, a long read (thinking models can be silent for minutes).
"""

from __future__ import annotations

from typing import Any

from tether.hookspecs import hookimpl

CONNECT_TIMEOUT = 15.0
READ_TIMEOUT = 300.0
WRITE_TIMEOUT = 60.0
POOL_TIMEOUT = 30.0


def new_client(**kwargs: Any) -> Any:
    """A fresh ``httpx.Client`` with tether's default timeouts (``kwargs`` override)."""
    import httpx

    from tether import __version__ as version

    kwargs.setdefault(
        "timeout",
        httpx.Timeout(
            connect=CONNECT_TIMEOUT, read=READ_TIMEOUT, write=WRITE_TIMEOUT, pool=POOL_TIMEOUT
        ),
    )
    kwargs.setdefault("headers", {"user-agent": f"tether/{version}"})
    return httpx.Client(**kwargs)


@hookimpl(trylast=True)
def http_client(purpose: str) -> Any:
    """The default client; ``purpose`` (e.g. ``"provider:openai-completions"``) is ignored."""
    return new_client()
