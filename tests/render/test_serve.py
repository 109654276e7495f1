"""`pbem serve` over plain HTTP: who may ask (the loopback address and
port, the secret, the token, the page's own origin, the user's own
account), what a refused request changes (nothing), and that what the
page writes is what `pbem submit` writes. The clicking is in
test_serve_browser.py."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys

import pytest

from conftest import snapshot
from served import Served

from pbem.render import serve_http


@pytest.fixture
def served(pbem, tmp_path):
    g = tmp_path / "aa"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "3")
    server = Served(pbem.home, "alice", g, log=tmp_path / "serve.log")
    yield server, g
    assert server.stop() == 0, (tmp_path / "serve.log").read_text()


def test_only_the_secret_path_is_served(served):
    server, _ = served
    own = {"Host": f"127.0.0.1:{server.port}"}
    assert server.request("GET", "/", headers=own)[0] == 404
    assert server.request("GET", "/favicon.ico", headers=own)[0] == 404
    assert server.request("GET", f"/{server.secret[:-1]}x/", headers=own)[0] == 404
    assert server.request("GET", f"/{server.secret}", headers=own)[0] == 404  # the secret as a whole segment
    status, headers, body = server.request("GET", f"/{server.secret}/", headers=own)
    assert status == 200 and b"Agent Avenue" in body
    assert headers["cache-control"] == "no-store" and headers["referrer-policy"] == "no-referrer"
    assert headers["x-frame-options"] == "DENY"
    policy = headers["content-security-policy"]
    assert "'unsafe-inline'" not in policy and "'sha256-" in policy
    for part in ("default-src 'none'", "form-action 'none'", "base-uri 'none'", "connect-src 'self'",
                 "frame-ancestors 'none'"):
        assert part in policy


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1:1", "127.0.0.1", "",
                                  "localhost.evil.example:{port}"])
def test_a_rebound_host_name_is_refused(served, host):
    server, _ = served
    status, _, body = server.request("GET", f"/{server.secret}/", headers={"Host": host.format(port=server.port)})
    assert status == 403 and b"loopback" in body


def test_both_loopback_addresses_and_no_other(served):
    server, _ = served
    assert server.request("GET", f"/{server.secret}/", headers={"Host": f"localhost:{server.port}"})[0] == 200
    if socket.has_ipv6:
        try:
            status = server.request("GET", f"/{server.secret}/", headers={"Host": f"[::1]:{server.port}"},
                                    host="::1")[0]
        except OSError:
            status = None  # no IPv6 loopback here
        assert status in (200, None)
    with pytest.raises(OSError):  # another address of the loopback range is not listened on
        socket.create_connection(("127.0.0.2", server.port), timeout=5).close()


def test_changes_need_the_token_and_the_own_origin(served):
    server, g = served
    token = server.token()
    key = server.game_keys()[0]
    before = snapshot(g)
    move = {"text": "discard Daredevil", "seq": 0}
    port = server.port
    refused = [
        server.post(f"g/{key}/submit", move),  # no token
        server.post(f"g/{key}/submit", move, token="x" * len(token)),
        server.post(f"g/{key}/submit", move, token=token, origin=None),  # no Origin
        server.post(f"g/{key}/submit", move, token=token, origin="http://evil.example"),
        server.post(f"g/{key}/submit", move, token=token, origin=f"http://127.0.0.1:{port + 1}"),
        server.post(f"g/{key}/submit", move, token=token, origin="null"),
        server.post(f"g/{key}/submit", move, token=token, headers={"Sec-Fetch-Site": "cross-site"}),
        server.post(f"g/{key}/submit", move, token=token, headers={"Content-Type": "text/plain"}),
    ]
    assert [s for s, _ in refused] == [403] * 7 + [415], refused
    assert snapshot(g) == before
    # the same request with everything right is what `pbem submit` does
    legal = json.loads(server.post(f"g/{key}/check", {"text": "discard Daredevil"}, token=token)[1])
    status, body = server.post(f"g/{key}/submit", move, token=token)
    answer = json.loads(body)
    if legal["ok"]:
        assert status == 200 and answer["ok"] and "000001-alice.pbem" in answer["said"][0]
        assert (g / "000001-alice.pbem").exists()
    else:  # not in the hand of this deal: refused by the rules, nothing written
        assert not answer["ok"] and snapshot(g) == before


def test_a_move_the_rules_refuse_changes_nothing(served):
    server, g = served
    token = server.token()
    key = server.game_keys()[0]
    before = snapshot(g)
    for text in ("discard Mole Mole", "play Nobody / Nothing", "fly away"):
        checked = json.loads(server.post(f"g/{key}/check", {"text": text}, token=token)[1])
        written = json.loads(server.post(f"g/{key}/submit", {"text": text, "seq": 0}, token=token)[1])
        assert not checked["ok"] and not written["ok"] and written["error"], (checked, written)
    # a page drawn before the game moved on may not write
    stale = json.loads(server.post(f"g/{key}/submit", {"text": "discard Daredevil", "seq": 5}, token=token)[1])
    assert not stale["ok"] and "moved on" in stale["error"]
    assert snapshot(g) == before


@pytest.mark.skipif(not hasattr(os, "setuid") or os.geteuid() != 0, reason="needs root to ask as another user")
def test_another_user_of_the_machine_is_not_served(served):
    server, _ = served
    code = (
        "import http.client, sys\n"
        f"c = http.client.HTTPConnection('127.0.0.1', {server.port}, timeout=10)\n"
        "try:\n"
        f"    c.request('GET', '/{server.secret}/', headers={{'Host': '127.0.0.1:{server.port}'}})\n"
        "    print(c.getresponse().status)\n"
        "except (OSError, http.client.HTTPException) as exc:\n"
        "    print('refused', type(exc).__name__)\n"
    )
    python = shutil.which("python3", path="/usr/bin:/bin") or sys.executable  # one another user may run
    out = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=30, cwd="/",
                         preexec_fn=lambda: os.setuid(65534))
    assert out.stdout.startswith("refused"), (out.stdout, out.stderr)
    assert server.page().startswith("<!DOCTYPE html>")  # its own user still is


def test_the_socket_table_names_the_client_user():
    with socket.create_server(("127.0.0.1", 0)) as listener:
        client = socket.create_connection(listener.getsockname())
        conn, addr = listener.accept()
        with client, conn:
            if serve_http._uid_table_readable():
                assert serve_http.peer_uid(addr, conn.getsockname()) == os.getuid()
            assert serve_http.peer_uid(("127.0.0.1", 1), conn.getsockname()) is None


def test_the_socket_table_is_read_in_the_hosts_byte_order(tmp_path):
    """/proc/net/tcp prints each 32-bit word of an address in the host's
    order: a table written that way is read back to the addresses."""
    import struct

    def word(addr: bytes) -> str:
        return "".join(f"{struct.unpack('=I', addr[i:i + 4])[0]:08X}" for i in range(0, len(addr), 4))

    v4 = socket.inet_aton("127.0.0.1")
    v6 = socket.inet_pton(socket.AF_INET6, "::1")
    head = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
    (tmp_path / "tcp").write_text(
        head + f"   0: {word(v4)}:D431 {word(v4)}:1F90 01 00000000:00000000 00:00000000 00000000  1234        0 1\n")
    (tmp_path / "tcp6").write_text(
        head + f"   0: {word(v6)}:D431 {word(v6)}:1F90 01 00000000:00000000 00:00000000 00000000  4321        0 1\n")
    assert serve_http.peer_uid(("127.0.0.1", 0xD431), ("127.0.0.1", 0x1F90), str(tmp_path)) == 1234
    assert serve_http.peer_uid(("::1", 0xD431, 0, 0), ("::1", 0x1F90, 0, 0), str(tmp_path)) == 4321
    assert serve_http.peer_uid(("127.0.0.1", 0x1F90), ("127.0.0.1", 0xD431), str(tmp_path)) is None
