"""The newcomer's consent to take a seat (protocol version 7, issue #24).

Until version 7 a handover's newcomer, its keys and its mail address were
taken on the word of the handover's writer alone (the leaving seat, or the
referee for a vanished seat): a writer could hand a seat to a key whose
owner never agreed, or give a real newcomer's key another mail address (so
that the seat's files went to the writer's friend). From version 7 the
newcomer signs too:

* it reads the game's files (publicly: it is no party yet) and signs an
  ``acceptance`` file (`Acceptance`: the game, the seat, the file the
  handover will follow, its own identity card and its mail address) with
  its own key, which it mails to the writer (`pbem handover accept`);
* the writer's handover carries that signature (`TurnBody.consent`), and
  nothing else of it: every verifier rebuilds the body the newcomer signed
  from the handover itself (`signed_body`) and checks the signature
  against the newcomer's key the handover names. A handover to another
  key, another seat, another game, another moment or another address than
  the newcomer signed is refused at once, by every verifier (`check`).

The signature uses its own domain (``pbem/1 acceptance``): no other signed
file of pbem can be passed off as one, nor one as another file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.crypto.keys import valid_email
from pbem.crypto.sign import domain, verify
from pbem.errors import CryptoError, FormatError, ProtocolError
from pbem.protocol import codec, versions
from pbem.protocol.long_parts import Acceptance

if TYPE_CHECKING:
    from pbem.crypto.keys import PublicIdentity, SecretIdentity
    from pbem.protocol.formats import TurnBody
    from pbem.protocol.head import ChainView

#: the kind (and signing domain) of a newcomer's acceptance file
KIND = "acceptance"


def signed_body(game_id: str, seat: str, prev: str, newcomer: PublicIdentity, address: str | None) -> bytes:
    """The bytes a newcomer signs to accept `seat` of game `game_id` after
    the file whose hash is `prev`, with `newcomer` and `address`."""
    from pbem.crypto.encoding import canonical

    return canonical(Acceptance(game_id=game_id, seat=seat, prev=prev, identity=newcomer, address=address))


def make(chain: ChainView, me: SecretIdentity, seat: str, address: str | None, why: str | None = None) -> bytes:
    """`me`'s signed acceptance of `seat` of `chain` as it stands (its
    head), with mail at `address`; refused for what would make any
    handover carrying it refused (`why`: `handover.may_take` says it)."""
    if not chain.version.handover_consent:
        raise ProtocolError(
            f"this game was begun under protocol version {chain.version.number}: its handovers carry no acceptance "
            f"(from version {versions.first('handover_consent')})",
            hint="send your identity file to the seat's player (pbem id export); it hands the seat to that")
    if address is not None and not valid_email(address):
        raise ProtocolError(f"invalid mail address {address!r}", hint="give a plain address such as carol@example.org")
    if why is not None:
        raise ProtocolError(f"you cannot accept seat {seat} now: {why}")
    body = Acceptance(game_id=chain.game_id, seat=seat, prev=chain.head, identity=me.public, address=address)
    return codec.encode_signed(KIND, body, me)


def read(data: bytes) -> tuple[Acceptance, str]:
    """An acceptance file's body and signature, the signature checked
    against the identity it holds (FormatError, SignatureError)."""
    outer = codec.read_envelope(data, KIND)
    body = codec.decode_body(outer, Acceptance)
    if outer.by != body.identity.name:
        raise FormatError(f"an acceptance by {outer.by!r} holds the identity of {body.identity.name!r}")
    codec.check_signature(outer, body.identity)
    return body, outer.sig


def check(chain: ChainView, body: TurnBody) -> None:
    """Every verifier: a handover of a version-7 game carries its
    newcomer's signature of exactly this handover; an older game's none."""
    h = body.handover
    assert h is not None  # called for a handover
    if not chain.version.handover_consent:
        if body.consent is not None:
            raise ProtocolError(f"the handover of seat {h.seat} carries an acceptance, which games begun before "
                                f"protocol version {versions.first('handover_consent')} do not")
        return
    if body.consent is None:
        raise ProtocolError(f"the handover of seat {h.seat} to {h.to.name} carries no acceptance signed by "
                            f"{h.to.name}: a seat goes only to a key that agreed to take it")
    try:
        verify(h.to, domain(KIND), signed_body(body.game_id, h.seat, body.prev, h.to, h.address), body.consent)
    except (CryptoError, FormatError):
        raise ProtocolError(
            f"{h.to.name} did not sign this handover of seat {h.seat}: its acceptance is not for this game, "
            f"seat {h.seat}, the file after seq {body.seq - 1}, its key and "
            f"{'the address ' + h.address if h.address else 'no mail address'}") from None


def matches(chain: ChainView, accepted: Acceptance, seat: str) -> str | None:
    """Why the acceptance `accepted` cannot go into a handover of `seat`
    written now (None: it can): the writer's side, said plainly."""
    who = accepted.identity.name
    if accepted.game_id != chain.game_id:
        return f"{who}'s acceptance is for another game ({accepted.game_id[:12]}), not this one ({chain.game_id[:12]})"
    if accepted.seat != seat:
        return f"{who}'s acceptance is for seat {accepted.seat}, not seat {seat}"
    if accepted.prev != chain.head:
        at = next((r.seq for r in chain.records if r.hash == accepted.prev), None)
        when = f"as it stood at seq {at}" if at is not None else "at a file this folder does not hold"
        return (f"{who}'s acceptance is for the game {when}; it is at seq {chain.seq} now "
                f"(ask {who} to accept again, from the files as they stand)")
    return None
