"""The game page in a real browser: Debian's chromium, headless, offline.

The page is opened from a file with networking features turned off and a
fresh profile; its DOM after the scripts ran (``--dump-dom``) must hold the
board's elements and the submit lines, and a screenshot is taken (kept in
the test's tmp dir: look at it when a picture changes). `.ci/run` installs
chromium; without it the test is skipped, saying why.
"""

from __future__ import annotations

import base64
import hashlib
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from test_pictures import aa_game, cn_game  # noqa: F401 - the fixed scenarios

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (apt-get install -y chromium; .ci/run does it)"
)
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def chromium(tmp_path: Path, *args: str) -> str:
    profile = tmp_path / f"profile-{len(list(tmp_path.glob('profile-*')))}"
    profile.mkdir()
    out = subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True, text=True, timeout=120, env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


def open_page(pbem, folder: Path, seat: str, tmp_path: Path) -> tuple[str, Path]:
    page = tmp_path / f"{seat}.html"
    pbem("page", folder, "--as", seat, "-o", page)
    url = page.resolve().as_uri()
    dom = chromium(tmp_path, "--dump-dom", url)
    shot = tmp_path / f"{seat}.png"
    chromium(tmp_path, "--window-size=1400,1000", "--hide-scrollbars", f"--screenshot={shot}", url)
    assert png_size(shot) == (1400, 1000)
    assert shot.stat().st_size > 30_000  # a drawn page, not a blank one
    return dom, shot


def test_agent_avenue_page_in_chromium(pbem, aa_game, tmp_path):  # noqa: F811
    dom, _ = open_page(pbem, aa_game, "bob", tmp_path)
    assert 'data-ready="1"' in dom  # the inline script ran under the page's CSP
    assert dom.count('class="meeple"') == 2 and dom.count('class="seat"') == 2
    assert 'data-card="Mole"' in dom and 'data-card="Saboteur"' not in dom
    assert dom.count('class="copy"') == 2 and '--cmd "recruit face-up"' in dom


def test_codenames_page_in_chromium(pbem, cn_game, tmp_path):  # noqa: F811
    dom, _ = open_page(pbem, cn_game, "alice", tmp_path)
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


def test_an_injected_script_handler_or_base_does_nothing(pbem, aa_game, tmp_path):  # noqa: F811
    """The page's own script runs (its hash is in the policy); a script, an
    event handler or a <base> put into the page by an injection does not."""
    page = tmp_path / "bob.html"
    pbem("page", aa_game, "--as", "bob", "-o", page)
    html = page.read_text()
    page.write_text(html.replace('<section id="board"', INJECTED + '<section id="board"', 1))
    dom = chromium(tmp_path, "--dump-dom", page.resolve().as_uri())
    assert 'data-ready="1"' in dom
    assert 'data-inline' not in dom and 'data-handler' not in dom
    assert "unsafe-inline" not in html


def test_no_form_is_sent_and_no_base_moves_the_links(pbem, aa_game, tmp_path):  # noqa: F811
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
    dom = chromium(tmp_path, "--virtual-time-budget=2000", "--dump-dom", page.resolve().as_uri())
    assert "LEAKED" not in dom, dom[-500:]
    assert f'data-base="{page.resolve().as_uri()}"' in dom
    assert 'data-baseuri="refused"' in dom and 'data-formaction="refused"' in dom
