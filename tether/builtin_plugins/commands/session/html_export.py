"""``tether session export FILE --html`` (and RPC ``export_html``): the whole tree as one page.

:func:`render_html` turns a session (any :class:`~tether.core.session.reader.SessionReader`:
a read-only file or a running harness's session) into one self-contained HTML page: inline CSS
and script (:mod:`.html_assets`), images as ``data:`` URLs, and a Content-Security-Policy
that allows no network at all. Every entry of every branch is shown — messages, thinking, tool
calls and results, bash runs, compactions and branch summaries, model and thinking changes,
labels, custom entries. Where the conversation branches, each branch is a ``<details>``
element: the ones on the active path are open, the others closed. Entries on the active path
are marked, the leaf most of all (``id="leaf"``). Every value is HTML-escaped; the page's
only script is static text.
"""

from __future__ import annotations

import json
import os
from html import escape
from pathlib import Path
from typing import Any

from tether.builtin_plugins.commands.session.html_assets import (
    CSS,
    SCRIPT,
    content_security_policy,
)
from tether.builtin_plugins.commands.session.render import describe
from tether.builtin_plugins.commands.session.tree_nodes import build_tree
from tether.rules import is_image

SUMMARY_TYPES = ("compaction", "branch_summary")


def _e(value: Any) -> str:
    return escape(value if isinstance(value, str) else str(value), quote=True)


def _pretty(value: Any) -> str:
    try:
        return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False)
    except (TypeError, ValueError):
        return repr(value)


def _text(value: Any) -> str:
    return f'<div class="text">{_e(value)}</div>'


def _image(block: dict[str, Any]) -> str:
    mime = str(block.get("mimeType") or "image/png")
    if not mime.startswith("image/") or not all(c.isalnum() or c in "/+.-" for c in mime):
        mime = "application/octet-stream"
    data = str(block.get("data") or "")
    if not all(c.isalnum() or c in "+/=\n" for c in data):
        return '<div class="small">[image with invalid data]</div>'
    return f'<img class="inline" alt="image" src="data:{mime};base64,{_e(data)}">'


def _block(block: Any) -> str:
    """One content block: text, image, thinking, tool call (anything else as JSON)."""
    if isinstance(block, str):
        return _text(block)
    if not isinstance(block, dict):
        return f"<pre>{_e(_pretty(block))}</pre>"
    kind = block.get("type")
    if kind == "text":
        return _text(block.get("text", ""))
    if kind == "image":
        return _image(block)
    if kind == "thinking":
        thought = block.get("thinking", "")
        return f'<details class="thinking"><summary>thinking</summary>{_text(thought)}</details>'
    if kind == "toolCall":
        args = _pretty(block.get("arguments", {}))
        return (
            f'<div class="toolcall">tool call <span class="name">{_e(block.get("name", ""))}'
            f'</span> <span class="small">{_e(block.get("id", ""))}</span>'
            f"<pre>{_e(args)}</pre></div>"
        )
    return f"<pre>{_e(_pretty(block))}</pre>"


def _content(content: Any) -> str:
    if isinstance(content, list):
        return "".join(_block(block) for block in content)
    if content is None:
        return ""
    return _block(content)


def _message_body(message: dict[str, Any]) -> tuple[str, str]:
    """``(kind shown, body HTML)`` of a message entry."""
    role = str(message.get("role", "message"))
    if role == "bashExecution":
        body = f"<pre>$ {_e(message.get('command', ''))}\n{_e(message.get('output', ''))}</pre>"
        return "bash", body
    body = _content(message.get("content"))
    if role == "toolResult":
        kind = f"toolResult · {message.get('toolName', '')}"
        return kind, f"<pre>{_e(_plain(message.get('content')))}</pre>" + _images(message)
    if role == "assistant":
        facts = [message.get("provider"), message.get("model"), message.get("stopReason")]
        note = " · ".join(str(f) for f in facts if f)
        if message.get("errorMessage"):
            body += f'<div class="small">error: {_e(message["errorMessage"])}</div>'
        return role, body + (f'<div class="small">{_e(note)}</div>' if note else "")
    return role, body


def _plain(content: Any) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return "" if content is None else _pretty(content)
    parts = [b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"]
    return "\n".join(str(p) for p in parts)


def _images(message: dict[str, Any]) -> str:
    content = message.get("content")
    if not isinstance(content, list):
        return ""
    return "".join(_image(b) for b in content if is_image(b))


def _entry_body(entry: dict[str, Any]) -> tuple[str, str, list[str]]:
    """``(kind shown, body HTML, extra CSS classes)`` of one entry."""
    kind = entry.get("type")
    if kind == "message" and isinstance(entry.get("message"), dict):
        message = entry["message"]
        shown, body = _message_body(message)
        classes = [str(message.get("role", ""))]
        if message.get("isError") or message.get("stopReason") == "error":
            classes.append("error")
        return shown, body, classes
    if kind in SUMMARY_TYPES:
        facts = (
            f"tokens before {entry.get('tokensBefore')}, kept from {entry.get('firstKeptEntryId')}"
            if kind == "compaction"
            else f"from {entry.get('fromId')}"
        )
        body = (
            f'<div class="text summary-text">{_e(entry.get("summary", ""))}</div>'
            f'<div class="small">{_e(facts)}</div>'
        )
        return str(kind), body, [str(kind)]
    if kind == "custom_message":
        return f"custom_message · {entry.get('customType')}", _content(entry.get("content")), []
    if kind in ("model_change", "thinking_level_change", "label", "session_info"):
        return str(kind), f'<div class="small">{_e(describe(entry))}</div>', [str(kind)]
    raw = _pretty({k: v for k, v in entry.items() if k not in ("id", "parentId", "timestamp")})
    body = f'<details class="raw"><summary>data</summary><pre>{_e(raw)}</pre></details>'
    return str(kind), body, []


def _subtree_sizes(roots: list[Any]) -> dict[int, int]:
    """Entries under each node, itself included (iterative: deep trees are fine)."""
    order: list[Any] = []
    seen: set[int] = set()
    stack = list(roots)
    while stack:
        node = stack.pop()
        if id(node) not in seen:
            seen.add(id(node))
            order.append(node)
            stack.extend(node.children)
    sizes: dict[int, int] = {}
    for node in reversed(order):  # children come after their parent in pre-order
        sizes[id(node)] = 1 + sum(sizes.get(id(child), 0) for child in node.children)
    return sizes


class _Page:
    """The body of the page for one session: entries in runs, branches as ``<details>``."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.leaf = session.leaf_id
        self.on_path = set(session.branch_ids())
        self.roots = build_tree(session)
        self.sizes = _subtree_sizes(self.roots)

    def entry(self, node: Any) -> str:
        entry = self.session.entry_of(node)
        shown, body, classes = _entry_body(entry)
        classes = ["entry", *classes]
        badges = ""
        if node.label is not None:
            badges += f'<span class="badge label">{_e(node.label)}</span>'
        if node.id == self.leaf:
            classes.append("leaf active")
            badges += '<span class="badge here">current leaf</span>'
        elif node.id in self.on_path:
            classes.append("active")
        else:
            classes.append("off")
        anchor = ' id="leaf"' if node.id == self.leaf else ""
        return (
            f'<div class="{_e(" ".join(c for c in classes if c))}"{anchor} '
            f'data-id="{_e(node.id)}"><div class="meta"><span class="kind">{_e(shown)}</span>'
            f'<span class="id">{_e(node.id)}</span>{badges}'
            f'<span class="time">{_e(entry.get("timestamp", ""))}</span></div>{body}</div>'
        )

    def branch_open(self, node: Any) -> str:
        on_path = node.id in self.on_path
        entry = self.session.entry_of(node)
        label = f" [{node.label}]" if node.label is not None else ""
        title = f"{describe(entry)}{label}"
        count = self.sizes.get(id(node), 1)
        state = " open" if on_path else ""
        css = "branch on-path" if on_path else "branch"
        mark = "active path · " if on_path else ""
        return (
            f'<details class="{css}"{state}><summary>{_e(mark)}{count} '
            f"{'entry' if count == 1 else 'entries'} · {_e(title)}</summary>"
        )

    def body(self) -> str:
        parts: list[str] = []
        roots = self.roots
        branching = len(roots) > 1
        stack: list[Any] = [("node", root, branching) for root in reversed(roots)]
        if branching:
            parts.append('<div class="branches">')
            stack.insert(0, ("html", "</div>"))
        seen: set[int] = set()
        while stack:
            item = stack.pop()
            if item[0] == "html":
                parts.append(item[1])
                continue
            _, node, in_branch = item
            if id(node) in seen:
                continue
            if in_branch:
                parts.append(self.branch_open(node))
                stack.append(("html", "</details>"))
            while True:  # the linear run from here
                seen.add(id(node))
                parts.append(self.entry(node))
                children = [c for c in node.children if id(c) not in seen]
                if len(children) != 1:
                    break
                node = children[0]
            if len(children) > 1:
                parts.append('<div class="branches">')
                stack.append(("html", "</div>"))
                stack.extend(("node", child, True) for child in reversed(children))
        return "".join(parts)


def render_html(session: Any) -> str:
    """The whole tree of ``session`` as one self-contained HTML page (see the module doc)."""
    name = session.session_name
    title = name or f"session {session.session_id}"
    file = getattr(session, "file", None)
    facts = [
        f"id {session.session_id}",
        f"cwd {session.cwd}",
        f"{len(session)} entries",
        f"leaf {session.leaf_id or '-'}",
    ]
    if file is not None:
        facts.insert(0, str(file))
    page = _Page(session)
    body = page.body() or '<p class="small">(no entries)</p>'
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_e(content_security_policy())}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)} · tether</title><style>{CSS}</style></head><body>"
        f"<header><h1>{_e(title)}</h1>"
        f'<div class="facts">{"".join(f"<span>{_e(f)}</span>" for f in facts)}</div>'
        '<button type="button" data-action="active">Active path</button>'
        '<button type="button" data-action="expand">Expand all</button>'
        '<button type="button" data-action="collapse">Collapse all</button></header>'
        f"<main>{body}</main><script>{SCRIPT}</script></body></html>\n"
    )


def html_target(file: Path, stored: bool) -> Path:
    """Where ``export --html`` writes without ``-o``: next to the session file, as the JSONL
    export does, with its name and ``.html``; for a session in a database (``file`` is its
    id), in the current folder."""
    name = f"{Path(str(file)).stem}.html"
    return Path.cwd() / name if stored else Path(file).resolve().parent / name


def write_html(session: Any, output: Path) -> Path:
    """Write :func:`render_html` to ``output`` (a new file: never overwrites; a dangling
    symlink counts as existing) and return the path."""
    from tether import SessionFileError

    page = render_html(session).encode("utf-8", "replace")
    if os.path.lexists(output):
        raise SessionFileError(f"{output}: already exists; refusing to overwrite")
    try:
        with open(output, "xb") as handle:
            handle.write(page)
    except FileExistsError:
        raise SessionFileError(f"{output}: already exists; refusing to overwrite") from None
    except OSError as exc:
        raise SessionFileError(f"{output}: cannot write: {exc.strerror}") from None
    return output


__all__ = ["html_target", "render_html", "write_html"]
