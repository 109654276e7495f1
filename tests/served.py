"""`pbem serve` as a real process, for the tests that talk to it."""

from __future__ import annotations

import http.client
import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit


class Served:
    """`pbem serve FOLDERS --as NAME --no-open` in its own process with
    `home` as its PBEM_HOME; `url` is the address it printed."""

    def __init__(self, home: Path, name: str, *folders: Path, log: Path, extra: tuple[str, ...] = ()) -> None:
        env = {**os.environ, "PBEM_HOME": str(home), "PBEM_WATCH_SETTLE": "0.05", "PYTHONUNBUFFERED": "1",
               "PYTHONFAULTHANDLER": "1"}
        self.log = log
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pbem", "serve", *map(str, folders), "--as", name, "--no-open", *extra],
            env=env, stdout=subprocess.PIPE, stderr=open(log, "a"), stdin=subprocess.DEVNULL, text=True,
        )
        ready, _, _ = select.select([self.proc.stdout], [], [], 30)
        line = self.proc.stdout.readline().strip() if ready else ""
        if not line.startswith("http://"):
            self.stop()
            raise AssertionError(f"pbem serve did not start: {line!r} {log.read_text()}")
        self._address(line)

    @classmethod
    def at(cls, url: str) -> "Served":
        """A server started elsewhere, at `url`."""
        out = cls.__new__(cls)
        out.proc = None
        out._address(url)
        return out

    def _address(self, url: str) -> None:
        self.url = url
        parts = urlsplit(url)
        self.host, self.port, self.secret = parts.hostname, parts.port, parts.path.strip("/")

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(15)
        except subprocess.TimeoutExpired:  # say where it hangs (faulthandler), then end it
            self.proc.send_signal(signal.SIGABRT)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            self.proc.wait(15)
            return -9

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
                host: str = "127.0.0.1") -> tuple[int, dict, bytes]:
        conn = http.client.HTTPConnection(host, self.port, timeout=20)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            answer = conn.getresponse()
            return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
        finally:
            conn.close()

    def page(self, path: str = "") -> str:
        status, _, body = self.request("GET", f"/{self.secret}/{path}", headers={"Host": f"127.0.0.1:{self.port}"})
        assert status == 200, (status, body[:300])
        return body.decode()

    def token(self) -> str:
        return re.search(r'name="pbem-token" content="([^"]+)"', self.page()).group(1)

    def game_keys(self) -> list[str]:
        return re.findall(r'href="g/([0-9a-f]+)"', self.page())

    def post(self, path: str, data: dict, *, token: str | None = None, origin: str | None = "own",
             headers: dict | None = None) -> tuple[int, bytes]:
        h = {"Host": f"127.0.0.1:{self.port}", "Content-Type": "application/json"}
        if origin == "own":
            h["Origin"] = f"http://127.0.0.1:{self.port}"
        elif origin is not None:
            h["Origin"] = origin
        if token is not None:
            h["X-Pbem-Token"] = token
        h.update(headers or {})
        status, _, body = self.request("POST", f"/{self.secret}/{path}", json.dumps(data).encode(), h)
        return status, body


def wait_until(check, timeout: float = 20, every: float = 0.05):
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, "timed out"
        time.sleep(every)


#: no request of the page in flight (`serve.js` counts them in body.dataset.busy)
IDLE = "!(+document.body.dataset.busy)"


def open_game(browser, url: str):
    """A tab on the list of games at `url`, then a click on the game, once
    the list is live and no request is in flight. The list is drawn again
    whenever a game changes (the watcher's first look at the folder is a
    change), and a click on the list being replaced is lost, as a person's
    would be: clicked again then."""
    from cdp import CdpError

    tab = browser.tab(url)
    for _ in range(3):
        tab.wait(f"document.getElementById('live').textContent === 'live' && {IDLE}")
        tab.click(".games a")
        try:
            tab.wait("document.body.dataset.page === 'game' && document.body.dataset.ready === '1'", timeout=10)
            return tab
        except CdpError:
            continue  # still on the list (or on its way): clicked again
    tab.wait("document.body.dataset.page === 'game' && document.body.dataset.ready === '1'")
    return tab
