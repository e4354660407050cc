"""Built-in plugin ``pi_forms``: pi's top-level forms, rewritten into tether's commands before
typer parses the line (it answers ``route_command_line``; without it, a line must name a
command).

========================================  =========================================
``tether``                                ``tether chat``
``tether -c`` / ``tether -r``             ``tether chat -c`` / ``tether chat -r``
``tether "fix the test"``                 ``tether chat "fix the test"`` (interactive)
``tether -p "fix the test"``              ``tether run "fix the test"`` (print mode)
``tether --model M --tools read,ls …``    ``tether chat --model M --tools read,ls …``
``tether -p @f.py "review" "and fix"``    ``tether run @f.py "review" "and fix"``
``tether --list-models [SEARCH]``         ``tether models [SEARCH]``
``tether --export S.jsonl [OUT.html]``    ``tether session export S.jsonl --html [-o OUT]``
``tether -V`` / ``tether -v``             ``tether --version``
``tether -h``                             ``tether --help``
========================================  =========================================

A first word that is a command (``sessions``, ``session``, ``run`` …) stays a command. A lone
word shaped like a command name (``tether sesions``) is an unknown command (with the close
one, if any), not a prompt sent to a model; ``tether -- WORD`` sends it anyway.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Any

from tether.cli import UsageError
from tether.core.cli.argv import root_prefix_length
from tether.hookspecs import hookimpl

PRINT_FLAGS = ("-p", "--print")
VERSION_FLAGS = ("-V", "-v")
HELP_FLAGS = ("-h",)
CHAT, PRINT = "chat", "run"
HELP = """

\b
Without a command, as pi:
  tether [OPTIONS] [PROMPT]     chat (the options of `tether chat`)
  tether -c | -r                continue the most recent session | pick one
  tether -p [OPTIONS] PROMPT... print mode: the answer, then exit (`tether run`);
                                piped stdin and @FILE arguments join the first prompt
  tether --list-models [SEARCH] the models (`tether models`)
  tether --export S.jsonl [OUT] a session as a web page (`tether session export --html`)
  tether -V                     the version"""


def _check_not_a_command_name(word: str, commands: Collection[str]) -> None:
    """A lone word shaped like a command name (``sesions``, ``half-done``) is an unknown
    command, not a one-word prompt: a typo never starts a model call."""
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", word):
        return
    import difflib

    close = difflib.get_close_matches(word, sorted(commands), n=1, cutoff=0.8)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    raise UsageError(f"No such command '{word}'{hint}; to send it as a prompt: tether -- {word}")


def route_top_level(argv: Sequence[str], commands: Collection[str]) -> list[str]:
    """``argv`` with pi's top-level forms turned into ``chat``/``run`` (see the module doc);
    anything that already names a command, or asks for help or the version, is unchanged."""
    args = list(argv)
    start = root_prefix_length(args)
    head, rest = args[:start], args[start:]
    if not rest:  # a bare ``tether`` (or only root options): pi's interactive mode
        return [*head, CHAT]
    first = rest[0]
    if first in VERSION_FLAGS:
        return [*head, "--version", *rest[1:]]
    if first in HELP_FLAGS:
        return [*head, "--help", *rest[1:]]
    if first in commands or first in ("--help", "--version"):
        return args
    if any(a == "--mode" or a.startswith("--mode=") for a in rest):
        return args  # pi's --mode json|rpc: dispatched on its own, before typer
    listing = _pi_listing(rest)
    if listing is not None:
        return [*head, *listing]
    if first == "--":
        return [*head, CHAT, *rest]
    positional = [a for a in rest if not a.startswith("-")]
    if len(positional) == 1 and positional[0] == first:
        _check_not_a_command_name(first, commands)
    mode, body = CHAT, []
    for i, arg in enumerate(rest):
        if arg == "--":
            body.extend(rest[i:])
            break
        if arg in PRINT_FLAGS:
            mode = PRINT
        else:
            body.append(arg)
    return [*head, mode, *body]


def _pi_listing(rest: Sequence[str]) -> list[str] | None:
    """pi's ``--list-models [SEARCH]`` and ``--export IN [OUT]`` (anywhere before ``--``) as
    tether's commands; ``None`` when neither is there."""
    end = rest.index("--") if "--" in rest else len(rest)
    words = list(rest[:end])
    if "--list-models" in words:
        after = words[words.index("--list-models") + 1 :][:1]
        search = [w for w in after if not w.startswith(("-", "@"))]
        return ["models", *search]
    if "--export" in words:
        at = words.index("--export")
        given = words[at + 1 : at + 3]
        if not given or given[0].startswith("-"):
            raise UsageError("--export needs a session file: tether --export S.jsonl [OUT.html]")
        out = ["-o", given[1]] if len(given) > 1 and not given[1].startswith("-") else []
        return ["session", "export", given[0], "--html", *out]
    return None


@hookimpl(trylast=True)
def route_command_line(args: list[str], commands: list[str]) -> list[str]:
    return route_top_level(args, commands)


@hookimpl
def register_commands(app: Any) -> None:
    """The root help says which pi forms work."""
    app.info.help = (app.info.help or "") + HELP


__all__ = ["route_top_level"]
