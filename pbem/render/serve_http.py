"""The local HTTP server of `pbem serve`: who may talk to it, and how.

The page it serves can write signed turns with the user's key, so the
server trusts nothing about a request but what only the user can have:

* **Loopback only.** It listens on 127.0.0.1 and [::1] (one free port, the
  same on both), never on another address.
* **The user's own connections only.** On Linux each connection's client
  socket is looked up in ``/proc/net/tcp`` (``tcp6``) and refused unless it
  belongs to the user running the server (`peer_uid`): another account on
  the machine cannot even ask. Where the table cannot be read the next
  guard stands alone.
* **A secret in every path.** Every URL starts with ``/SECRET/`` (32 random
  bytes); anything else is "not found". The URL is printed and opened
  through a file only the user can read (`pbem.app.serve_command`), never put on a
  command line that every user can see in the process list. The secret is
  never logged, and ``Referrer-Policy: no-referrer`` keeps it out of any
  request the browser might make elsewhere (the page makes none).
* **A token and the page's own origin on every change.** A POST must carry
  the session's token (``X-Pbem-Token``, a custom header a cross-site form
  or image cannot send, and which makes a cross-site `fetch` ask a
  preflight this server never grants), an ``Origin`` naming this server,
  ``Sec-Fetch-Site: same-origin`` where the browser sends it, and a JSON
  body of at most `MAX_BODY` bytes.
* **No DNS rebinding.** The ``Host`` header must name the loopback address
  and port the server listens on (or ``localhost``): a page of
  ``evil.example`` whose name was re-pointed at 127.0.0.1 sends its own
  name and is refused, before the secret is even looked at.

Every answer carries ``Cache-Control: no-store`` and headers that forbid
framing, sniffing and cross-origin reads; HTML carries the page's strict
Content-Security-Policy (`pbem.render.serve_page`).

The server knows nothing of games: it hands each allowed request to an
`App` (the session of `pbem.app.serving`) and streams the app's changes as
server-sent events.
"""

from __future__ import annotations

import errno
import hmac
import json
import os
import socket
import struct
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol

#: the largest request body accepted (a command, a clue: a few hundred bytes)
MAX_BODY = 64 * 1024
#: seconds between two keep-alive comments on an idle event stream
KEEPALIVE = 15.0
PLAIN_CSP = "default-src 'none'; frame-ancestors 'none'; form-action 'none'; base-uri 'none'"


@dataclass
class Reply:
    """One answer: status, body, its type and (for HTML) its CSP."""

    status: int
    body: bytes
    type: str = "text/html; charset=utf-8"
    csp: str = PLAIN_CSP

    @classmethod
    def json(cls, value: Any, status: int = 200) -> "Reply":
        return cls(status, json.dumps(value, ensure_ascii=False).encode(), "application/json")

    @classmethod
    def text(cls, status: int, text: str) -> "Reply":
        return cls(status, (text + "\n").encode(), "text/plain; charset=utf-8")


class App(Protocol):
    """What the server serves: paths are those after ``/SECRET/``."""

    def get(self, path: str) -> Reply: ...
    def post(self, path: str, data: dict) -> Reply: ...
    def changes(self, since: int, timeout: float) -> tuple[int, list[str]]: ...


# --- who is on the other end ---------------------------------------------------------------


def _proc_address(text: str, v6: bool) -> tuple[bytes, int]:
    """An address of /proc/net/tcp (hex words in the host's byte order, then
    the port in hex) as (the address's bytes in network order, port)."""
    host, port = text.split(":")
    words = [int(host[i:i + 8], 16) for i in range(0, len(host), 8)]
    return b"".join(struct.pack("=I", w) for w in words), int(port, 16)


def peer_uid(client: tuple, server: tuple, proc: str = "/proc/net") -> int | None:
    """The uid owning the client end of a TCP connection on this machine
    (`client`, `server`: the addresses as the server sees them), from the
    kernel's socket table; None when the table cannot be read or holds no
    such socket."""
    v6 = ":" in client[0]
    family = socket.AF_INET6 if v6 else socket.AF_INET
    want = ((socket.inet_pton(family, client[0]), client[1]), (socket.inet_pton(family, server[0]), server[1]))
    try:
        with open(os.path.join(proc, "tcp6" if v6 else "tcp"), encoding="ascii") as table:
            next(table, None)  # the heading
            for line in table:
                cols = line.split()
                if len(cols) < 8:
                    continue
                if (_proc_address(cols[1], v6), _proc_address(cols[2], v6)) == want:
                    return int(cols[7])
    except (OSError, ValueError):
        return None
    return None


def _uid_table_readable(proc: str = "/proc/net") -> bool:
    return os.access(os.path.join(proc, "tcp"), os.R_OK)


# --- the servers ----------------------------------------------------------------------------


class _Loopback(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = False
    owner: "LocalServer"

    def verify_request(self, request, client_address) -> bool:
        return self.owner.same_user(client_address, request.getsockname())


class _Loopback6(_Loopback):
    address_family = socket.AF_INET6

    def server_bind(self) -> None:
        self.socket.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        super().server_bind()


@dataclass
class LocalServer:
    """The two listening sockets (127.0.0.1 and, where the machine has it,
    [::1], on one port) serving `app` under ``/SECRET/``."""

    app: App
    secret: str
    token: str
    servers: list[_Loopback] = field(default_factory=list)
    port: int = 0
    stopping: threading.Event = field(default_factory=threading.Event)
    check_uid: bool = field(default_factory=_uid_table_readable)

    def bind(self, tries: int = 20) -> None:
        """Listen on a free port of 127.0.0.1 and the same port of [::1]."""
        for _ in range(tries):
            v4 = _Loopback(("127.0.0.1", 0), _Handler)
            port = v4.server_address[1]
            try:
                v6 = _Loopback6(("::1", port), _Handler)
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:  # taken on [::1] only: another port
                    v4.server_close()
                    continue
                v6 = None  # no IPv6 loopback on this machine
            self.servers = [v4] + ([v6] if v6 is not None else [])
            self.port = port
            for s in self.servers:
                s.owner = self
            return
        raise OSError("no port is free on both 127.0.0.1 and [::1]")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/{self.secret}/"

    @property
    def hosts(self) -> set[str]:
        return {f"127.0.0.1:{self.port}", f"[::1]:{self.port}", f"localhost:{self.port}"}

    def same_user(self, client: tuple, server: tuple) -> bool:
        if not self.check_uid:
            return True
        return peer_uid(client, server) == os.getuid()

    def start(self) -> None:
        for s in self.servers:
            threading.Thread(target=s.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True,
                             name=f"pbem serve {s.server_address[0]}").start()

    def stop(self) -> None:
        self.stopping.set()
        for s in self.servers:
            s.shutdown()
            s.server_close()


class _Handler(BaseHTTPRequestHandler):
    server: _Loopback
    server_version = "pbem"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        """Nothing is logged: every path holds the secret."""

    # -- the guards ---------------------------------------------------------------------

    @property
    def owner(self) -> LocalServer:
        return self.server.owner

    def _path(self) -> str | None:
        """The path after ``/SECRET/`` (None: no secret, or the wrong one)."""
        raw = self.path.split("?", 1)[0]
        parts = raw.split("/", 2)
        if len(parts) < 3 or parts[0] != "":
            return None
        if not hmac.compare_digest(parts[1].encode(), self.owner.secret.encode()):
            return None
        return parts[2]

    def _refusal(self, post: bool) -> Reply | None:
        owner = self.owner
        if self.headers.get("Host", "") not in owner.hosts:
            return Reply.text(403, "refused: this server answers only to its own loopback address")
        site = self.headers.get("Sec-Fetch-Site")
        origin = self.headers.get("Origin")
        ours = {f"http://{h}" for h in owner.hosts}
        if origin is not None and origin not in ours:
            return Reply.text(403, "refused: a request from another origin")
        if post:
            if site is not None and site != "same-origin":
                return Reply.text(403, "refused: a request from another site")
            if origin is None:
                return Reply.text(403, "refused: a change must come from the page itself (no Origin)")
            token = self.headers.get("X-Pbem-Token", "")
            if not hmac.compare_digest(token.encode(), owner.token.encode()):
                return Reply.text(403, "refused: no valid session token")
        elif site not in (None, "same-origin", "none"):
            return Reply.text(403, "refused: a request from another site")
        return None

    # -- the methods ----------------------------------------------------------------------

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        path = self._path()
        refused = self._refusal(post=False)
        if refused is None and path is None:
            refused = Reply.text(404, "not found")
        if refused is not None:
            return self._send(refused)
        if path == "events":
            return self._events()
        self._send(self._safely(lambda: self.owner.app.get(path)))

    def do_POST(self) -> None:  # noqa: N802
        path = self._path()
        refused = self._refusal(post=True)
        if refused is None and path is None:
            refused = Reply.text(404, "not found")
        if refused is None:
            refused = self._body_problem()
        if refused is not None:
            return self._send(refused)
        try:
            data = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        except (ValueError, UnicodeDecodeError):
            return self._send(Reply.text(400, "the body is not JSON"))
        if not isinstance(data, dict):
            return self._send(Reply.text(400, "the body is not a JSON object"))
        self._send(self._safely(lambda: self.owner.app.post(path, data)))

    def _body_problem(self) -> Reply | None:
        kind = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            return Reply.text(415, "refused: the body must be application/json")
        try:
            size = int(self.headers.get("Content-Length", ""))
        except ValueError:
            return Reply.text(411, "refused: no Content-Length")
        if not 0 <= size <= MAX_BODY:
            return Reply.text(413, "refused: the body is too large")
        return None

    @staticmethod
    def _safely(call) -> Reply:
        try:
            return call()
        except Exception as exc:  # noqa: BLE001 - a bug must not kill the server: say it in one line
            if os.environ.get("PBEM_DEBUG"):
                raise
            return Reply.text(500, f"internal error ({type(exc).__name__}: {exc})")

    def _headers(self, reply: Reply) -> None:
        self.send_header("Content-Type", reply.type)
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        self.send_header("Content-Security-Policy", reply.csp)

    def _send(self, reply: Reply) -> None:
        try:
            self.send_response(reply.status)
            self._headers(reply)
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _events(self) -> None:
        """Server-sent events: ``hello`` with the count of changes now (a
        page drawn at another count draws itself again: what changed
        between its drawing and this stream, or while it was cut, would
        be missing), ``change`` with the keys of the games that changed
        and the count as its id, a comment now and then to keep the
        stream open."""
        owner = self.owner
        self.send_response(200)
        self._headers(Reply(200, b"", "text/event-stream"))
        self.end_headers()
        version = owner.app.changes(-1, 0)[0]
        try:
            self.wfile.write(f"retry: 1000\nevent: hello\ndata: {version}\n\n".encode())
            self.wfile.flush()
            while not owner.stopping.is_set():
                now, keys = owner.app.changes(version, KEEPALIVE)
                if now == version:
                    self.wfile.write(b": still here\n\n")
                else:
                    version = now
                    self.wfile.write(f"event: change\nid: {now}\ndata: {json.dumps(keys)}\n\n".encode())
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            return
