"""Every picture of every game, variant and dealer, through the real protocol.

A seeded game is played file by file (real keys, real folders; in a peer
game each seat keeps its own folder and key store and only files travel).
At several points (right after the set-up, after decisions 1, 2, 4, 8 ...,
and at the end or the budget) every reader (each seat, the referee, and an
observer) draws every picture `pbem show`, `pbem show --svg` and `pbem page`
make: the text board, the colour board (rich, 80 columns), the SVG and the
HTML page. The rules-level harness (`pbem.games.conformance`) draws them at
every point of its playouts; this test adds the page and the dealers' own
states (a seat's knowledge as the protocol builds it). ``PBEM_LONG=1``
plays every game to its end.
"""

from __future__ import annotations

import io
import os
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import introduced, mail_step
from pbem import games
from pbem.app import creating, opening, reading, receiving
from pbem.errors import InvalidOption
from pbem.protocol.dealing import check_dealer
from pbem.games.base import SeatSpec
from pbem.gamedir import folder as folder_mod

LONG = os.environ.get("PBEM_LONG") == "1"
#: decisions played per game in the default run (long mode: to the end)
BUDGET = 10_000 if LONG else 16

#: every variant of every game: (label, game, seats as NAME[:ROLE], options)
VARIANTS = [
    ("aa", "agent-avenue", ["alice", "bob"], []),
    ("aa-advanced", "agent-avenue", ["alice", "bob"], ["mode=advanced"]),
    ("aa-2v2", "agent-avenue", ["alice:green", "bob:blue", "carol:green", "dave:blue"], []),
    ("aa-2v1", "agent-avenue", ["alice:green", "bob:blue", "carol:green"], ["mode=advanced"]),
    ("cn", "codenames", ["alice:red-spymaster", "bob:red", "carol:blue-spymaster", "dave:blue"], []),
    ("cn-sv-review", "codenames", ["alice:red-spymaster", "bob:red", "carol:blue-spymaster", "dave:blue"],
     ["language=sv", "clue_review=opponent"]),
    ("cn-coop", "codenames", ["alice:red-spymaster", "bob:red"], ["variant=coop"]),
    ("cn-three", "codenames", ["alice:red-spymaster", "carol:blue-spymaster", "bob:shared"], ["variant=three"]),
    ("cn-duet", "codenames", ["alice:a", "bob:b"], ["variant=duet"]),
    ("cx", "codex", ["alice", "bob"], []),
    ("cx-finesse-first", "codex", ["alice", "bob"], ["first=finesse"]),
    ("da-solo", "dark-agent", ["alice"], []),
    ("da", "dark-agent", ["alice", "bob"], []),
    ("da-3-kara", "dark-agent", ["alice", "bob", "carol"], ["kara=true", "aims=2"]),
]
DEALERS = ["hotseat", "referee", "peer"]


def _cases():
    for label, game, seats, options in VARIANTS:
        g = games.get(game)
        for dealer in DEALERS:
            try:
                check_dealer(g, [SeatSpec(*s.split(":", 1)) for s in seats], dealer)
            except InvalidOption:
                continue
            yield pytest.param(game, seats, options, dealer, id=f"{label}-{dealer}")


def draw_everything(chain, me, where: str) -> None:
    """Text, colour, SVG and page of `me`'s view (None: an observer)."""
    from rich.console import Console

    from pbem.render import terminal

    text = reading.render(chain, me)
    assert text.strip(), where
    out = io.StringIO()
    Console(file=out, width=80, force_terminal=True, color_system="truecolor").print(
        terminal.renderable(chain.game, reading.view(chain, me)))
    assert out.getvalue().strip(), where
    ET.fromstring(reading.svg(chain, me))
    page = reading.page(chain, me, "game")
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page, where
    if any(chain.needs(w) != "decision" for w in chain.writers()):  # a file owed that needs no decision:
        assert 'class="prompt"' not in page, where  # "Now" says who owes it, not "your main phase"


def readers(chain, dirs, keys):
    """(label, chain, party or None) for each seat, the referee and an observer."""
    for name in [*chain.seat_order, *([chain.dealer_name] if chain.dealer_mode == "referee" else [])]:
        mine = folder_mod.load(dirs[name]) if dirs[name] != dirs[chain.seat_order[0]] else chain
        yield name, mine, opening.party(mine, name, keys[name])
    yield "observer", chain, None


@pytest.mark.parametrize("game, seats, options, dealer", list(_cases()))
def test_every_picture_of_every_reader(game, seats, options, dealer, tmp_path):
    names = [s.split(":")[0] for s in seats]
    rng = random.Random(f"{game}{seats}{options}{dealer}")
    if dealer == "peer":
        keys = introduced(tmp_path, names)
        dirs = {n: tmp_path / f"game-{n}" for n in names}
        creating.new_game(game, dirs[names[0]], seats, keys[names[0]], "peer", None, None, options, names[0])
        genesis = dirs[names[0]] / folder_mod.GENESIS
        joins: list[Path] = []
        for i, n in enumerate(names[1:], 1):  # in turn: each joins with the joins before it
            joins.append(receiving.join(dirs[n], [genesis, *joins], n, keys[n]))
            for other in names[:i]:
                receiving.apply_files(dirs[other], joins[-1:])
    else:
        everyone = names + (["rita"] if dealer == "referee" else [])
        shared = introduced(tmp_path, ["alice"])["alice"]
        for n in everyone[1:] if everyone[0] == "alice" else everyone:
            if not shared.store.has_secret(n):
                shared.store.create(n, None)
        keys = {n: shared for n in everyone}
        folder = tmp_path / "game"
        creating.new_game(game, folder, seats, shared, dealer, *(("rita", None) if dealer == "referee" else (None, 7)), options)
        dirs = {n: folder for n in everyone}
    first = dirs[names[0]]
    decisions, drawn = 0, 0
    while True:
        chain = folder_mod.load(first)
        waiting = chain.writers()
        deciding = bool(waiting) and chain.dealt and chain.needs(waiting[0]) == "decision"
        if deciding and (decisions & (decisions - 1) == 0) or not waiting or decisions >= BUDGET:
            if chain.public is not None:
                for who, mine, me in readers(chain, dirs, keys):
                    draw_everything(mine, me, f"{game} {dealer} after {decisions} decisions, {who}")
                    drawn += 1
        if not waiting or decisions >= BUDGET:
            break
        if deciding:
            decisions += 1
        mail_step(keys, dirs, rng)
    assert drawn
