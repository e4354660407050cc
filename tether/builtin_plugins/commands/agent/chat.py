"""The interactive ``tether chat`` loop and its slash commands.

A plain ``input()`` loop: each line is a prompt (streamed answer on stdout) or a command::

    /tree [--full]    show the tree;  /tree ID [--summarize [TEXT]]  move to ID (summarizing)
    /fork ID    /clone    /compact [TEXT]    /name [NAME]    /label ID [TEXT]
    /pin TEXT|ID    /unpin PIN_ID    /pins
    /resume    /new    /model [REF]    /session    /help    /quit

Ctrl-C while the agent works aborts the turn (the session stays valid); at the prompt it only
clears the line — ``/quit`` or Ctrl-D leaves.
"""

from __future__ import annotations

import re
import shlex
import signal
import sys
from collections.abc import Callable
from typing import Any

from tether import TetherError
from tether.builtin_plugins.commands import SessionOptions
from tether.builtin_plugins.commands.agent.output import (
    ChatPrinter,
    run_interruptibly,
    stop_message,
)
from tether.builtin_plugins.commands.agent.setup import build_harness, pick_from_list

#: A single word shaped like an entry id (pi's 8 hex digits, or a prefix of one): ``/pin`` of
#: such a word that names no entry is a typo, not a fact to pin.
_ID_LIKE = re.compile(r"[0-9a-f]{4,8}")

TREE_LIMIT = 400  # lines of /tree; `tether session tree FILE` shows all

HELP = """commands:
  /tree [--full]    the tree (> active path, * leaf; --full: no folded runs)
  /tree ID [--summarize [TEXT]]  move the leaf to ID (summarizing the branch left)
  /fork ID          new session up to the user message ID (its text is shown to resend)
  /clone            new session with the current branch
  /compact [TEXT]   summarize older history now (TEXT: what to focus on)
  /name [NAME]      show or set the session name
  /label ID [TEXT]  label an entry (no TEXT: clear)
  /pin TEXT|ID      keep TEXT (or entry ID's text) verbatim in every later summary;
                    /pin --text WORD pins a word that looks like an id
  /unpin PIN_ID     drop a pin (an id or its unique prefix)
  /pins             the pins in force
  /resume           switch to another session of this project
  /new              start a new session
  /model [REF]      show models, or switch to provider/model
  /session          file, leaf, model, context size
  /quit             leave (Ctrl-D too)"""


class Chat:
    """One interactive session: reads lines, runs prompts and commands."""

    def __init__(
        self,
        harness: Any,
        *,
        ask: Callable[[str], str] = input,
        out: Any = None,
        err: Any = None,
    ) -> None:
        self.harness = harness
        self.ask = ask
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.printer = ChatPrinter(self.out, self.err)
        harness.subscribe(self.printer)
        self.commands: dict[str, Callable[[list[str]], bool | None]] = {
            "tree": self.cmd_tree,
            "fork": self.cmd_fork,
            "clone": self.cmd_clone,
            "compact": self.cmd_compact,
            "name": self.cmd_name,
            "label": self.cmd_label,
            "pin": self.cmd_pin,
            "unpin": self.cmd_unpin,
            "pins": self.cmd_pins,
            "resume": self.cmd_resume,
            "new": self.cmd_new,
            "model": self.cmd_model,
            "session": self.cmd_session,
            "help": self.cmd_help,
            "quit": lambda _args: True,
            "exit": lambda _args: True,
        }

    def say(self, text: str) -> None:
        self.err.write(text + "\n")
        self.err.flush()

    # -- the loop --------------------------------------------------------------------------------

    def loop(self, first_prompt: str | list[tuple[str, list[Any]]] | None = None) -> None:
        """Run the first prompts (a text, or ``(text, images)`` pairs sent in turn), then read
        lines until ``/quit`` or the end of stdin."""
        h = self.harness
        where = _where(h.session) if h.session.store else "(not saved: --no-session)"
        self.say(
            f"tether chat · {h.model.ref} (thinking {h.thinking_level}) · {where}\n"
            "type /help for commands, /quit to leave; Ctrl-C aborts a running turn"
        )
        firsts = [(first_prompt, [])] if isinstance(first_prompt, str) else first_prompt or []
        for text, images in firsts:
            if text or images:
                self.submit(text, images)
        tty = sys.stdin.isatty()
        while True:
            try:
                line = self.ask("> " if tty else "")
            except EOFError:
                break
            except KeyboardInterrupt:
                self.say("^C (type /quit to leave)")
                continue
            if not line.strip():
                continue
            if line.lstrip().startswith("/"):
                if self.command(line.strip()):
                    break
                continue
            self.submit(line)

    def submit(self, text: str, images: list[Any] | None = None) -> None:
        try:
            result, signum = run_interruptibly(
                lambda: self.harness.prompt(text, images or None), self.harness.abort
            )
        except TetherError as exc:
            self.say(f"error: {exc}")
            return
        except Exception as exc:  # keep the chat alive; the session is already saved
            self.say(f"error: {type(exc).__name__}: {exc}")
            return
        _leave_on_termination(signum)
        if result is not None and result.handled:
            self.say("(handled by a plugin)")
        elif result is not None and result.stop_reason == "error" and result.failure is not None:
            # the agent failed before a reply (e.g. a context hook raised): no message_end said it
            failure = result.failure
            self.say(f"error: {failure if isinstance(failure, TetherError) else result.error}")

    def command(self, line: str) -> bool:
        """Run a slash command; True means quit."""
        name, _, rest = line[1:].partition(" ")
        handler = self.commands.get(name)
        if handler is None:
            self.say(f"unknown command /{name} (try /help)")
            return False
        try:
            verbatim = ("compact", "name", "label", "pin")
            args = shlex.split(rest) if name not in verbatim else [rest.strip()]
            return bool(handler(args))
        except _Terminated:
            raise
        except (TetherError, ValueError) as exc:
            self.say(f"error: {exc}")
            return False
        except Exception as exc:  # keep the chat alive
            self.say(f"error: {type(exc).__name__}: {exc}")
            return False

    def _busy(self, label: str, work: Callable[[], Any]) -> Any:
        self.printer.spinner.start(label)
        try:
            result, signum = run_interruptibly(work, self.harness.abort)
        finally:
            self.printer.spinner.stop()
        _leave_on_termination(signum)
        return result

    # -- commands --------------------------------------------------------------------------------

    def cmd_help(self, _args: list[str]) -> None:
        self.say(HELP)

    def cmd_tree(self, args: list[str]) -> None:
        if not args or args == ["--full"]:
            self.say(render_tree(self.harness.session, full=bool(args), stream=self.err))
            return
        target, rest = args[0], args[1:]
        summarize = bool(rest) and rest[0] == "--summarize"
        text = " ".join(rest[1:]) if summarize else None
        label = "summarizing the branch" if summarize else "moving"
        outcome = self._busy(
            label,
            lambda: self.harness.navigate(
                target, summarize=summarize, custom_instructions=text or None
            ),
        )
        if outcome.status == "cancelled":
            self.say(f"navigation cancelled: {outcome.reason}")
            return
        self.say(f"leaf: {outcome.new_leaf_id}")
        if outcome.summary_entry:
            self.say(f"branch summary: entry {outcome.summary_entry['id']}")
        if outcome.editor_text:
            self.say(f"(to resend) {outcome.editor_text}")

    def cmd_fork(self, args: list[str]) -> None:
        if len(args) != 1:
            raise ValueError("usage: /fork ID (the id of a user message; see /tree)")
        text = self.harness.fork(args[0])
        if text is None:
            return
        self.say(f"forked into {_where(self.harness.session)}")
        if text:
            self.say(f"(to resend) {text}")

    def cmd_clone(self, _args: list[str]) -> None:
        if self.harness.clone():
            self.say(f"cloned into {_where(self.harness.session)}")

    def cmd_compact(self, args: list[str]) -> None:
        self.harness.compact(args[0] or None)  # the printer reports compaction_end

    def cmd_name(self, args: list[str]) -> None:
        if not args[0]:
            self.say(f"name: {self.harness.session.session_name or '(none)'}")
            return
        self.harness.set_name(args[0])
        self.say(f"name: {args[0]}")

    def cmd_label(self, args: list[str]) -> None:
        entry_id, _, text = args[0].partition(" ")
        if not entry_id:
            raise ValueError("usage: /label ID [TEXT]")
        self.harness.set_label(entry_id, text.strip() or None)
        self.say(f"label of {entry_id}: {text.strip() or '(cleared)'}")

    def cmd_pin(self, args: list[str]) -> None:
        """``/pin TEXT``; a single word that is an entry id pins that entry's text."""
        from tether.sessions import pin_entry, pin_text

        text, session = args[0], self.harness.session
        if text.startswith("--text "):  # the text itself, even when it looks like an id
            text, by_id = text[len("--text ") :].strip(), False
        elif _ID_LIKE.fullmatch(text) and session.get_entry(text) is None:
            raise ValueError(
                f"no entry with id '{text}' (to pin the word itself: /pin --text {text})"
            )
        else:
            by_id = " " not in text and session.get_entry(text) is not None
        if not text:
            raise ValueError("usage: /pin TEXT, or /pin ENTRY_ID (see /tree)")
        pin = pin_entry(session, text) if by_id else pin_text(session, text)
        source = f" (entry {pin.entry_id})" if pin.entry_id else ""
        self.say(f"pinned {pin.pin_id}{source}: kept verbatim in every later summary")

    def cmd_unpin(self, args: list[str]) -> None:
        if len(args) != 1:
            raise ValueError("usage: /unpin PIN_ID (see /pins)")
        self.say(f"unpinned {self.harness.view.unpin(args[0])}")

    def cmd_pins(self, _args: list[str]) -> None:
        pins = self.harness.view.pins()
        lines = [f"{pin['pinId']}  {pin['text']}" for pin in pins]
        self.say("\n".join(lines) if lines else "no pins (/pin TEXT adds one)")

    def cmd_resume(self, _args: list[str]) -> None:
        from tether.builtin_plugins.commands.agent.setup import project_folder
        from tether.builtin_plugins.storage.jsonl.listing import list_sessions

        h = self.harness
        from tether.builtin_plugins.commands import store_configured

        if store_configured():
            self._resume_stored()
            return
        current = str(h.session.file) if h.session.file is not None else None
        sessions = [
            s for s in list_sessions([project_folder(h.cwd, h.settings)]) if s.path != current
        ]
        chosen = pick_from_list(sessions, ask=self.ask, say=self.say)
        if chosen is not None:
            h.resume(chosen)
            self.say(f"resumed {chosen} · {h.model.ref} (thinking {h.thinking_level})")

    def _resume_stored(self) -> None:
        """``/resume`` in a database store: this project's sessions there, by id."""
        from tether.builtin_plugins.commands.store_select import (
            active_database,
            open_stored_session,
        )

        h = self.harness
        database = active_database(h.cwd)
        rows = [r for r in database.list_sessions(cwd=h.cwd) if r.id != h.session.session_id]
        chosen = pick_from_list(rows, ask=self.ask, say=self.say)
        if chosen is None:
            return
        lease = database.lease(str(chosen))
        try:  # read it under the lease: not a stale copy
            h.resume(open_stored_session(database, str(chosen), readonly=False))
        finally:
            lease.release()  # the harness holds its own share now
        self.say(f"resumed {chosen} · {h.model.ref} (thinking {h.thinking_level})")

    def cmd_new(self, _args: list[str]) -> None:
        self.harness.new_session()
        self.say(f"new session {_where(self.harness.session)}")

    def cmd_model(self, args: list[str]) -> None:
        h = self.harness
        if args:
            h.set_model(args[0])
        self.say(f"model: {h.model.ref} (thinking {h.thinking_level})")
        if not args:
            refs = ", ".join(m.ref for m in h.registry.models())
            self.say(f"available: {refs}")

    def cmd_session(self, _args: list[str]) -> None:
        from tether.memory import context_tokens, token_counter

        h = self.harness
        s = h.session
        messages = h.agent.state.messages
        count = token_counter(h.hooks.pm, h.settings, model=h.view.model)
        tokens = context_tokens(messages, count)
        self.say(
            f"file: {_where(s)}\nid: {s.session_id}\nname: {s.session_name or '-'}\n"
            f"leaf: {s.leaf_id}\nentries: {len(s)}\nmodel: {h.model.ref} "
            f"(thinking {h.thinking_level})\ncontext: {len(messages)} messages, ~{tokens} of "
            f"{h.model.context_window} tokens"
        )


def render_tree(session: Any, *, full: bool = False, stream: Any = None) -> str:
    """The readable tree (:mod:`~tether.builtin_plugins.commands.session.tree_view`), cut at
    :data:`TREE_LIMIT` lines; coloured when ``stream`` is a terminal (and no ``NO_COLOR``)."""
    from tether.builtin_plugins.commands.session.tree_view import render_tree_view, use_colour

    colour = use_colour("auto", stream) if stream is not None else False
    lines = render_tree_view(session, full=full, colour=colour, limit=TREE_LIMIT)
    return "\n".join(lines) or "(empty session)"


def _leave_on_termination(signum: int) -> None:
    """SIGTERM/SIGHUP during a turn: the turn was aborted; leave the chat too."""
    if signum and signum != signal.SIGINT:
        raise _Terminated(stop_message(signum), exit_code=128 + signum)


class _Terminated(TetherError):
    """Ends the chat loop (not caught by the per-command error handling)."""


def _most_recent_without_terminal(sessions: list[Any]) -> Any:
    """``-r`` with no terminal to pick on: the most recent session, said on stderr."""
    from pathlib import Path

    chosen = Path(sessions[0].path)
    sys.stderr.write(
        f"tether: --resume: stdin is not a terminal, so no list to pick from; "
        f"resuming the most recent session {chosen}\n"
    )
    return chosen


def run_chat(pm: Any, options: SessionOptions, prompts: list[str]) -> None:
    """``tether chat``: set up the session (a numbered list for ``-r``; the most recent one,
    said in one line, when stdin is not a terminal), then the loop, starting with the prompts
    (``@FILE``s inlined into the first, as ``tether run`` does; stdin stays the chat's)."""
    from tether.builtin_plugins.commands.agent.inputs import read_inputs

    inputs = read_inputs(prompts, read_stdin=False) if prompts else None
    pick = pick_from_list if sys.stdin.isatty() else _most_recent_without_terminal
    harness, reason = build_harness(pm, options, pick=pick)
    harness.start(reason)
    try:
        chat = Chat(harness)
        takes_images = "image" in (getattr(harness.model, "input", None) or ())
        chat.loop(inputs.turns(takes_images, chat.say) if inputs else None)
    finally:
        harness.close("quit")


__all__ = ["Chat", "render_tree", "run_chat"]


def _where(session: Any) -> str:
    """A session's file, else its store URI (``#id``), else ``(memory)``."""
    from tether.builtin_plugins.commands.store_select import session_label

    return session_label(session)
