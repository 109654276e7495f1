"""How soon `pbem serve` shows a game: its page, first painted (issue #27's
goal: under 300 ms for a 300-file Codex game).

    python -m benchmarks.bench_serve [--runs N]   # a seeded Codex game of 300-odd files

Each run starts a fresh `pbem serve FOLDER --as SEAT --no-open` (a real
process, the user's checkpoint warm as after any earlier command; the
server reads its games before it says where it listens):

* HTTP: the game page to its last byte with `http.client`, the first
  request to a fresh server and the same page again (the board, moves and
  log's last lines are drawn anew each time);
* in headless Chromium (where installed), first contentful paints from the
  start of each navigation (`performance` entries, so the server's time is
  inside them): the list of games in a new window (what `pbem serve` opens),
  then the game page clicked from it (the figure of the goal).

The floors: a one-line page of another local server in a new window, then a
second one in the same window, at the same moments (a busy machine slows
both). Medians of `runs`; nothing is asserted.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import select
import signal
import statistics
import subprocess
import sys
import threading
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


@contextlib.contextmanager
def _one_line():
    """A local server of a one-line page, its address."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class OneLine(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the base class's name
            body = b"<!DOCTYPE html><p>pbem</p>" if self.path.split("?")[0] == "/" else b""
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), OneLine)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


LOADED = "document.readyState === 'complete'"
FCP = "(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime"


def _paint(tab, url: str, ready: str = "document.body && document.body.dataset.ready === '1'") -> float:
    """Seconds from the start of the navigation to `url` to its first contentful paint."""
    tab.go(url, ready=ready)
    return tab.wait(FCP) / 1000


def measure(folder: Path, home: Path, seat: str, runs: int, profile: Path) -> dict:
    """Samples in seconds: "cold" and "warm" (HTTP, the game page to its
    last byte from a fresh server, then again); in chromium (empty without
    it) the first contentful paints of "list" (the list of games in a new
    window, as `pbem serve` opens it) and "game" (the game page clicked from
    it), and their floors
    "floor_list" and "floor_game" (a one-line page of another local server
    in a new window, then a second one in the same window); "bytes": the
    game page's size."""
    from pbem.app.serving import folder_key

    path = f"g/{folder_key(folder)}"
    out: dict = {k: [] for k in ("cold", "warm", "list", "game", "floor_list", "floor_game")}
    sys.path.insert(0, str(ROOT / "tests"))
    from cdp import CHROMIUM, Browser

    browser = Browser(profile) if CHROMIUM is not None else None
    try:
        for _ in range(runs):
            proc, url = _start(folder, home, seat)
            try:
                out["cold"].append(_get(url, path)[0])
                took, body = _get(url, path)
                out["warm"].append(took)
                out["bytes"] = len(body)
            finally:
                _stop(proc)
            if browser is None:
                continue
            tab = browser.tab()
            with _one_line() as floor_url:
                out["floor_list"].append(_paint(tab, floor_url, ready=LOADED))
                out["floor_game"].append(_paint(tab, floor_url + "?again", ready=LOADED))
            tab.send("Page.close")
            tab = browser.tab()
            proc, url = _start(folder, home, seat)
            try:
                out["list"].append(_paint(tab, url))
                out["game"].append(_paint(tab, url + path))
            finally:
                _stop(proc)
            tab.send("Page.close")
    finally:
        if browser is not None:
            browser.close()
    return out


def _ms(values: list[float]) -> str:
    return (f"{statistics.median(values) * 1000:.0f} ms (median of "
            + ", ".join(f"{v * 1000:.0f}" for v in values) + ")")


def lines(title: str, files: int, m: dict) -> list[str]:
    out = [f"   {title}, {files} files, the page of the seat to act ({m['bytes'] / 1024:.0f} KiB):",
           f"   HTTP, the first request to a fresh server: {_ms(m['cold'])}",
           f"   HTTP, the same page again: {_ms(m['warm'])}"]
    if m["game"]:
        game = statistics.median(m["game"]) * 1000
        out += [f"   first contentful paint of the list of games in a new window (as pbem serve opens it): "
                f"{_ms(m['list'])}; its floor, a one-line page: {_ms(m['floor_list'])}",
                f"   first contentful paint of the game page clicked from the list: {_ms(m['game'])}; "
                f"goal < {GOAL_MS} ms: {'met' if game < GOAL_MS else 'missed'}",
                f"   its floor, a second one-line page in the same window: {_ms(m['floor_game'])} "
                f"(ratio {game / 1000 / statistics.median(m['floor_game']):.1f}x: a loaded machine slows both)"]
    else:
        out.append("   first paint in a browser: not measured (chromium is not installed)")
    return out


def main(argv: list[str] | None = None) -> None:
    import argparse
    import tempfile

    from benchmarks import seeded
    from pbem.gamedir import folder as folder_mod

    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_serve")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--files", type=int, default=300)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        # a calm build-up by the random bot (no attacks) for longer than
        # the figure's length, so the game is still going there
        game = seeded.make("cx", "hotseat", work / "cx", 4, calm=args.files + 20, stop=args.files + 20)
        n = seeded.decision_point(game.folder(), args.files) or game.files
        here = seeded.prefix(game.folder(), work / "served", n)
        chain = folder_mod.load(here)
        seat = (chain.writers() or chain.seat_order)[0]
        subprocess.run([sys.executable, "-m", "pbem", "status", str(here)], check=True, stdout=subprocess.DEVNULL,
                       env={**os.environ, "PBEM_HOME": str(game.home())})  # this user's checkpoint, warm
        m = measure(here, game.home(), seat, args.runs, work / "profile")
        print("\n".join(lines(game.title, len(chain.records), m)))


if __name__ == "__main__":
    main()
