"""Opening a game folder as one party: where keys come from (`Keys`), the
chain loaded and checked, and the checks of who may act in it (a seat and
its key, the protocol version a seat enters under).

Given `Keys`, every use case that reads a game first checks the game's
identities against the address book (`pbem.home.pinning`): strictly before
it writes, with warnings (through `Keys.warn`) when it only reads. What
such a command repaired on the way (a stale `state.pbem`, a stray temporary
file) is appended to `notes` (when given) for the CLI to print: library
code never prints.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from pbem.crypto.keys import SecretIdentity, read_secret_key_file
from pbem.errors import KeyStoreError, PassphraseError, PbemError, ProtocolError
from pbem.gamedir import folder as folder_mod, safe_read, folder_write
from pbem.home import pinning
from pbem.protocol.chain import Chain

# What only writers and seats need (the dealer, sealing and its AEAD, the
# key-file cipher) is imported inside the functions that use it, so that
# `status`, `log` and an observer's `show` load none of it (issue #12).
if TYPE_CHECKING:
    from pbem.home.store import KeyStore
    from pbem.protocol.party import Party


class Keys(msgspec.Struct):
    """Where keys come from: a store and a way to ask for a passphrase
    (given the key's name when `named`, so a prompt can say which).

    `accept_new` records keys a game holds that the address book has never
    seen (``--accept-new``); `old_protocol` lets a seat write its first file
    into a game begun under an older protocol version
    (``--allow-old-protocol``, `check_protocol`); `warn` receives warnings
    (unknown keys in a read-only command, a private key others may read),
    each once.
    """

    store: KeyStore
    passphrase: Callable[..., str]
    named: bool = False
    accept_new: bool = False
    old_protocol: bool = False
    warn: Callable[[str], None] | None = None
    #: how many times a wrong passphrase may be typed again (a person at a
    #: terminal: 3; a script's $PBEM_PASSPHRASE: once)
    tries: int = 1
    _warned: set[str] = msgspec.field(default_factory=set)

    def secret(self, name: str) -> SecretIdentity:
        ask = (lambda: self.passphrase(name)) if self.named else self.passphrase
        for left in range(self.tries - 1, -1, -1):
            try:
                secret = self.store.secret(name, ask)
                break
            except PassphraseError:
                if not left:
                    raise
                if self.warn is not None:
                    self.warn(f"wrong passphrase for {name}; try again ({left} more {'try' if left == 1 else 'tries'})")
        self._warn(self.store.loose_permissions(name))
        return secret

    def pin(self, chain: Chain, where: Path, write: bool) -> None:
        """Check `chain`'s identities against the address book: refused
        when they clash; unknown ones refused (`write`, unless `accept_new`)
        or warned about."""
        found = pinning.check(self.store, chain, where=str(Path(where).absolute()), strict=write,
                              accept_new=self.accept_new and write)
        for new in found:
            self._warn(new.line())

    @property
    def warned(self) -> bool:
        """Whether anything was said as a warning (a status that warned is
        not remembered: `pbem.gamedir.status_memo`)."""
        return bool(self._warned)

    def _warn(self, line: str | None) -> None:
        if line and self.warn is not None and line not in self._warned:
            self._warned.add(line)
            self.warn(line)


def open_game(folder: Path, keys: Keys | None = None, write: bool = False) -> Chain:
    """Load and check the chain in `folder`, and (given `keys`) its identities."""
    chain = folder_mod.load(folder)
    if keys is not None:
        keys.pin(chain, folder, write)
    return chain


def my_name(genesis_file: Path, store: "KeyStore") -> str:
    """The identity to act as in the game `genesis_file` begins (a folder's
    or one received) when ``--as`` is left out: the only one of the user's
    own keys that is a party of the game (a seat, or the referee). None,
    or several: an error that says which to give."""
    from pbem.protocol import codec
    from pbem.protocol.formats import GenesisBody

    if not genesis_file.is_file():
        raise PbemError(f"{genesis_file.parent} holds no game ({genesis_file.name} is missing)",
                        hint="give --as NAME, or the folder of a game")
    genesis = codec.decode_body(codec.read_envelope(safe_read.read(genesis_file), "genesis"), GenesisBody)
    parties = [s.identity for s in genesis.seats]
    if genesis.dealer is not None and genesis.dealer.mode == "referee":
        parties.append(genesis.dealer.identity)
    mine = [p.name for p in parties if store.has_secret(p.name) and store.public(p.name) == p]
    if len(mine) == 1:
        return mine[0]
    if not mine:
        raise PbemError(f"none of your own identities is a party of this game (its parties: "
                        f"{', '.join(p.name for p in parties)})", hint="give --as NAME (pbem id list shows yours)")
    raise PbemError(f"several of your identities are parties of this game ({', '.join(mine)})",
                    hint="say which with --as NAME")


def hotseat_dealer(folder: Path, chain: Chain) -> SecretIdentity:
    path = folder / folder_mod.DEALER_KEY
    if not path.exists():
        raise KeyStoreError(f"this hotseat game has lost its {folder_mod.DEALER_KEY}")
    secret = read_secret_key_file(safe_read.read(path), lambda: "")
    if secret.public != chain.genesis.dealer.identity:
        raise KeyStoreError(f"{folder_mod.DEALER_KEY} is not the key of this game's dealer")
    return secret


def verify(
    folder: Path, repair: bool = False, keys: Keys | None = None, notes: list[str] | None = None, full: bool = False
) -> Chain:
    """Check every file: the chain and a hotseat dealer's key (and, given
    `keys`, warn about identities the address book lacks).

    Files this user verified before are only hashed (`pbem.home.checkpoint`);
    `full` replays every file from genesis instead, and writes the
    checkpoint anew (what to run after settling a fork by hand).

    `state.pbem` is only a cache, so one that is stale (a writer killed
    after its last turn file), missing or damaged is not a failure: it is
    rebuilt from the chain (under the folder's lock) and a note says so;
    stray temporary files are removed the same way. `repair` only makes the
    rebuild mandatory (an error when the folder cannot be written).
    """
    chain = folder_mod.load(folder, full=full, save=True)
    if chain.dealer_mode == "hotseat" and (folder / folder_mod.DEALER_KEY).exists():
        hotseat_dealer(folder, chain)
    if keys is not None:  # after the chain's own checks, before anything is written
        keys.pin(chain, folder, write=False)
    if repair or folder_write.needs_tidy(folder, chain):
        try:
            with folder_write.writing(folder):
                chain = folder_mod.load(folder)  # the head as it is under the lock
                done = folder_write.tidy(folder, chain)
        except PbemError as exc:
            in_the_way = (folder / folder_mod.STATE).exists() and not (folder / folder_mod.STATE).is_file()
            if repair or in_the_way:  # something that is no file where the cache goes: say so
                raise
            done = [f"{folder_mod.STATE} does not match the chain and was left as it is: {exc.message}"]
        add_notes(notes, done)
    return chain


def add_notes(notes: list[str] | None, more: list[str]) -> None:
    if notes is not None:
        notes.extend(more)


def party(chain: Chain, name: str, keys: Keys, secret: SecretIdentity | None = None) -> Party:
    """`name`'s view of `chain` (`secret`: its key, when already unlocked)."""
    from pbem.home import opened
    from pbem.protocol.party import Party

    check_seat(chain, name, keys)
    opened.install()  # what its deliveries hold, from the last command (decrypted once)
    return Party(chain, secret or seat_secret(chain, name, keys))


def seat_secret(chain: Chain, name: str, keys: Keys) -> SecretIdentity:
    """The key `name` plays with: its own, or for a seat handed over, its
    newcomer's, under the seat's name (`pbem.protocol.handover`)."""
    holder = chain.holder(name) if name in chain.seats else None
    if holder is None or holder.name == name:
        return keys.secret(name)
    return keys.secret(holder.name).seated_as(name)


def check_seat(chain: Chain, name: str, keys: Keys) -> None:
    """`--as name` must be a party of the game, and its key the one there."""
    held = {ident.name: seat for seat, (_, ident) in chain.handed.items()}
    if name in held:
        raise KeyStoreError(f"{name} plays seat {held[name]} in this game, handed over to it",
                            hint=f"act as the seat: --as {held[name]}")
    if name == chain.dealer_name and chain.dealer_mode == "hotseat":
        raise KeyStoreError(
            f"{name} is this hotseat game's own dealer: it answers by itself, with the folder's {folder_mod.DEALER_KEY}",
            hint=f"act as one of the seats: {', '.join(chain.seat_order)}",
        )
    if name not in chain.seats and name != chain.dealer_name:
        here = ", ".join(n for n in chain.seat_order if keys.store.has_secret(n))
        raise KeyStoreError(
            f"{name} has no seat in this game (seats: {', '.join(chain.seat_order)})",
            hint=f"your keys here that sit in it: {here}" if here else
            f"none of its seats has a private key in {keys.store.home}",
        )
    if name in chain.handed:
        seq, newcomer = chain.handed[name]
        if not keys.store.has_secret(newcomer.name):
            raise KeyStoreError(f"seat {name} was handed over to {newcomer.name} (seq {seq}), "
                                f"whose key is not in {keys.store.home}",
                                hint=f"{newcomer.name} plays it now, from where {newcomer.name}'s key is")
        return
    if not keys.store.has_secret(name):
        if keys.store.has_public(name):
            raise keys.store.no_secret(name)
        raise KeyStoreError(  # never "pbem id new": a new key would not be the seat's
            f"no private key of {name} in {keys.store.home}: {name}'s key in this game is "
            f"{chain.identity(name).fingerprint()}",
            hint=f"run this where {name}'s key is, or set PBEM_HOME to the store that holds it",
        )


def accepted_identity(text: str, store: "KeyStore"):
    """The identity `text` names (a name, or the path of an identity file),
    as the address book holds it: a handover goes only to a key its writer
    accepted (checked with its owner), never to one first seen here."""
    from pbem.crypto.keys import read_identity_file, valid_name

    if valid_name(text) and not Path(text).is_file():
        if not store.has_public(text):
            raise KeyStoreError(f"{text} is not in your address book",
                                hint=f"check {text}'s fingerprint with them, then pbem id import THEIR-ID-FILE")
        return store.public(text)
    try:
        ident = read_identity_file(safe_read.read(Path(text)))
    except OSError as exc:
        raise PbemError(f"cannot read {text}: {exc.strerror or exc}") from None
    known = store.public(ident.name) if store.has_public(ident.name) else None
    if known != ident:
        raise KeyStoreError(
            f"{ident.name}'s key in {text} ({ident.fingerprint()}) is not one your address book accepted",
            hint=f"check the fingerprint with {ident.name}, then pbem id import {text}")
    return ident


#: what a game begun under an older protocol version lacks, by dealer mode
#: and feature (`pbem.protocol.versions`), oldest feature first: why a seat
#: should not enter one unawares (the first feature its version lacks says it)
_LACKING = (
    ("referee", "contributions", "whose referee chose its seed alone (it could try seeds until the deal suited someone)"),
    ("peer", "unforeseen_chance", "whose writers could foresee the chance of their own files"),
    ("peer", "setup_from_links", "whose creator chose its set-up chance (who starts, the words on the table)"),
    ("referee", "void_ballots", "in which a ballot that cannot be tallied stops the game for good"),
    ("peer", "renewed_beacons", "in which its creator chose the length of the beacon chains (which cannot be renewed), "
                                "and a writer helped by one other seat could foresee its dice"),
)


def check_protocol(chain: Chain, name: str, keys: Keys, what: str | None = None) -> None:
    """Refuse `name`'s first file (a join, a contribution, a first move)
    in a game begun under an older protocol version than this pbem's,
    unless its user allows it knowingly (`Keys.old_protocol`).

    Verifiers still read old games, so that games begun under them keep
    verifying; but a creator could otherwise downgrade a new game to an
    older version's weaker rules (a referee trying seeds until the deal
    suits a friend), and in a shared folder nobody runs `pbem join`, so
    every seat's first file is checked, whichever command writes it. A
    hotseat game lives on one machine: nothing to refuse."""
    from pbem.protocol.formats import PROTOCOL_VERSION

    version, mode = chain.version, chain.dealer_mode
    if version.number >= PROTOCOL_VERSION or mode == "hotseat" or keys.old_protocol or name not in chain.seats:
        return
    if chain.deck is not None and chain.genesis.peer.creator == name:
        return  # its own genesis: it chose the version itself
    if any(r.by == name for r in chain.records[1:]):
        return  # it entered the game already, knowingly or before this pbem
    why = next((words for m, feature, words in _LACKING if m == mode and not getattr(version, feature)),
               "which lacks what the newest has")
    raise ProtocolError(
        f"{f'{what} begins a game' if what else 'this game was begun'} under protocol version {version.number}, {why}: "
        f"this pbem enters only games of version {PROTOCOL_VERSION}",
        hint="ask its creator to make the game again with this pbem, or, accepting what that version lacks, "
             "add --allow-old-protocol",
    )
