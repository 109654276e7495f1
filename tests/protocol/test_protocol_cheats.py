"""Cheating and damage at the protocol level, each caught where it can be:
at once by every verifier, by the party that holds the evidence (the
recipient of a delivery, the dealer who sees every hand), or by the audit."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import msgspec
import pytest

from conftest import dealt

from pbem.app import creating, opening, reading, writing
from pbem.crypto.encoding import b64d, b64e, canonical
from pbem.home.store import KeyStore
from pbem.errors import CommitmentError, IllegalCommand, ProtocolError, WrongWriter
from pbem.games.agent_avenue.cards import full_deck
from pbem.games.agent_avenue.commands import Play
from pbem.protocol import codec, dealer as dealer_mod, transition
from pbem.gamedir import folder, folder_write
from pbem.app.audit import audit
from pbem.protocol.chain import state_hash
from pbem.protocol.clock import file_time
from pbem.protocol.file_parts import Delivery, Opening, SeedOpening
from pbem.protocol.formats import TurnBody
from pbem.protocol.party import Party

ALICE = ["Enforcer", "Enforcer", "Saboteur", "Sentinel"]
BOB = ["Mole", "Sidekick", "Codebreaker", "Daredevil"]


@pytest.fixture
def keys(tmp_path) -> opening.Keys:
    store = KeyStore(tmp_path / "home")
    for name in ("alice", "bob", "rita"):
        store.create(name, None)
    return opening.Keys(store, lambda: "")


def new(tmp_path: Path, keys, dealer="hotseat") -> Path:
    rest = Counter(full_deck())
    rest.subtract(ALICE + BOB)
    g = tmp_path / "g"
    opts = [f"deck={','.join(ALICE + BOB + list(rest.elements()))}"] if dealer == "hotseat" else []
    creating.new_game("aa", g, ["alice", "bob"], keys, dealer, "rita" if dealer == "referee" else None, 1 if dealer == "hotseat" else None, opts)
    dealt(g, keys)
    return g


def forge_turn(chain, secret, commands, reveals: list[Opening]) -> bytes:
    """A correctly signed turn that skips the writer's own legality checks."""
    cards = {o.ref: o.card for o in reveals}
    effect = transition.run(chain.game, chain.public, secret.name, commands, source=cards.get,
                            writer_knows=lambda st: chain.knows(secret.name))
    body = TurnBody(game_id=chain.game_id, seq=chain.seq + 1, prev=chain.head, by=secret.name,
                    commands=[msgspec.Raw(canonical(c)) for c in commands], reveals=reveals,
                    at=file_time(chain), state=state_hash(effect.state))
    return codec.encode_signed("turn", body, secret)


def hand_refs(party: Party, seat: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for it in party.state().zones[f"hand:{seat}"].items:
        out.setdefault(it.card, []).append(it.ref)
    return out


def two_enforcers(g: Path, keys) -> bytes:
    chain = folder.load(g)
    alice = Party(chain, keys.secret("alice"))
    enf = hand_refs(alice, "alice")["Enforcer"]
    return forge_turn(chain, alice.secret, [Play(face_up=enf[0], face_down=enf[1])], [alice.openings[enf[0]]])


def test_hidden_illegal_play_passes_the_public_but_not_the_referee(tmp_path, keys):
    for attempt in range(40):  # referee deals are random: find one with a pair in alice's hand
        g = new(tmp_path / str(attempt), keys, "referee")
        chain = folder.load(g)
        alice = Party(chain, keys.secret("alice"))
        dup = next((refs for refs in hand_refs(alice, "alice").values() if len(refs) >= 2), None)
        if dup is not None and len(hand_refs(alice, "alice")) > 1:
            break
    else:
        raise AssertionError("no deal with a pair in 40 tries")
    data = forge_turn(chain, alice.secret, [Play(face_up=dup[0], face_down=dup[1])], [alice.openings[dup[0]]])
    folder_write.add_file(g, chain, data)
    folder.load(g)  # the public cannot tell
    with pytest.raises(IllegalCommand, match=r"0000\d\d-alice.pbem.*alice.*both cards are named"):
        writing.sync(g, "rita", keys)
    assert sorted(p.name for p in g.iterdir() if p.name[0].isdigit())[-1] .endswith("-alice.pbem")


def test_hotseat_dealer_refuses_a_hidden_illegal_play(tmp_path, keys):
    g = new(tmp_path, keys)
    chain = folder.load(g)
    folder_write.add_file(g, chain, two_enforcers(g, keys))
    with pytest.raises(IllegalCommand, match="both cards are named Enforcer"):
        writing.sync(g, "bob", keys)


def play_with_a_careless_dealer(g: Path, keys, seed: int = 0) -> None:
    """Bots and a dealer that answers without replaying the hands."""
    rng = random.Random(seed)
    dealer = opening.hotseat_dealer(g, folder.load(g))
    for _ in range(400):
        chain = folder.load(g)
        writers = chain.writers()
        if not writers:
            return
        if writers[0] == chain.dealer_name:
            folder_write.add_file(g, chain, dealer_mod.answer(chain, dealer))
            continue
        me = Party(chain, keys.secret(writers[0]))
        cmd = chain.game.presentation.bots["random"](chain.game, me.state(), me.name, rng)
        folder_write.add_file(g, chain, me.turn([cmd]))
    raise AssertionError("no end")


def test_audit_names_the_hidden_cheat_and_its_signer(tmp_path, keys):
    g = new(tmp_path, keys)
    chain = folder.load(g)
    folder_write.add_file(g, chain, two_enforcers(g, keys))
    play_with_a_careless_dealer(g, keys)
    assert folder.load(g).over
    report = audit(g)
    assert not report.ok
    assert any("000001-alice.pbem" in f and "both cards are named Enforcer" in f for f in report.failures), report.failures


def test_audit_passes_an_honest_game(tmp_path, keys):
    g = new(tmp_path, keys)
    play_with_a_careless_dealer(g, keys, seed=3)
    report = audit(g)
    assert report.ok, report.failures
    assert report.checks > 38


def test_wrong_card_in_a_delivery_is_caught_by_its_reader(tmp_path, keys):
    g = new(tmp_path, keys, "referee")
    chain = folder.load(g)
    alice = Party(chain, keys.secret("alice"))
    cmd = writing.parse_commands(chain, alice, [reading.legal(chain, alice)[-1]])
    folder_write.add_file(g, chain, alice.turn(cmd))
    chain = folder.load(g)
    rita = keys.secret("rita")
    honest = msgspec.json.decode(codec.read_envelope(dealer_mod.answer(chain, rita)).body, type=TurnBody)
    d = honest.deliveries[0]
    seed = dealer_mod.open_seed_box(chain, rita)
    openings = dealer_mod.dealer_openings(chain, b64d(seed.seed))
    wrong = [Opening(ref=r, card="Mole" if openings[r].card != "Mole" else "Sidekick", salt=openings[r].salt) for r in d.refs]
    env = dealer_mod.seal_openings(wrong, chain.seats["alice"].identity, dealer_mod.delivery_ad(chain.game_id, chain.seq + 1, "alice"))
    body = msgspec.structs.replace(honest, deliveries=[Delivery(to="alice", refs=d.refs, envelope=env)])
    folder_write.add_file(g, chain, codec.encode_signed("turn", body, rita))
    chain = folder.load(g)  # the public cannot tell what is inside
    with pytest.raises(CommitmentError, match=r"signed by rita"):
        Party(chain, keys.secret("alice"))
    Party(chain, keys.secret("bob"))  # bob's knowledge is unaffected


def test_reveal_that_does_not_open_its_commitment(tmp_path, keys):
    g = new(tmp_path, keys)
    chain = folder.load(g)
    alice = Party(chain, keys.secret("alice"))
    hand = hand_refs(alice, "alice")
    up, down = hand["Saboteur"][0], hand["Sentinel"][0]
    lie = msgspec.structs.replace(alice.openings[up], card="Sidekick")
    with pytest.raises(CommitmentError, match="does not match"):
        chain.append(forge_turn(chain, alice.secret, [Play(face_up=up, face_down=down)], [lie]))


def test_withheld_and_needless_reveals(tmp_path, keys):
    g = new(tmp_path, keys)
    chain = folder.load(g)
    alice = Party(chain, keys.secret("alice"))
    hand = hand_refs(alice, "alice")
    up, down = hand["Saboteur"][0], hand["Sentinel"][0]
    play = Play(face_up=up, face_down=down)
    with pytest.raises(ProtocolError, match="must reveal"):
        chain.append(forge_turn(chain, alice.secret, [play], []))
    with pytest.raises(ProtocolError, match="do not need"):
        chain.append(forge_turn(chain, alice.secret, [play], [alice.openings[up], alice.openings[down]]))
    bob = Party(chain, keys.secret("bob"))
    mole = hand_refs(bob, "bob")["Mole"][0]
    with pytest.raises(ProtocolError, match="never dealt"):
        chain.append(forge_turn(chain, alice.secret, [play], [alice.openings[up], bob.openings[mole]]))
    chain.append(forge_turn(chain, alice.secret, [play], [alice.openings[up]]))  # the honest file


def test_dealer_may_write_only_when_it_owes(tmp_path, keys):
    g = new(tmp_path, keys, "referee")
    chain = folder.load(g)
    rita = keys.secret("rita")
    assert dealer_mod.answer(chain, rita) is None
    body = TurnBody(game_id=chain.game_id, seq=chain.seq + 1, prev=chain.head, by="rita", at=file_time(chain),
                    state=state_hash(chain.public))
    with pytest.raises(WrongWriter, match="rita may not write now"):
        chain.append(codec.encode_signed("turn", body, rita))


def test_seed_must_match_and_must_wait_for_the_end(tmp_path, keys):
    g = new(tmp_path, keys, "referee")
    rita = keys.secret("rita")
    rng = random.Random(5)
    early_checked = False
    for _ in range(400):
        chain = folder.load(g)
        who = chain.writers()[0]
        if who != "rita":
            me = Party(chain, keys.secret(who))
            folder_write.add_file(g, chain, me.turn([chain.game.presentation.bots["random"](chain.game, me.state(), who, rng)]))
            continue
        honest = msgspec.json.decode(codec.read_envelope(dealer_mod.answer(chain, rita)).body, type=TurnBody)
        if honest.seed is None:
            if not early_checked:
                early = msgspec.structs.replace(honest, seed=dealer_mod.open_seed_box(chain, rita))
                with pytest.raises(ProtocolError, match="before the game ended"):
                    chain.append(codec.encode_signed("turn", early, rita))
                early_checked = True
                chain = folder.load(g)
            folder_write.add_file(g, chain, codec.encode_signed("turn", honest, rita))
            continue
        fake = msgspec.structs.replace(honest, seed=SeedOpening(seed=b64e(b"\x01" * 32), salt=honest.seed.salt))
        with pytest.raises(CommitmentError, match="does not match the dealer's commitment"):
            chain.append(codec.encode_signed("turn", fake, rita))
        missing = msgspec.structs.replace(honest, seed=None)
        with pytest.raises(ProtocolError, match="did not publish its seed"):
            folder.load(g).append(codec.encode_signed("turn", missing, rita))
        folder_write.add_file(g, folder.load(g), codec.encode_signed("turn", honest, rita))
        assert audit(g).ok
        return
    raise AssertionError("the game did not end")


def test_sealed_deliveries_do_not_tell_the_length_of_card_names(tmp_path, keys):
    from pbem.crypto.keys import SecretIdentity

    reader = SecretIdentity.generate("reader")
    sizes = set()
    for card in ("Mole", "Double Agent", "Codebreaker", "Enforcer"):
        env = dealer_mod.seal_openings([Opening(ref="a001", card=card, salt=b64e(bytes(32)))], reader.public, b"ad")
        sizes.add(len(env.payload))
        assert dealer_mod.open_openings(env, reader, b"ad")[0].card == card
    assert len(sizes) == 1


def test_a_seat_cannot_smuggle_dealer_or_peer_parts(tmp_path, keys):
    from pbem.protocol.file_parts import SeedOpening
    from pbem.protocol.peer_parts import PeerSecrets

    g = new(tmp_path, keys)
    chain = folder.load(g)
    alice = Party(chain, keys.secret("alice"))
    hand = hand_refs(alice, "alice")
    honest = forge_turn(chain, alice.secret, [Play(face_up=hand["Saboteur"][0], face_down=hand["Sentinel"][0])], [alice.openings[hand["Saboteur"][0]]])
    body = msgspec.json.decode(codec.read_envelope(honest).body, type=TurnBody)
    smuggled = [
        {"seed": SeedOpening(seed=b64e(bytes(32)), salt=b64e(bytes(32)))},
        {"beacon": b64e(bytes(32))},
        {"secrets": PeerSecrets(scalar=b64e(bytes(32)), beacon_seed=b64e(bytes(32)))},
        {"commitments": {"a000": b64e(bytes(32))}},
    ]
    for extra in smuggled:
        with pytest.raises(ProtocolError, match="may not carry"):
            folder.load(g).append(codec.encode_signed("turn", msgspec.structs.replace(body, **extra), alice.secret))
    folder.load(g).append(honest)
