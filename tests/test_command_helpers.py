"""Helpers the built-in commands share (issue 24, item 6: one definition, several commands)."""

from __future__ import annotations

from dataclasses import dataclass, field

from tether.builtin_plugins.commands import json_fields


@dataclass
class _Record:
    id: str
    first_seen: str
    replaced_by: str | None = None
    replaces: list[str] = field(default_factory=list)


def test_json_fields_keeps_the_order_and_leaves_out_unset_optionals() -> None:
    """camelCase keys read snake_case attributes, in the order named; an optional one is
    there only when set (``session facts --json``, ``plugins --json``)."""
    bare = _Record("f1", "e1")
    assert json_fields(bare, "id firstSeen", optional="replacedBy replaces") == {
        "id": "f1",
        "firstSeen": "e1",
    }
    full = _Record("f1", "e1", "f2", ["f0"])
    got = json_fields(full, "firstSeen id", optional="replaces replacedBy")
    assert list(got.items()) == [
        ("firstSeen", "e1"),
        ("id", "f1"),
        ("replaces", ["f0"]),
        ("replacedBy", "f2"),
    ]


def test_camel_json_is_every_field_in_order_under_its_camel_name() -> None:
    """One rule for the dataclasses pi writes as JSON (a tool's truncation, a pin): each
    field, set or not, under its camelCase name, in field order."""
    from tether.builtin_plugins import camel_json
    from tether.builtin_plugins.memory.pins.format import Pin

    record = _Record("e1", "2026-01-01", replaced_by="e2")
    assert camel_json(record) == {
        "id": "e1",
        "firstSeen": "2026-01-01",
        "replacedBy": "e2",
        "replaces": [],
    }
    assert Pin("p1", "port 8080", None, "h1").as_json() == {
        "pinId": "p1",
        "text": "port 8080",
        "entryId": None,
        "holderId": "h1",
    }


def test_the_budget_options_are_declared_once_for_every_session_command() -> None:
    """``--window``, ``--reserve`` and ``--keep`` mean the same in ``session prepare``,
    ``compact``, ``estimate`` and ``stats``: one declaration each, one help text."""
    import typer

    from tether.builtin_plugins.commands import compaction, context, stats

    app = typer.Typer()
    for plugin in (compaction, context, stats):
        plugin.register_commands(app)
    session = typer.main.get_command(app).commands["session"]  # type: ignore[attr-defined]
    helps: dict[str, set[str]] = {}
    for name in ("prepare", "compact", "estimate", "stats"):
        for param in session.commands[name].params:
            if param.opts[0] in ("--window", "--reserve", "--keep"):
                helps.setdefault(param.opts[0], set()).add(param.help)
    assert helps == {
        "--window": {"Context window (default: the session model's)."},
        "--reserve": {"Tokens reserved for the answer (default: settings)."},
        "--keep": {"Recent tokens kept verbatim (default: settings)."},
    }
