"""The RPC ``prompt``, ``steer`` and ``follow_up`` commands.

A prompt while idle runs in a worker thread; its success response is written just before the
run's first ``agent_start`` (or when a plugin handled the prompt), its error response if it
fails before that. A prompt that comes after the previous run's ``agent_end`` but before the
checks after it are done (retry, compaction) waits for them. A prompt while the agent runs
needs ``streamingBehavior`` (``steer`` or ``followUp``) and is queued; ``steer`` and
``follow_up`` always queue. Every queue change is announced with ``queue_update``
(:class:`.server.QueueTracker`).
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Any

from tether.builtin_plugins.commands.rpc.responses import failure, success

RpcServer = Any  # tether.builtin_plugins.commands.rpc.server.RpcServer (not imported: no loop)

#: How long a prompt's run waits for the reader to handle the lines written with it. The wait
#: ends as soon as nothing more is readable, or at once when the reader waits for this run (a
#: session command, :meth:`.server.RpcServer.settle`). Past the bound it goes on only for the
#: line the reader holds then (megabytes of JSON parsed on a loaded machine), never for a
#: stream of new lines or for a writer stalled mid-line.
CATCH_UP_SECONDS = 3.0
_POLL_SECONDS = 0.02
BUSY = (
    "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue "
    "the message."
)


def expand_skill(text: str, cwd: str) -> str:
    """pi's ``/skill:NAME [args]``: the skill's body in a ``<skill>`` block, then the args."""
    if not text.lstrip().startswith("/skill:"):
        return text
    from tether.builtin_plugins.prompt.skill_loader import expand_skill_command, load_skills
    from tether.providers import tether_home

    return expand_skill_command(text, load_skills(cwd, tether_home()))


def message_of(command: dict[str, Any], cwd: str = ".") -> tuple[str, list[dict[str, Any]]]:
    """The text (``/skill:`` expanded) and images of a prompt-like command (checked)."""
    text = command.get("message")
    if not isinstance(text, str):
        raise ValueError("message must be a string")
    images = command.get("images") or []
    if not isinstance(images, list) or not all(
        isinstance(i, dict) and i.get("type") == "image" and isinstance(i.get("data"), str)
        for i in images
    ):
        raise ValueError("images must be a list of {type: 'image', data, mimeType}")
    return expand_skill(text, cwd), images


def enqueue(server: RpcServer, kind: str, command: dict[str, Any]) -> None:
    """Queue a steering (``steer``) or follow-up (``followUp``) message."""
    text, images = message_of(command, server.harness.cwd)
    agent = server.harness.agent
    (agent.steer if kind == "steer" else agent.follow_up)(text, images or None)
    server.queues.add(kind, text)


def steer(server: RpcServer, command: dict[str, Any]) -> Any:
    enqueue(server, "steer", command)
    return ...


def follow_up(server: RpcServer, command: dict[str, Any]) -> Any:
    enqueue(server, "followUp", command)
    return ...


def start_prompt(server: RpcServer, command: dict[str, Any]) -> None:
    """Queue the prompt, or start its run in a worker thread (see module doc)."""
    cid = command.get("id")
    try:
        text, images = message_of(command, server.harness.cwd)
    except ValueError as exc:
        server.output.write(failure(cid, "prompt", str(exc)))
        return
    with server.lock:  # claimed here, on the reader thread: prompts run in the order sent
        busy = server.streaming.is_set() and (server.in_run.is_set() or server.prompt_pending)
        claimed = not server.streaming.is_set()
        if claimed:
            server.streaming.set()
            server.prompt_pending = True  # accepted, its run not started yet: a busy agent
    if busy:
        behavior = command.get("streamingBehavior")
        if behavior not in ("steer", "followUp"):
            server.output.write(failure(cid, "prompt", BUSY))
            return
        enqueue(server, behavior, {**command, "message": text})
        server.output.write(success(cid, "prompt"))
        return
    server.spawn(lambda: _run(server, cid, text, images, claimed))


def _claim(server: RpcServer) -> None:
    """Wait until the previous prompt has finished (its agent already ended: only the checks
    after its run are left), then mark this one as streaming."""
    while True:
        with server.lock:
            if not server.streaming.is_set():
                server.streaming.set()
                return
        server.idle.wait(0.05)


def _catch_up(server: RpcServer) -> None:
    """Wait until the reader has handled the lines written so far (see :data:`CATCH_UP_SECONDS`)."""
    deadline = time.monotonic() + CATCH_UP_SECONDS
    held = None  # past the bound: the line the reader held then
    while not server.caught_up.wait(_POLL_SECONDS):
        if server.settling:
            return  # the reader waits for this run to start
        if time.monotonic() < deadline:
            continue
        if held is None:
            held = server.lines_read
        if not server.handling or server.lines_read != held:
            server.caught_up.wait(_POLL_SECONDS)  # the lines right behind it, if there
            return


def _run(
    server: RpcServer, cid: Any, text: str, images: list[dict[str, Any]], claimed: bool
) -> None:
    harness = server.harness
    responded = threading.Event()

    def respond() -> None:
        server.prompt_pending = False  # its run starts (or a plugin handled it)
        if not responded.is_set():
            responded.set()
            server.output.write(success(cid, "prompt"))

    if not claimed:
        _claim(server)
    # lines written together with this prompt (a followUp, a steer) are read first, as pi
    # reads a whole chunk before the run goes on
    _catch_up(server)
    server.before_start = respond
    try:
        server.flush_bash()
        harness.prompt(text, images, source="rpc")
    except Exception as exc:  # noqa: BLE001 - reported, the server goes on
        if responded.is_set():
            _stderr(f"tether: error: {exc}")
        else:
            responded.set()
            server.output.write(failure(cid, "prompt", str(exc) or type(exc).__name__))
    finally:
        server.before_start = None
        respond()  # handled by a plugin: accepted without a run
        with server.lock:
            server.prompt_pending = False
            server.streaming.clear()
        try:
            server.flush_bash()
        except Exception as exc:  # noqa: BLE001 - e.g. the session cannot be written
            _stderr(f"tether: error: {exc}")
        server.idle.set()
        server.idle.clear()


def _stderr(line: str) -> None:
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


__all__ = ["BUSY", "enqueue", "follow_up", "message_of", "start_prompt", "steer"]
