"""What one seat knows of a peer game: its own secrets, and the cards it can read.

Nothing of it is stored outside the chain: a seat sealed its secrets to
itself in its join (`secrets`), and what its later files added (the
scalars of its reshuffle layers, the places of cards reshuffled into its
private decks, the seeds of its renewed beacon chains) in those files
(`with_changes`). Fellow readers seal it their partial decryptions of the
cards they read with it (`held_partials`), and owners the openings of
private-deck cards that go to it (`delivered_openings`); each is checked
on reading, so a bad one names the file that carried it. From all that,
`cards_known` says which card each ref is, as far as this seat may know.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

import msgspec

from pbem.crypto import poker
from pbem.crypto.encoding import b64d, b64e
from pbem.crypto.keys import SecretIdentity
from pbem.crypto.limits import check_limits
from pbem.crypto.seal import open_envelope, seal_ad
from pbem.errors import CommitmentError, CryptoError, FormatError, ProofError, ProtocolError, SealError
from pbem.protocol.commitments import check_openings
from pbem.crypto.envelope import Envelope
from pbem.protocol.file_parts import Opening
from pbem.protocol.formats import TurnBody
from pbem.protocol.peer_parts import Partial, PeerSecrets
from pbem.protocol import handover
from pbem.protocol.head import ChainView, Record, peer_deck
from pbem.protocol.peer import changes as peer_changes, refills as peer_refills, rekey as peer_rekey, renewal as peer_renewal
from pbem.protocol.peer import proven_refills
from pbem.protocol.peer.secrets import commit_private, open_secret_box

Item = TypeVar("Item", Opening, Partial)


def my_secrets(chain: ChainView, me: SecretIdentity) -> PeerSecrets | None:
    """This seat's scalar and beacon seed, from the box it sealed to itself
    (or, for a seat handed over, from its handover: `pbem.protocol.handover`)."""
    handed = handover.opened(chain, me)
    if handed is not None:
        assert handed.peer is not None  # a peer game's handover carries them (`handover.opened` checked)
        return with_changes(chain, me, handed.peer, handover.since(chain, me.name))
    genesis = chain.genesis
    assert genesis.peer is not None  # a peer game's
    if genesis.peer.creator == me.name:
        return with_changes(chain, me, open_secret_box(genesis.peer.secret_box, me, genesis.nonce))
    for record in chain.records[1:]:
        body = record.body
        if record.by == me.name and isinstance(body, TurnBody) and body.join is not None:
            return with_changes(chain, me, open_secret_box(body.join.secret_box, me, genesis.nonce))
    return None


def with_changes(chain: ChainView, me: SecretIdentity, secrets: PeerSecrets, since: int = 0) -> PeerSecrets:
    """`secrets` (from the seat's join, or its handover at seq `since`) with
    what its later files sealed to itself: the scalars of its reshuffle
    layers, the places of the cards reshuffled into its private decks, the
    seeds of its renewed beacon chains."""
    seed = b64d(secrets.beacon_seed, 32)
    deck = peer_deck(chain)
    if any(deck.private_commitments.get(r) != c for r, c in commit_private(seed, secrets.private).items()):
        raise SealError(f"{me.name}'s commitments to its private decks are not those of the places it sealed to itself")
    layers: list[str] = list(secrets.layers)
    refilled: list[str] = list(secrets.refills)
    renewals: list[str] = list(secrets.renewals)
    private = dict(secrets.private)
    factor = secrets.rekey
    for record in chain.records[since + 1:]:
        body = record.body
        if record.by != me.name or not isinstance(body, TurnBody):  # (all but the genesis are turns)
            continue
        where = record.name or f"seq {record.seq}"
        try:
            if body.reshuffle is not None:
                scalar = open_envelope(body.reshuffle.box, me, peer_changes.reshuffle_scalar_ad(chain.game_id, record.seq))
                poker.check_key(poker.check_scalar(scalar), b64d(body.reshuffle.key, 32))
                layers.append(b64e(scalar))
            for refill in body.refills:
                scalar = open_envelope(refill.box, me, proven_refills.box_ad(chain.game_id, record.seq))
                poker.check_key(poker.check_scalar(scalar), b64d(refill.base, 32))
                refilled.append(b64e(scalar))
            if body.memo is not None:
                payload = open_envelope(body.memo, me, peer_refills.refill_memo_ad(chain.game_id, record.seq))
                check_limits(payload, "a memo")
                mapping = msgspec.json.decode(payload, type=dict[str, str])
                if commit_private(seed, mapping) != dict(body.commitments):
                    raise FormatError("its memo does not open its commitments")
                private.update(mapping)
            if body.renewal is not None:
                renewals.append(b64e(peer_renewal.opened(body.renewal, me, chain.game_id, record.seq,
                                                         deck.beacon_length)))
            if body.rekey is not None:  # its newcomer's: the old player's unstarted chains are dropped
                r, fresh = peer_rekey.opened(body.rekey, me, chain.game_id, record.seq, deck.beacon_length)
                # a turn's record has its prior head, and a peer game's head its deck
                assert record.prior is not None and record.prior.deck is not None
                kept = peer_rekey.kept_renewals(record.prior.deck, me.name, chain.version.rekey_starts_chain)
                renewals = [*renewals[:kept], b64e(fresh)]
                factor = b64e(r)
        except (SealError, FormatError, CryptoError, ProtocolError, msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise SealError(f"{where}: {me.name}'s own sealed secrets cannot be opened: {exc}") from None
    if layers == secrets.layers and renewals == secrets.renewals and private == secrets.private \
            and factor == secrets.rekey and refilled == secrets.refills:
        return secrets
    return msgspec.structs.replace(secrets, layers=layers, private=private, renewals=renewals, rekey=factor,
                                   refills=refilled)


def delivered_openings(chain: ChainView, me: SecretIdentity) -> dict[str, Opening]:
    """Openings of private-deck cards their owners sealed to `me`, each
    checked against its owner's commitment (a false one names the file)."""
    since = handover.since(chain, me.name)  # what came before is in the handover
    handed = handover.opened(chain, me) if since else None
    out: dict[str, Opening] = {o.ref: o for o in handed.openings} if handed is not None else {}
    for record in chain.records[since + 1:]:
        if chain.deck is None or not record.body.deliveries:
            continue
        where = record.name or f"seq {record.seq}"
        for box in record.body.deliveries:
            if box.to != me.name:
                continue
            openings = _opened(record, box, me, peer_changes.openings_ad(chain.game_id, record.seq, box.to), Opening,
                               "openings")
            try:
                check_openings(openings, chain.deck.private_commitments, f"{where} (signed by {record.by})")
            except CommitmentError as exc:
                raise CommitmentError(f"{where}: {record.by}'s opening sealed to {me.name} is false: {exc.message}") from None
            out.update({o.ref: o for o in openings})
    return out


class _Box(Protocol):
    """A sealed box of a file: a `Delivery`'s or a `SealedPartials`'."""

    @property
    def refs(self) -> list[str]: ...
    @property
    def envelope(self) -> Envelope: ...


def _opened(record: Record, box: _Box, me: SecretIdentity, ad: bytes, kind: type[Item], what: str) -> list[Item]:
    """The items (openings, partials) another seat's file sealed to `me` in
    `box`, exactly those it names; a box that does not open names the file."""
    where = record.name or f"seq {record.seq}"
    try:
        payload = open_envelope(box.envelope, me, ad)
        check_limits(payload, f"sealed {what}")
        items: list[Item] = msgspec.json.decode(payload, type=list[kind])  # type: ignore[valid-type]  # mypy takes `kind` for a variable, msgspec a type
    except (SealError, FormatError, msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise SealError(f"{where}: {record.by}'s sealed {what} to {me.name} cannot be opened: {exc}") from None
    if sorted(item.ref for item in items) != sorted(box.refs):
        raise ProtocolError(f"{where}: {record.by}'s sealed {what} hold other cards than they say")
    return items


def sealed_ad(game_id: str, seq: int, to: str) -> bytes:
    return seal_ad(game_id, seq, f"partials:{to}")


def held_partials(chain: ChainView, me: SecretIdentity) -> dict[str, dict[str, Partial]]:
    """Partials fellow readers sealed to `me` for cards still hidden, each
    checked against the card's public point (a bad one names its sender)."""
    deck = peer_deck(chain)
    held: dict[str, dict[str, Partial]] = {}
    since = handover.since(chain, me.name)  # what came before is in the handover, checked there
    handed = handover.opened(chain, me) if since else None
    for partial in handed.partials if handed is not None else ():
        if partial.seat is not None and partial.seat in deck.remaining.get(partial.ref, ()):
            held.setdefault(partial.ref, {})[partial.seat] = msgspec.structs.replace(partial, seat=None)
    for record in chain.records[since + 1:]:
        body = record.body
        for box in body.sealed if isinstance(body, TurnBody) else ():
            if box.to != me.name:
                continue
            where = record.name or f"seq {record.seq}"
            partials = _opened(record, box, me, sealed_ad(chain.game_id, record.seq, box.to), Partial, "partials")
            for partial in partials:
                if record.by not in deck.remaining.get(partial.ref, ()):
                    continue  # that layer is off in public by now
                try:
                    deck.check_private(record.by, partial)
                except (CryptoError, FormatError):
                    raise ProofError(f"{where}: {record.by}'s sealed partial of {partial.ref} does not verify") from None
                held.setdefault(partial.ref, {})[record.by] = partial
    return held


def cards_known(chain: ChainView, me: SecretIdentity, secrets: PeerSecrets) -> dict[str, str]:
    """ref -> card for every card `me` can read: the public ones, and those
    on which only its own layer, and layers whose partials were sealed to it,
    remain (removed here, in private)."""
    deck = peer_deck(chain)
    held = held_partials(chain, me)
    out = dict(chain.revealed)
    for ref, card in secrets.private.items():
        out.setdefault(ref, card)
    for ref, opening in delivered_openings(chain, me).items():
        out.setdefault(ref, opening.card)
    for ref in deck.knows(me.name):
        if ref in out:
            continue
        point = deck.points[ref]
        others = deck.remaining[ref] - {me.name}
        if len(others) > 1:
            raise ProtocolError(f"{ref}: more than two readers are not supported")
        for seat in others:
            point = b64d(held[ref][seat].point, 32)
        if me.name in deck.remaining[ref]:
            point = poker.decrypt(peer_rekey.scalar_of(deck, me.name, ref, secrets), point)
        try:
            out[ref] = deck.identify(point)[0]
        except CryptoError:
            raise ProtocolError(f"{ref} decrypts to no card: a shuffle layer is wrong",
                                hint="pbem audit names the seat once every secret is out") from None
    return out

