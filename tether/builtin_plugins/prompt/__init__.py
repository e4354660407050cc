"""Built-in plugin ``prompt_sections``: the default system prompt, section by section.

Same order and layout as pi's default prompt, in tether's own words:
intro (100; a custom prompt replaces it, the tool list and the guidelines), tool list (200),
guidelines (300), appended prompt (400), project context files (500), skills index (600),
date and working directory (900). Also adds ``tether prompt [--explain] [--json]``.

This plugin decides what the project gives the prompt: it reads the custom and appended
prompts (a value naming a file; else ``SYSTEM.md``, ``APPEND_SYSTEM.md``, see
:mod:`~tether.builtin_plugins.prompt.prompt_files`), loads the context files
(``AGENTS.md``/``CLAUDE.md`` of the tether home and of every directory from the root down to
``cwd``, see :mod:`~tether.builtin_plugins.prompt.context_file_loader`) and the skills
(``SKILL.md`` files, see :mod:`~tether.builtin_plugins.prompt.skill_loader`) once per
:class:`PromptOptions`, keeping them in ``options.extra`` under :data:`CONTEXT_FILES` and
:data:`SKILLS` (a list already there is used as is; :data:`SKILL_DIRS` adds skill
directories). Problems go to ``options.warnings``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from tether.hookspecs import hookimpl

if TYPE_CHECKING:
    from tether import PromptOptions, Section
    from tether.builtin_plugins.prompt.context_file_loader import ContextFile
    from tether.builtin_plugins.prompt.skill_loader import Skill

#: Keys of ``PromptOptions.extra`` this plugin reads and fills.
CONTEXT_FILES = "context_files"
SKILLS = "skills"
SKILL_DIRS = "skill_dirs"

INTRO = (
    "You are a coding agent working in the user's project through tether. You read and "
    "search files, run commands, change code with precise edits and write new files, and "
    "you say plainly what you did."
)
OTHER_TOOLS = "Plugins installed in this project may provide more tools than the ones listed."
GUIDELINE_BASH_ONLY = "Use bash for file operations such as ls, rg and find"
GUIDELINE_PREFER_TOOLS = (
    "Explore files with grep, find and ls rather than bash (faster, and .gitignore is respected)"
)
GUIDELINE_CONCISE = "Keep your answers short"
GUIDELINE_PATHS = "Name files by their paths when you refer to them"
CONTEXT_HEADING = "# Project Context"
CONTEXT_INTRO = "Instructions for this project, from its context files:"
SKILLS_PREAMBLE = (
    "Skills hold detailed instructions for particular kinds of tasks.",
    "When a task fits a skill's description, load the skill's file with the read tool.",
    "Paths inside a skill file are relative to the skill's directory (the folder holding the "
    "file); turn them into absolute paths before using them in tool calls.",
)
EXPLORATION_TOOLS = ("grep", "find", "ls")


def context_files(options: PromptOptions) -> list[ContextFile]:
    """The project context files for ``options`` (loaded on first use, then kept)."""
    found = options.extra.get(CONTEXT_FILES)
    if found is None:
        from tether.builtin_plugins.prompt.context_file_loader import load_context_files

        found = load_context_files(options.cwd, options.home, warnings=options.warnings)
        options.extra[CONTEXT_FILES] = found
    return list(found)


def skills(options: PromptOptions) -> list[Skill]:
    """The skills for ``options``: ``extra["skill_dirs"]``, ``<cwd>/.tether/skills``,
    ``<home>/skills`` (loaded on first use, then kept)."""
    found = options.extra.get(SKILLS)
    if found is None:
        from tether.builtin_plugins.prompt.skill_loader import load_skills

        dirs = options.extra.get(SKILL_DIRS) or ()
        found = load_skills(options.cwd, options.home, extra_dirs=dirs, warnings=options.warnings)
        options.extra[SKILLS] = found
    return list(found)


def custom_prompt(options: PromptOptions) -> str | None:
    from tether.builtin_plugins.prompt.prompt_files import custom_prompt

    return custom_prompt(options)


def appended_prompt(options: PromptOptions) -> str | None:
    from tether.builtin_plugins.prompt.prompt_files import appended_prompt

    return appended_prompt(options)


def intro_text(options: PromptOptions) -> str:
    return custom_prompt(options) or INTRO


def tools_text(options: PromptOptions) -> str:
    lines = [
        f"- {tool.name}: {tool.prompt_snippet}"
        for tool in options.tools
        if getattr(tool, "prompt_snippet", None)
    ]
    listing = "\n".join(lines) if lines else "(none)"
    return f"Available tools:\n{listing}\n\n{OTHER_TOOLS}"


def guideline_bullets(options: PromptOptions) -> list[str]:
    """pi's order: the bash rule, each active tool's guidelines, then the two general ones;
    exact duplicates dropped."""
    names = set(options.tool_names)
    bullets: list[str] = []
    if "bash" in names:
        explorers = any(name in names for name in EXPLORATION_TOOLS)
        bullets.append(GUIDELINE_PREFER_TOOLS if explorers else GUIDELINE_BASH_ONLY)
    for tool in options.tools:
        bullets.extend(g.strip() for g in getattr(tool, "prompt_guidelines", None) or [])
    bullets += [GUIDELINE_CONCISE, GUIDELINE_PATHS]
    unique: list[str] = []
    for bullet in bullets:
        if bullet and bullet not in unique:
            unique.append(bullet)
    return unique


def context_text(options: PromptOptions) -> str:
    files = context_files(options)
    if not files:
        return ""
    text = "".join(f"## {f.path}\n\n{f.content}\n\n" for f in files)
    return f"{CONTEXT_HEADING}\n\n{CONTEXT_INTRO}\n\n{text}"


def skills_text(options: PromptOptions) -> str:
    """The ``<available_skills>`` index, only when ``read`` can load the files."""
    visible = [s for s in skills(options) if not s.disable_model_invocation]
    if not visible or "read" not in options.tool_names:
        return ""
    from xml.sax.saxutils import escape  # imports urllib.request: only when needed

    quote = {'"': "&quot;", "'": "&apos;"}
    lines = [*SKILLS_PREAMBLE, "", "<available_skills>"]
    for skill in visible:
        lines += [
            "  <skill>",
            f"    <name>{escape(skill.name, quote)}</name>",
            f"    <description>{escape(skill.description, quote)}</description>",
            f"    <location>{escape(skill.file_path, quote)}</location>",
            "  </skill>",
        ]
    lines.append("</available_skills>")
    return "\n".join(lines)


def environment_text(options: PromptOptions) -> str:
    cwd = options.cwd.replace("\\", "/")
    return f"Current date: {options.now.strftime('%Y-%m-%d')}\nCurrent working directory: {cwd}"


@hookimpl
def system_prompt_sections(options: PromptOptions) -> list[Section]:
    from tether import Section

    sections = [Section("intro", 100, intro_text(options))]
    if not custom_prompt(options):
        sections.append(Section("tools", 200, tools_text(options)))
        bullets = "\n".join(f"- {b}" for b in guideline_bullets(options))
        sections.append(Section("guidelines", 300, f"Guidelines:\n{bullets}"))
    sections += [
        Section("append", 400, appended_prompt(options) or ""),
        Section("context-files", 500, context_text(options)),
        Section("skills", 600, skills_text(options)),
        Section("environment", 900, environment_text(options), separator="\n"),
    ]
    return sections


def _first_line(text: str) -> str:
    line = text.strip().split("\n", 1)[0]
    return line if len(line) <= 72 else line[:69] + "..."


@hookimpl
def register_commands(app: Any) -> None:
    @app.command("prompt")
    def prompt_command(
        ctx: typer.Context,
        explain: Annotated[
            bool, typer.Option("--explain", help="Show which plugin wrote each section.")
        ] = False,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Print the system prompt for this directory, with every registered tool active."""
        import json
        import os
        import sys

        from tether import load_settings
        from tether.cli import assemble_system_prompt, build_prompt_options
        from tether.tools import collect_tools, order_tools

        pm = ctx.obj
        cwd = os.getcwd()
        origins: dict[str, str] = {}
        tools = order_tools(collect_tools(pm, origins=origins))
        options = build_prompt_options(cwd, tools, settings=load_settings(cwd))
        text, sections = assemble_system_prompt(pm, options)
        for warning in options.warnings:
            sys.stderr.write(f"tether: warning: {warning}\n")
        if as_json:
            payload = {
                "prompt": text,
                "sections": [
                    {"plugin": p, "name": s.name, "order": s.order, "text": s.text}
                    for p, s in sections
                ],
                "tools": [{"name": t.name, "plugin": origins.get(t.name, "?")} for t in tools],
                "contextFiles": [f.path for f in context_files(options)],
                "skills": [s.file_path for s in skills(options)],
            }
            typer.echo(json.dumps(payload, indent=2, ensure_ascii=False))
        elif explain:
            for plugin, section in sections:
                first = _first_line(section.text)
                typer.echo(f"{section.order:>5}  {plugin:<20} {section.name:<16} {first}")
        else:
            typer.echo(text)
