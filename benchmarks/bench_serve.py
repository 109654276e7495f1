"""How soon `pbem serve` shows a game: its page, first painted (issue #27's
goal: under 300 ms for a 300-file Codex game).

Each run starts a fresh `pbem serve FOLDER --as SEAT --no-open` (a real
process, the user's checkpoint warm as after any earlier command):

* cold: the first request for the game page, to the last byte, with
  `http.client`: the chain read from the checkpoint, the seat's view and
  its legal moves, the board and the log drawn (a server also reads its
  games in the background as it starts, so this is the worst case);
* warm: the same page again, once the server holds the game (what a
  player opening it from the list, or a page refreshed after a new file,
  waits for: the board and moves are drawn anew each time);
* paint: the page's first contentful paint in headless Chromium
  (`performance` entries, from the start of the navigation, so the
  server's time is inside it), where chromium is installed.

The floor: the first paint of a one-line page in the same browser at the
same moments (a busy machine slows both). Medians of `runs`; nothing is
asserted.
"""

from __future__ import annotations

import http.client
import os
import select
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
GOAL_MS = 300


def _start(folder: Path, home: Path, seat: str) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "PBEM_HOME": str(home), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "pbem", "serve", str(folder), "--as", seat, "--no-open"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    ready, _, _ = select.select([proc.stdout], [], [], 60)
    url = proc.stdout.readline().strip() if ready else ""
    if not url.startswith("http://"):
        _stop(proc)
        raise RuntimeError("pbem serve did not start")
    return proc, url


def _stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(15)


def _get(url: str, path: str) -> tuple[float, bytes]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    t = time.perf_counter()
    conn.request("GET", parts.path + path, headers={"Host": parts.netloc})
    body = conn.getresponse().read()
    took = time.perf_counter() - t
    conn.close()
    return took, body


def measure(folder: Path, home: Path, seat: str, runs: int, profile: Path) -> dict:
    """{"cold": [s ...], "warm": [s ...], "paint": [s ...] (empty without chromium), "bytes": page size}."""
    from pbem.serving import folder_key

    path = f"g/{folder_key(folder)}"
    cold, warm, paint, floor, size = [], [], [], [], 0
    sys.path.insert(0, str(ROOT / "tests"))
    from cdp import CHROMIUM, Browser

    browser = Browser(profile) if CHROMIUM is not None else None
    try:
        for _ in range(runs):
            proc, url = _start(folder, home, seat)
            try:
                cold.append(_get(url, path)[0])
                took, body = _get(url, path)
                warm.append(took)
                size = len(body)
                if browser is not None:
                    tab = browser.tab()
                    tab.go(url + path)
                    paint.append(tab.wait("(performance.getEntriesByName('first-contentful-paint')[0] || {})"
                                          ".startTime") / 1000)
                    tab.send("Page.close")
                    tab = browser.tab()  # the floor: a page of one line, in the same browser at the same moment
                    tab.go("data:text/html,<p>pbem</p>", ready="document.readyState === 'complete'")
                    floor.append(tab.wait("(performance.getEntriesByName('first-contentful-paint')[0] || {})"
                                          ".startTime") / 1000)
                    tab.send("Page.close")
            finally:
                _stop(proc)
    finally:
        if browser is not None:
            browser.close()
    return {"cold": cold, "warm": warm, "paint": paint, "floor": floor, "bytes": size}


def _ms(values: list[float]) -> str:
    return (f"{statistics.median(values) * 1000:.0f} ms (median of "
            + ", ".join(f"{v * 1000:.0f}" for v in values) + ")")


def lines(title: str, files: int, m: dict) -> list[str]:
    out = [f"   {title}, {files} files, the page of the seat to act ({m['bytes'] / 1024:.0f} KiB):",
           f"   the first request to a fresh server (the game read from the checkpoint): {_ms(m['cold'])}",
           f"   the page once the server has read its games (as when opened from the list): {_ms(m['warm'])}"]
    if m["paint"]:
        paint = statistics.median(m["paint"]) * 1000
        out.append(f"   first contentful paint in headless chromium, from the navigation: {_ms(m['paint'])}; "
                   f"goal < {GOAL_MS} ms: {'met' if paint < GOAL_MS else 'missed'}")
        out.append(f"   the floor, a one-line page in the same browser: {_ms(m['floor'])} "
                   f"(ratio {paint / 1000 / statistics.median(m['floor']):.1f}x: a loaded machine slows both)")
    else:
        out.append("   first paint in a browser: not measured (chromium is not installed)")
    return out
