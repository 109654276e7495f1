"""The two people of a handover (issue #24): the newcomer who accepts a
seat (`pbem handover accept`), and the writer who names the newcomer
(`pbem handover --to`), with, from protocol version 7, the newcomer's
signed acceptance (`pbem.protocol.acceptance`).

The newcomer has no seat yet: it reads the game's files as anyone may (a
folder of the files the seat's player or the referee mailed it), and signs
an ``acceptance`` file, which it mails back. The writer's `--to` takes that
file (or, for a newcomer whose key is in the writer's own home, as at a
hotseat table, a name: the acceptance is signed there and then).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from pbem.app.opening import Keys, accepted_identity
from pbem.errors import KeyStoreError, PbemError, ProtocolError
from pbem.gamedir import safe_read

if TYPE_CHECKING:
    from pbem.crypto.keys import PublicIdentity
    from pbem.protocol.chain import Chain


class Newcomer(NamedTuple):
    """Whom a handover names: its key, its mail address, and (version 7)
    its signature of its acceptance."""

    identity: PublicIdentity
    address: str | None
    consent: str | None


class Accepted(NamedTuple):
    """What `accept` wrote, and whom it must reach."""

    path: Path
    send: str


def accept(folder: Path, name: str, keys: Keys, seat: str, address: str | None = None,
           output: Path | None = None) -> Accepted:
    """`pbem handover accept`: `name`'s signed acceptance of `seat` of the
    game in `folder` as it stands, written to `output` (default:
    ``NAME-accepts-SEAT.pbem`` in the current folder); refused, with
    nothing written, when no handover could carry it now."""
    from pbem.app.opening import open_game
    from pbem.fsio import atomic_write
    from pbem.protocol import acceptance, handover

    chain = open_game(folder, keys)
    if seat not in chain.seats:
        raise PbemError(f"{seat!r} is not a seat of this game (seats: {', '.join(chain.seat_order)})")
    me = keys.secret(name)
    data = acceptance.make(chain, me, seat, address if address is not None else keys.store.email(name),
                           handover.may_take(chain, me.public, seat))
    path = output or Path(f"{name}-accepts-{seat}.pbem")
    try:
        atomic_write(path, data)
    except OSError as exc:
        raise PbemError(f"cannot write {path}: {exc.strerror or exc}") from None
    writer = (f"{seat} (or the referee {chain.dealer_name})" if chain.dealer_mode == "referee"
              and chain.genesis.referee_handover else seat)
    return Accepted(path, f"send {path} to {writer}: it hands the seat over with it (pbem handover DIR --to {path})")


def newcomer(chain: Chain, to: str, seat: str, by: str, keys: Keys) -> Newcomer:
    """The newcomer `--to` names for a handover of `seat` by `by` now: an
    acceptance file, or a name or identity file the writer's address book
    accepted (in a version-7 game only if the newcomer's own key is here,
    to sign its acceptance on the spot)."""
    from pbem.protocol import acceptance, handover

    why = handover.may_hand_over(chain, by, seat)
    if why is not None:
        raise ProtocolError(f"seat {seat} cannot be handed over: {why}")
    path = Path(to)
    data = safe_read.read(path) if path.is_file() else None
    if data is not None and _kind(data) == acceptance.KIND:
        accepted, sig = acceptance.read(data)
        ident = accepted_identity(accepted.identity.name, keys.store)
        if ident != accepted.identity:
            raise KeyStoreError(
                f"the acceptance in {to} is signed by a key of {ident.name} ({accepted.identity.fingerprint()}) "
                "that is not the one your address book accepted",
                hint=f"check the fingerprint with {ident.name}: the acceptance is not theirs")
        why = acceptance.matches(chain, accepted, seat)
        if why is not None:
            raise ProtocolError(f"{to}: {why}")
        consent = sig if chain.version.handover_consent else None
        return Newcomer(ident, accepted.address, consent)
    ident = accepted_identity(to, keys.store)
    address = keys.store.email(ident.name)
    why = handover.newcomer_problem(chain, ident)
    if why is not None:
        raise ProtocolError(f"seat {seat} cannot go to {ident.name}: {why}")
    if not chain.version.handover_consent:
        return Newcomer(ident, address, None)
    if not keys.store.has_secret(ident.name):
        raise ProtocolError(
            f"{ident.name} has not accepted seat {seat}: from protocol version 7 the newcomer signs that it takes it",
            hint=f"{ident.name} runs `pbem handover accept DIR --seat {seat} --as {ident.name}` on the game's files "
                 f"and mails you the file it writes; give that file to --to")
    me = keys.secret(ident.name)  # the newcomer is here (a hotseat table): it signs, with its passphrase
    accepted, sig = acceptance.read(acceptance.make(chain, me, seat, address, handover.may_take(chain, me.public, seat)))
    return Newcomer(ident, accepted.address, sig)


def _kind(data: bytes) -> str | None:
    """The kind a signed pbem file says it is (None: not one)."""
    from pbem.protocol import codec

    try:
        return codec.read_envelope(data).kind
    except PbemError:
        return None
