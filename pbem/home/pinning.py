"""The keys in a game checked against the user's address book, like ssh's
known_hosts.

A signature says only that a file was made by the key inside the game; it
says nothing about whether that key belongs to the person whose name it
carries. So every command that reads a game compares each party's key (every
seat, and the dealer of a referee game; in a peer game the creator is a seat)
with the address book of ``$PBEM_HOME``:

* a name the book knows with another key, or a key the book knows under
  another name, is an impostor until proven otherwise: refused, both
  fingerprints shown, and the book is never changed. Only a read-only
  command on a game none of the user's own keys is in (a demo folder, an
  example, another group's game that happens to have its own "alice") shows
  the game with a warning instead: the user has no seat there to protect,
  and the warning says that game's alice is not the one they know;
* a key the book has never seen is shown with its fingerprint. Commands that
  write (or that make the user act on the game) refuse it unless the user
  accepts it (``--accept-new``, ssh's ``StrictHostKeyChecking=accept-new``),
  which records it in the book with the game and folder it came from;
  read-only commands let the caller warn and go on.

A seat handed over (`pbem.protocol.handover`) has a newcomer, whose key the
game accepts only through the handover file, signed by the old seat (or the
referee) whose key the book already holds: the book takes the newcomer's key
on that file's word, recorded with the game it came from, the first time a
writing command reads it (a name or key it knows otherwise is refused as
any other clash).

From protocol version 7 the newcomer signs the handover's key and mail
address itself (`pbem.protocol.acceptance`, checked again here): the book
takes a newcomer only if it agreed, never on the writer's word alone.

The newcomer's mail address, which the handover carries (as its writer's
address book has it; from version 7 as the newcomer signed it), is recorded
likewise, unless the book has one for it already: mail for the seat then
goes to the newcomer (`pbem.app.mailing`).

A hotseat game's dealer is not pinned: it is a throw-away key made for that
one folder and kept in its ``dealer.key``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from pbem.errors import IdentityMismatch, UnknownIdentity

if TYPE_CHECKING:
    from pbem.crypto.keys import PublicIdentity
    from pbem.home.store import KeyStore
    from pbem.protocol.chain import Chain

__all__ = ["Party", "New", "Stranger", "parties", "check"]


class Party(msgspec.Struct, frozen=True):
    """One identity a game holds, and the role it plays there ("seat alice")."""

    label: str
    identity: PublicIdentity
    #: a newcomer's: the handover file that vouches for its key
    via: str | None = None
    #: a newcomer's mail address, as its handover gives it
    address: str | None = None


class Stranger(msgspec.Struct, frozen=True):
    """A read-only look at a game the user is not in whose keys clash with
    the address book: warned about, not refused."""

    clash: IdentityMismatch

    def line(self) -> str:
        return f"{self.clash.message}: not the player you know; you are not in this game, so it is shown as it is"


class New(msgspec.Struct, frozen=True):
    """A key the address book had never seen; `accepted` if it is now recorded."""

    party: Party
    accepted: bool

    def line(self) -> str:
        p = self.party
        if self.accepted:
            why = f", on the word of {p.via}" if p.via else ""
            return f"added {p.label}'s key ({p.identity.fingerprint()}) to your address book{why}"
        return (
            f"{p.label}'s key is not in your address book: fingerprint {p.identity.fingerprint()} "
            f"(check it with {p.identity.name}, then `pbem id import` their identity file)"
        )


def parties(chain: Chain) -> list[Party]:
    """Every identity of `chain` that must be pinned, in seat order."""
    creator = chain.genesis.peer.creator if chain.genesis.peer is not None else None
    out = [
        Party(f"seat {s.name}" + (" (the creator)" if s.name == creator else ""), s.identity)
        for s in chain.genesis.seats
    ]
    if chain.genesis.dealer is not None and chain.dealer_mode != "hotseat":
        out.append(Party(f"{chain.dealer_mode} {chain.dealer_name}", chain.genesis.dealer.identity))
    for seat, (seq, ident) in chain.handed.items():
        record = chain.records[seq]
        via = f"{record.by}'s handover of seat {seat} (seq {seq})"
        if chain.version.handover_consent:  # its key and address signed by the newcomer too (checked again here)
            from pbem.protocol import acceptance

            acceptance.check(chain, record.body)
            via += f", which {ident.name} signed it accepts"
        out.append(Party(f"seat {seat} (since seq {seq})", ident, via=via, address=record.body.handover.address))
    return out


def check(store: KeyStore, chain: Chain, *, where: str, strict: bool,
          accept_new: bool = False) -> list[New | Stranger]:
    """Check `chain`'s identities against `store`'s address book.

    Raises IdentityMismatch for a known name with another key, a known key
    under another name, or one key under two names in the game; when not
    `strict` (a read-only command) and none of the user's own keys is in the
    game, returns each such clash as a `Stranger` to warn about instead.
    Keys never seen: recorded if `accept_new` (as first seen in the game at
    `where`), else refused with UnknownIdentity if `strict`, else returned
    unrecorded so the caller can warn. Nothing is recorded unless every
    party passes.
    """
    book = {name: store.public(name) for name, _own in store.names()}
    by_key = {ident.sign: ident for ident in book.values()}
    own = {name for name, is_own in store.names() if is_own}
    seen_keys: dict[str, Party] = {}
    new: list[Party] = []
    clashes: list[IdentityMismatch] = []
    for party in parties(chain):
        ident = party.identity
        twin = seen_keys.setdefault(ident.sign, party)
        if twin is not party:
            raise IdentityMismatch(
                f"{twin.label} and {party.label} have the same key ({ident.fingerprint()}): one key is one person",
            )
        known = book.get(ident.name)
        if known is not None and known != ident:
            whose = "your own key" if ident.name in own else "the key your address book knows as"
            clashes.append(IdentityMismatch(
                f"{party.label} in this game has the key {ident.fingerprint()}, "
                f"not {whose} {ident.name} ({known.fingerprint()})",
                hint=f"this game is not with the {ident.name} you know: ask {ident.name} which key is theirs "
                "(pbem never replaces a known key)",
            ))
            continue
        other = by_key.get(ident.sign)
        if other is not None and other.name != ident.name:
            clashes.append(IdentityMismatch(
                f"{party.label} in this game has the key {ident.fingerprint()}, "
                f"which your address book knows as {other.name}",
                hint="one key has one name: a game that renames a known key is not to be trusted",
            ))
            continue
        if known is None:
            new.append(party)
    if clashes:
        mine = {book[n].sign for n in own}
        if strict or any(p.identity.sign in mine for p in parties(chain)):
            raise clashes[0]
        # a read-only look at a game the user is not in: shown, with warnings
        return [Stranger(c) for c in clashes] + [New(p, accepted=False) for p in new]
    strangers = [p for p in new if p.via is None]
    if strangers and strict and not accept_new:
        new = strangers
        lines = "; ".join(f"{p.label} ({p.identity.fingerprint()})" for p in new)
        raise UnknownIdentity(
            f"{'a key' if len(new) == 1 else f'{len(new)} keys'} in this game "
            f"{'is' if len(new) == 1 else 'are'} not in your address book: {lines}",
            hint="check the fingerprints with their owners, then import their identity files "
            "(pbem id import FILE) or rerun with --accept-new to record them",
        )
    taken = [p for p in new if accept_new or (strict and p.via is not None)]
    for p in taken:
        store.accept(p.identity, where, chain.game_id)
    for p in parties(chain) if strict else ():  # a newcomer's mail goes where its handover says, unless told otherwise
        if p.address and p.identity.name not in own and store.email(p.identity.name) is None:
            store.set_email(p.identity.name, p.address)
    return [New(p, accepted=p in taken) for p in new]
