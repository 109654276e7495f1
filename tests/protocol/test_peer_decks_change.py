"""Peer decks that change during play (issue #14 part 6): reshuffles into the
shared deck and into a private deck, and cards that move from one seat's
hidden hand to another's, played to the end by bots with Lucky Draw; then a
cheat per mechanism, each a file doctored and re-signed with its writer's
real key (or a lying writer played to the end and caught by the audit).

The games here are begun under protocol version 6, whose refills are hash
commitments; version 7's proven refills are `test_proven_refills.py`'s."""

from __future__ import annotations

import os

import msgspec
import pytest

from pbem import games
from pbem.app import opening
from pbem.crypto import poker
from pbem.crypto.encoding import b64d, b64e
from pbem.crypto.seal import seal
from pbem.app.demo import run_demo
from pbem.errors import CommitmentError, PbemError, ProtocolError
from pbem.games.base import refs_in
from pbem.protocol import codec, formats
from pbem.protocol.peer import changes as peer_changes, knowledge as peer_knowledge, proofs, refills as peer_refills
from pbem.protocol.peer import writer as peer_writer
from pbem.app.audit import audit
from pbem.protocol.file_parts import Delivery, Opening
from pbem.protocol.formats import TurnBody
from pbem.protocol.peer_parts import ReshuffleLayer
from pbem.protocol.party import Party
from pbem.protocol.peer.secrets import private_salt
from tests import chancegame, tamper

LUCKY = ("target=200", "rounds=9", "private=1", "steal=1")


@pytest.fixture(autouse=True)
def lucky(monkeypatch):
    monkeypatch.setitem(games._REGISTRY, "lucky", ("tests.chancegame", "GAME", ()))


def _thief_game(seats, seed, options=LUCKY, patches=()) -> tamper.Table:
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(games._REGISTRY, "lucky", ("tests.chancegame", "GAME", ()))
        mp.setattr(chancegame.GAME.presentation, "demo_bot", "thief")
        mp.setattr(peer_writer, "PROTOCOL_VERSION", 6)
        mp.setattr(formats, "PROTOCOL_VERSION", 6)  # what a seat's first file checks
        for obj, name, value in patches:
            mp.setattr(obj, name, value)
        return tamper.play("lucky", "peer", seats, seed, options)


def _has_everything(table) -> bool:
    bodies = _bodies(table)
    return (any(b.reshuffle for b in bodies) and any(b.sealed for b in bodies) and any(b.deliveries for b in bodies)
            and any(b.commitments for b in bodies if b.commands) and any(b.commitments for b in bodies if not b.commands))


@pytest.fixture(scope="module")
def two():
    """Alice and bob to the end: both kinds of reshuffle, steals of both kinds
    of card. The beacons' chance is fresh in every game: a game that happens
    to lack one of them is played again (rarely)."""
    for seed in range(1, 16):
        table = _thief_game(["alice", "bob"], seed)
        if _has_everything(table):
            return table
    raise AssertionError("fifteen games without every mechanism: the thief bot no longer exercises them")


@pytest.fixture(scope="module")
def three():
    return _thief_game(["alice", "bob", "carol"], 2, ("target=200", "rounds=3", "private=1", "steal=1"))


def _bodies(table) -> list[TurnBody]:
    return [codec.decode_body(codec.read_envelope(f), TurnBody) for f in table.files[1:]]


def test_the_drawer_bot_reshuffles_the_shared_deck_under_peer(tmp_path):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(chancegame.GAME.presentation, "demo_bot", "drawer")
        table = tamper.play("lucky", "peer", ["alice", "bob"], 7, ("target=200", "rounds=6"))
    folder = tamper.save(table, tmp_path / "game")
    chain = opening.verify(folder)
    assert chain.over and chain.public.reshuffles >= 1
    layers = [r for r in chain.records[1:] if r.body.reshuffle is not None]
    assert [r.by for r in layers] == chain.seat_order * chain.public.reshuffles, "every seat adds a layer, in seat order"
    assert all(chain.records[r.seq - 1].commands for r in layers[::2]), "right after the file that reshuffled"
    assert audit(folder).ok


@pytest.mark.skipif(not os.environ.get("PBEM_LONG"), reason="the whole CLI demo under peer: PBEM_LONG=1")
def test_the_drawer_demo_plays_to_the_end_under_peer(tmp_path):
    folder = run_demo("lucky", tmp_path / "game", 7, "peer", "drawer", lambda line: None, keys_dir=tmp_path / "keys",
                      options=["target=200", "rounds=6"])  # verifies and audits every seat's folder
    for seat in ("alice", "bob"):
        assert audit(folder / seat).ok


def test_reshuffles_and_steals_play_to_the_end_and_audit(two, tmp_path):
    bodies = _bodies(two)
    assert any(b.reshuffle for b in bodies), "the shared deck is dealt again"
    assert any(b.commitments for b in bodies if b.commands), "a seat refills its own private deck in its file"
    assert any(b.commitments for b in bodies if not b.commands), "... and in its next file when another seat's did"
    assert any(b.sealed for b in bodies) and any(b.deliveries for b in bodies), "both kinds of card change hands"
    folder = tamper.save(two, tmp_path / "game")
    chain = opening.verify(folder)
    assert chain.over
    report = audit(folder)
    assert report.ok, report.failures
    assert sum(len(s.layers) for s in chain.deck.secrets.values()) == sum(b.reshuffle is not None for b in bodies)


def test_a_stolen_card_is_read_by_the_thief_alone(three):
    bodies = _bodies(three)
    k = next(k for k, b in enumerate(bodies, 1) if b.sealed and not b.commands and b.sealed[0].refs)
    chain = tamper.replay(three.files[: k + 1])
    box = bodies[k - 1].sealed[0]
    ref = box.refs[0]
    knows = {name: ref in Party(chain, three.secrets[name]).cards for name in chain.seat_order}
    assert knows == {name: name in (box.to, bodies[k - 1].by) for name in chain.seat_order}


def _first(table, test):
    bodies = _bodies(table)
    k, body = next((k, b) for k, b in enumerate(bodies, 1) if test(b))
    return tamper.replay(table.files[:k]), body


def _layer_file(table):
    return _first(table, lambda b: b.reshuffle is not None)


def test_a_reshuffle_layer_that_drops_or_duplicates_a_card_is_refused(two):
    chain, body = _layer_file(two)
    layer = body.reshuffle
    dropped = msgspec.structs.replace(layer, points=layer.points[:-1])
    with pytest.raises(ProtocolError, match=f"{body.by}'s layer of the cards reshuffled into deck has"):
        chain.append(tamper.resign(two, msgspec.structs.replace(body, reshuffle=dropped)))
    doubled = msgspec.structs.replace(layer, points=[layer.points[0], *layer.points[:-1]])
    with pytest.raises(ProtocolError, match="repeats a card"):
        chain.append(tamper.resign(two, msgspec.structs.replace(body, reshuffle=doubled)))
    with pytest.raises(ProtocolError, match=f"{body.by} owes its layer"):
        chain.append(tamper.resign(two, msgspec.structs.replace(body, reshuffle=None)))
    assert chain.append(two.files[chain.seq + 1]), "the honest file still goes in"


def test_a_reshuffle_layer_is_proven_when_it_arrives(two):
    """A card substituted in a reshuffle layer, its proof dropped, or a
    proof made for the shared deck instead: refused in the layer's file."""
    chain, body = _layer_file(two)
    layer = body.reshuffle
    assert layer.proof and chain.version.shuffle_proofs
    substituted = msgspec.structs.replace(layer, points=[
        b64e(poker.encrypt(poker.new_scalar(), b64d(layer.points[0], 32))), *layer.points[1:]])
    scalar = poker.new_scalar()
    points, proof = proofs.prove(proofs.context(chain.deck, chain.seq + 1, proofs.SHARED),
                                 chain.deck.changes.pending().points(), scalar)
    elsewhere = msgspec.structs.replace(layer, key=b64e(poker.public_key(scalar)), points=[b64e(p) for p in points],
                                        proof=proof)
    what = f"{body.by}'s layer of the cards reshuffled into deck"
    for doctored, message in [(substituted, f"{what} is not a shuffle of the deck it received"),
                              (msgspec.structs.replace(layer, proof=None), f"{what} carries no shuffle proof"),
                              (elsewhere, f"{what} is not a shuffle of the deck it received")]:
        with pytest.raises(ProtocolError, match=message):
            chain.append(tamper.resign(two, msgspec.structs.replace(body, reshuffle=doctored)))
    assert chain.append(two.files[chain.seq + 1]), "the honest file still goes in"


def test_a_reshuffle_layer_with_a_reused_scalar_is_refused(two):
    chain, body = _layer_file(two)
    me = two.secrets[body.by]
    scalar = b64d(peer_knowledge.my_secrets(chain, me).scalar, 32)  # its join scalar
    pending = chain.deck.changes.pending()
    points = poker.shuffle_layer(scalar, pending.points())
    reused = ReshuffleLayer(key=b64e(poker.public_key(scalar)), points=[b64e(p) for p in points],
                            box=seal(scalar, [me.public], b"x"))
    with pytest.raises(ProtocolError, match="reuses the scalar of an earlier layer"):
        chain.append(tamper.resign(two, msgspec.structs.replace(body, reshuffle=reused)))


def test_a_sealed_partial_to_the_wrong_seat_is_refused(three):
    chain, body = _first(three, lambda b: b.sealed and not b.commands)
    box = body.sealed[0]
    other = next(s for s in chain.seat_order if s not in (box.to, body.by))
    wrong = msgspec.structs.replace(body, sealed=[msgspec.structs.replace(box, to=other), *body.sealed[1:]])
    with pytest.raises(ProtocolError, match=f"{body.by} owes {box.to} its sealed partial decryption"):
        chain.append(tamper.resign(three, wrong))
    secrets = peer_knowledge.my_secrets(chain, three.secrets[body.by])
    ref = box.refs[0]
    scalar = peer_changes.scalar_for(chain.deck, body.by, ref, secrets, {}) or b64d(secrets.scalar, 32)
    shown = msgspec.structs.replace(body, sealed=body.sealed[1:],
                                    partials=[*body.partials, chain.deck.make_partial(body.by, scalar, ref)])
    with pytest.raises(ProtocolError, match=f"owes {box.to} its sealed partial"):  # showing it to everyone instead
        chain.append(tamper.resign(three, shown))


def test_a_false_opening_sealed_to_the_new_holder_is_caught_by_it(two):
    bodies = _bodies(two)
    k, body = next((k, b) for k, b in enumerate(bodies, 1) if b.deliveries)
    chain = tamper.replay(two.files[:k])
    box = body.deliveries[0]
    ref = box.refs[0]
    owner = Party(chain, two.secrets[body.by])
    true = owner.cards[ref]
    salt = b64e(private_salt(b64d(peer_knowledge.my_secrets(chain, two.secrets[body.by]).beacon_seed, 32), ref))
    lie = [Opening(ref=ref, card="7" if true != "7" else "8", salt=salt)]
    env = seal(msgspec.json.encode(lie), [chain.seats[box.to].identity], peer_changes.openings_ad(chain.game_id, k, box.to))
    doctored = msgspec.structs.replace(body, deliveries=[Delivery(to=box.to, refs=[ref], envelope=env)])
    chain.append(tamper.resign(two, doctored))  # nobody else can tell
    with pytest.raises(CommitmentError, match=f"{body.by}'s opening sealed to {box.to} is false"):
        _ = Party(chain, two.secrets[box.to]).cards


def test_a_private_refill_committed_to_other_cards_is_caught_by_the_audit(tmp_path, monkeypatch):
    """Where a refill's cards were not all face up, nobody can tell during
    play; the audit can. (When they all were, the false card is refused at
    once when it is opened: tests/protocol/test_refill_multiset.py. That check is off
    here, to stand for a refill whose cards nobody else saw.)"""
    def lying(cards):  # one card of the refill is not one that went in
        out = sorted(cards)
        return ["9" if out[0] != "9" else "8", *out[1:]]

    monkeypatch.setattr(peer_refills, "check_opening", lambda deck, ref, card: None)
    table = _thief_game(["alice", "bob"], 1, patches=[(peer_refills, "refill_order", lying)])
    folder = tamper.save(table, tmp_path / "game")
    assert opening.verify(folder).over, "the lie is consistent: nobody can tell during play"
    failures = audit(folder).failures
    assert failures and all("are not the cards that went in" in f for f in failures)
    liars = {f.split("(signed by ")[1].split(")")[0] for f in failures}
    assert liars <= {"alice", "bob"} and liars


def test_hidden_cards_cannot_be_reshuffled_into_a_shared_deck(monkeypatch):
    real = chancegame.LuckyDraw.apply

    def apply(self, state, seat, command, chance):
        after = real(self, state, seat, command, chance)
        if isinstance(command, chancegame.Pass):
            chancegame.shuffle_zone(after, "deck", chance)  # the face-down deck, shuffled again
        return after

    monkeypatch.setattr(chancegame.LuckyDraw, "apply", apply)
    monkeypatch.setattr(chancegame.GAME.presentation, "demo_bot", "random")
    with pytest.raises(PbemError, match="deck: peer games can reshuffle only face-up cards into a shared deck"):
        tamper.play("lucky", "peer", ["alice", "bob"], 3, ("target=200",))


GIFTS = ("target=200", "rounds=9", "private=1", "gift=1")


def _giver_game(seed, patches=()) -> tamper.Table:
    return _thief_game(["alice", "bob"], seed, GIFTS, [(chancegame.GAME.presentation, "demo_bot", "giver"), *patches])


def _derived(table) -> list:
    return [f for f in tamper.replay(table.files).deck.changes.refills if f.derived]


def test_a_deck_reshuffled_and_drawn_from_inside_its_owners_answer(tmp_path):
    """`gift` makes the next seat draw from its own deck, refilled from the
    discard pile when empty (as a Codex attack makes the defender draw): the
    draw's chance is the answer's, which its writer (the deck's owner)
    knows. It commits in that answer, to the places its beacon seed gives,
    and the audit checks them."""
    from pbem.crypto.encoding import b64d

    table = _giver_game(1)
    derived = _derived(table)
    assert derived, "the giver bot no longer makes a seat draw from a refilled deck"
    chain = tamper.replay(table.files)
    for f in derived:
        body = chain.records[f.seq].body
        assert body.by == f.owner and not body.commands and set(body.commitments) == set(f.refs)
        then = tamper.replay(table.files[:f.seq + 1]).public
        drawn = [r for r in f.refs if r not in {it.ref for it in then.zones[f.zone].items}]
        assert drawn and all(r in {it.ref for it in then.zones[f"hand:{f.owner}"].items} for r in drawn)
        places = {r: chain.deck.secrets[f.owner].private[r] for r in f.refs}
        seed = b64d(chain.deck.secrets[f.owner].beacon_seed, 32)
        assert places == peer_refills.derived_order(seed, chain.game_id, f, list(places.values()))
    report = audit(tamper.save(table, tmp_path / "game"))
    assert report.ok, report.failures


def test_a_drawing_owner_that_chooses_its_order_is_caught_by_the_audit(tmp_path):
    """The owner could pick the order that gives it the card it wants (it
    knows the draw's chance); nobody can tell during play, the audit can."""
    real = peer_refills.derived_order

    def chosen(seed, game_id, refill, cards):
        honest = real(seed, game_id, refill, cards)
        return dict(zip(refill.refs, reversed(list(honest.values())))) if len(set(cards)) > 1 else honest

    table = _giver_game(2, patches=[(peer_refills, "derived_order", chosen)])
    folder = tamper.save(table, tmp_path / "game")
    assert opening.verify(folder).over
    failures = audit(folder).failures
    assert failures and all("are not the ones its beacon seed gives" in f for f in failures)
    owners = {f.owner for f in _derived(table)}
    assert {f.split("(signed by ")[1].split(")")[0] for f in failures} <= owners


def test_a_refilled_card_drawn_where_another_seat_reads_it_is_refused(monkeypatch):
    """The places may follow from the owner's seed only while the drawn cards
    stay with the owner: a gift that put the card drawn from the refilled
    deck into the giver's hand would need the owner's commitments in an
    earlier file, and stops with the one-line error."""
    real = chancegame.LuckyDraw.apply

    def apply(self, state, seat, command, chance):
        if isinstance(command, chancegame.Gift):  # the gift goes to the giver's own hand
            other = chancegame._next(state, seat)
            after = real(self, state, seat, command, chance)
            got = after.zones[chancegame._hand(other)].items.pop()
            after.zones[chancegame._hand(seat)].items.append(got)
            return after
        return real(self, state, seat, command, chance)

    monkeypatch.setattr(chancegame.LuckyDraw, "apply", apply)
    with pytest.raises(PbemError, match="must stay in it until .* commits to them .*, into hand:"):
        _giver_game(1)


def test_a_card_that_leaves_the_game_with_a_reshuffle_is_not_counted_in_it(monkeypatch, tmp_path):
    """A command that reshuffles and also takes a card out of the game (a
    Codex attack kills a hero, which leaves the zones, and makes the
    defender draw from its refilled deck): only the refs the rules' shuffle
    renamed went into the deck, which its owner commits to."""
    real = chancegame.LuckyDraw.apply

    def apply(self, state, seat, command, chance):
        after = real(self, state, seat, command, chance)
        if isinstance(command, chancegame.Gift) and after.zones[chancegame._used(seat)].items:
            after.zones[chancegame._used(seat)].items.pop()  # burnt: it leaves the game
        return after

    monkeypatch.setattr(chancegame.LuckyDraw, "apply", apply)
    for seed in range(1, 16):
        table = _giver_game(seed)
        chain = tamper.replay(table.files)
        burnt = [f for f in _derived(table)
                 if len(refs_in(tamper.replay(table.files[:f.seq]).public)) > len(refs_in(chain.records[f.seq].after))]
        if burnt:
            break
    else:
        raise AssertionError("fifteen games without a burnt card beside a refill")
    assert all(len(f.gone) == len(f.refs) for f in _derived(table))
    report = audit(tamper.save(table, tmp_path / "game"))
    assert report.ok, report.failures


def test_a_seat_decides_only_once_it_can_see_a_card_just_turned_face_up(monkeypatch):
    """Three seats: alice's roll of 6 turns the deck's top card face up in
    bob's answer, and alice, who goes on, owes her decryption of it first
    in seat order; carol's is still to come. Alice sends hers alone and
    decides after carol's, so no decision is made with a face-up card its
    maker could not know (a later seat's layer still on it)."""
    from pbem.games.base import unrevealed_public

    monkeypatch.setattr(chancegame.GAME.presentation, "demo_bot", "random")
    seen = 0
    # a peer deal is random whatever the bots' seed (every seat's secret
    # share makes it): games until three cards were turned face up, most
    # often two or three games, rarely more than eight
    for seed in range(1, 41):
        table = tamper.play("lucky", "peer", ["alice", "bob", "carol"], seed, ("target=200", "rounds=6", "omen=1"))
        records = tamper.replay(table.files).records[1:]
        for rec in records:
            if rec.before is None:
                continue
            turned = set(unrevealed_public(rec.before))
            seen += bool(turned)
            assert not (rec.commands and turned & set(unrevealed_public(rec.after))), \
                f"seq {rec.seq}: {rec.by} decided with {sorted(turned)} face up and unknown to it"
        if seen >= 3:
            break
    assert seen >= 3, "forty games with fewer than three cards turned face up"
