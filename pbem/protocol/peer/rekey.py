"""A peer seat handed over: its newcomer takes the old player's place in
the deck and the beacons (protocol version 6, issue #24).

The handover (`pbem.protocol.handover`) seals the seat's scalars and beacon
seeds to the newcomer, but the old player keeps them: with its scalar it
could strip the seat's layer off every card later dealt to the seat (the
other seats' partials are public), and with its seed it would know every
link the seat reveals. So the newcomer's first file (owed before anything
else, written by `pbem sync`) carries a `Rekey`:

* a fresh factor r, and every point on which the seat's layer remains and
  which the seat cannot read yet, times r, each with a Chaum-Pedersen
  proof against R = r·G (`poker.prove_dleq`: one discrete log in two
  bases, as every partial decryption). The seat's layer on those cards is
  then under r·k for the old scalar k: the old player, without r, opens
  none of them. The seat's keys are re-keyed alike, proven the same way,
  so that every later partial of those cards is proven against r·K;
* the cards the seat could read (its hand: the old player saw them and
  cannot unsee them) keep their points, so that the partials fellow
  readers sealed about them stay right; so do the cards whose partial the
  seat sealed to a fellow reader (which relays it to reveal them): the old
  player reads them only with that reader's partial, which now goes
  sealed to the newcomer, or in public once the card is face up;
* the cards still in the seat's private decks (its own layer, version 6,
  `own_decks`), whose places the old player knew, shuffled again under r
  with the same shuffle proof as every layer;
* a fresh beacon chain, started at once in place of the old player's
  (`renewal.restart`): its links are the newcomer's alone. Until version
  6 the re-keying file itself still revealed the old chain's next link
  (which the old player knew); from version 7 (`rekey_starts_chain`) it
  reveals none and its anchor is the seat's latest link, as a join's
  (`renewal.start_fresh`), and no seat is handed over while a chance waits
  for links (the fresh chain, chosen after the drawer signed, could aim
  it): no chance drawn after the handover takes any link of the old chain,
  so the old seed tells its holder nothing about one;
* r and the chain's seed sealed to the newcomer itself (so it needs no
  storage), and published with its secrets at the end (`PeerSecrets.rekey`).

What is left to the old player: the cards it read before the handover, and
in games begun before version 7 the places of cards the rules shuffled into
its private decks during play (hash commitments whose salts come from the
old beacon seed, `changes`; docs/security.md says so). From version 7 such
cards are the seat's proven layer (`proven_refills`): those still in a
private deck are shuffled again here, each refill apart from the rest
(their keys differ, `in_decks`). Until version 7, also the link of the
re-keying file itself. A reshuffle being dealt holds layers not yet on
any card: no seat is handed over then.
"""

from __future__ import annotations

import functools
import hashlib
from typing import TYPE_CHECKING, Any

from pbem.crypto import beacon, poker
from pbem.crypto.encoding import b64d, b64e, canonical
from pbem.crypto.envelope import seal_ad
from pbem.errors import CryptoError, FormatError, ProtocolError
from pbem.protocol.peer_parts import PokerLayer, Rekey, RekeyedKey
from pbem.protocol.peer import changes as peer_changes, own_decks, proofs, renewal as peer_renewal

if TYPE_CHECKING:
    from pbem.crypto.keys import SecretIdentity
    from pbem.protocol.peer_parts import PeerSecrets
    from pbem.games.base import GameState
    from pbem.protocol.head import ChainView
    from pbem.protocol.peer.deck import PeerDeck


def due(chain: ChainView) -> str | None:
    """The seat handed over whose newcomer still owes its `Rekey`."""
    assert chain.deck is not None  # asked of peer games only
    return next((seat for seat in chain.handed if seat not in chain.deck.rekeys), None)


def in_decks(deck: PeerDeck, state: GameState, seat: str) -> dict[str, list[str]]:
    """The cards still in `seat`'s private decks (its own layer, version 6),
    zone -> refs in order: the re-keying shuffles them again. Cards refilled
    into a deck (version 7, `proven_refills`) lie under another key than
    the join's, and each refill's are shuffled apart ("ZONE refill N")."""
    out: dict[str, list[str]] = {}
    for zone, refs in sorted(own_decks.zones_of(deck, seat).items()):
        there = {it.ref for it in state.zones[zone].items} if zone in state.zones else set()
        for ref in sorted(r for r in refs if r in there and deck.remaining.get(r) == {seat}):
            refill = deck.changes.refilled.get(ref)
            out.setdefault(zone if refill is None else f"{zone} refill {refill}", []).append(ref)
    return out


def _deck_name(zone: str) -> str:
    return "rekey " + own_decks.deck_name(zone)


def refs(deck: PeerDeck, seat: str) -> list[str]:
    """The cards a re-keying covers: the seat's layer is on, it cannot read
    them, and it sealed its partial of them to no fellow reader (who may
    relay it: its point must stay the one that partial was made on)."""
    known = deck.knows(seat)
    sealed = {ref for by_ref in deck.private_from.values() for ref, seats in by_ref.items() if seat in seats}
    return sorted(ref for ref, left in deck.remaining.items() if seat in left and ref not in known | sealed)


def _context(game_id: str, seq: int, seat: str, what: str) -> bytes:
    return canonical(["pbem/1 rekey", game_id, seq, seat, what])


def box_ad(game_id: str, seq: int) -> bytes:
    return seal_ad(game_id, seq, "rekey")


def make(deck: PeerDeck, state: GameState, me: SecretIdentity, seq: int) -> Rekey:
    """The newcomer's `Rekey` for the file of `seq`, on the staged `deck`
    and the public `state`."""
    from pbem.crypto.seal import seal

    r = poker.new_scalar()
    factor = poker.public_key(r)
    game_id, seat = deck.game_id, me.name
    todo = refs(deck, seat)
    shuffled = in_decks(deck, state, seat)
    decks = {}
    for zone, zone_refs in shuffled.items():
        after, proof = proofs.prove(proofs.context(deck, seq, _deck_name(zone)), [deck.points[x] for x in zone_refs], r)
        decks[zone] = PokerLayer(seat=seat, key=b64e(factor), points=[b64e(p) for p in after], proof=proof)
    keys = []
    for old in sorted({deck.key_of(seat, ref) for ref in todo + [x for z in shuffled.values() for x in z]}):
        new = poker.encrypt(r, old)
        dleq = poker.prove_dleq(r, poker.BASE, factor, old, new, _context(game_id, seq, seat, "key " + b64e(old)))
        keys.append(RekeyedKey(old=b64e(old), new=b64e(new), proof=b64e(dleq)))
    points, dleqs = [], []
    for ref in todo:
        old = deck.points[ref]
        new = poker.encrypt(r, old)
        points.append(b64e(new))
        dleqs.append(b64e(poker.prove_dleq(r, poker.BASE, factor, old, new, _context(game_id, seq, seat, ref))))
    seed, anchor = beacon.new_chain(deck.beacon_length)
    return Rekey(factor=b64e(factor), keys=keys, points=points, proofs=dleqs, anchor=b64e(anchor),
                 box=seal(r + seed, [me.public], box_ad(game_id, seq)), decks=decks)


#: digests of re-keyings whose proofs verified in this process (every load
#: of a folder replays every file; `poker.check_partial` remembers alike)
_CHECKED: set[bytes] = set()


def take(deck: PeerDeck, state: GameState, seat: str, rekey: Rekey, seq: int, starts_chain: bool = False) -> None:
    """Every verifier: check `seat`'s `Rekey` in the file of `seq` (after
    its link, until version 7), on the public `state`, and put it on the
    staged `deck`; its anchor replaces the old player's chain at once
    (`starts_chain`, version 7: as a join's, the file revealing no link)."""
    game_id = deck.game_id
    todo = refs(deck, seat)
    shuffled = in_decks(deck, state, seat)
    seen = hashlib.sha256(canonical([game_id, seq, seat, todo, [b64e(deck.points[r]) for r in todo], rekey])).digest()
    try:
        factor = poker.check_point(b64d(rekey.factor, 32), "its factor")
        olds = sorted({deck.key_of(seat, ref) for ref in todo + [x for z in shuffled.values() for x in z]})
        if [b64d(k.old, 32) for k in rekey.keys] != olds:
            raise ProtocolError("it re-keys other keys than those of the seat's layers on the cards it covers")
        keys = {}
        for k, old in zip(rekey.keys, olds):
            new = poker.check_point(b64d(k.new, 32), "a re-keyed key")
            if seen not in _CHECKED:
                poker.verify_dleq(b64d(k.proof, 64), poker.BASE, factor, old, new,
                                  _context(game_id, seq, seat, "key " + k.old))
            keys[old] = new
        if len(rekey.points) != len(todo) or len(rekey.proofs) != len(todo):
            raise ProtocolError(f"it re-keys {len(rekey.points)} cards, not the {len(todo)} the seat's layer is on "
                                "and it cannot read")
        for ref, point, proof in zip(todo, rekey.points, rekey.proofs):
            new = poker.check_point(b64d(point, 32), f"the re-keyed point of {ref}")
            if seen not in _CHECKED:
                poker.verify_dleq(b64d(proof, 64), poker.BASE, factor, deck.points[ref], new,
                                  _context(game_id, seq, seat, ref))
            deck.points[ref] = new
        if sorted(rekey.decks) != sorted(shuffled):
            raise ProtocolError(f"it shuffles other private decks than the seat's that hold cards "
                                f"({', '.join(shuffled) or 'none'})")
        for zone, zone_refs in shuffled.items():
            layer, what = rekey.decks[zone], f"its new shuffle of private deck {zone}"
            if layer.seat != seat or layer.key != rekey.factor or len(layer.points) != len(zone_refs):
                raise ProtocolError(f"{what} is not {seat}'s, under its factor, of the {len(zone_refs)} cards there")
            after = [poker.check_point(b64d(p, 32), what) for p in layer.points]
            proofs.check(deck, seq, _deck_name(zone), layer, [deck.points[x] for x in zone_refs], after, what)
            deck.points.update(zip(zone_refs, after))
        anchor = b64d(rekey.anchor, 32)
    except (CryptoError, FormatError) as exc:
        raise ProtocolError(f"{seat}'s fresh layers after its handover do not verify: {exc.message}") from None
    if len(_CHECKED) > 1 << 10:
        _CHECKED.clear()
    _CHECKED.add(seen)
    deck.rekeys[seat] = (frozenset(todo).union(*shuffled.values()), keys, factor)
    (peer_renewal.start_fresh if starts_chain else peer_renewal.restart)(deck, seat, anchor)


def opened(rekey: Rekey, me: SecretIdentity, game_id: str, seq: int, length: int) -> tuple[bytes, bytes]:
    """The factor and the beacon seed `me`'s own `Rekey` at `seq` sealed to
    itself, checked against what it published."""
    from pbem.crypto.seal import open_envelope

    data = open_envelope(rekey.box, me, box_ad(game_id, seq))
    r, seed = data[:32], data[32:]
    if len(data) != 64 or poker.public_key(poker.check_scalar(r)) != b64d(rekey.factor, 32):
        raise ProtocolError("the factor it sealed to itself is not the one it re-keyed with")
    if _anchor(seed, length) != b64d(rekey.anchor, 32):
        raise ProtocolError("the seed it sealed to itself does not lead to its fresh beacon chain's anchor")
    return r, seed


def kept_renewals(prior: PeerDeck, seat: str, starts_chain: bool = False) -> int:
    """How many of the seat's renewed chains a `Rekey` keeps, from the deck
    before its file (`prior`): those started, its own link included (a
    version-7 re-keying has none: `starts_chain`)."""
    return prior.chain_in_use.get(seat, 0) + (not starts_chain and prior.links_used[seat] >= prior.beacon_length)


@functools.lru_cache(maxsize=64)
def _anchor(seed: bytes, length: int) -> bytes:
    """A chain's anchor (a thousand hashes), once per process: the newcomer
    opens its own re-keying each time it reads the game."""
    return beacon.anchor(seed, length)


def scalar_of(deck: PeerDeck, seat: str, ref: str, secrets: PeerSecrets, made: dict[str, Any] | None = None) -> bytes:
    """The scalar of `seat`'s layer on `ref`: its join scalar or its
    reshuffle layer's, times the factor of its re-keying if it covered `ref`."""
    scalar = peer_changes.scalar_for(deck, seat, ref, secrets, made or {}) or b64d(secrets.scalar, 32)
    rekeyed = deck.rekeys.get(seat)
    if rekeyed is None or ref not in rekeyed[0]:
        return scalar
    # a seat re-keyed has its factor in its secrets (`opened`; `PeerDeck.publish` checks it)
    assert secrets.rekey is not None
    return poker.times(b64d(secrets.rekey, 32), scalar)
