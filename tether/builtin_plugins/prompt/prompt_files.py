"""The custom and the appended system prompt, as pi finds them.

A value given (``--system-prompt`` or ``systemPrompt``; ``--append-system-prompt`` or
``appendSystemPrompt``) that names an existing file is replaced by the file's text. Without a
value: ``<cwd>/.tether/SYSTEM.md``, else ``<home>/SYSTEM.md`` (the custom prompt), and
``<cwd>/.tether/APPEND_SYSTEM.md``, else ``<home>/APPEND_SYSTEM.md`` (the appended one). Each
is read once per :class:`tether.PromptOptions` (kept in its ``extra``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tether import PromptOptions

#: Keys of ``PromptOptions.extra`` holding the texts found.
CUSTOM_PROMPT = "custom_prompt_text"
APPENDED_PROMPT = "append_system_prompt_text"


def custom_prompt(options: PromptOptions) -> str | None:
    """The custom prompt's text (``None``: the default intro, tool list and guidelines)."""
    return _found(options, CUSTOM_PROMPT, options.custom_prompt, "SYSTEM.md")


def appended_prompt(options: PromptOptions) -> str | None:
    """The appended prompt's text, if any."""
    return _found(options, APPENDED_PROMPT, options.append_system_prompt, "APPEND_SYSTEM.md")


def _found(options: PromptOptions, key: str, value: str | None, name: str) -> str | None:
    if key not in options.extra:
        if value:
            text: str | None = _text_or_file(value, options.cwd)
        else:
            places = [Path(options.cwd, ".tether", name)]
            if options.home:
                places.append(Path(options.home, name))
            text = next((p.read_text(encoding="utf-8") for p in places if p.is_file()), None)
        options.extra[key] = text or None
    return options.extra[key]


def _text_or_file(value: str, cwd: str) -> str:
    """pi's rule for prompt values: a value naming an existing file is replaced by its text."""
    candidate = Path(cwd, os.path.expanduser(value))
    try:
        if len(value) < 4096 and "\n" not in value and candidate.is_file():
            return candidate.read_text(encoding="utf-8")
    except OSError:
        pass
    return value


__all__ = ["APPENDED_PROMPT", "CUSTOM_PROMPT", "appended_prompt", "custom_prompt"]
