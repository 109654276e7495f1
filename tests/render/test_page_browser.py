"""The game page in a real browser: Debian's chromium, headless, offline.

The page is opened from a file in one headless chromium for the module
(`cdp.py`, its DevTools pipe; a fresh profile, networking features off);
its DOM once its script has run must hold the board's elements and the
submit lines, and a screenshot is taken (kept in the test's tmp dir: look
at it when a picture changes). Every wait is for a condition in the page,
never for a time: a loaded machine only makes it slower. `.ci/run`
installs chromium; without it the test is skipped, saying why.
"""

from __future__ import annotations

import base64
import hashlib
import struct
from pathlib import Path

import pytest

from cdp import CHROMIUM, SKIP, Browser
from test_pictures import aa_game, cn_game  # noqa: F401 - the fixed scenarios

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=SKIP)
READY = "document.body && document.body.dataset.ready === '1'"


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    b = Browser(tmp_path_factory.mktemp("chromium") / "profile")
    yield b
    b.close()


def dom_of(browser, page: Path, ready: str = READY) -> str:
    """The page's DOM once `ready` holds in it."""
    tab = browser.tab()
    try:
        tab.go(page.resolve().as_uri(), ready=ready)
        return tab.eval("document.documentElement.outerHTML")
    finally:
        tab.send("Page.close")


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


def open_page(pbem, browser, folder: Path, seat: str, tmp_path: Path) -> tuple[str, Path]:
    page = tmp_path / f"{seat}.html"
    pbem("page", folder, "--as", seat, "-o", page)
    tab = browser.tab(width=1400, height=1000)
    try:
        tab.go(page.resolve().as_uri(), ready=READY)
        dom = tab.eval("document.documentElement.outerHTML")
        shot = tab.screenshot(tmp_path / f"{seat}.png", full=False)
    finally:
        tab.send("Page.close")
    assert png_size(shot) == (1400, 1000)
    assert shot.stat().st_size > 30_000  # a drawn page, not a blank one
    return dom, shot


def test_agent_avenue_page_in_chromium(pbem, browser, aa_game, tmp_path):  # noqa: F811
    dom, _ = open_page(pbem, browser, aa_game, "bob", tmp_path)
    assert 'data-ready="1"' in dom  # the inline script ran under the page's CSP
    assert dom.count('class="meeple"') == 2 and dom.count('class="seat"') == 2
    assert 'data-card="Mole"' in dom and 'data-card="Saboteur"' not in dom
    assert dom.count('class="copy"') == 2 and '--cmd "recruit face-up"' in dom


def test_codenames_page_in_chromium(pbem, browser, cn_game, tmp_path):  # noqa: F811
    dom, _ = open_page(pbem, browser, cn_game, "alice", tmp_path)
    assert 'data-ready="1"' in dom
    assert dom.count('class="cell"') == 25
    assert 'data-word="orbit"' in dom and 'data-colour="assassin"' in dom  # alice holds the key
    assert 'id="log"' in dom and "clue food 3" in dom


# --- the page's Content-Security-Policy, as an injection would meet it ---------------------------

#: what an injection into the page could try (none is known: every text is escaped)
INJECTED = (
    '<script>document.body.dataset.inline = "ran";</script>'
    '<svg width="1" height="1" onload="document.body.dataset.handler = \'ran\'"></svg>'
    '<base href="https://injected.example/">'
)


def script_hash(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


def test_an_injected_script_handler_or_base_does_nothing(pbem, browser, aa_game, tmp_path):  # noqa: F811
    """The page's own script runs (its hash is in the policy); a script, an
    event handler or a <base> put into the page by an injection does not."""
    page = tmp_path / "bob.html"
    pbem("page", aa_game, "--as", "bob", "-o", page)
    html = page.read_text()
    page.write_text(html.replace('<section id="board"', INJECTED + '<section id="board"', 1))
    dom = dom_of(browser, page)  # the page's own script has run: what the injection tried, before it, did not
    assert 'data-ready="1"' in dom
    assert 'data-inline' not in dom and 'data-handler' not in dom
    assert "unsafe-inline" not in html


def test_no_form_is_sent_and_no_base_moves_the_links(pbem, browser, aa_game, tmp_path):  # noqa: F811
    """The page's script replaced by a probe (and only its hash changed in
    the policy): the probe sends a form to a local file and reads the
    page's base address after an injected <base>. The policy stops both."""
    from pbem.render import page as page_mod

    page = tmp_path / "bob.html"
    pbem("page", aa_game, "--as", "bob", "-o", page)
    leak = tmp_path / "leak.html"
    leak.write_text("<!DOCTYPE html><html><body>LEAKED</body></html>")
    probe = (
        'document.addEventListener("securitypolicyviolation", function (e) {'
        '  document.body.dataset[e.effectiveDirective.replace("-", "")] = "refused"; });'
        'document.body.dataset.base = document.baseURI;'
        'window.addEventListener("load", function () {'
        '  setTimeout(function () { document.getElementById("leak").submit(); }, 0); });'
    )
    html = page.read_text().replace(page_mod.SCRIPT, probe)
    html = html.replace(script_hash(page_mod.SCRIPT), script_hash(probe))
    form = f'<form id="leak" method="get" action="{leak.resolve().as_uri()}"><input name="q" value="secret"></form>'
    page.write_text(html.replace('<section id="board"', f'<base href="{leak.resolve().as_uri()}">{form}'
                                 '<section id="board"', 1))
    # the form's refusal is awaited (the form is sent once the page has
    # loaded); had the form gone, the page would be the leak's and the wait
    # would fail. The <base> refusal is proven by its effect, the address the
    # probe read: its violation event is queued when the parser meets the tag
    # and may run before the probe's listener exists on a loaded machine.
    dom = dom_of(browser, page, ready="document.body && document.body.dataset.formaction === 'refused'")
    assert "LEAKED" not in dom, dom[-500:]
    assert f'data-base="{page.resolve().as_uri()}"' in dom
    assert 'data-formaction="refused"' in dom
