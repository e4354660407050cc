"""The command line: ``create_app(pm)`` builds the typer app; ``main()`` runs it safely.

Every command comes from a plugin through ``register_commands`` (``tether plugins`` and
``tether hooks`` too: the built-in ``introspect_commands``). ``main`` turns every error into one
line and a non-zero exit — never a traceback (set ``TETHER_DEBUG=1`` to see one).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from contextlib import ExitStack
from typing import Annotated, Any

import typer

from tether.core.base.errors import TetherError
from tether.core.cli.argv import (
    hoist_root_options,
    preparse_disabled,
    preparse_mode,
    preparse_store,
    preparse_wait,
    root_prefix_length,
)
from tether.core.cli.named_command import command_names, only_named
from tether.core.context.text_safety import install_output_handler
from tether.core.hooks.facade import Hooks
from tether.core.host.manager import PluginError, PluginManager, create_plugin_manager
from tether.core.session.opening import PluginScope

ROOT_HELP = "tether — a plugin-first agent harness whose memory never loses history."

# ``--wait [SECONDS]`` of every command that writes a session (its lease,
# tether.builtin_plugins.storage.jsonl.files.lease);
# a bare ``--wait`` becomes ``--wait=forever`` in :func:`tether.core.cli.argv.preparse_wait`.
WaitOpt = Annotated[
    str | None,
    typer.Option(
        "--wait",
        metavar="[SECONDS]",
        help=(
            "If another process is writing this session, wait for it: up to SECONDS, or as "
            "long as it takes when no number follows --wait (without --wait: fail at once)."
        ),
    ),
]


def command_group(app: typer.Typer, name: str, help: str = "") -> typer.Typer:
    """Return the sub-app ``name`` of ``app``, creating it on first use.

    Several plugins may add commands to one group (``tether session …``): each calls
    ``command_group(app, "session")`` and decorates with ``@group.command()``.
    """
    groups: dict[str, typer.Typer] = app.__dict__.setdefault("_tether_groups", {})
    group = groups.get(name)
    if group is None:
        group = typer.Typer(
            name=name,
            help=help or None,
            no_args_is_help=True,
            add_completion=False,
            pretty_exceptions_enable=False,
            rich_markup_mode=None,
        )
        app.add_typer(group, name=name)
        groups[name] = group
    elif help and not group.info.help:
        group.info.help = help
    return group


def create_app(pm: PluginManager) -> typer.Typer:
    """Build the ``tether`` app for one plugin manager (plugins add their commands)."""
    app = typer.Typer(
        name="tether",
        help=ROOT_HELP,
        no_args_is_help=False,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
    )

    @app.callback(invoke_without_command=True)
    def root(
        ctx: typer.Context,
        disable_plugin: Annotated[
            list[str] | None,
            typer.Option(
                "--disable-plugin", metavar="NAME", help="Do not load the plugin NAME (repeatable)."
            ),
        ] = None,
        version: Annotated[
            bool, typer.Option("--version", "-V", help="Print the version.")
        ] = False,
        store: Annotated[
            str | None,
            typer.Option(
                "--store",
                metavar="URI",
                help="The session store of any command (may stand anywhere on the line): jsonl "
                "(default), sqlite:///PATH, postgresql://USER@HOST/DB. Also TETHER_STORE or "
                "the setting session.store.",
            ),
        ] = None,
    ) -> None:
        ctx.obj = pm
        if version:
            from tether import __version__

            typer.echo(f"tether {__version__}")
            raise typer.Exit()
        if ctx.invoked_subcommand is None:  # which command a bare line runs is a plugin's
            typer.echo(ctx.get_help())  # (``route_command_line``: pi_forms makes it chat)
            raise typer.Exit()

    Hooks(pm).register_commands(_CommandRegistration(app))
    return app


class _CommandRegistration:
    """``register_commands`` one plugin at a time: a plugin that raises loses the commands,
    groups and callbacks it added (to the app and to shared groups), nobody else's."""

    def __init__(self, app: typer.Typer) -> None:
        self.app = app
        self.mark: list[tuple[typer.Typer, int, int, Any]] = []
        self.groups: dict[str, typer.Typer] = {}

    def arguments(self, plugin: str) -> dict[str, Any]:
        shared: dict[str, typer.Typer] = self.app.__dict__.get("_tether_groups", {})
        self.groups = dict(shared)
        self.mark = [
            (t, len(t.registered_commands), len(t.registered_groups), t.registered_callback)
            for t in (self.app, *shared.values())
        ]
        return {"app": self.app}

    def keep(self, plugin: str) -> None:
        pass

    def drop(self, plugin: str) -> None:
        for typer_app, commands, groups, callback in self.mark:
            del typer_app.registered_commands[commands:]
            del typer_app.registered_groups[groups:]
            typer_app.registered_callback = callback
        if "_tether_groups" in self.app.__dict__:
            self.app.__dict__["_tether_groups"] = self.groups


def _warn_unknown_plugins(pm: PluginManager, names: Sequence[str]) -> None:
    """``--disable-plugin NAME`` for a name no plugin has: a warning naming the plugins."""
    known = sorted({record.name for record in pm.records.values()})
    for name in names:
        if name not in known:
            sys.stderr.write(
                f"tether: warning: --disable-plugin {name}: no plugin of that name "
                f"(plugins: {', '.join(known)})\n"
            )


def _is_click_error(exc: BaseException) -> bool:
    """click's (or typer's vendored click's) usage and parameter errors."""
    return hasattr(exc, "format_message") and hasattr(exc, "exit_code")


def _fail(message: str, code: int) -> int:
    sys.stderr.write(f"tether: error: {message}\n")
    return code


def main(
    argv: Sequence[str] | None = None,
    *,
    pm: PluginManager | None = None,
    plugin_path: Sequence[str] | None = None,
) -> int:
    """Run the CLI; return the exit code. Errors become one line on stderr.

    ``plugin_path`` is where plugins' distributions are looked for (default ``sys.path``;
    the ``tether`` command passes :func:`tether.core.host.manager.installed_path`)."""
    debug = os.environ.get("TETHER_DEBUG", "") not in ("", "0")
    if sys.stdout is None:  # started with descriptor 1 closed (``>&-``): as a shell's echo
        return _fail("standard output is closed: nowhere to write (redirect it instead)", 1)
    install_output_handler()  # a lone surrogate from a session prints as U+FFFD
    give_back = None
    scope = ExitStack()
    try:
        args = preparse_store(preparse_wait(sys.argv[1:] if argv is None else argv))
        args = preparse_mode(hoist_root_options(args))
        if _serves_rpc(args):  # before any plugin is imported: its output goes to stderr
            from tether.core.cli.protocol_out import reserve_stdout

            give_back = reserve_stdout()
        if pm is None:
            disabled = preparse_disabled(args)
            pm = create_plugin_manager(disabled=disabled, path=plugin_path)
            _warn_unknown_plugins(pm, disabled)
        scope.enter_context(PluginScope(pm))  # calls naming no manager use the app's
        app = create_app(pm)
        # a plugin may rewrite the line (the built-in ``pi_forms``: ``tether -c``, ``tether -p …``)
        args = Hooks(pm).route_command_line(args, command_names(app))
        start = root_prefix_length(args)  # typer builds only the command the line names
        command = typer.main.get_command(only_named(app, args[start:]))
        result = command.main(args=args, prog_name="tether", standalone_mode=False)
        return result if isinstance(result, int) else 0
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        return _fail("aborted", 130)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except BrokenPipeError:
        return 0
    except Exception as exc:  # last line of defence: one line, never a traceback
        if debug:
            raise
        return _report(exc)
    finally:
        scope.close()
        if give_back is not None and argv is not None:  # an in-process caller gets it back;
            give_back()  # the process keeps it: a plugin's thread may still print on the way out


def _serves_rpc(args: Sequence[str]) -> bool:
    """``tether rpc …`` (after ``--mode rpc`` became it), not asking for help: stdout is the
    protocol's alone (:mod:`tether.core.cli.protocol_out`)."""
    start = root_prefix_length(args)
    line = list(args[start:])
    if line[:1] != ["rpc"]:
        return False
    options = line[: line.index("--")] if "--" in line else line
    return "--help" not in options


def _report(exc: Exception) -> int:
    if isinstance(exc, TetherError):
        return _fail(str(exc), exc.exit_code)
    if isinstance(exc, PluginError):
        return _fail(str(exc), 3)
    if _is_click_error(exc):
        sys.stderr.write(f"tether: error: {exc.format_message()}\n")  # type: ignore[attr-defined]
        ctx = getattr(exc, "ctx", None)
        if ctx is not None:
            sys.stderr.write(f"Try '{ctx.command_path} --help' for help.\n")
        return int(getattr(exc, "exit_code", 2))
    detail = str(exc).splitlines()[0] if str(exc) else ""
    return _fail(
        f"internal error: {type(exc).__name__}: {detail} (set TETHER_DEBUG=1 for a traceback)", 70
    )


__all__ = ["WaitOpt", "command_group", "create_app", "main"]
