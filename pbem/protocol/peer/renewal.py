"""Beacon chains that outlast their length (peer games, protocol version 4).

Every file of a peer game reveals one link of its writer's beacon chain,
and a chain of `BEACON_LENGTH` links serves that many files: a long game
(Dark Agent with six seats) can use one up. Until version 4 the game then
stopped for good, and the creator chose the length, unseen by the joiners
(with four links a game died at seq 8, never to be audited). From version 4:

* every chain has pbem's length: every verifier refuses a genesis with
  another, and `pbem join` refuses one in any version;
* a seat renews its chain before it runs out: one of its files carries a
  `BeaconRenewal`, the anchor of a fresh chain and its seed sealed to the
  seat itself (so it needs no storage of its own). Once the current chain
  is used up, the seat's next link is the first of the renewed one, checked
  against that anchor. The file that commits a chain never reveals a link
  of it (its own link is the old chain's), so, as with the first chain, a
  chain is fixed before any chance that uses it: its owner could try seeds
  only against links of the other seats it already knows, and chance that
  a decision depends on also takes links revealed after that decision;
* pbem's writer renews when fewer than `RENEW_WHEN_LEFT` links are left, one
  renewal at a time;
* at the end each seat publishes its renewed chains' seeds
  (`PeerSecrets.renewals`): each must lead to the anchor it committed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from pbem.crypto import beacon
from pbem.crypto.encoding import b64d, b64e
from pbem.crypto.envelope import seal_ad
from pbem.errors import CryptoError, ProtocolError
from pbem.protocol import versions

if TYPE_CHECKING:
    from pbem.crypto.keys import SecretIdentity
    from pbem.protocol.peer_parts import BeaconRenewal, PeerSecrets


class Beacons(Protocol):
    """What this module reads and keeps of a peer deck (`deck.PeerDeck`):
    every seat's beacon chain, as far as it is used."""

    beacon_length: int
    renewable: bool  # the game's version renews chains (`Version.renewed_beacons`)
    latest: dict[str, bytes]  # each seat's last link revealed (or anchor)
    links_used: dict[str, int]  # of its current chain
    renewals: dict[str, list[bytes]]  # each seat's committed renewal anchors, in order
    chain_in_use: dict[str, int]  # how many of them it has started

#: a writer renews its chain once fewer links than this are left
RENEW_WHEN_LEFT = 100


def renewal_ad(game_id: str, seq: int) -> bytes:
    return seal_ad(game_id, seq, "beacon renewal")


def pending(deck: "Beacons", seat: str) -> bytes | None:
    """The anchor `seat` committed to and has not started yet."""
    anchors = deck.renewals.get(seat, [])
    used = deck.chain_in_use.get(seat, 0)
    return anchors[used] if len(anchors) > used else None


def take(deck: "Beacons", seat: str, renewal: "BeaconRenewal", version: versions.Version) -> None:
    """A verifier takes `seat`'s renewal (after the file's own link)."""
    if not version.renewed_beacons:
        raise ProtocolError(f"{seat} renews its beacon chain, which games begun before protocol version "
                            f"{versions.first('renewed_beacons')} cannot do")
    if pending(deck, seat) is not None:
        raise ProtocolError(f"{seat} renews its beacon chain again before it used the renewed one")
    deck.renewals[seat] = [*deck.renewals.get(seat, []), b64d(renewal.anchor, 32)]


def link_of_renewed(deck: "Beacons", seat: str, value: bytes) -> None:
    """`seat`'s link once its chain is used up: the first of the renewed one."""
    anchor = pending(deck, seat)
    if anchor is None:
        raise ProtocolError(f"{seat}'s beacon chain is used up ({deck.beacon_length} links) and it committed "
                            "no new one before it ran out")
    beacon.check_link(anchor, value)
    deck.chain_in_use[seat] = deck.chain_in_use.get(seat, 0) + 1
    deck.latest[seat] = value
    deck.links_used[seat] = 1


def next_link(deck: "Beacons", seat: str, seed: bytes, renewed: list[bytes]) -> bytes:
    """The link `seat` reveals in its next file: of its current chain (the
    first, grown from `seed`, or one of the `renewed` seeds), or the first
    of the next one when the current one is used up."""
    seeds = [seed, *renewed]
    k, used = deck.chain_in_use.get(seat, 0), deck.links_used[seat]
    if used < deck.beacon_length:
        return beacon.link(seeds[k], deck.beacon_length, used + 1)
    if k + 1 >= len(seeds):
        raise CryptoError(
            f"{seat}'s beacon chain is used up ({deck.beacon_length} links)",
            hint=f"games begun before protocol version {versions.first('renewed_beacons')} cannot renew a beacon "
                 "chain" if not deck.renewable
            else "pbem renews a chain before it runs out; this seat's earlier files did not (written by hand?)",
        )
    return beacon.link(seeds[k + 1], deck.beacon_length, 1)


def due(deck: "Beacons", me: "SecretIdentity", game_id: str, seq: int) -> tuple["BeaconRenewal", bytes] | None:
    """A writer's renewal for the file at `seq` (after its own link), when
    its chain is nearly used up and none is pending; and the new seed."""
    from pbem.crypto.seal import seal
    from pbem.protocol.peer_parts import BeaconRenewal

    if not deck.renewable or pending(deck, me.name) is not None:
        return None
    if deck.beacon_length - deck.links_used[me.name] >= RENEW_WHEN_LEFT:
        return None
    seed, anchor = beacon.new_chain(deck.beacon_length)
    return BeaconRenewal(anchor=b64e(anchor), box=seal(seed, [me.public], renewal_ad(game_id, seq))), seed


def opened(renewal: "BeaconRenewal", me: "SecretIdentity", game_id: str, seq: int, length: int) -> bytes:
    """The seed of `me`'s own renewal in its file at `seq`, checked
    against the anchor it committed."""
    from pbem.crypto.seal import open_envelope

    seed = open_envelope(renewal.box, me, renewal_ad(game_id, seq))
    if len(seed) != beacon.LINK_LEN or beacon.anchor(seed, length) != b64d(renewal.anchor, 32):
        raise ProtocolError("the seed it sealed to itself does not lead to the anchor it renewed its chain with")
    return seed


def restart(deck: "Beacons", seat: str, anchor: bytes) -> None:
    """A seat handed over (`rekey`): its newcomer's fresh chain replaces
    the old player's at once. Chains the old player committed and never
    started are dropped; the seat's next link is the first of the fresh one."""
    started = deck.chain_in_use.get(seat, 0)
    deck.renewals[seat] = [*deck.renewals.get(seat, [])[:started], anchor]
    deck.links_used[seat] = deck.beacon_length


def start_fresh(deck: "Beacons", seat: str, anchor: bytes) -> None:
    """A seat handed over, from version 7 (`rekey`): its newcomer's fresh
    chain is in use at once, its anchor the seat's latest link (as a
    join's), so that no chance drawn from here on takes a link of the old
    player's chain. Chains the old player committed and never started are
    dropped."""
    started = deck.chain_in_use.get(seat, 0)
    deck.renewals[seat] = [*deck.renewals.get(seat, [])[:started], anchor]
    deck.chain_in_use[seat] = started + 1
    deck.latest[seat] = anchor
    deck.links_used[seat] = 0


def check_published(deck: "Beacons", seat: str, secrets: "PeerSecrets") -> None:
    """The seeds `seat` publishes at the end: one per chain it renewed,
    each leading to the anchor it committed."""
    anchors = deck.renewals.get(seat, [])
    if len(secrets.renewals) != len(anchors):
        raise ProtocolError(f"{seat} publishes {len(secrets.renewals)} renewed beacon seeds, not the "
                            f"{len(anchors)} of the chains it renewed")
    for i, (seed, anchor) in enumerate(zip(secrets.renewals, anchors)):
        if beacon.anchor(b64d(seed, 32), deck.beacon_length) != anchor:
            raise ProtocolError(f"{seat}'s published seed of its renewed beacon chain {i + 1} does not lead to "
                                "its anchor")
