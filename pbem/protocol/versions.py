"""What each protocol version has: one table, read wherever a rule differs.

A genesis names the protocol version its game was begun under
(`GenesisBody.version`, 1 when absent), and the game keeps that version's
rules for good, so that old games keep verifying. Code never compares
version numbers: it asks the game's `Version` for a named feature
(``chain.version.void_ballots``). A new version is one row of `_ROWS`
(and a field below for each feature it adds, False by default, so that
every older version lacks it); pbem writes new games under the last row.
"""

from __future__ import annotations

import msgspec

from pbem.errors import FormatError

MODES = ("hotseat", "referee", "peer")


class Version(msgspec.Struct, frozen=True):
    """The features of one protocol version; each version has every
    feature of the one before it."""

    number: int
    #: the dealer modes a game may be begun in under this version
    modes: tuple[str, ...] = MODES
    #: referee games are dealt once every seat has joined with a
    #: contribution to the game seed, so that neither the referee nor the last
    #: seat to join can aim the deal (`setup.deals_after_joins`)
    contributions: bool = False
    #: peer chance a file draws waits for another seat's next beacon link,
    #: so that its writer cannot foresee it (`peer.files.file_chance`)
    unforeseen_chance: bool = False
    #: peer decks follow reshuffles and cards that change hands
    #: (`peer.changes.DeckChanges.enabled`)
    deck_changes: bool = False
    #: peer games are set up once every seat has joined, from every seat's
    #: first beacon link; the last seat to join opens its own in its join
    #: (`setup.peer_sets_up_after_joins`)
    setup_from_links: bool = False
    #: a peer deck may wait for the set-up before its layers go on
    #: (`PeerSetup.late`: the Codenames key, the two-faced Duet deck)
    late_decks: bool = False
    #: a dealer voids the ballots it cannot tally (`ballots.take_void`)
    void_ballots: bool = False
    #: beacon chains have pbem's length and are renewed before they run
    #: out (`peer.renewal`)
    renewed_beacons: bool = False
    #: peer chance a file draws waits for a link of every other seat, not
    #: only the next one (`Chain.chance_answerers`)
    chance_from_every_seat: bool = False
    #: every shuffle layer of a peer deck carries a zero-knowledge proof
    #: that it is its input permuted and times its key's one scalar,
    #: checked when its file arrives (`peer.proofs`)
    shuffle_proofs: bool = False
    #: games that last weeks (issue #24): files carry their writer's
    #: signed time (`TurnBody.at`), the genesis an agreed pace
    #: (`GenesisBody.pace`), and a seat may resign, pause, or be timed out
    #: (`pbem.protocol.long_games`)
    long_games: bool = False
    #: a seat's private decks are its own shuffle layer over their declared
    #: cards, proven in its join, and their cards come off by proven partial
    #: decryptions, so a deck committed to other cards is refused at once,
    #: not at the audit (`peer.own_decks`)
    proven_private_decks: bool = False
    #: a seat may hand its place over to another identity, re-sealing what
    #: it may see to the newcomer's key; a referee game's genesis may let
    #: the referee do it for a vanished seat (`pbem.protocol.handover`)
    handover: bool = False
    #: with 3+ seats, the seat whose private deck a paused command draws
    #: from answers its chance last, so that it runs the command and a
    #: reshuffle of that deck happens in its owner's own answer (Codex: an
    #: attack that makes the defender's technician draw; `PeerMode.chance_answerers`)
    answer_from_drawn_deck: bool = False
    #: a seat's hidden zone that is no deck (a hand) whose cards the rules
    #: rename is re-committed by that seat, as a refill of its private
    #: deck, instead of refused (Codex reseals a hand after a look, so the
    #: looker cannot follow its cards; `peer.changes._holder`)
    resealed_zones: bool = False
    #: referee games: the referee's public chance (the deal's public
    #: set-up seed, the chance of its answers: dice, coin flips, random
    #: choices everyone sees) is the output of a verifiable random function
    #: under a key its genesis names, with its proof in the file, checked
    #: when the file arrives; secret chance (the deal) stays the seed's
    #: (`pbem.protocol.referee_chance`)
    proven_chance: bool = False
    #: cards the rules shuffle into a seat's private deck during play (a
    #: refill), or into a hand it reseals, are re-encrypted by that seat to
    #: one fresh key with a Chaum-Pedersen proof each and then shuffled
    #: under its proven layer, so a refill committed to other cards than
    #: went in is refused in its own file, and no hash commitment salted
    #: from a beacon seed is left for a former player to open
    #: (`peer.proven_refills`)
    proven_refills: bool = False
    #: a handover carries the newcomer's own signed acceptance of the seat,
    #: its key and its mail address, bound to the game, the seat and the
    #: file it follows: nobody hands a seat to a key that did not agree, nor
    #: gives a newcomer another address (`pbem.protocol.acceptance`)
    handover_consent: bool = False
    #: a peer newcomer's re-keying reveals no link of the old player's
    #: beacon chain: it commits the fresh chain as a join does, and no seat is
    #: handed over while a chance waits for links, so that no chance drawn
    #: after the handover uses a link the old player knew or a chain chosen
    #: after the drawer signed (`peer.rekey`)
    rekey_starts_chain: bool = False


#: (number, the dealer modes it may be begun in, the features it adds)
_ROWS: tuple[tuple[int, tuple[str, ...], tuple[str, ...]], ...] = (
    (1, MODES, ()),
    (2, MODES, ("contributions", "unforeseen_chance", "deck_changes")),  # pbem 0.3, issue #14
    (3, ("peer",), ("setup_from_links", "late_decks")),
    (4, MODES, ("void_ballots", "renewed_beacons", "chance_from_every_seat")),  # issue #20
    (5, MODES, ("shuffle_proofs",)),  # issue #25
    (6, MODES, ("long_games", "proven_private_decks", "handover", "answer_from_drawn_deck",
                    "resealed_zones")),  # issues #23, #24, #25
    (7, MODES, ("proven_chance", "proven_refills", "handover_consent", "rekey_starts_chain")),  # issues #24, #25
)


def _table() -> dict[int, Version]:
    out: dict[int, Version] = {}
    last = Version(0)
    for number, modes, adds in _ROWS:
        last = msgspec.structs.replace(last, number=number, modes=modes, **{name: True for name in adds})
        out[number] = last
    return out


VERSIONS = _table()
#: the version pbem writes new games under
NEWEST = max(VERSIONS)


def of(number: int) -> Version:
    """The features of protocol version `number`."""
    try:
        return VERSIONS[number]
    except KeyError:
        raise FormatError(f"protocol version {number} is unknown to this pbem (it knows 1 to {NEWEST})") from None


def first(feature: str) -> int:
    """The first protocol version that has `feature` (for messages: "games
    begun before protocol version N cannot ...")."""
    return min(n for n, v in VERSIONS.items() if getattr(v, feature))
