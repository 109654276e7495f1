"""A small client of Chromium's DevTools protocol, for tests that click.

Chromium is started headless with ``--remote-debugging-pipe``: it reads
commands on its fd 3 and writes answers and events on its fd 4 (put there
by bash: dash takes no fd above 9), each a
JSON message ended by a NUL byte, so no websocket (and no port) is needed.
A `Tab` is one page target attached with a flat session; `click` sends
real mouse events at the centre of an element (scrolled into view), `key`
real key events, `eval` runs an expression in the page and returns its
value (awaiting a promise).

Chromium as root needs ``--no-sandbox``; every run gets a fresh profile.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--hide-scrollbars", "--mute-audio",
]
SKIP = "chromium is not installed (apt-get install -y chromium; .ci/run does it)"


class CdpError(RuntimeError):
    pass


class Browser:
    """One headless Chromium driven through its DevTools pipe."""

    def __init__(self, profile: Path) -> None:
        profile.mkdir(parents=True, exist_ok=True)
        to_child, self._w = os.pipe()
        self._r, from_child = os.pipe()
        script = f'exec "$0" "$@" 3<&{to_child} 4>&{from_child}'
        self.proc = subprocess.Popen(
            [shutil.which("bash") or "/bin/bash", "-c", script, CHROMIUM, *FLAGS, "--remote-debugging-pipe", f"--user-data-dir={profile}",
             "about:blank"],
            pass_fds=(to_child, from_child), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=open(profile.parent / "chromium.log", "ab"), env={"HOME": str(profile), "PATH": "/usr/bin:/bin"},
        )
        os.close(to_child)
        os.close(from_child)
        self._next = 0
        self._answers: dict[int, dict] = {}
        self.events: list[dict] = []
        self._cond = threading.Condition()
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        buf = b""
        while True:
            try:
                chunk = os.read(self._r, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                with self._cond:
                    self._answers[-1] = {}
                    self._cond.notify_all()
                return
            buf += chunk
            while b"\0" in buf:
                raw, buf = buf.split(b"\0", 1)
                msg = json.loads(raw)
                with self._cond:
                    if "id" in msg:
                        self._answers[msg["id"]] = msg
                    else:
                        self.events.append(msg)
                    self._cond.notify_all()

    def send(self, method: str, params: dict | None = None, session: str | None = None, timeout: float = 30) -> dict:
        with self._lock:
            self._next += 1
            mid = self._next
            msg: dict[str, Any] = {"id": mid, "method": method, "params": params or {}}
            if session:
                msg["sessionId"] = session
            os.write(self._w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        with self._cond:
            while mid not in self._answers:
                if -1 in self._answers:
                    raise CdpError("chromium went away")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise CdpError(f"no answer to {method}")
                self._cond.wait(left)
            answer = self._answers.pop(mid)
        if "error" in answer:
            raise CdpError(f"{method}: {answer['error']}")
        return answer.get("result", {})

    def tab(self, url: str = "about:blank", width: int = 1400, height: int = 1000) -> "Tab":
        # a window each: a page in a background tab is not drawn (no screenshot)
        target = self.send("Target.createTarget", {"url": "about:blank", "newWindow": True})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        tab = Tab(self, session)
        tab.send("Page.enable")
        tab.send("Runtime.enable")
        tab.size(width, height)
        if url != "about:blank":
            tab.go(url)
        return tab

    def close(self) -> None:
        try:
            self.send("Browser.close", timeout=5)
        except CdpError:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        for fd in (self._w, self._r):
            try:
                os.close(fd)
            except OSError:
                pass


class Tab:
    def __init__(self, browser: Browser, session: str) -> None:
        self.browser, self.session = browser, session

    def send(self, method: str, params: dict | None = None, timeout: float = 30) -> dict:
        return self.browser.send(method, params, self.session, timeout)

    def size(self, width: int, height: int, scale: float = 1, mobile: bool = False) -> None:
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile})

    def go(self, url: str, ready: str = "document.body && document.body.dataset.ready === '1'") -> None:
        self.send("Page.navigate", {"url": url})
        self.wait(ready)

    def eval(self, expression: str) -> Any:
        out = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True})
        if "exceptionDetails" in out:
            raise CdpError(f"{expression}: {out['exceptionDetails'].get('exception', {}).get('description')}")
        return out["result"].get("value")

    def wait(self, expression: str, timeout: float = 30, every: float = 0.05) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.eval(expression)
            except CdpError:
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise CdpError(f"still not true after {timeout} s: {expression}\n  the page then: {self._seen()}")
            time.sleep(every)

    def _seen(self) -> str:
        """What a page said when a wait ran out: its address, its body's
        data (page, version, seq), its live line and its flash."""
        try:
            return str(self.eval(
                "(function () { var f = document.getElementById('flash'), l = document.getElementById('live'),"
                " m = document.querySelector('.layout');"
                " return {url: location.href, body: Object.assign({}, document.body && document.body.dataset),"
                " layout: m ? Object.assign({}, m.dataset) : null, live: l && l.textContent,"
                " flash: f && f.textContent}; }())"))
        except CdpError as exc:
            return f"(not readable: {exc})"

    def click(self, selector: str, index: int = 0) -> None:
        """Real mouse events at the centre of the `index`th element `selector` finds."""
        box = self.eval(
            f"(function () {{ var e = document.querySelectorAll({json.dumps(selector)})[{index}]; if (!e) return null;"
            " e.scrollIntoView({block: 'center', inline: 'center'}); var r = e.getBoundingClientRect();"
            " return [r.left + r.width / 2, r.top + r.height / 2, r.width, r.height]; }())")
        if not box or box[2] == 0:
            raise CdpError(f"nothing to click at {selector} [{index}]")
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent",
                      {"type": kind, "x": box[0], "y": box[1], "button": "left", "clickCount": 1})

    def key(self, key: str, text: str | None = None, shift: bool = False) -> None:
        """One key pressed and released (``Tab``, ``Enter``, ``Escape``, a letter)."""
        codes = {"Tab": 9, "Enter": 13, "Escape": 27, " ": 32}
        params: dict[str, Any] = {"key": key, "windowsVirtualKeyCode": codes.get(key, ord(key.upper()[0])),
                                  "modifiers": 8 if shift else 0}
        if key == "Enter":
            params["text"] = "\r"
        elif text is not None or len(key) == 1:
            params["text"] = text if text is not None else key
        self.send("Input.dispatchKeyEvent", {"type": "keyDown", **params})
        self.send("Input.dispatchKeyEvent", {"type": "keyUp", **{k: v for k, v in params.items() if k != "text"}})

    def type(self, text: str) -> None:
        self.send("Input.insertText", {"text": text})

    def screenshot(self, path: Path, full: bool = True) -> Path:
        self.send("Page.bringToFront")
        params: dict[str, Any] = {"format": "png", "captureBeyondViewport": full}
        if full:
            metrics = self.send("Page.getLayoutMetrics")["cssContentSize"]
            params["clip"] = {"x": 0, "y": 0, "width": metrics["width"], "height": min(metrics["height"], 6000),
                              "scale": 1}
        data = self.send("Page.captureScreenshot", params)["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))
        return path
