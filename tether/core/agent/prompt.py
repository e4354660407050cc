"""The layered system prompt: plugins contribute sections, the kernel joins them.

The kernel holds the mechanism only: the inputs a section may read
(:class:`tether.hookspecs.prompt.PromptOptions`), collecting every plugin's sections with the
plugin's name, and joining them. What goes into
the prompt (its wording, the project's context files, skills) is the plugins' decision.

Every implementation of ``system_prompt_sections(options)`` returns :class:`Section` objects
(or a list of them, a plain string, or ``None``). :func:`assemble_system_prompt` sorts all
sections by ``order`` (ties keep plugin call order), joins the non-empty ones — each preceded
by its ``separator`` unless it comes first — and reports which plugin wrote each one.
The built-in sections (intro 100, tools 200, guidelines 300, appended prompt 400, project
context 500, skills 600, date and cwd 900) come from the ``prompt_sections`` plugin.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tether.core.base.errors import TetherError
from tether.core.base.paths import tether_home
from tether.core.host.calls import call_implementation, implementations
from tether.hookspecs.prompt import PromptOptions, Section

if TYPE_CHECKING:
    import pluggy

DEFAULT_SECTION_ORDER = 700


def build_prompt_options(
    cwd: str | Path,
    tools: Sequence[Any],
    *,
    home: str | Path | None = None,
    settings: Any = None,
    custom_prompt: str | None = None,
    append_system_prompt: str | Sequence[str] | None = None,
    now: datetime | None = None,
    warnings: list[str] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> PromptOptions:
    """The inputs of the prompt sections, as given.

    Custom prompt: the argument, else ``settings.custom_prompt`` (``systemPrompt``). Appended
    prompt: the argument(s) (joined by a blank line), else ``settings.append_system_prompt``.
    What a value means (the name of a file) and what the project adds (``SYSTEM.md``…) is the
    section plugins' decision. ``home`` defaults to ``TETHER_HOME`` or ``~/.tether``.
    ``warnings`` (when given) becomes the options' list, so that it holds what the plugins
    report while the prompt is assembled; ``extra`` seeds :attr:`PromptOptions.extra`.
    """
    if isinstance(append_system_prompt, str):
        append_system_prompt = [append_system_prompt]
    appended = "\n\n".join(append_system_prompt or ()) or getattr(
        settings, "append_system_prompt", None
    )
    return PromptOptions(
        cwd=os.path.abspath(cwd),
        tools=list(tools),
        custom_prompt=custom_prompt or getattr(settings, "custom_prompt", None) or None,
        append_system_prompt=appended or None,
        now=now or datetime.now().astimezone(),
        home=str(tether_home() if home is None else Path(home)),
        extra=dict(extra or {}),
        warnings=warnings if warnings is not None else [],
    )


def _as_sections(plugin: str, value: Any) -> list[Section]:
    if value is None:
        return []
    items = list(value) if isinstance(value, (list, tuple)) else [value]
    out: list[Section] = []
    for item in items:
        if isinstance(item, Section):
            out.append(item)
        elif isinstance(item, str):
            out.append(Section(name=plugin, order=DEFAULT_SECTION_ORDER, text=item))
        elif all(hasattr(item, a) for a in ("name", "order", "text")):
            sep = getattr(item, "separator", "\n\n")
            out.append(Section(str(item.name), int(item.order), str(item.text), sep))
        else:
            raise TetherError(
                f"plugin '{plugin}' returned {type(item).__name__} from system_prompt_sections; "
                "expected a Section, a list of Sections, a string or None"
            )
    return out


def collect_sections(pm: pluggy.PluginManager, options: PromptOptions) -> list[tuple[str, Section]]:
    """Every plugin's sections with the plugin's name, sorted by ``order`` (stable)."""
    found: list[tuple[str, Section]] = []
    kwargs = {"options": options}
    for plugin, impl in implementations(pm, "system_prompt_sections"):  # pluggy call order
        try:
            value = call_implementation(impl, kwargs)
        except TetherError:
            raise
        except Exception as exc:  # a plugin may fail in any way: name it
            raise TetherError(
                f"plugin '{plugin}' failed in system_prompt_sections: {type(exc).__name__}: {exc}"
            ) from exc
        found.extend((plugin, section) for section in _as_sections(plugin, value))
    found.sort(key=lambda pair: pair[1].order)
    return found


def assemble_system_prompt(
    pm_or_hooks: Any, options: PromptOptions
) -> tuple[str, list[tuple[str, Section]]]:
    """The system prompt and, in prompt order, ``(plugin name, section)`` of each part.

    ``pm_or_hooks`` is a plugin manager or a :class:`tether.core.hooks.facade.Hooks`.
    Sections with empty text are left out (and not reported).
    """
    pm = getattr(pm_or_hooks, "pm", pm_or_hooks)
    used = [(plugin, s) for plugin, s in collect_sections(pm, options) if s.text]
    parts: list[str] = []
    for _, section in used:
        if parts:
            parts.append(section.separator)
        parts.append(section.text)
    return "".join(parts), used


__all__ = [
    "DEFAULT_SECTION_ORDER",
    "assemble_system_prompt",
    "build_prompt_options",
    "collect_sections",
]
