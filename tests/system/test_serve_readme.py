"""The README's quickstart of `pbem serve`, run as written: each command a
real process in a fresh folder and home; the two `pbem serve` lines are
started (with ``--no-open``: no browser to open here), and alice clicks a
card and Send on her page in headless Chromium, as the README says (where
chromium is missing, her page's own requests are sent instead)."""

from __future__ import annotations

import html
import json
import os
import re
import select
import shlex
import signal
import subprocess
import sys

from cdp import CHROMIUM, Browser
from served import open_game
from paths import ROOT

MARK = "<!-- the quickstart of pbem serve"


def quickstart() -> list[list[str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(re.escape(MARK) + r".*?\n```sh\n(.*?)\n```", text, re.S).group(1)
    commands = []
    for line in block.splitlines():
        line = line.split("  #", 1)[0].strip()
        commands += [shlex.split(part) for part in line.split("&&") if part.strip()]
    return commands


def test_the_readme_quickstart_plays_a_move(tmp_path):
    env = {**os.environ, "PBEM_HOME": str(tmp_path / "home"), "PYTHONUNBUFFERED": "1"}
    commands = quickstart()
    assert [c[:2] for c in commands] == [["pbem", "id"], ["pbem", "id"], ["pbem", "new"], ["pbem", "serve"],
                                         ["pbem", "serve"]]
    servers: dict[str, tuple[subprocess.Popen, str]] = {}
    try:
        for cmd in commands:
            args = [sys.executable, "-m", "pbem", *cmd[1:]]
            if cmd[1] != "serve":
                subprocess.run(args, cwd=tmp_path, env=env, check=True, capture_output=True)
                continue
            proc = subprocess.Popen([*args, "--no-open"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, text=True)
            ready, _, _ = select.select([proc.stdout], [], [], 30)
            url = proc.stdout.readline().strip() if ready else ""
            servers[cmd[cmd.index("--as") + 1]] = (proc, url)
            assert url.startswith("http://127.0.0.1:"), url
        game = tmp_path / "game"
        if CHROMIUM is not None:
            browser = Browser(tmp_path / "profile")
            try:
                tab = open_game(browser, servers["alice"][1])
                tab.click("#board .pick-target")  # a card in her hand
                tab.click("#moves li:not([hidden]) button.move")
                tab.wait("!document.getElementById('confirm').hidden")
                tab.click("#send")
                tab.wait("+document.querySelector('.layout').dataset.seq >= 1")
            finally:
                browser.close()
        else:
            from served import Served

            alice = Served.at(servers["alice"][1])
            token, key = alice.token(), alice.game_keys()[0]
            move = html.unescape(re.search(r'data-cmd="([^"]+)"', alice.page(f"g/{key}")).group(1))
            answer = json.loads(alice.post(f"g/{key}/submit", {"text": move, "seq": 0}, token=token)[1])
            assert answer["ok"], answer
        assert (game / "000001-alice.pbem").exists()
    finally:
        for proc, _ in servers.values():
            proc.send_signal(signal.SIGINT)
            proc.wait(15)
