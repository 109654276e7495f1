"""Handing a seat over to another identity (protocol version 6, issue #24).

A player who leaves a long game passes its seat to a replacement: a
signed file (`Handover`) names the seat, the newcomer's identity, and the
cards the seat knows that are not public, and seals to the newcomer alone
everything the seat could read with its old key (`SeatSecrets`): the
openings of its cards, and in a peer game its scalars, beacon seeds,
private-deck places, and the partials fellow readers sealed to it. From
that file on the seat keeps its name in the game, but its files are signed
with the newcomer's key and its cards sealed to it (`Chain.identity`).

Who may write it: the seat itself, and in a referee game whose genesis
says so (`GenesisBody.referee_handover`) the referee, which knows every
card, for a seat that vanished. In a peer game nobody but the seat knows
its secrets, so nobody else can. A seat is handed over once, while the
game waits for it (so that the file takes its place in the chain and races
nobody), never during a vote or a pending undo, and never to a party of
the game.

What every verifier checks: the writer, the moment, the newcomer, and
that `refs` are exactly the cards the seat knows (recomputed); from
version 7, that the newcomer signed its acceptance of this very handover
(`pbem.protocol.acceptance`: the game, the seat, the file it follows, its
key and its address). What only
the newcomer can check, when it opens the box (`opened`): every opening
against its commitment, the peer secrets against the seat's shuffle key,
anchor and commitments (`PeerDeck.publish` on a copy), every partial
against its proof. A false box names the handover's signer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec
from msgspec.structs import replace

from pbem.crypto.envelope import seal_ad
from pbem.crypto.keys import valid_email
from pbem.crypto.limits import check_limits
from pbem.errors import CryptoError, FormatError, ProtocolError, SealError
from pbem.protocol import acceptance, codec, versions
from pbem.protocol.clock import file_time
from pbem.protocol.commitments import check_openings, state_hash
from pbem.protocol.formats import TurnBody
from pbem.protocol.long_parts import Handover, SeatSecrets
from pbem.protocol.modes.base import check_parts

if TYPE_CHECKING:
    from pbem.crypto.keys import PublicIdentity, SecretIdentity
    from pbem.protocol.formats import SignedFile
    from pbem.protocol.head import ChainView, Head, Record


def box_ad(game_id: str, seq: int, seat: str) -> bytes:
    return seal_ad(game_id, seq, f"handover:{seat}")


def may_hand_over(chain: ChainView, by: str, seat: str) -> str | None:
    """Why `by` may not hand `seat` over now (None: it may)."""
    if not chain.version.handover:
        return f"games begun before protocol version {versions.first('handover')} cannot hand a seat over"
    if seat not in chain.seats:
        return f"{seat!r} is not a seat of this game (seats: {', '.join(chain.seat_order)})"
    if seat in chain.handed:
        seq, newcomer = chain.handed[seat]
        return f"seat {seat} was handed over already, to {newcomer.name} (seq {seq}): a seat is handed over once"
    referee = chain.dealer_mode == "referee" and by == chain.dealer_name
    if by != seat and not (referee and chain.genesis.referee_handover):
        if referee:
            return f"this game's genesis does not let its referee hand a seat over: only {seat} itself may"
        return f"only {seat} itself{' or the referee' if chain.genesis.referee_handover else ''} may hand seat {seat} over"
    if chain.public is None or not chain.dealt:
        return "the game is not under way yet: a seat is handed over once the game is dealt"
    if chain.outcome() is not None:
        return "the game is over"
    if chain.undo_pending is not None:
        return "an undo request is pending: hand over once it is answered"
    if chain.voters():
        return "a vote is open: hand over once it is tallied"
    if chain.deck is not None and chain.deck.changes.pending() is not None:
        return "a reshuffle is being dealt: hand over once every layer is on (`pbem.protocol.peer.rekey`)"
    if chain.deck is not None and chain.version.rekey_starts_chain and chain.chance_by() is not None:
        # the newcomer's fresh beacon chain, chosen now, must not answer a chance drawn before it
        return f"a chance drawn by {chain.chance_by()} waits for beacon links: hand over once it is drawn"
    if seat not in chain.writers():
        return (f"the game waits for {', '.join(chain.writers())}, not for {seat}: "
                f"a seat is handed over when the game waits for it")
    return None


def newcomer_problem(chain: ChainView, newcomer: PublicIdentity) -> str | None:
    """Why `newcomer` may not take a seat of `chain` (None: it may)."""
    parties = {name: chain.holder(name) for name in chain.seat_order}
    if chain.dealer_name is not None:
        parties[chain.dealer_name] = chain.identity(chain.dealer_name)
    for name, ident in parties.items():
        if newcomer.name in (name, ident.name) or newcomer.sign == ident.sign or newcomer.seal == ident.seal:
            role = "the dealer" if name == chain.dealer_name else f"seat {name}"
            return f"{newcomer.name} ({newcomer.fingerprint()}) is already in this game, as {role}"
    return None


def may_take(chain: ChainView, newcomer: PublicIdentity, seat: str) -> str | None:
    """Why `newcomer` may not accept `seat` now (None: it may): what would
    refuse any handover of the seat to it (`acceptance.make`)."""
    return may_hand_over(chain, seat, seat) or newcomer_problem(chain, newcomer)


def known_refs(chain: ChainView, seat: str) -> list[str]:
    """The cards `seat` knows that are not public, whose openings its
    handover must carry: what the dealer dealt it, or in a peer game what
    owners of private decks delivered to it (the rest of a peer seat's cards
    its scalar and partials give)."""
    if chain.deck is None:
        known = chain.knows(seat)
    else:
        known = {r for record in chain.records for d in record.body.deliveries if d.to == seat for r in d.refs}
    return sorted(known - set(chain.revealed))


def accept(chain: ChainView, outer: SignedFile, body: TurnBody, where: str) -> tuple[Head, Record]:
    """A handover file: the head after it (the seat's keys are the
    newcomer's from now on), and its record."""
    h = body.handover
    assert h is not None  # the chain calls this for a file with a handover
    why = may_hand_over(chain, body.by, h.seat)
    if why is not None:
        raise ProtocolError(f"{body.by} may not hand seat {h.seat} over: {why}")
    check_parts(body, {"handover", "consent"}, chain.dealer_mode)
    why = newcomer_problem(chain, h.to)
    if why is not None:
        raise ProtocolError(f"seat {h.seat} cannot go to {h.to.name}: {why}")
    if h.address is not None and not valid_email(h.address):
        raise ProtocolError(f"the handover of seat {h.seat} gives {h.to.name} no valid mail address")
    acceptance.check(chain, body)  # version 7: the newcomer signed this very handover
    if h.refs != known_refs(chain, h.seat):
        raise ProtocolError(f"the handover of seat {h.seat} names other cards than those {h.seat} knows")
    if body.state != state_hash(chain.public):
        raise ProtocolError("the state it claims is not the state before it (a handover changes no card)")
    head: Head = replace(chain.now, handed={**chain.handed, h.seat: (body.seq, h.to)})
    return chain.accepted(outer, body, where, head, before=chain.public, after=chain.public)


def write(chain: ChainView, writer: SecretIdentity, seat: str, newcomer: PublicIdentity,
          secrets: SeatSecrets, address: str | None = None, consent: str | None = None) -> bytes:
    """The signed handover of `seat` to `newcomer` (who gets mail at
    `address`), by `writer` (the seat, or the referee), with `secrets`
    sealed to the newcomer alone and, from version 7, `consent`, the
    newcomer's signature of its acceptance (`pbem.protocol.acceptance`);
    refused here for the reason every verifier would refuse it."""
    from pbem.crypto.encoding import canonical
    from pbem.crypto.seal import seal

    why = may_hand_over(chain, writer.name, seat) or newcomer_problem(chain, newcomer)
    if why is not None:
        raise ProtocolError(f"seat {seat} cannot be handed over to {newcomer.name}: {why}")
    seq = chain.seq + 1
    refs = known_refs(chain, seat)
    secrets = replace(secrets, openings=sorted((o for o in secrets.openings if o.ref in refs), key=lambda o: o.ref))
    if [o.ref for o in secrets.openings] != refs:
        raise ProtocolError(f"{writer.name} does not know every card of seat {seat}: it cannot hand it over")
    box = seal(canonical(secrets), [newcomer], box_ad(chain.game_id, seq, seat))
    body = TurnBody(game_id=chain.game_id, seq=seq, prev=chain.head, by=writer.name,
                    handover=Handover(seat=seat, to=newcomer, refs=refs, box=box, address=address), at=file_time(chain),
                    consent=consent, state=state_hash(chain.public))
    acceptance.check(chain, body)
    return codec.encode_signed("turn", body, writer)


def since(chain: ChainView, seat: str) -> int:
    """The seq of `seat`'s handover (0: never handed over): what was sealed
    to the seat before it was sealed to its old key, and is in the handover."""
    handed = chain.handed.get(seat)
    return handed[0] if handed is not None else 0


def opened(chain: ChainView, me: SecretIdentity) -> SeatSecrets | None:
    """What the handover of `me`'s seat sealed to `me` (None: the seat was
    never handed over), each part checked as far as the newcomer can: the
    openings against their commitments, the peer secrets against the seat's
    public keys and commitments, the partials against their proofs."""
    seq = since(chain, me.name)
    if not seq:
        return None
    from pbem.crypto.seal import open_envelope

    record = chain.records[seq]
    body = record.body
    assert isinstance(body, TurnBody) and body.handover is not None  # `since` is the seq of the handover
    h = body.handover
    where = f"{record.name or f'seq {seq}'} (the handover of seat {me.name}, signed by {record.by})"
    try:
        payload = open_envelope(h.box, me, box_ad(chain.game_id, seq, me.name))
        check_limits(payload, "a handover")
        secrets = msgspec.json.decode(payload, type=SeatSecrets)
    except (SealError, FormatError, msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise SealError(f"{where}: cannot be opened with {me.name}'s key: {exc}") from None
    if [o.ref for o in secrets.openings] != h.refs:
        raise ProtocolError(f"{where}: holds other cards than it names")
    commitments = chain.commitments if chain.deck is None else chain.deck.private_commitments
    check_openings(secrets.openings, commitments, where)
    if (chain.deck is None) != (secrets.peer is None):
        raise ProtocolError(f"{where}: {'lacks' if chain.deck is not None else 'holds'} peer secrets")
    if chain.deck is not None:
        # a turn of a peer game: its prior head has the deck, and the peer secrets were checked just above
        assert record.prior is not None and record.prior.deck is not None and secrets.peer is not None
        deck = record.prior.deck  # as it was when the seat was handed over
        try:
            deck.copy().publish(me.name, secrets.peer)
            for p in secrets.partials:
                if p.seat is None or p.seat == me.name:
                    raise ProtocolError(f"a partial of {p.ref} names no other seat")
                deck.check_private(p.seat, p)
        except (ProtocolError, CryptoError, FormatError, KeyError) as exc:
            raise ProtocolError(f"{where}: its peer secrets are not seat {me.name}'s: {exc}") from None
    return secrets
