"""Correctly signed files with mangled bodies: every one is refused with a
PbemError (a clear one-line message), never a crash, in every dealer mode."""

from __future__ import annotations

import copy
import random

import msgspec
import pytest

from conftest import dealt

from pbem.app import creating, opening, reading, writing
from pbem.home.store import KeyStore
from pbem.errors import PbemError
from pbem.protocol import codec, dealer as dealer_mod
from pbem.gamedir import folder, folder_write
from pbem.protocol.peer import writer as peer_writer
from pbem.protocol.formats import TurnBody


#: what is inside an envelope only its readers can check: they do, on reading
#: (tests/protocol/test_protocol_cheats.py); here only the public's checks are tried
SEALED = {"payload"}


def mutate(obj, rng: random.Random):
    """One random change somewhere inside a decoded JSON body."""
    if isinstance(obj, dict) and obj:
        key = rng.choice([k for k in obj if k not in SEALED] or list(obj))
        obj[key] = mutate(obj[key], rng)
        return obj
    if isinstance(obj, list):
        if not obj:
            return [rng.choice(["a001", 5, None, {"t": "aa.play"}])]
        roll = rng.random()
        if roll < 0.4:
            i = rng.randrange(len(obj))
            obj[i] = mutate(obj[i], rng)
            return obj
        if roll < 0.6:
            return obj + obj[:1]
        if roll < 0.8:
            return obj[1:]
        rng.shuffle(obj)
        return obj
    if isinstance(obj, str):
        return rng.choice(["a000", "a037", "a099", "k00", "", "x" * 40, obj[:-1] or "z", obj + "A", "face-up", "alice", "bob"])
    if isinstance(obj, int) and not isinstance(obj, bool):
        return rng.choice([0, -1, obj + 1, obj - 1, 10**6])
    return rng.choice([None, 1, "s", [], {}])


def new_game(tmp_path, keys, mode: str, n: int):
    g = tmp_path / f"g{n}"
    if mode == "peer":
        creating.new_game("aa", g, ["alice", "bob"], keys, "peer", creator="alice")
        chain = folder.load(g)
        folder_write.add_file(g, chain, peer_writer.join(chain, keys.secret("bob")))
    else:
        creating.new_game("aa", g, ["alice", "bob"], keys, mode, "rita" if mode == "referee" else None, None)
        dealt(g, keys)  # a join's contribution is any 32 bytes: fuzz the play, not the joins
    return g


def next_file(g, keys, rng):
    """The next honest file of the game in `g` and its signer (None at the end)."""
    chain = folder.load(g)
    if not chain.writers():
        return None, None
    me = chain.writers()[0]
    if me == "dealer":
        signer = opening.hotseat_dealer(g, chain)
        return dealer_mod.answer(chain, signer), signer
    party = opening.party(chain, me, keys)
    if chain.needs(me) == "auto":
        return party.answer(), keys.secret(me)
    return party.turn(writing.parse_commands(chain, party, [rng.choice(reading.legal(chain, party))])), keys.secret(me)


@pytest.mark.parametrize("mode", ["hotseat", "referee", "peer"])
def test_mangled_signed_files_are_refused_cleanly(tmp_path, mode):
    rng = random.Random(mode)
    keys = opening.Keys(KeyStore(tmp_path / "home"), lambda: "")
    for n in ("alice", "bob", "rita"):
        keys.store.create(n, None)
    refused, games = 0, 0
    g = new_game(tmp_path, keys, mode, games)
    while refused < 150:
        data, signer = next_file(g, keys, rng)
        if data is None:  # that game is over: fuzz a new one
            games += 1
            g = new_game(tmp_path, keys, mode, games)
            continue
        body = msgspec.json.decode(codec.read_envelope(data).body)
        for _ in range(12):
            try:
                forged = codec.encode_signed("turn", msgspec.json.decode(msgspec.json.encode(mutate(copy.deepcopy(body), rng)), type=TurnBody), signer)
            except (msgspec.ValidationError, PbemError):
                continue
            if forged == data:
                continue
            with pytest.raises(PbemError):
                folder.load(g).append(forged)
            refused += 1
        folder_write.add_file(g, folder.load(g), data)
