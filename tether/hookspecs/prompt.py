"""What a system-prompt section is and what it may read: :class:`Section`,
:class:`PromptOptions` (plugins contribute sections through ``system_prompt_sections``; the
kernel's :mod:`tether.core.agent.prompt` joins them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass
class Section:
    """One part of the system prompt. ``separator`` is put before it when another section
    precedes it (``"\\n\\n"``: a blank line; the date line uses ``"\\n"``)."""

    name: str
    order: int
    text: str
    separator: str = "\n\n"


@dataclass
class PromptOptions:
    """Everything a section may depend on.

    ``tools`` are the active tools in prompt order (objects with ``name``,
    ``prompt_snippet`` and ``prompt_guidelines``). ``custom_prompt`` (replaces the intro, the
    tool list and the guidelines) and ``append_system_prompt`` are the values given, by a
    flag or a setting; the ``prompt_sections`` plugin reads a value naming a file, and
    ``SYSTEM.md``/``APPEND_SYSTEM.md`` when none is given. ``now`` gives the date line (its
    own time zone is used). ``home`` is the tether home (``TETHER_HOME`` or ``~/.tether``).
    ``extra`` is free for plugins (the ``prompt_sections`` plugin keeps the files and skills
    it loads there).
    ``warnings`` collects problems plugins met (an unreadable file…); the caller shows them.
    """

    cwd: str
    tools: list[Any] = field(default_factory=list)
    custom_prompt: str | None = None
    append_system_prompt: str | None = None
    now: datetime = field(default_factory=lambda: datetime.now().astimezone())
    home: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    @property
    def tool_names(self) -> list[str]:
        return [tool.name for tool in self.tools]


__all__ = ["PromptOptions", "Section"]
