"""``tether hooks NAME`` and docs/hooks.md show the hookspec docstrings as Markdown, not as
raw reST (````x````, ``:class:`…```, ``Example::``)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.store_helpers import run_tether
from tether.builtin_plugins.commands.introspect.hooks_doc import hooks_markdown, plain_doc

REST = re.compile(r"``|:[a-z]+:`|::$", re.M)
ROOT = Path(__file__).resolve().parent.parent


def test_plain_doc_converts_inline_markup_and_keeps_code_blocks() -> None:
    doc = (
        "Return :class:`~tether.hookspecs.events.RetryDecision` or a :class:`tether.Block`\n"
        "(``tether session\n"
        "prepare``). Example::\n"
        "\n"
        "    x = '``kept``'  # :class:`kept`\n"
        "\n"
        "After the ``block``."
    )
    assert plain_doc(doc) == (
        "Return `RetryDecision` or a `tether.Block`\n"
        "(`tether session\n"
        "prepare`). Example:\n"
        "\n"
        "    x = '``kept``'  # :class:`kept`\n"
        "\n"
        "After the `block`."
    )


def test_the_reference_has_no_rest_markup() -> None:
    text = hooks_markdown()
    prose = "\n".join(line for line in text.splitlines() if not line.startswith("    "))
    assert not REST.search(prose), REST.search(prose)
    assert text.count("Example:\n") >= 20
    assert (ROOT / "docs" / "hooks.md").read_text(encoding="utf-8") == text


def test_hooks_name_shows_markdown() -> None:
    done = run_tether("hooks", "session_before_compact", env={"TETHER_LOAD_PLUGINS": ""})
    assert done.returncode == 0, done.stderr
    prose = "\n".join(line for line in done.stdout.splitlines() if not line.startswith("    "))
    assert not REST.search(prose), REST.search(prose)
    assert "`Cancel`" in prose and "Example:" in prose
