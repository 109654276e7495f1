"""Correctly signed files with mangled bodies: every one is refused with a
PbemError (a clear one-line message), never a crash, in every dealer mode."""

from __future__ import annotations

import copy
import random

import msgspec
import pytest

from pbem import actions
from pbem.crypto.store import KeyStore
from pbem.errors import PbemError
from pbem.protocol import codec, dealer as dealer_mod, folder, peer_writer
from pbem.protocol.formats import TurnBody


#: what is inside an envelope only its readers can check: they do, on reading
#: (tests/test_protocol_cheats.py); here only the public's checks are tried
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


@pytest.mark.parametrize("mode", ["hotseat", "referee", "peer"])
def test_mangled_signed_files_are_refused_cleanly(tmp_path, mode):
    rng = random.Random(mode)
    keys = actions.Keys(KeyStore(tmp_path / "home"), lambda: "")
    for n in ("alice", "bob", "rita"):
        keys.store.create(n, None)
    g = tmp_path / "g"
    if mode == "peer":
        actions.new_game("aa", g, ["alice", "bob"], keys, "peer", creator="alice")
        chain = folder.load(g)
        folder.add_file(g, chain, peer_writer.join(chain, keys.secret("bob")))
    else:
        actions.new_game("aa", g, ["alice", "bob"], keys, mode, "rita" if mode == "referee" else None, None)
    refused = 0
    for _ in range(25):
        chain = folder.load(g)
        if not chain.writers():
            break
        me = chain.writers()[0]
        if me == "dealer":
            signer = actions.hotseat_dealer(g, chain)
            data = dealer_mod.answer(chain, signer)
        else:
            signer = keys.secret(me)
            party = actions.party(chain, me, keys)
            if chain.needs(me) == "auto":
                data = party.answer()
            else:
                data = party.turn(actions.parse_commands(chain, party, [rng.choice(actions.legal(chain, party))]))
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
        folder.add_file(g, folder.load(g), data)
    assert refused > 100
