"""Issue #25 part 3: the checks that once waited for `pbem audit`.

What mathematics allows is checked when its file arrives (protocol version
6: a seat's private decks are its own proven shuffle layer); what must stay
late (a face-down card only its holder can read) is still judged by the
audit for every seat that published its secrets, when another never does.
"""

from __future__ import annotations

import random
from collections import Counter

import msgspec
import pytest

from conftest import introduced, mail_step, settle, snapshot
from pbem import games
from pbem.app import creating, opening, reading, receiving, writing
from pbem.crypto.encoding import b64d, b64e
from pbem.errors import ProofError, ProtocolError
from pbem.games.agent_avenue.commands import Play
from pbem.protocol import codec
from pbem.gamedir import folder, folder_write
from pbem.protocol.formats import TurnBody
from pbem.app.audit import audit
from pbem.protocol.party import Party
from pbem.protocol.peer import own_decks, writer as peer_writer


def _pair(chain, keys, seat):
    """Two refs of one name in `seat`'s hand, and one card of its hand more."""
    state = Party(chain, keys[seat].secret(seat)).state()
    if not any(isinstance(c, Play) for c in chain.game.legal(state, seat)):
        return None
    hand = state.zones[f"hand:{seat}"].items
    names = Counter(it.card for it in hand)
    twice = next((name for name, n in names.items() if n >= 2), None)
    return None if twice is None or len(names) < 2 else [it.ref for it in hand if it.card == twice][:2]


def _cheats_then_end(tmp_path, keys, attempt):
    """A peer game in which each seat, the first time it holds a pair on its
    turn, plays it (one face down: illegal, unseen by the other), played to
    its end, where only the seat that wrote the last move has published.
    (that seat, its cheat's file, the folders), or None unless that seat
    cheated first."""
    dirs = {n: tmp_path / str(attempt) / n for n in keys}
    creating.new_game("aa", dirs["alice"], ["alice", "bob"], keys["alice"], "peer", creator="alice")
    receiving.apply_file(dirs["alice"], receiving.join(dirs["bob"], [dirs["alice"] / folder.GENESIS], "bob", keys["bob"]))
    settle(keys, dirs)
    rng = random.Random(attempt)
    cheats: dict[str, str] = {}
    while (chain := folder.load(dirs["alice"])).outcome() is None:
        seat = chain.writers()[0]
        pair = seat not in cheats and chain.needs(seat) == "decision" and _pair(chain, keys, seat)
        if not pair:
            mail_step(keys, dirs, rng)
            continue
        mine = folder.load(dirs[seat])
        cheat = peer_writer.turn(mine, keys[seat].secret(seat), [Play(face_up=pair[0], face_down=pair[1])], None)
        path = folder_write.add_file(dirs[seat], mine, cheat)
        receiving.apply_file(dirs["bob" if seat == "alice" else "alice"], path)
        cheats[seat] = path.name
    ender = next(iter(chain.deck.secrets))
    first = min(cheats.values(), default=None)  # the replay stops at the first illegal file
    return (ender, cheats[ender], dirs) if ender in cheats and cheats[ender] == first else None


def test_the_audit_clears_every_other_seat_when_one_never_publishes(tmp_path):
    """A seat plays two cards of one name (one face down: illegal, unseen by
    the other), and the other seat never publishes its secrets (its last
    file, owed after the game ended, never comes). The audit
    names the silent seat and still finds the cheat with its signature:
    before, it stopped at the silent seat and cleared nothing."""
    keys = introduced(tmp_path, ["alice", "bob"])
    found = next(filter(None, (_cheats_then_end(tmp_path, keys, n) for n in range(12))), None)
    assert found is not None, "no game ended by the cheater's own file"
    cheater, cheat_file, dirs = found
    silent = "bob" if cheater == "alice" else "alice"
    assert silent not in folder.load(dirs[cheater]).deck.secrets
    report = audit(dirs[cheater])
    assert any(f.startswith(f"{silent} has not published its secrets") for f in report.failures), report.failures
    assert any(cheat_file in f and "both cards are named" in f for f in report.failures), report.failures


# --- private decks: the owner's proven layer (version 6) ------------------------------


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(games._REGISTRY, "toy-draw", ("toygame", "GAME", ()))


def _laid_over(zone: str, cards: list[str]):
    """A cheater's pbem, doctored to lay its private deck `zone` over
    `cards` instead of the six it holds; it checks its own file alike."""
    real = own_decks.table

    def table(nonce, name, contents):
        return real(nonce, name, cards if name == zone else contents)

    return table


@pytest.mark.parametrize("cheater", ["alice", "bob"])
def test_a_private_deck_committed_to_other_cards_is_refused_at_once(toy, tmp_path, monkeypatch, cheater):
    """The cheater lays its private deck over 1, 2, 3, 4, 6, 6 (it holds one
    6 and a 5): its own pbem sees nothing amiss and signs with its real key;
    the victim refuses the file at once, naming it and the seat: bob's
    `apply` of alice's genesis (through his `join`), alice's `apply` of
    bob's join. Before version 6 the hash commitments to those places passed
    every verifier, and only the audit, once the cheater published them,
    could find them."""
    keys = introduced(tmp_path, ["alice", "bob"])
    dirs = {n: tmp_path / n for n in keys}
    doctored = _laid_over(f"deck:{cheater}", ["1", "2", "3", "4", "6", "6"])
    refused = pytest.raises(ProtocolError, match=f"{cheater}'s layer over its private deck deck:{cheater} is not a "
                                                 "shuffle of the deck it received")
    with monkeypatch.context() as cheat:
        if cheater == "alice":
            cheat.setattr(own_decks, "table", doctored)
        creating.new_game("toy-draw", dirs["alice"], ["alice", "bob"], keys["alice"], "peer", creator="alice")
    if cheater == "alice":
        with refused as caught:
            receiving.join(dirs["bob"], [dirs["alice"] / folder.GENESIS], "bob", keys["bob"])
        assert folder.GENESIS in caught.value.message and not dirs["bob"].exists()
        return
    with monkeypatch.context() as cheat:
        cheat.setattr(own_decks, "table", doctored)
        path = receiving.join(dirs["bob"], [dirs["alice"] / folder.GENESIS], "bob", keys["bob"])
    before = snapshot(dirs["alice"])
    with refused as caught:
        receiving.apply_file(dirs["alice"], path)
    assert path.name in caught.value.message and snapshot(dirs["alice"]) == before



def test_before_version_6_the_same_cheat_passes_every_verifier(toy, tmp_path, monkeypatch):
    """Games begun under version 5 keep their late check: bob's hash
    commitments to 1, 2, 3, 4, 6, 6 pass alice's `apply` (only the audit,
    once he publishes his places, can find them)."""
    from pbem.protocol import formats

    monkeypatch.setattr(peer_writer, "PROTOCOL_VERSION", 5)
    monkeypatch.setattr(formats, "PROTOCOL_VERSION", 5)
    keys = introduced(tmp_path, ["alice", "bob"])
    dirs = {n: tmp_path / n for n in keys}
    creating.new_game("toy-draw", dirs["alice"], ["alice", "bob"], keys["alice"], "peer", creator="alice")
    with monkeypatch.context() as cheat:
        cheat.setattr(peer_writer, "secret_order", lambda cards: ["1", "2", "3", "4", "6", "6"])
        path = receiving.join(dirs["bob"], [dirs["alice"] / folder.GENESIS], "bob", keys["bob"])
    receiving.apply_file(dirs["alice"], path)
    assert folder.load(dirs["alice"]).seq == 1

def test_a_private_card_opened_as_another_is_refused(toy, tmp_path):
    """Version 6: alice plays a card of her private deck; its partial is
    proven against her join key, so one that opens it as another card of
    her deck (re-signed with her real key) is refused by bob's `apply`."""
    keys = introduced(tmp_path, ["alice", "bob"])
    dirs = {n: tmp_path / n for n in keys}
    creating.new_game("toy-draw", dirs["alice"], ["alice", "bob"], keys["alice"], "peer", creator="alice")
    receiving.apply_file(dirs["alice"], receiving.join(dirs["bob"], [dirs["alice"] / folder.GENESIS], "bob", keys["bob"]))
    settle(keys, dirs)
    receiving.apply_file(dirs["bob"], writing.submit(dirs["alice"], "alice", ["draw"], keys["alice"])[0])
    receiving.apply_file(dirs["alice"], writing.sync(dirs["bob"], "bob", keys["bob"])[0])  # bob's link draws it
    chain = folder.load(dirs["alice"])
    me = opening.party(chain, "alice", keys["alice"])
    data = me.turn(writing.parse_commands(chain, me, [reading.legal(chain, me)[0]]))
    body = msgspec.json.decode(codec.read_envelope(data).body, type=TurnBody)
    assert not body.reveals and len(body.partials) == 1, "the played card comes off by alice's partial"
    honest = body.partials[0]
    other = next(p for p in chain.deck.own_table if p != b64d(honest.point, 32))  # another card of her deck
    lie = msgspec.structs.replace(honest, point=b64e(other))
    forged = codec.encode_signed("turn", msgspec.structs.replace(body, partials=[lie]), keys["alice"].secret("alice"))
    path = tmp_path / "forged.pbem"
    path.write_bytes(forged)
    before = snapshot(dirs["bob"])
    with pytest.raises(ProofError):
        receiving.apply_file(dirs["bob"], path)
    assert snapshot(dirs["bob"]) == before
    receiving.apply_file(dirs["bob"], folder_write.add_file(dirs["alice"], chain, data))  # the honest one passes
