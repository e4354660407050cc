"""argv rewrites made before typer parses the command line.

pi's ``--mode rpc|json``, ``--disable-plugin`` (needed before plugins load; moved in front of
the command), ``--store URI`` (any command, anywhere on the line) and a bare ``--wait`` are
read or rewritten here.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

ROOT_OPTIONS_WITH_VALUE = ("--disable-plugin",)
MODE_COMMANDS = {"rpc": ["rpc"], "json": ["run", "--json"]}  # pi's --mode → tether's command


def preparse_mode(argv: Sequence[str]) -> list[str]:
    """pi's ``--mode rpc|json …`` → ``rpc …`` / ``run --json …`` (``--disable-plugin N`` first;
    a ``-p`` next to it is dropped)."""
    args = [p for a in argv for p in (a.split("=", 1) if a.startswith("--mode=") else [a])]
    at = args.index("--mode") if "--mode" in args else len(args)
    if "--" in args[:at] or args[at + 1 : at + 2] == []:
        return list(argv)  # no --mode
    if args[at + 1] == "text":  # pi's default mode: tether's own forms (chat, a prompt, -p)
        return args[:at] + args[at + 2 :]
    if args[at + 1] not in MODE_COMMANDS:
        from tether.core.base.errors import UsageError

        raise UsageError(f"--mode {args[at + 1]}: expected text, json or rpc")
    rest, root = drop_print_flag(args[:at] + args[at + 2 :]), []
    while "--disable-plugin" in rest[:-1]:
        i = rest.index("--disable-plugin")
        root, rest = [*root, *rest[i : i + 2]], rest[:i] + rest[i + 2 :]
    return [*root, *MODE_COMMANDS[args[at + 1]], *rest]


def drop_print_flag(args: list[str]) -> list[str]:
    """pi's ``-p``/``--print`` next to ``--mode json|rpc`` changes nothing: dropped (up to
    ``--``)."""
    end = args.index("--") if "--" in args else len(args)
    return [a for a in args[:end] if a not in ("-p", "--print")] + args[end:]


def hoist_root_options(argv: Sequence[str]) -> list[str]:
    """``--disable-plugin NAME`` given after the command (before ``--``) moves in front of it:
    it is tether's option, read before plugins load (:func:`preparse_disabled`)."""
    args = list(argv)
    end = args.index("--") if "--" in args else len(args)
    i = start = root_prefix_length(args[:end])
    root: list[str] = []
    rest: list[str] = []
    while i < end:
        take = 2 if args[i] in ROOT_OPTIONS_WITH_VALUE and i + 1 < end else 1
        hoisted = take == 2 or args[i].startswith(tuple(f"{n}=" for n in ROOT_OPTIONS_WITH_VALUE))
        (root if hoisted else rest).extend(args[i : i + take])
        i += take
    return [*args[:start], *root, *rest, *args[end:]]


def preparse_disabled(argv: Sequence[str]) -> list[str]:
    """``--disable-plugin`` must be known before plugins load, so read it from argv first."""
    out: list[str] = []
    for i, arg in enumerate(argv):
        if arg == "--disable-plugin" and i + 1 < len(argv):
            out.append(argv[i + 1])
        elif arg.startswith("--disable-plugin="):
            out.append(arg.split("=", 1)[1])
        elif arg == "--":
            break
    return out


def is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def preparse_store(argv: Sequence[str]) -> list[str]:
    """``--store URI`` (the session store, any command, anywhere on the line) becomes
    ``TETHER_STORE`` for this process: the store plugins and commands read it from there."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--store" and i + 1 < len(argv):
            os.environ["TETHER_STORE"] = argv[i + 1]
            i += 2
            continue
        if arg.startswith("--store="):
            os.environ["TETHER_STORE"] = arg.split("=", 1)[1]
        elif arg == "--":
            out.extend(argv[i:])
            break
        else:
            out.append(arg)
        i += 1
    return out


def preparse_wait(argv: Sequence[str]) -> list[str]:
    """``--wait [SECONDS]`` (the session lease,
    :mod:`tether.builtin_plugins.storage.jsonl.files.lease`): a ``--wait`` not
    followed by a number means "as long as it takes" and becomes ``--wait=forever``."""
    out = list(argv)
    for i, arg in enumerate(out):
        if arg == "--":
            break
        if arg == "--wait" and (i + 1 == len(out) or not is_number(out[i + 1])):
            out[i] = "--wait=forever"
    return out


def root_prefix_length(args: Sequence[str]) -> int:
    """How many leading arguments are options of ``tether`` itself (``--disable-plugin X``)."""
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ROOT_OPTIONS_WITH_VALUE:
            i += 2
        elif any(arg.startswith(f"{name}=") for name in ROOT_OPTIONS_WITH_VALUE):
            i += 1
        else:
            break
    return min(i, len(args))


__all__ = [
    "MODE_COMMANDS",
    "drop_print_flag",
    "hoist_root_options",
    "is_number",
    "preparse_disabled",
    "preparse_mode",
    "preparse_store",
    "preparse_wait",
    "root_prefix_length",
]
