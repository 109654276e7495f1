"""A game page shows the log's last lines and links to the whole log, a
page of its own (300 lines on every page would double the time to its
first paint); both follow the game as files arrive. In process: the
session the server serves, without HTTP."""

from __future__ import annotations

import random
import re

from pbem.app import creating, opening, reading, serving, writing
from pbem.home.store import KeyStore
from pbem.gamedir import folder as folder_mod


def _seqs(html: str) -> list[int]:
    log = html[html.index('id="log"'):]
    return [int(n) for n in re.findall(r'<li value="(\d+)">', log)]


def _play(g, keys, files: int, rng: random.Random) -> None:
    """`files` more files, a random legal move where one is decided."""
    for _ in range(files):
        chain = folder_mod.load(g)
        me = chain.writers()[0]
        if chain.needs(me) == "auto":
            writing.sync(g, me, keys)
        else:
            writing.submit(g, me, [rng.choice(reading.legal(chain, opening.party(chain, me, keys)))], keys)


def test_the_page_shows_the_last_lines_and_links_the_whole_log(tmp_path):
    keys = opening.Keys(KeyStore(tmp_path / "home"), lambda: "")
    for name in ("alice", "bob"):
        keys.store.create(name, None)
    g = tmp_path / "aa"
    creating.new_game("agent-avenue", g, ["alice", "bob"], keys, dealer="hotseat", seed=3)
    rng = random.Random(2)
    _play(g, keys, 6, rng)
    session = serving.Session("alice", keys, [g], token="t", log_lines=3)
    key = serving.folder_key(g)
    seq = folder_mod.load(g).seq
    page = session.get(f"g/{key}").body.decode()
    assert _seqs(page) == [seq, seq - 1, seq - 2]
    assert f'href="{key}/log">The whole log ({seq + 1} files)' in page
    whole = session.get(f"g/{key}/log").body.decode()
    assert _seqs(whole) == list(range(seq, -1, -1))
    assert "set up Agent Avenue" in whole and 'href="../' + key + '"' in whole
    # a new file: the page's lines move on, the whole log grows by one
    _play(g, keys, 1, rng)
    now = folder_mod.load(g).seq
    assert now > seq
    assert _seqs(session.get(f"g/{key}").body.decode()) == [now, now - 1, now - 2]
    assert _seqs(session.get(f"g/{key}/log").body.decode()) == list(range(now, -1, -1))
    # a short game: every line on the page, no link
    session.log_lines = 100
    page = session.get(f"g/{key}").body.decode()
    assert _seqs(page) == list(range(now, -1, -1)) and "The whole log" not in page
    assert session.get("g/0123456789abcdef/log").status == 404
