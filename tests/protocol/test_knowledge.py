"""What each party can know, checked after every file of whole games in
every dealer mode: a seat's cards are exactly the public ones plus those in
zones it may read, and they are the true cards."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pbem.app import creating, opening, reading, writing
from pbem.home.store import KeyStore
from pbem.games.base import Known
from pbem.gamedir import folder, folder_write
from pbem.protocol.party import Party

from conftest import dealt


def one_store(tmp_path: Path, names) -> opening.Keys:
    keys = opening.Keys(KeyStore(tmp_path / "home"), lambda: "")
    for n in names:
        keys.store.create(n, None)
    return keys


def readable(chain, seat: str) -> set[str]:
    return {it.ref for z in chain.public.zones.values() if z.public or seat in z.readers for it in z.items}


def check_knowledge(chain, parties: dict[str, Party], truth: dict[str, str] | None) -> None:
    if chain.public is None:  # not set up yet: nothing is dealt
        assert all(not party.cards for party in parties.values())
        return
    for name, party in parties.items():
        cards = party.cards
        allowed = readable(chain, name) | set(chain.revealed)
        # a seat may remember cards that left its sight (a played card, a discard)
        remembered = {r for r in cards if r not in allowed}
        for ref in remembered:
            zone = next(n for n, z in chain.public.zones.items() if any(it.ref == ref for it in z.items))
            assert zone.endswith(name) or zone == "centre:down", f"{name} knows {ref} in {zone}"
        must = {it.ref for z in chain.public.zones.values() if not z.public and name in z.readers for it in z.items}
        if not chain.obligations():
            assert must <= set(cards), f"{name} should see {must - set(cards)}"
        if truth is not None:
            assert all(truth[r] == c for r, c in cards.items()), f"{name} holds a wrong card"
        state = party.state()
        for z in state.zones.values():
            for it in z.items:
                assert isinstance(it, Known) == (it.ref in cards)


@pytest.mark.parametrize("dealer", ["hotseat", "referee", "peer"])
@pytest.mark.parametrize("seed", [1, 2])
def test_every_seat_knows_exactly_what_it_may(tmp_path, dealer, seed):
    keys = one_store(tmp_path, ["alice", "bob", "rita"])
    g = tmp_path / "g"
    if dealer == "peer":
        # one store and one folder for brevity; each party still uses only its own key
        creating.new_game("aa", g, ["alice", "bob"], keys, "peer", creator="alice")
        chain = folder.load(g)
        from pbem.protocol.peer import writer as peer_writer

        folder_write.add_file(g, chain, peer_writer.join(chain, keys.secret("bob")))
    else:
        creating.new_game("aa", g, ["alice", "bob"], keys, dealer, "rita" if dealer == "referee" else None,
                         seed if dealer == "hotseat" else None)
        dealt(g, keys)
    rng = random.Random(seed)
    for _ in range(400):
        chain = folder.load(g)
        parties = {n: Party(chain, keys.secret(n)) for n in ("alice", "bob")}
        truth = None
        if dealer == "referee":
            truth = Party(chain, keys.secret("rita")).cards
        check_knowledge(chain, parties, truth)
        writers = chain.writers()
        if not writers:
            break
        me = writers[0]
        if chain.needs(me) == "auto":
            writing.sync(g, me, keys)
        else:
            cmd = rng.choice(reading.legal(chain, parties[me]))
            writing.submit(g, me, [cmd], keys)
    assert folder.load(g).over
