"""A refill of a peer seat's private deck as its owner's proven layer
(protocol version 7, `pbem.protocol.peer.proven_refills`; issue #25, and
issue #24's handover gap).

Codex under the peer dealer, by bots through the real writers: a player's
discard pile, its own face-down cards among it (the hand it discards at
the end of its turn), is reshuffled into its deck, 7 to 14 cards at a time.
Each cheat is the owner's own refill layer made again with its real
secrets (its scalars, the true points and keys of the cards that went in),
changed in one way, signed with its real key, and offered to the other
seat's `pbem apply`: refused at once, in one line naming the seat and the
file, the folder untouched. Before version 7 such a refill was hash
commitments that only the audit checked (`test_codex_peer.py`, pinned to
version 6). Then a seat handed over: its old player's scalar, seed and key
open nothing of a refill laid after. A resealed hand's layer:
`tests/games/codex/test_codex_hidden.py`.
"""

from __future__ import annotations

import copy
import random
import secrets
import statistics
from collections.abc import Callable

import msgspec
import pytest

from conftest import Pbem, snapshot
from pbem.app.audit import audit
from pbem.crypto import poker, shuffle
from pbem.crypto.encoding import b64d, b64e, canonical
from pbem.crypto.seal import seal
from pbem.protocol import codec
from pbem.protocol.chain import Chain
from pbem.protocol.formats import TurnBody
from pbem.protocol.peer import proofs, proven_refills
from pbem.protocol.peer.knowledge import my_secrets
from pbem.protocol.peer.rekey import scalar_of
from pbem.protocol.peer_parts import RefillLayer
from tests import tamper


def _bodies(table: tamper.Table) -> list[TurnBody]:
    return [codec.decode_body(codec.read_envelope(f), TurnBody) for f in table.files[1:]]


@pytest.fixture(scope="module")
def game() -> tamper.Table:
    """A whole version-7 Codex game with a refill of face-down cards."""
    for seed in range(1, 16):
        table = tamper.play("codex", "peer", ["alice", "bob"], seed)
        if any(len(f.refs) >= 2 and f.cards is None for f in tamper.replay(table.files).deck.changes.refills):
            return table
    raise AssertionError("fifteen Codex games without a refill of face-down cards")


def test_a_version_7_game_proves_its_refills_verifies_and_audits(game, tmp_path):
    """Completeness: every refill is a proven layer, checked as it arrives;
    no hash commitment is made; the game verifies from its files, and its
    audit (which decrypts the refills with the published scalars) passes."""
    bodies = _bodies(game)
    assert any(b.refills for b in bodies) and not any(b.commitments or b.memo for b in bodies)
    chain = tamper.replay(game.files)
    assert chain.version.proven_refills and chain.over
    hidden = [f for f in chain.deck.changes.refills if f.cards is None]
    assert hidden and all(f.key is not None for f in chain.deck.changes.refills)
    report = audit(tamper.save(game, tmp_path / "game"))
    assert report.ok, report.failures
    sizes = [len(f) for f in game.files[1:]]
    assert max(sizes) < 16 * 1024 and statistics.median(sizes) < 4 * 1024, "issue #8: under 16 KiB, median under 4 KiB"


def test_a_refill_leaves_the_head_before_its_file_as_it_was(game):
    """Each record keeps the head before its file (an undo returns to it;
    a refused file leaves the chain there), and a file is staged on a copy
    of the deck that shares what files replace and never change
    (`PeerDeck.copy`). A refill into a private deck adds its cards to the
    deck's `own` (a handover's re-keying shuffles them again): on the
    staged copy only, never on the head before it, whose deck every file
    of the game leaves equal to a deep copy taken before."""
    chain = Chain(game.files[0])
    refills = 0
    for k, data in enumerate(game.files[1:], 1):
        before = chain.now
        kept = copy.deepcopy(before.deck)
        chain.append(data, f"file {k}")
        assert before.deck == kept, f"file {k} changed the deck of the head before it"
        refills += len(chain.deck.own) > len(kept.own)
    assert refills, "no refill of a private deck to check"


# --- the owner's layer made again with its real secrets, changed in one way ---------------


class Remade:
    """What the owner knew when it laid its layer over refill `index` of
    file `k`: the points and keys of the cards that went in, its scalar on
    each, and a fresh scalar s."""

    def __init__(self, game: tamper.Table, k: int) -> None:
        self.k = k
        chain = tamper.replay(game.files[:k + 1])
        self.refill = next(f for f in chain.deck.changes.refills if f.committed == k and f.cards is None)
        self.owner = self.refill.owner
        before = tamper.replay(game.files[:k])
        deck = before.deck
        revealed = {**before.revealed, **chain.revealed}
        self.went, _ = proven_refills.inputs(deck, self.refill, k, revealed)
        mine = my_secrets(chain, game.secrets[self.owner])
        self.scalars = [(1).to_bytes(32, "little") if key == poker.BASE else scalar_of(deck, self.owner, g, mine)
                        for g, (_, key) in zip(self.refill.gone, self.went)]
        self.game_id, self.nonce, self.identity = chain.game_id, deck.nonce, game.secrets[self.owner]
        self.s = poker.new_scalar()

    def points(self, s: bytes, game_id: str | None = None, seq: int | None = None) -> tuple[list[bytes], list[str]]:
        """Each card re-encrypted to `s`, with its (true) proof."""
        base = poker.public_key(s)
        out, dleqs = [], []
        for g, (point, key), k in zip(self.refill.gone, self.went, self.scalars):
            t = poker.quotient(s, k)
            new = poker.encrypt(t, point)
            ctx = canonical([proven_refills.DOMAIN, game_id or self.game_id, self.k if seq is None else seq,
                             self.refill.zone, g])
            out.append(new)
            dleqs.append(b64e(poker.prove_dleq(t, key, base, point, new, ctx)))
        return out, dleqs

    def layer(self, points: list[bytes], dleqs: list[str], after: list[bytes], proof: bytes,
              s: bytes | None = None) -> RefillLayer:
        s = s or self.s
        base = poker.public_key(s)
        return RefillLayer(base=b64e(base), points=[b64e(p) for p in points], proofs=dleqs,
                           key=b64e(poker.encrypt(s, base)), layer=[b64e(p) for p in after], proof=b64e(proof),
                           box=seal(s, [self.identity.public], proven_refills.box_ad(self.game_id, self.k)))

    def honest(self, game_id: str | None = None, seq: int | None = None) -> RefillLayer:
        s = self.s
        points, dleqs = self.points(s, game_id, seq)
        order = list(range(len(points)))
        after = [poker.encrypt(s, points[j]) for j in order]
        ctx = proofs.context_of(game_id or self.game_id, self.k if seq is None else seq,
                                proven_refills.deck_name(self.refill))
        proof = shuffle.prove(ctx, points, after, order, s, base=poker.public_key(s))
        return self.layer(points, dleqs, after, proof)


def _best(remade: Remade) -> bytes:
    """The bare point of a card of the owner's choosing, that did not go in."""
    return poker.card_point(f"{remade.nonce} private deck {remade.refill.zone}", "Nautical Dog", 7)


def _substituted(r: Remade) -> RefillLayer:
    """One card of the shuffled layer replaced by a card of the owner's choosing."""
    honest = r.honest()
    after = [b64d(p, 32) for p in honest.layer]
    after[0] = poker.encrypt(poker.times(r.s, r.s), _best(r))
    return msgspec.structs.replace(honest, layer=[b64e(p) for p in after])


def _substituted_input(r: Remade) -> RefillLayer:
    """One card that went in re-encrypted as another card, with a forged
    Chaum-Pedersen proof, and the rest honest."""
    points, dleqs = r.points(r.s)
    points[0] = poker.encrypt(r.s, _best(r))
    dleqs[0] = b64e(poker._prove(r.s, poker.BASE, poker.public_key(r.s), _best(r), points[0], b"forged"))
    after = [poker.encrypt(r.s, p) for p in points]
    proof = shuffle.prove(proofs.context_of(r.game_id, r.k, proven_refills.deck_name(r.refill)), points, after,
                          list(range(len(points))), r.s, base=poker.public_key(r.s))
    return r.layer(points, dleqs, after, proof)


def _duplicated(r: Remade) -> RefillLayer:
    """The second card of the layer a copy of the first (three of its best card)."""
    honest = r.honest()
    return msgspec.structs.replace(honest, layer=[honest.layer[0], honest.layer[0], *honest.layer[2:]])


def _dropped(r: Remade) -> RefillLayer:
    honest = r.honest()
    return msgspec.structs.replace(honest, layer=honest.layer[1:], points=honest.points[1:], proofs=honest.proofs[1:])


def _two_scalars(r: Remade) -> RefillLayer:
    """The first card shuffled under another scalar than the rest."""
    honest = r.honest()
    other = poker.new_scalar()
    after = [b64d(p, 32) for p in honest.layer]
    after[0] = poker.encrypt(other, b64d(honest.points[0], 32))
    return msgspec.structs.replace(honest, layer=[b64e(p) for p in after])


def _other_seq(r: Remade) -> RefillLayer:
    """A true layer, proven for the next file."""
    return r.honest(seq=r.k + 1)


def _other_game(r: Remade) -> RefillLayer:
    """A true layer, proven for another game."""
    return r.honest(game_id=b64e(secrets.token_bytes(32)))


def _unshuffled_proof(r: Remade) -> RefillLayer:
    """Fresh points in another order than the honest proof's."""
    honest = r.honest()
    return msgspec.structs.replace(honest, layer=[*honest.layer[1:], honest.layer[0]])


CHEATS: list[tuple[Callable[[Remade], RefillLayer], str]] = [
    (_substituted, "is not a shuffle of the deck it received"),
    (_substituted_input, "card 0"),
    (_duplicated, "repeats a card"),
    (_dropped, "cards, not the"),
    (_two_scalars, "is not a shuffle of the deck it received"),
    (_other_seq, "is not the card that went in"),
    (_other_game, "is not the card that went in"),
    (_unshuffled_proof, "is not a shuffle of the deck it received"),
]


@pytest.mark.parametrize("doctor, message", CHEATS, ids=[d.__name__.strip("_") for d, _ in CHEATS])
def test_a_refill_committed_to_other_cards_is_refused_by_the_other_seats_apply(game, tmp_path, doctor, message):
    chain = tamper.replay(game.files)
    k = next(f.committed for f in chain.deck.changes.refills if f.cards is None and len(f.refs) >= 2)
    remade = Remade(game, k)
    body = _bodies(game)[k - 1]
    i = next(i for i, r in enumerate(body.refills) if len(r.layer) == len(remade.refill.refs))
    refills = [*body.refills[:i], doctor(remade), *body.refills[i + 1:]]
    forged = tamper.resign(game, msgspec.structs.replace(body, refills=refills))
    folder = tamper.save(tamper.Table(game.game, game.mode, game.files[:k], game.secrets), tmp_path / "game")
    name = f"{k:06d}-{remade.owner}.pbem"
    (tmp_path / "mail").mkdir()
    (tmp_path / "mail" / name).write_bytes(forged)
    pbem = Pbem(tmp_path / "home")
    pbem("verify", folder)  # (its state cache written)
    before = snapshot(folder)
    result = pbem.fails("apply", folder, tmp_path / "mail" / name, "--accept-new")  # the game's own keys
    assert snapshot(folder) == before
    assert name in result.stderr and f"{remade.owner}'s layer over the cards shuffled into" in result.stderr, \
        result.stderr
    assert message in result.stderr, result.stderr
    (tmp_path / "mail" / name).write_bytes(game.files[k])  # the honest file still goes in
    pbem("apply", folder, tmp_path / "mail" / name, "--accept-new")


# --- a seat handed over (issue #24): nothing of a later refill for the old player ----------


def _handed_over_game(seed: int) -> tuple[list[bytes], dict, object, int]:
    """A Codex peer game by bots, in memory, in which bob hands his seat
    over to carol once his deck was refilled, then plays on until carol
    refilled it too (and a few files more). Returns the files, the
    identities (bob's seat then carol's), bob's old identity and the seq of
    the handover."""
    from pbem import games
    from pbem.crypto.keys import SecretIdentity
    from pbem.games.base import SeatSpec
    from pbem.protocol import acceptance
    from pbem.protocol.chain import Chain
    from pbem.protocol.party import Party
    from pbem.protocol.peer import writer as peer_writer

    game = games.get("codex")
    opts = game.options({})
    ids = {n: SecretIdentity.generate(n) for n in ("alice", "bob")}
    carol = SecretIdentity.generate("carol")
    specs = game.seats(opts, [SeatSpec("alice"), SeatSpec("bob")])
    files = [peer_writer.make_genesis(game, opts, [(s, ids[s.name].public) for s in specs], ids["alice"])]
    chain, rng, old_bob, at, after = Chain(files[0]), random.Random(seed), ids["bob"], 0, 0
    for _ in range(400):
        writers = chain.writers()
        if not writers:
            break
        who = writers[0]
        me = Party(chain, ids[who])
        refilled = [f for f in chain.deck.changes.refills if f.owner == "bob" and f.key is not None]
        if chain.deck is not None and not chain.deck.all_joined:
            data = peer_writer.join(chain, ids[who])
        elif chain.needs(who) == "auto":
            data = me.answer()
        elif not at and who == "bob" and refilled:
            _, consent = acceptance.read(acceptance.make(chain, carol, "bob", None))  # carol agrees (version 7)
            data, at = me.handover("bob", carol.public, None, consent), chain.seq + 1
            ids["bob"] = carol.seated_as("bob")
        else:
            data = me.turn([game.presentation.bots["greedy"](game, me.state(), who, rng)])
        chain.append(data)
        files.append(data)
        if at and any(f.committed > at for f in refilled):
            after += 1
            if after > 12:
                break
    return files, ids, old_bob, at


def test_after_a_handover_the_old_players_secrets_open_nothing_of_a_later_refill():
    """Version 7, a seat handed over after its deck was refilled: carol's
    refills are layers under scalars sealed to her alone; no file commits
    a hash salted from bob's old beacon seed; bob's real scalar and the
    scalars of his own refills open no card carol refilled, nor any card
    of his own refills still in the deck at the handover (carol's first
    file shuffled those again, apart from the rest)."""
    from pbem.crypto.seal import open_envelope
    from pbem.errors import CryptoError, SealError
    from pbem.protocol.peer import rekey

    for seed in range(1, 16):
        files, ids, old_bob, at = _handed_over_game(seed)
        chain = tamper.replay(files)
        later = [f for f in chain.deck.changes.refills if f.owner == "bob" and f.committed > at]
        if at and later:
            break
    else:
        raise AssertionError("fifteen Codex games without a refill of bob's deck before and after a handover")
    bodies = [r.body for r in chain.records[1:]]
    assert not any(b.commitments or b.memo for b in bodies), "nothing salted from a beacon seed"
    old = [b64d(my_secrets(tamper.replay(files[:at]), old_bob).scalar, 32)]
    for r in chain.records[1:at]:
        for layer in r.body.refills if r.by == "bob" else ():
            s = open_envelope(layer.box, old_bob, proven_refills.box_ad(chain.game_id, r.seq))
            old.append(poker.times(s, s))
    assert len(old) > 1, "bob knew the scalars of his own refills"
    for f in later:
        record = chain.records[f.committed]
        for layer in record.body.refills:
            with pytest.raises(SealError):
                open_envelope(layer.box, old_bob, proven_refills.box_ad(chain.game_id, f.committed))
    prior = chain.records[at].prior
    kept = [ref for name, refs in rekey.in_decks(prior.deck, prior.public, "bob").items() if "refill" in name
            for ref in refs]
    assert kept, "cards of bob's own refill were still in his deck at the handover"
    tried = 0
    for ref in kept + [ref for f in later for ref in f.refs]:
        if ref in chain.revealed or chain.deck.remaining.get(ref) != {"bob"}:
            continue
        for scalar in old:
            tried += 1
            with pytest.raises(CryptoError):
                chain.deck.identify(poker.decrypt(scalar, chain.deck.points[ref]))
    assert tried


# --- a refill drawn from in its owner's own answer: proven at once, its places audited -------


GIFTS = ("target=200", "rounds=9", "private=1", "gift=1")


def _giver_game(seed: int, patches: tuple = ()) -> tamper.Table:
    """Lucky Draw, in which `gift` makes the next seat draw from its own
    deck, refilled from its discard pile when empty, inside its own answer
    (as a Codex attack makes the defender draw)."""
    from pbem import games
    from tests import chancegame

    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(games._REGISTRY, "lucky", ("tests.chancegame", "GAME", ()))
        mp.setattr(chancegame.GAME.presentation, "demo_bot", "giver")
        for obj, name, value in patches:
            mp.setattr(obj, name, value)
        return tamper.play("lucky", "peer", ["alice", "bob"], seed, GIFTS)


def _audited(table: tamper.Table, path) -> list[str]:
    return audit(tamper.save(table, path)).failures


def test_a_refill_drawn_in_its_owners_answer_is_proven_and_its_places_audited(tmp_path, monkeypatch):
    """Version 7: the refill the owner draws from in its own answer is a
    proven layer like any other, laid in the order its beacon seed gives;
    the audit decrypts it and checks that order (the one check that stays
    late: docs/security.md, "What stays late")."""
    from pbem import games
    from pbem.protocol.peer import refills as peer_refills

    monkeypatch.setitem(games._REGISTRY, "lucky", ("tests.chancegame", "GAME", ()))
    table = _giver_game(1)
    derived = [f for f in tamper.replay(table.files).deck.changes.refills if f.derived]
    assert derived and all(f.key is not None for f in derived)
    assert _audited(table, tmp_path / "honest") == []
    real = peer_refills.derived_order

    def chosen(seed, game_id, refill, cards):
        honest = real(seed, game_id, refill, cards)
        return dict(zip(refill.refs, reversed(list(honest.values())))) if len(set(cards)) > 1 else honest

    lying = _giver_game(2, patches=((peer_refills, "derived_order", chosen),))
    tamper.replay(lying.files)  # consistent during play: its multiset is right
    failures = _audited(lying, tmp_path / "chosen")
    assert failures and all("are not the ones its beacon seed gives" in f for f in failures)
