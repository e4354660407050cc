"""The ``recall`` tool itself; the plugin that registers it is ``tool_recall``.

It searches and reads what is not in the context (:mod:`.tree`): the active branch's entries
that compactions replaced and every entry of the abandoned branches; each hit says which
branch it is on and whether that branch is the active one."""

from __future__ import annotations

from typing import Any

from tether.builtin_plugins.tools._shared.paths import optional_int
from tether.builtin_plugins.tools._shared.scaffold import builtin_tool, object_schema, param
from tether.builtin_plugins.tools._shared.truncate import truncate_head
from tether.builtin_plugins.tools.recall.replaced import SpanNote
from tether.builtin_plugins.tools.recall.tree import Recallable, Tree, recallable
from tether.tools import FunctionTool, ToolContext, ToolError, ToolResult, entry_text

DEFAULT_MATCHES = 10
MAX_MATCHES = 50
EXCERPT_CHARS = 160
READ_MAX_LINES = 200
READ_MAX_BYTES = 16 * 1024

DESCRIPTION = (
    "Search or read the conversation entries that are no longer in your context: those an "
    "earlier compaction replaced by its summary, and those of branches the user left (a branch "
    "summary stands for them), or read a tool output that was left out of the context (its "
    "placeholder names the id). "
    "Give `query` (case-insensitive; the exact text first, then entries with all its words) "
    "to list "
    f"matches as short excerpts with their entry id and branch (at most {DEFAULT_MATCHES} per "
    "call; page with offset/limit), or `id` to read one entry in full (page its lines with "
    "offset/limit)."
)

PARAMETERS = object_schema(
    {
        "query": param("string", "Text to search for in the replaced and abandoned entries"),
        "id": param("string", "Id of one replaced or abandoned entry to read"),
        "offset": param(
            "number", "With query: matches to skip (default 0); with id: first line (1-based)"
        ),
        "limit": param(
            "number",
            f"With query: most matches (default {DEFAULT_MATCHES}, at most {MAX_MATCHES}); "
            f"with id: most lines (default {READ_MAX_LINES})",
        ),
    }
)

NOTHING_REPLACED = (
    "Nothing was replaced: no compaction on the current branch and no abandoned branch, so "
    "every entry is still in the context."
)


def run_recall(tool_call_id: str, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    """Execute ``recall``: ``{query?, id?, offset?, limit?}``."""
    query, entry_id = _optional_str(args, "query"), _optional_str(args, "id")
    if not query and not entry_id:
        raise ToolError("Give a 'query' to search or an 'id' to read")
    session = ctx.session
    if session is None:
        raise ToolError("recall needs a running session")
    offset, limit = optional_int(args, "offset"), optional_int(args, "limit")
    pruned = _pruned_entry(session, entry_id) if entry_id else None
    if pruned is not None:  # a tool result the pruning stage left out of the context
        leaf = str(session.leaf_id or "")
        found = Tree([Recallable(pruned, leaf, True, "(pruned)")], [], None)
        return _read(found, str(entry_id), offset, limit)
    tree = recallable(session)
    if not tree.entries:
        return ToolResult.text(NOTHING_REPLACED, details={"replaced": 0, "abandoned": 0})
    if entry_id:
        return _read(tree, entry_id, offset, limit)
    return _search(tree, query or "", offset, limit)


def _pruned_entry(session: Any, entry_id: str) -> dict[str, Any] | None:
    """The tool result entry ``entry_id`` (pruned from the context, still in the file)."""
    entry = session.get_entry(entry_id)
    message = entry.get("message") if isinstance(entry, dict) else None
    if isinstance(message, dict) and message.get("role") == "toolResult":
        return entry
    return None


def _optional_str(args: dict[str, Any], name: str) -> str | None:
    value = args.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ToolError(f"Argument '{name}' must be a string")
    return value.strip() or None


def _span(entries: list[Recallable]) -> str:
    return f"{entries[0].id} … {entries[-1].id}" if entries else "(none)"


def _header(tree: Tree) -> str:
    """One line: what the latest compaction replaced, and what the abandoned branches hold."""
    if tree.compaction_id is None:
        head = "No compaction on the active branch."
    else:
        count = len(tree.active)
        head = f"Compaction {tree.compaction_id} replaced {count} entries ({_span(tree.active)})."
    if tree.abandoned:
        branches = tree.branches()
        head += (
            f" Abandoned branches: {len(tree.abandoned)} entries on {branches} "
            f"branch{'es' if branches != 1 else ''}."
        )
    return head


def _details(tree: Tree) -> dict[str, Any]:
    return {"compactionId": tree.compaction_id, "abandoned": len(tree.abandoned)}


def _find(text: str, query: str) -> tuple[int, bool] | None:
    """Where ``query`` matches ``text`` (case-insensitive) and whether exactly: the
    substring, else all its words (at the first word)."""
    lowered, needle = text.lower(), query.lower()
    at = lowered.find(needle)
    if at >= 0:
        return at, True
    words = needle.split()
    if len(words) < 2 or any(word not in lowered for word in words):
        return None
    return lowered.find(words[0]), False


def _excerpt(text: str, at: int, size: int) -> tuple[int, int, int, str]:
    """``(line, start, end, excerpt)`` of a window of about ``EXCERPT_CHARS`` around ``at``."""
    start = max(0, at - (EXCERPT_CHARS - size) // 2)
    end = min(len(text), max(start + EXCERPT_CHARS, at + size))
    window = " ".join(text[start:end].split())
    prefix = "…" if start > 0 else ""
    suffix = "…" if end < len(text) else ""
    return text.count("\n", 0, at) + 1, start, end, f"{prefix}{window}{suffix}"


def _search(tree: Tree, query: str, offset: int | None, limit: int | None) -> ToolResult:
    skip = max(0, offset or 0)
    most = min(MAX_MATCHES, max(1, limit or DEFAULT_MATCHES))
    exact: list[tuple[str, Recallable]] = []
    by_words: list[tuple[str, Recallable]] = []
    for item in tree.entries:
        role, text = entry_text(item.entry)
        found = _find(text, query)
        if found is None:
            continue
        line, start, end, excerpt = _excerpt(text, found[0], len(query))
        row = f"[{item.id}] {role}, line {line}, chars {start}-{end}, {item.place()}: {excerpt}"
        (exact if found[1] else by_words).append((row, item))
    matches = exact + by_words  # exact matches first, then those with all the words
    details = {**_details(tree), "matches": len(matches)}
    if not matches:
        text = f'{_header(tree)}\nNo replaced or abandoned entry matches "{query}".'
        return ToolResult.text(text, details=details)
    shown = [row for row, _item in matches[skip : skip + most]]
    details["hits"] = [item.to_json() for _row, item in matches[skip : skip + most]]
    lines = [_header(tree)]
    if not shown:
        lines.append(f'{len(matches)} matches for "{query}"; none at offset {skip}.')
    else:
        last = skip + len(shown)
        lines.append(f'{len(matches)} matches for "{query}" (showing {skip + 1}-{last}):')
        lines.extend(shown)
        if last < len(matches):
            lines.append(f"[More matches: use offset={last} to continue.]")
    lines.append("[Read one entry in full with id=<entry id>.]")
    return ToolResult.text("\n".join(lines), details=details)


def _read(tree: Tree, entry_id: str, offset: int | None, limit: int | None) -> ToolResult:
    item = tree.find(entry_id)
    if item is None:
        raise ToolError(
            f"Entry {entry_id} is not among the replaced entries ({_span(tree.active)}) nor on "
            "an abandoned branch; search with query to find ids"
        )
    role, text = entry_text(item.entry)
    all_lines = text.split("\n")
    first = max(1, offset or 1)
    if first > len(all_lines):
        raise ToolError(
            f"Offset {first} is beyond the end of entry {entry_id} ({len(all_lines)} lines)"
        )
    most = max(1, limit or READ_MAX_LINES)
    window = "\n".join(all_lines[first - 1 : first - 1 + most])
    cut = truncate_head(window, max_lines=min(most, READ_MAX_LINES), max_bytes=READ_MAX_BYTES)
    last = first - 1 + max(cut.output_lines, 1)
    body = cut.content
    head = f"[{entry_id}] {role}, lines {first}-{last} of {len(all_lines)}, {item.place()}:"
    out = f"{head}\n{body}"
    if last < len(all_lines):
        more = f"Use offset={last + 1} to continue."
        out += f"\n\n[Showing lines {first}-{last} of {len(all_lines)}. {more}]"
    details = {**_details(tree), **item.to_json(), "truncation": cut.to_json()}
    return ToolResult.text(out, details=details)


def make_recall_tool() -> FunctionTool:
    snippet = "Search or read the conversation entries a compaction replaced or a branch left"
    tool = builtin_tool("recall", run_recall, DESCRIPTION, PARAMETERS, snippet)
    tool.annotate_context = SpanNote()  # the summary sent names the span recall can read
    return tool
