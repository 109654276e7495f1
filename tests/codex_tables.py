"""Codex games from a fixed position under every dealer, through the real
writers: a scenario's lines, then commands in the notation, each written
by its seat as `pbem submit` writes it (refs re-chosen, the party's own
knowledge), every owed answer (a delivery, chance, a decryption) written
as `pbem sync` writes it, in one in-memory chain.

A scenario fixes hidden cards, so the chain refuses it outside hotseat
(`GameInfo.scenario_options`); for a test of a rule under the referee or the
peer dealer the option is let through here (`scenarios_everywhere`): the
dealers deal the hands it fixes as they deal any set-up."""

from __future__ import annotations

import contextlib
import dataclasses
import random
from collections.abc import Iterator

import pytest

from pbem import games
from pbem.games.base import SeatSpec
from pbem.crypto.keys import SecretIdentity
from pbem.games.codex import GAME
from pbem.protocol import dealer as dealer_mod
from pbem.protocol.chain import Chain
from pbem.protocol.party import Party
from pbem.protocol.peer import writer as peer_writer
from tests import tamper

MODES = ("hotseat", "referee", "peer")


@contextlib.contextmanager
def scenarios_everywhere() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(GAME, "info", dataclasses.replace(GAME.info, scenario_options=frozenset()))
        yield


def play(mode: str, lines: list[str], script: list[tuple[str, str]], seed: int = 1,
         seen: dict[int, dict[str, str]] | None = None, cheat=None) -> tamper.Table:
    """`script`: (seat, command) in order; a command may be a function of
    the seat's state and name, giving the command. `seen`, if given, gets after each
    command (by its index) every party's rendered view: seat -> text, and
    ``public`` for what the chain alone shows (`views`). `cheat(chain, party, text)`,
    if given, writes a scripted command's file itself (None: honestly).
    Stops when the script is done and nothing is owed."""
    game = games.get("codex")
    opts = game.options({"scenario": "\n".join(lines), "first": "bashing"})
    secrets = {n: SecretIdentity.generate(n) for n in ("alice", "bob")}
    idents = [(spec, secrets[spec.name].public) for spec in game.seats(opts, [SeatSpec("alice"),
                                                                              SeatSpec("bob")])]
    if mode == "peer":
        data = peer_writer.make_genesis(game, opts, idents, secrets["alice"])
    else:
        dealer = dealer_mod.hotseat_dealer() if mode == "hotseat" else SecretIdentity.generate("rita")
        secrets[dealer.name] = dealer
        data = dealer_mod.make_genesis(game, opts, idents, mode, dealer, random.Random(seed).randbytes(32))
    files, chain, todo = [data], Chain(data), list(script)
    done = 0
    for _ in range(200):
        writers = chain.writers()
        if not writers:
            break
        who = writers[0]
        me = Party(chain, secrets[who])
        if chain.deck is not None and not chain.deck.all_joined:
            data = peer_writer.join(chain, secrets[who])
        elif chain.needs(who) == "auto":
            data = me.answer()
        elif todo and todo[0][0] == who:
            seat, text = todo.pop(0)
            if callable(text):  # a command that depends on what the seat holds
                text = text(me.state(), seat)
            data = cheat(chain, me, text) if cheat is not None else None
            if data is None:
                data = me.turn([game.presentation.parse(text, me.state(), seat)])
        else:
            break
        chain.append(data)
        files.append(data)
        if seen is not None and len(script) - len(todo) > done:
            done = len(script) - len(todo)
        if seen is not None and not _owed(chain):
            seen[done - 1] = views(chain, secrets)
    assert not todo, f"the script stopped at {todo[0]} (waiting for {chain.writers()})"
    return tamper.Table("codex", mode, files, secrets)


def _owed(chain: Chain) -> bool:
    return any(chain.needs(w) == "auto" for w in chain.writers())


def views(chain: Chain, secrets: dict[str, SecretIdentity]) -> dict:
    """Each party's rendered view (``public``: the chain's own), and the
    views themselves under ``view:NAME``."""
    game = chain.game
    out = {"view:public": game.view(chain.public, None)}
    for seat in ("alice", "bob"):
        out[f"view:{seat}"] = game.view(Party(chain, secrets[seat]).state(), seat)
    for who in ("public", "alice", "bob"):
        out[who] = game.presentation.render(out[f"view:{who}"])
    return out
