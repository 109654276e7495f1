"""A seat's private decks as its own proven shuffle layer (protocol version 6).

A private deck (`Dealing.private`: a Codex player's own deck, Dark
Agent's area deck) holds cards everyone knows, in an order only its owner
knows; the beacons pick each draw. Before version 6 the owner committed to
each place with a hash (`secrets.commit_private`): nothing showed whether the
committed cards were the deck's until the owner published its places at the
end, so a deck committed to other cards (three copies of its best card)
was found only by the audit, or by nobody if the owner never published.

From version 6 a private deck is a one-seat mental-poker deck: its cards
get starting points of their own (one per copy, `table`, apart from the
shared deck's), and the owner lays a layer over them under the scalar of
its join key: permuted, each times that one scalar, with the same shuffle
proof as every shared layer (`proofs`: Curdleproofs, the same-scalar
shuffle argument cited in `pbem.crypto.shuffle`). Every verifier checks
it in the owner's join (the creator's genesis): a deck committed to
anything but its declared cards is refused there, naming the seat. Its
cards are then slots on which only the owner's layer remains, and the
shared deck's machinery does the rest: the owner reads them in private,
reveals one with a partial decryption proven against its join key (a
Chaum-Pedersen proof of one discrete log in two bases, D. Chaum and T. P.
Pedersen, "Wallet Databases with Observers", CRYPTO '92;
`poker.partial_decrypt`), and seals that partial to a
seat a card goes to. Hiding rests on DDH, as for the shared deck.

Cards the rules later reshuffle into a private deck keep the hash
commitments of `changes` in games begun before version 7; from version 7
they are their owner's proven layer too (`proven_refills`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from pbem.crypto import poker
from pbem.crypto.encoding import b64d, b64e
from pbem.errors import ProtocolError
from pbem.protocol.peer_parts import PokerLayer
from pbem.protocol.peer import proofs


class OwnDecks(proofs.ProvenDeck, Protocol):
    """What a seat's layer over its private decks reads and fills of the
    deck (`PeerDeck`'s fields: see there)."""

    own: dict[str, tuple[str, str]]
    own_table: dict[bytes, tuple[str, int]]
    points: dict[str, bytes]
    remaining: dict[str, set[str]]
    private_contents: dict[str, list[str]]


def table(nonce: str, zone: str, cards: list[str]) -> dict[bytes, tuple[str, int]]:
    """The starting points of private deck `zone`'s cards (its declared,
    sorted contents), apart from the shared deck's and every other deck's."""
    return poker.card_table(f"{nonce} private deck {zone}", cards)


def deck_name(zone: str) -> str:
    """What a private deck's layer proof is bound to (`proofs.context`)."""
    return f"private deck {zone}"


def lay(context: Callable[[str], bytes], nonce: str, zones: dict[str, list[str]], contents: dict[str, list[str]],
        scalar: bytes) -> tuple[dict[str, str], dict[str, str]]:
    """The owner's layer over its private decks `zones` (zone -> refs) under
    `scalar`: the point of each ref, and each deck's proof."""
    points: dict[str, str] = {}
    proven: dict[str, str] = {}
    for zone, refs in sorted(zones.items()):
        if not refs:
            continue
        after, proven[zone] = proofs.prove(context(deck_name(zone)), list(table(nonce, zone, contents[zone])), scalar)
        points.update(zip(sorted(refs), (b64e(p) for p in after)))
    return points, proven


def zones_of(deck: OwnDecks, seat: str) -> dict[str, list[str]]:
    """`seat`'s private decks: zone -> its refs."""
    out: dict[str, list[str]] = {}
    for ref, (zone, owner) in deck.own.items():
        if owner == seat:
            out.setdefault(zone, []).append(ref)
    return out


def commit(deck: OwnDecks, seat: str, key: str, private: dict[str, str], proven: dict[str, str], seq: int) -> None:
    """Take `seat`'s layer over its private decks (from its join in the
    file of `seq`, under its join `key`), refusing it unless each deck's
    points are its declared cards, permuted, under that key's one scalar."""
    zones = zones_of(deck, seat)
    if set(private) != set(deck_refs := {r for refs in zones.values() for r in refs}):
        raise ProtocolError(f"{seat} must lay its layer over exactly the cards of its private decks "
                            f"({len(deck_refs)}, not {len(private)})")
    if set(proven) != set(zones):
        raise ProtocolError(f"{seat} must prove its layer over each of its private decks, and no other")
    for zone, refs in sorted(zones.items()):
        what = f"{seat}'s layer over its private deck {zone}"
        start = table(deck.nonce, zone, deck.private_contents.get(zone, []))
        if len(start) != len(refs):
            raise ProtocolError(f"{what} has {len(refs)} cards, not the {len(start)} the deck holds")
        refs = sorted(refs)
        points = [poker.check_point(b64d(private[r], 32), f"{what}, {r}") for r in refs]
        if len(set(points)) != len(points):
            raise ProtocolError(f"{what} repeats a card (a duplicated card)")
        layer = PokerLayer(seat=seat, key=key, points=[], proof=proven[zone])
        proofs.check(deck, seq, deck_name(zone), layer, list(start), points, what)
        deck.own_table.update(start)
        for ref, point in zip(refs, points):
            deck.points[ref] = point
            deck.remaining[ref] = {seat}
