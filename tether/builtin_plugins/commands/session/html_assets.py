"""The inline CSS and JavaScript of the HTML export (:mod:`.html_export`): static text, no data.

The script only toggles ``<details>`` elements (expand all, collapse all, back to the active
path); every value of the session is escaped HTML in the page's body, never script text.
"""

from __future__ import annotations

import base64
import hashlib

CSS = """
:root { --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg: #ffffff; --card: #f6f8fa;
  --active: #1a7f37; --leaf: #9a6700; --user: #0969da; --tool: #8250df; --err: #cf222e; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif;
  color: var(--fg); background: var(--bg); }
header { position: sticky; top: 0; z-index: 2; background: var(--bg);
  border-bottom: 1px solid var(--line); padding: 8px 16px; }
header h1 { font-size: 16px; margin: 0 0 4px; }
header .facts { color: var(--muted); font-size: 12px; display: flex; flex-wrap: wrap; gap: 12px; }
header button { font: inherit; font-size: 12px; margin: 6px 6px 0 0; padding: 2px 8px;
  border: 1px solid var(--line); border-radius: 6px; background: var(--card); cursor: pointer; }
main { padding: 12px 16px 48px; }
.entry { border: 1px solid var(--line); border-left: 4px solid var(--line); border-radius: 6px;
  background: var(--card); margin: 6px 0; padding: 6px 10px; }
.entry.active { border-left-color: var(--active); }
.entry.leaf { border-left-color: var(--leaf); box-shadow: 0 0 0 2px var(--leaf); }
.entry.off { opacity: 0.85; }
.meta { font-size: 12px; color: var(--muted); display: flex; gap: 8px; flex-wrap: wrap; }
.meta .kind { font-weight: 600; color: var(--fg); }
.entry.user .kind { color: var(--user); }
.entry.toolResult .kind, .toolcall .name { color: var(--tool); }
.entry.error .kind { color: var(--err); }
.badge { border-radius: 10px; padding: 0 6px; font-size: 11px; border: 1px solid; }
.badge.label { color: #0550ae; border-color: #0550ae; }
.badge.here { color: var(--leaf); border-color: var(--leaf); }
.badge.path { color: var(--active); border-color: var(--active); }
.text, pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; }
pre { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; background: var(--bg);
  border: 1px solid var(--line); border-radius: 4px; padding: 6px; max-height: 28em;
  overflow: auto; }
details.thinking > summary, details.raw > summary { color: var(--muted); cursor: pointer;
  font-size: 12px; }
details.thinking .text { color: var(--muted); font-style: italic; }
.toolcall { margin: 4px 0; }
.summary-text { border-left: 3px solid var(--tool); padding-left: 8px; }
img.inline { max-width: 480px; max-height: 320px; display: block; margin: 4px 0; }
.branches { margin-left: 14px; padding-left: 10px; border-left: 2px dashed var(--line); }
details.branch { margin: 6px 0; }
details.branch > summary { cursor: pointer; font-size: 13px; padding: 2px 0; }
details.branch.on-path > summary { color: var(--active); font-weight: 600; }
.small { font-size: 12px; color: var(--muted); }
"""

SCRIPT = """
(function () {
  "use strict";
  function branches() { return document.querySelectorAll("details.branch"); }
  function setAll(open) { branches().forEach(function (d) { d.open = open; }); }
  function showActive() {
    branches().forEach(function (d) { d.open = d.classList.contains("on-path"); });
    var leaf = document.getElementById("leaf");
    if (leaf) { leaf.scrollIntoView({ block: "center" }); }
  }
  var actions = { expand: function () { setAll(true); }, collapse: function () { setAll(false); },
    active: showActive };
  document.querySelectorAll("button[data-action]").forEach(function (button) {
    button.addEventListener("click", function () { actions[button.dataset.action](); });
  });
  showActive();
})();
"""


def script_hash() -> str:
    """The CSP source that lets :data:`SCRIPT` (and nothing else) run."""
    digest = hashlib.sha256(SCRIPT.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def content_security_policy() -> str:
    """No network at all: inline style, this page's one script, images from ``data:`` URLs."""
    return (
        "default-src 'none'; style-src 'unsafe-inline'; "
        f"script-src {script_hash()}; img-src data:; base-uri 'none'; form-action 'none'"
    )


__all__ = ["CSS", "SCRIPT", "content_security_policy", "script_hash"]
