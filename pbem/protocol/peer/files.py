"""One file of a peer game, for writers and verifiers alike.

`run_file` applies one file to a staged copy of the deck (`PeerDeck.copy`)
and the chain's public state: the writer's owed decryptions first (`owed`),
then its commands, with the chance the file may have (`file_chance`). Where
the decryptions come from is a `FileParts`: made on demand by the writer
(`WriterParts`) or read from the file by a verifier (`FileReader`), so that
writers and verifiers run one code path and cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import msgspec

from pbem.crypto.encoding import b64d, b64e
from pbem.crypto.keys import SecretIdentity
from pbem.errors import FormatError, ProtocolError
from pbem.protocol.peer_parts import Partial, PeerSecrets
from pbem.protocol.peer import changes as peer_changes, rekey as peer_rekey
from pbem.protocol.peer.deck import BeaconChance, PeerDeck
from pbem.protocol.peer.secrets import private_salt

if TYPE_CHECKING:
    from pbem.games.base import GameState
    from pbem.protocol.chance import PlayChance
    from pbem.protocol.file_parts import Opening
    from pbem.protocol.formats import TurnBody
    from pbem.protocol.head import ChainView
    from pbem.protocol.transition import Effect

def owed(deck: PeerDeck, state: GameState | None, seat: str, revealed: dict[str, str], blocked: str | None, seat_order: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """What `seat` must decrypt now: slots whose layer it removes in public
    (cards that must become public, cards another seat alone may see), and
    (slot, reader) pairs for which it seals its partial to a fellow reader
    of a zone several seats see. Stable order."""
    from pbem.games.base import unknown_to, unrevealed_public

    if not deck.complete:
        return [], []
    assert state is not None  # a complete deck: its cards are dealt
    zone_of = {it.ref: zone for zone in state.zones.values() for it in zone.items}
    public: list[str] = []
    sealed: list[tuple[str, str]] = []
    for ref in unrevealed_public(state) + ([blocked] if blocked else []):
        owes = seat in deck.remaining.get(ref, ()) or deck.private_owner.get(ref) == seat
        if owes and ref not in public:
            public.append(ref)
    for other in seat_order:
        if other == seat:
            continue
        for ref in unknown_to(state, other, deck.knows(other) | set(revealed)):
            if ref in deck.private_owner:
                if not deck.changes.enabled:
                    raise ProtocolError(
                        f"a card of {deck.private_owner[ref]}'s private deck would go to {other}: "
                        "peer games begun before version 2 do not support that"
                    )
                if deck.private_owner[ref] == seat:  # its owner seals the opening to the new holder
                    sealed.append((ref, other))
                continue
            if seat not in deck.remaining.get(ref, ()):
                continue
            readers = zone_of[ref].readers
            if seat in readers and len(readers) > 1:
                # seal to the fellow reader once every other seat is done
                if deck.remaining[ref] <= set(readers) and seat not in deck.private_from.get(other, {}).get(ref, set()):
                    sealed.append((ref, other))
            elif deck.changes.enabled and deck.remaining[ref] == {seat}:
                # a card moving from seat's hidden hand to other's: the last
                # layer coming off in public would show it to everyone
                sealed.append((ref, other))
            elif ref not in public:
                public.append(ref)
    return public, sealed


def owed_refs(deck: PeerDeck, state: GameState | None, seat: str, revealed: dict[str, str], blocked: str | None, seat_order: list[str]) -> list[str]:
    """Every slot `seat` owes a decryption of, public or sealed."""
    public, sealed = owed(deck, state, seat, revealed, blocked, seat_order)
    return public + [ref for ref, _ in sealed if ref not in public]


class FileParts:
    """Where one file's decryptions come from: made by its writer, or read
    from the file by a verifier (see `WriterParts`, `FileReader`)."""

    def next_partial(self, ref: str) -> Partial | None:  # pragma: no cover - interface
        raise NotImplementedError

    def seal(self, ref: str, to: str) -> bool:  # pragma: no cover - interface
        raise NotImplementedError

    def opening(self, ref: str) -> Opening | None:  # pragma: no cover - interface
        raise NotImplementedError

    def deliver(self, ref: str, to: str) -> bool:  # pragma: no cover - interface
        """The opening of a private-deck card sealed to the seat it goes to."""
        raise NotImplementedError


@dataclass
class PeerEffect:
    effect: Effect
    partials: list[Partial]
    openings: list[Opening] = field(default_factory=list)  # private-deck cards revealed
    chance_used: bool = False  # the file drew from the beacons


def file_chance(chain: ChainView, deck: PeerDeck, seq: int, answering: bool) -> BeaconChance | PlayChance:
    """The chance of one peer file.

    Games begun before version 2 (`Version.unforeseen_chance`), and games that declare their chance
    harmless to foresee (`GameInfo.immediate_chance`), draw it from every seat's
    latest link at once, the writer's own included: the writer could compute
    it before signing. Otherwise public chance (and which card of a private
    deck is drawn) pauses the file; the other seats' next files, whose links
    the writer could not know, answer it, and the last of them draws it
    (`answering`; `Chain.chance_answerers`)."""
    beacons = deck.chance(seq)
    if not chain.version.unforeseen_chance or chain.game.info.immediate_chance:
        return beacons
    from pbem.crypto import beacon
    from pbem.protocol.chance import PlayChance, Tape

    seed = beacon.chance_key(dict(deck.latest), deck.game_id, seq) if answering else None
    return PlayChance(Tape(seed, f"public {seq}"), secret=beacons, draws_public=True)


def run_file(chain: ChainView, deck: PeerDeck, writer: str, commands: Sequence[Any], parts: FileReader | WriterParts, seq: int,
             private_check: Callable[[GameState, Any], None] | None = None,
             resume: Sequence[tuple[str, Any]] = ()) -> PeerEffect:
    """Apply one peer file to a staged `deck` and the chain's public state.

    The writer's owed decryptions come first (public partials, then partials
    sealed to fellow readers), then those the commands need. `parts` makes
    them (writer) or takes them from the file (verifier): one code path.
    """
    from pbem.protocol import transition

    used: list[Partial] = []
    openings: list[Opening] = []  # of private-deck cards
    completed: dict[str, str] = {}

    def peel(ref: str, must: bool) -> str | None:
        """Take the file's partials for `ref` (the writer's own, and those it
        relays to finish a reveal) while they come; a private-deck card is
        opened by its owner instead."""
        if ref in deck.private_owner:
            if not deck.may_open(writer, ref):
                return None
            opening = parts.opening(ref)
            if opening is None:
                if must:
                    raise ProtocolError(f"{writer} must reveal {ref} of its private deck and does not")
                return None
            completed[ref] = deck.open_private(writer, opening)
            openings.append(opening)
            return completed[ref]
        while deck.remaining.get(ref):
            partial = parts.next_partial(ref)
            if partial is None:
                break
            if partial.seat == writer:
                # one content, one byte string: the writer's own partial
                # names no seat (only a relayed one does)
                raise FormatError(f"{writer}'s own partial of {ref} names its seat; the field is only for a relayed partial")
            card = deck.apply_partial(partial.seat or writer, partial)
            used.append(partial)
            if card is not None:
                completed[ref] = card
        if must and writer in deck.remaining.get(ref, ()):
            raise ProtocolError(f"{writer} owes its partial decryption of {ref} and does not give it")
        return completed.get(ref)

    peer_changes.take_due(chain, deck, writer, parts, seq)
    public, sealed = owed(deck, chain.public, writer, chain.revealed, chain.blocked_on, chain.seat_order)
    for ref in public:
        peel(ref, must=True)
    for ref, to in sealed:
        if not (parts.deliver(ref, to) if ref in deck.private_owner else parts.seal(ref, to)):
            raise ProtocolError(f"{writer} owes {to} its sealed partial decryption of {ref} and does not give it")
        # replaced, never changed in place: `PeerDeck.copy` shares them
        sealed_to = deck.private_from.get(to, {})
        deck.private_from[to] = {**sealed_to, ref: sealed_to.get(ref, set()) | {writer}}

    def source(ref: str) -> str | None:
        if ref in completed:
            return completed[ref]
        if ref in chain.revealed:  # public already (a paused command's own reveals, run again by its answer)
            return chain.revealed[ref]
        return peel(ref, must=False)

    if chain.chance_answerer() == writer and commands:
        raise ProtocolError(f"{writer}'s file answers the chance of {chain.chance_by()}'s file: it carries no commands")
    answering = chain.resumes_chance(writer)  # the last answer: every link the chance waits for is in
    chance = file_chance(chain, deck, seq, answering)
    resume = list(resume) + ([chain.paused] if answering and chain.paused else [])
    state = chain.public
    assert state is not None  # the game is set up (`transition.run` reads its public state)
    effect = transition.run(
        chain.game,
        state,
        writer,
        commands,
        source=source,
        writer_knows=lambda st: deck.knows(writer) | set(chain.revealed) | set(completed),
        private_check=private_check,
        chance=chance,
        resume=resume,
    )
    used_chance = chance.used > 0 if isinstance(chance, BeaconChance) else effect.drew_chance
    peer_changes.after_run(chain, deck, writer, effect, parts, seq, chance)
    return PeerEffect(effect=effect, partials=used, openings=openings, chance_used=used_chance)


class FileReader(FileParts):
    """A verifier's `FileParts`: the decryptions a received file carries."""

    def __init__(self, body: TurnBody) -> None:
        self.body = body
        self.delivered = {(d.to, ref) for d in body.deliveries for ref in d.refs}
        self.deliveries: list[tuple[str, str]] = []
        self.openings = {o.ref: o for o in body.reveals}
        if len(self.openings) != len(body.reveals):
            raise ProtocolError("reveals a card twice")
        self.partials: dict[str, list[Partial]] = {}
        for partial in body.partials:
            self.partials.setdefault(partial.ref, []).append(partial)
        self.sealed: set[tuple[str, str]] = set()
        self.calls: list[tuple[str, str]] = []
        for box in body.sealed:
            for ref in box.refs:
                if (box.to, ref) in self.sealed:
                    raise ProtocolError(f"seals its partial of {ref} to {box.to} twice")
                self.sealed.add((box.to, ref))

    def next_partial(self, ref: str) -> Partial | None:
        waiting = self.partials.get(ref)
        return waiting.pop(0) if waiting else None

    def seal(self, ref: str, to: str) -> bool:
        if (to, ref) in self.sealed:
            self.sealed.discard((to, ref))
            self.calls.append((ref, to))
            return True
        return False

    def sealed_in_order(self) -> list[tuple[str, list[str]]]:
        """The sealed boxes a writer makes for the seals asked: one per
        reader, in order of first use, refs in order."""
        boxes: dict[str, list[str]] = {}
        for ref, to in self.calls:
            boxes.setdefault(to, []).append(ref)
        return list(boxes.items())

    def opening(self, ref: str) -> Opening | None:
        return self.openings.pop(ref, None)

    def deliver(self, ref: str, to: str) -> bool:
        if (to, ref) in self.delivered:
            self.delivered.discard((to, ref))
            self.deliveries.append((ref, to))
            return True
        return False

    def delivered_in_order(self) -> list[tuple[str, list[str]]]:
        boxes: dict[str, list[str]] = {}
        for ref, to in self.deliveries:
            boxes.setdefault(to, []).append(ref)
        return list(boxes.items())

    def leftovers(self) -> list[str]:
        return sorted({ref for ref, rest in self.partials.items() if rest} | {ref for _, ref in self.sealed}
                      | set(self.openings) | {ref for _, ref in self.delivered})


class WriterParts(FileParts):
    """A writer's `FileParts`: its own partials, made on demand, and the
    partials sealed to it by fellow readers, relayed to finish a reveal."""

    def __init__(self, deck: PeerDeck, me: SecretIdentity, scalar: bytes, held: dict[str, dict[str, Partial]],
                 secrets: PeerSecrets | None = None,
                 cards_known: Callable[[PeerSecrets], dict[str, str]] | None = None) -> None:
        self.deck, self.identity, self.me, self.scalar, self.held = deck, me, me.name, scalar, held
        self.secrets = secrets
        #: ref -> card for every card the writer can read, with these
        #: secrets (`writer.cards_known`): what it commits to when the rules
        #: reshuffle cards into its private deck (`changes`)
        self.cards_known = cards_known
        self.to_seal: dict[str, list[Partial]] = {}
        self.to_deliver: dict[str, list[Opening]] = {}  # reader -> openings of private-deck cards
        self.delivered: dict[str, Opening] = {}  # ref -> opening sealed to this seat by the card's owner
        self.made: dict[str, Any] = {}  # what `peer_changes` adds to the file (a reshuffle layer ...)

    def scalar_for(self, ref: str) -> bytes:
        if self.secrets is None:  # a join: the join's own scalar
            return self.scalar
        return peer_rekey.scalar_of(self.deck, self.me, ref, self.secrets, self.made)

    def deliver(self, ref: str, to: str) -> bool:
        opening = self.opening(ref)
        if opening is None:
            return False
        self.to_deliver.setdefault(to, []).append(opening)
        return True

    def opening(self, ref: str) -> Opening | None:
        from pbem.protocol.file_parts import Opening

        if ref in self.delivered:
            return self.delivered[ref]
        if self.secrets is None or ref not in self.secrets.private:
            return None
        salt = private_salt(b64d(self.secrets.beacon_seed, 32), ref)
        return Opening(ref=ref, card=self.secrets.private[ref], salt=b64e(salt))

    def next_partial(self, ref: str) -> Partial | None:
        others = self.deck.remaining.get(ref, set()) - {self.me}
        mine = self.held.get(ref, {})
        if others and others <= set(mine):
            seat = sorted(others)[0]
            return msgspec.structs.replace(mine[seat], seat=seat)
        if self.me in self.deck.remaining.get(ref, ()):
            return self.deck.make_partial(self.me, self.scalar_for(ref), ref)
        return None

    def seal(self, ref: str, to: str) -> bool:
        self.to_seal.setdefault(to, []).append(self.deck.make_partial(self.me, self.scalar_for(ref), ref))
        return True
