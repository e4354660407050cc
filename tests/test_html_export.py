"""``tether session export FILE --html``: one self-contained page of the whole tree, checked
in a real headless Chromium (Debian's ``chromium``, driven by playwright without its own
browser download). Without the browser that test skips, and fails under ``CI=true``
(tests/needs.py): ``.ci/run`` installs it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import needs
from tests.store_helpers import run_tether
from tests.tree_fixture import NASTY, build_branched
from tether.builtin_plugins.commands.session.html_export import render_html
from tether.core.session.session import Session

BROWSER_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def exported(tmp_path: Path) -> tuple[Path, dict[str, str], Path]:
    file = tmp_path / "branched.jsonl"
    ids = build_branched(file)
    out = tmp_path / "page.html"
    done = run_tether("session", "export", str(file), "--html", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(out)
    return file, ids, out


def test_page_is_self_contained_and_escaped(exported) -> None:
    file, ids, out = exported
    page = out.read_text(encoding="utf-8")
    assert page.count("<script") == 1 and page.count("</script>") == 1  # only the page's own
    assert NASTY not in page and "&lt;/script&gt;&lt;script&gt;window.__pwned" in page
    assert "http://" not in page and "https://" not in page
    assert "Content-Security-Policy" in page and "default-src &#x27;none&#x27;" in page
    for entry_id in ids.values():
        assert f'data-id="{entry_id}"' in page
    assert "thinking about the first idea" in page and "explored the first idea" in page
    assert "## Goal\nsecond idea so far" in page and ">checkpoint</span>" in page


def test_render_html_is_the_library_entry_point(exported) -> None:
    file, _, out = exported
    assert render_html(Session.open(file, readonly=True)) == out.read_text(encoding="utf-8")


def test_never_overwrites(exported) -> None:
    file, _, out = exported
    before = out.read_bytes()
    done = run_tether("session", "export", str(file), "--html", "-o", str(out))
    assert done.returncode != 0
    assert done.stderr.strip().splitlines() == [
        f"tether: error: {out}: already exists; refusing to overwrite"
    ]
    assert out.read_bytes() == before


def test_page_in_a_real_browser(exported, tmp_path: Path) -> None:
    executable = needs.chromium()
    from playwright.sync_api import sync_playwright

    file, ids, out = exported
    problems: list[str] = []
    requests: list[str] = []
    shot = tmp_path / "page.png"
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"),  # a fresh --user-data-dir
            executable_path=executable,
            headless=True,
            args=BROWSER_FLAGS,
        )
        try:
            page = context.new_page()
            page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda error: problems.append(str(error)))
            page.on("request", lambda request: requests.append(request.url))
            page.goto(out.as_uri())
            page.wait_for_load_state("load")

            assert problems == []
            assert all(url.startswith(("file:", "data:")) for url in requests), requests
            assert page.evaluate("typeof window.__pwned") == "undefined"
            assert page.locator('img[src="x"]').count() == 0
            assert NASTY in (page.locator(f'[data-id="{ids["x2"]}"]').text_content() or "")

            session = Session.open(file, readonly=True)
            active = page.locator(".entry.active")
            assert active.count() == len(session.branch_ids())
            for index in range(active.count()):
                assert active.nth(index).is_visible()
            leaf = page.locator("#leaf")
            assert leaf.is_visible() and leaf.get_attribute("data-id") == ids["y11"]
            assert page.locator(f'[data-id="{ids["y3"]}"]').is_visible()  # the compaction

            other = page.locator(f'[data-id="{ids["x1"]}"]')
            assert not other.is_visible()  # the branch off the active path starts collapsed
            branch = page.locator("details.branch:not([open])")
            assert branch.count() == 1
            branch.locator("> summary").click()
            assert other.is_visible() and page.locator(f'[data-id="{ids["x2"]}"]').is_visible()

            page.click('button[data-action="collapse"]')  # the page's own script works
            assert not leaf.is_visible() and not other.is_visible()
            page.click('button[data-action="active"]')
            assert leaf.is_visible() and not other.is_visible()

            page.screenshot(path=str(shot), full_page=True)
            assert problems == []
        finally:
            context.close()
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 1000
