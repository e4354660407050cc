"""``tether rpc``'s process: the harness, the server on stdin/stdout, signals.

The process ends at the end of stdin (0) or on SIGTERM (143) / SIGHUP (129), after aborting
the running turn and killing the processes of its tools and of ``bash``.
"""

from __future__ import annotations

import signal
import sys
from typing import Any

THINKING_SUFFIXES = ("off", "minimal", "low", "medium", "high", "xhigh")


def split_thinking(model: str | None, thinking: str | None) -> tuple[str | None, str | None]:
    """pi's ``--model provider/id:high``: the ``:<level>`` suffix is the thinking level."""
    if model and ":" in model:
        head, _, level = model.rpartition(":")
        if level in THINKING_SUFFIXES and head:
            return head, thinking or level
    return model, thinking


def scoped_models(harness: Any, patterns: str | None) -> list[Any]:
    """The models of ``--models a,b`` (``provider/id`` or an id), in the order given."""
    if not patterns:
        return []
    models = harness.registry.models()
    out = []
    for pattern in (p.strip() for p in patterns.split(",") if p.strip()):
        out += [m for m in models if pattern in (m.ref, m.id) and m not in out]
    return out


def serve(pm: Any, options: Any, models: str | None) -> int:
    """Run the RPC server on this process's stdin/stdout until EOF; the exit code."""
    from tether.core.cli.protocol_out import protocol_stdout

    with protocol_stdout() as protocol:  # stdout: the protocol alone (plugins print to stderr)
        return _serve(pm, options, models, protocol)


def _serve(pm: Any, options: Any, models: str | None, protocol: Any) -> int:
    from tether.builtin_plugins.commands.agent.setup import build_harness
    from tether.builtin_plugins.commands.rpc.server import RpcServer

    harness, reason = build_harness(pm, options)
    server = RpcServer(harness, protocol, scoped_models=scoped_models(harness, models))

    def stop(signum: int, frame: Any) -> None:
        harness.abort()
        server.bash.abort()
        raise SystemExit(128 + signum)

    previous = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        harness.start(reason)
        server.serve(sys.stdin.buffer)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        harness.close("quit")
    return 0


__all__ = ["scoped_models", "serve", "split_thinking"]
