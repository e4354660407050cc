"""Built-in plugin ``introspect_commands``: ``tether plugins`` and ``tether hooks``.

``tether plugins [--all] [--json]`` lists the plugins the host loaded (name, distribution,
version, status, the hooks each implements) and the choices by kind (summarizer, token counter,
compaction strategy); ``tether hooks [NAME] [--json]`` lists the hooks and their
implementations in the order the kernel calls them, or one hook's contract;
``tether hooks --markdown`` prints the hook reference, docs/hooks.md (:mod:`.hooks_doc`).
"""

from __future__ import annotations

import inspect
import json
from typing import TYPE_CHECKING, Any

import typer

from tether import TetherError
from tether.builtin_plugins.commands import PlainJsonOpt, json_fields, switch, text_argument
from tether.hookspecs import hookimpl

if TYPE_CHECKING:
    from tether import PluginManager


@hookimpl
def register_commands(app: Any) -> None:
    app.command("plugins")(plugins_command)
    app.command("hooks")(hooks_command)


def _hook_call_order(pm: PluginManager, hook_name: str) -> list[dict[str, Any]]:
    from tether.cli import ordered_hookimpls

    out = []
    for impl in ordered_hookimpls(pm, hook_name):  # the order the facade calls them in
        tags = [t for t in ("tryfirst", "trylast", "wrapper", "hookwrapper") if impl.opts.get(t)]
        out.append({"plugin": pm.get_name(impl.plugin) or "?", "tags": tags})
    return out


def _hook_kind(pm: PluginManager, hook_name: str) -> str:
    caller = getattr(pm.hook, hook_name)
    opts = caller.spec.opts if caller.spec else {}
    return "firstresult" if opts.get("firstresult") else "all"


def plugins_command(
    ctx: typer.Context,
    all_: switch("--all", help="Include the built-in plugins.") = False,
    as_json: PlainJsonOpt = False,
) -> None:
    """List installed plugins (name, distribution, version, status, hooks) and, per kind,
    the summarizers, token counters and compaction strategies registered and chosen."""
    from tether.builtin_plugins.commands.introspect.choices_report import (
        current_choices,
        render_choices,
    )

    pm = ctx.obj

    records = [r for r in pm.records.values() if all_ or not r.builtin]
    records.sort(key=lambda r: (not r.builtin, r.name))
    choices = current_choices(pm)
    if as_json:
        rows = [
            json_fields(r, "name distribution version builtin status hooks", optional="error")
            for r in records
        ]
        typer.echo(json.dumps({"plugins": rows, "choices": choices}, indent=2))
        return
    if not records:
        typer.echo("No third-party plugins installed (use --all to list the built-ins).")
    for r in records:
        origin = "built-in" if r.builtin else f"{r.distribution} {r.version}".strip()
        line = f"{r.name:<22} {r.status:<11} {origin}"
        if r.hooks:
            line += f"  hooks: {', '.join(r.hooks)}"
        if r.error:
            line += f"  error: {r.error}"
        typer.echo(line)
    typer.echo("\n".join(["", *render_choices(choices)]))


def hooks_command(
    ctx: typer.Context,
    name: text_argument("[NAME]", help="One hook: show its contract.") = None,
    as_json: PlainJsonOpt = False,
    markdown: switch("--markdown", help="Print the hook reference (docs/hooks.md).") = False,
) -> None:
    """List the hooks plugins can implement, and the plugins implementing each, in call
    order."""
    pm = ctx.obj
    if markdown:
        from tether.builtin_plugins.commands.introspect.hooks_doc import hooks_markdown

        typer.echo(hooks_markdown(), nl=False)
        return
    names = pm.hook_names()
    if name is not None:
        if name not in names:
            raise TetherError(f"unknown hook '{name}'; known hooks: {', '.join(names)}")
        names = [name]
    rows = [
        {"hook": n, "kind": _hook_kind(pm, n), "implementations": _hook_call_order(pm, n)}
        for n in names
    ]
    if as_json:
        typer.echo(json.dumps(rows if name is None else rows[0], indent=2))
        return
    for row in rows:
        impls = ", ".join(
            i["plugin"] + (f" ({'/'.join(i['tags'])})" if i["tags"] else "")
            for i in row["implementations"]
        )
        typer.echo(f"{row['hook']:<24} {row['kind']:<11} {impls or '-'}")
        if name is not None:
            caller = getattr(pm.hook, row["hook"])
            from tether.builtin_plugins.commands.introspect.hooks_doc import plain_doc

            doc = caller.spec.function.__doc__ if caller.spec else ""
            typer.echo("")
            typer.echo(plain_doc(inspect.cleandoc(doc or "")))
