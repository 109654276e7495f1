"""The chain: genesis -> turn -> turn ..., replayed and checked file by file.

`Chain` holds the public state at the head and everything needed to judge
the next file: who may write (the dealer while it owes anything, otherwise
the seats the rules name), which refs each seat knows, the commitments every
reveal must open. `Chain.append` either accepts a file completely or raises
and leaves the chain as it was; nothing in it touches the filesystem.
"""

from __future__ import annotations

import contextlib

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import msgspec

from pbem import games
from pbem.crypto.commit import check_opening
from pbem.crypto.encoding import b64d, canonical
from pbem.crypto.keys import PublicIdentity
from pbem.crypto.envelope import check_envelope
from pbem.errors import (
    CommitmentError,
    FormatError,
    IllegalCommand,
    InvalidCommand,
    PbemError,
    ProtocolError,
    StaleTurn,
    WrongGame,
    WrongWriter,
)
from pbem.games.base import Game, GameState, Hidden, SeatSpec, overlay, refs_in, unknown_to, unrevealed_public
from pbem.protocol import codec, transition, undo as undo_mod
from pbem.protocol.commitments import check_openings, item_bytes, state_hash  # noqa: F401 - re-exported
from pbem.protocol.chance import PlayChance, Tape
from pbem.protocol.formats import GenesisBody, Obligation, PendingUndo, SignedFile, TurnBody
from pbem.protocol.setup import derive_setup

if TYPE_CHECKING:  # peer games need PyNaCl: imported only when a game is peer
    from pbem.protocol.peer import PeerDeck


#: the parts of a turn body besides its header; which a file may carry
#: depends on who writes it and the dealer mode
_OPTIONAL_PARTS = (
    "commands", "reveals", "deliveries", "commitments", "seed", "join", "partials", "sealed", "beacon", "secrets", "undo",
    "chance", "memo", "vote", "tally", "contribution", "setup_seed", "reshuffle", "layer", "renewal", "void",
)


def with_place(exc: PbemError, where: str) -> PbemError:
    """The same error, its message prefixed with the file it is about."""
    if exc.message.startswith(where):
        return exc
    exc.message = f"{where}: {exc.message}"
    exc.args = (exc.message,)
    return exc


def check_envelopes(body: GenesisBody | TurnBody) -> None:
    """Every sealed envelope a file carries must at least be well formed:
    what only its readers can check (that it opens) they check on reading."""
    boxes = [d.envelope for d in body.deliveries]
    if isinstance(body, GenesisBody):
        boxes += [body.dealer.seed_box] if body.dealer else [body.peer.secret_box]
    else:
        boxes += [s.envelope for s in body.sealed]
        boxes += [body.join.secret_box] if body.join else []
        boxes += [body.memo] if body.memo else []
        boxes += [body.renewal.box] if body.renewal else []
    for box in boxes:
        check_envelope(box, readers=1)  # pbem seals every envelope to one reader


@dataclass
class Record:
    """One accepted file, with what a log needs to describe it."""

    seq: int
    by: str
    hash: str
    outer: SignedFile
    body: GenesisBody | TurnBody
    commands: list[Any] = field(default_factory=list)
    before: GameState | None = None
    after: GameState | None = None
    name: str = ""
    revealed: dict[str, str] = field(default_factory=dict)  # cards this file made public
    #: the chain's state before this file (public, known, revealed,
    #: blocked_on, deck, moves): what an accepted undo of it returns to
    prior: tuple | None = None
    chance: bool = False  # the file drew chance (peer games)
    undone: int | None = None  # an accepted undo: the seq it took back
    #: (seat, command): the paused command this file ran with its chance
    resumed: tuple[str, Any] | None = None
    #: an undo request written out of turn: the seats that were to write,
    #: whose file on the same predecessor stands over it (`undo.set_aside`)
    out_of_turn: tuple[str, ...] | None = None


class Chain:
    """The checked state of a game at its head."""

    def __init__(self, genesis_bytes: bytes, name: str = "000000-genesis.pbem") -> None:
        #: what a reader should be told that stops nothing (copies of a
        #: file, repaired line endings): `pbem.protocol.folder.load` fills it
        self.notes: list[str] = []
        #: files of the folder that the rule of out-of-turn undo requests set
        #: aside (`undo.set_aside`): `folder.load` fills it, writers move them
        self.set_aside: list = []
        try:
            self._start(genesis_bytes, name)
        except PbemError as exc:
            raise with_place(exc, name) from None

    def _start(self, genesis_bytes: bytes, name: str) -> None:
        outer = codec.read_envelope(genesis_bytes, "genesis")
        genesis = codec.decode_body(outer, GenesisBody)
        if (genesis.dealer is None) == (genesis.peer is None):
            raise FormatError("a genesis names either a dealer or a peer set-up")
        if genesis.dealer is not None:
            signer = genesis.dealer.identity
        else:
            creator = next((s for s in genesis.seats if s.name == genesis.peer.creator), None)
            if creator is None:
                raise FormatError(f"the creator {genesis.peer.creator!r} has no seat")
            signer = creator.identity
        if outer.by != signer.name:
            raise FormatError(f"signed as {outer.by!r} but made by {signer.name!r}")
        codec.check_signature(outer, signer)
        check_envelopes(genesis)
        self.genesis = genesis
        self.game_id = codec.file_hash(outer)
        # the rules the game was begun under, so old games keep verifying
        self.game: Game = games.get(genesis.game, genesis.rules_version)
        names = [s.name for s in genesis.seats]
        if len(set(names)) != len(names):
            raise FormatError("a seat is listed twice")
        strangers = [s.name for s in genesis.seats if s.identity.name != s.name]
        if strangers:
            raise FormatError(f"the seat {strangers[0]!r} holds the identity of another name")
        # derive, never trust: the set-up is the rules' own, not the file's
        derived = derive_setup(self.game, genesis)
        self.options = derived.options
        self.setup_seed: bytes | None = b64d(genesis.setup_seed, 32) if genesis.setup_seed is not None else None
        public = derived.hidden
        self.seats = {s.name: s for s in genesis.seats}
        self.seat_order = [s.name for s in genesis.seats]
        self.dealer_name: str | None = genesis.dealer.identity.name if genesis.dealer else None
        if self.dealer_name in self.seats:
            raise FormatError(f"the dealer {self.dealer_name!r} is also a seat")
        self.commitments: dict[str, str] = dict(genesis.commitments)
        self.deck: PeerDeck | None = None
        if genesis.peer is not None:
            if genesis.commitments or genesis.reveals or genesis.deliveries:
                raise FormatError("a peer genesis carries no commitments, reveals or deliveries")
            from pbem.protocol.peer import start_deck

            shape = public if public is not None else derived.probe

            private = {
                it.ref: (zone, owner)
                for zone, owner in self.game.private_decks(shape).items()
                for it in shape.zones[zone].items
            }
            self.deck = start_deck(genesis, self.game_id, private)
            # a late deck learns its cards at the set-up (`stage_setup`)
            if not self.deck.late and (set(refs_in(shape)) != set(self.deck.slots) | set(private)
                                       or set(private) & set(self.deck.slots)):
                raise ProtocolError("the peer deck's slots and private decks are not the game's hidden items")
        elif public is None:
            if genesis.commitments or genesis.reveals or genesis.deliveries:
                raise FormatError("a genesis dealt after the joins carries no commitments, reveals or deliveries")
        else:
            self._check_deal(public, genesis.commitments, genesis.reveals, "the genesis")
        #: peer games set up after their joins (version 3): the set-up's
        #: shape (which refs are hidden, in which zones), from a probe seed
        self.shape: GameState | None = public if public is not None else derived.probe
        self.peer_shape = derived.shape
        #: referee games dealt after the joins (version 2): each seat's
        #: contribution to the game seed, and whether the deal (or a peer
        #: game's set-up) is in
        self.contributions: dict[str, bytes] = {}
        self.dealt = public is not None
        self.deal_commitments: dict[str, str] = dict(genesis.commitments)
        self.revealed: dict[str, str] = {o.ref: o.card for o in genesis.reveals}
        self.public: GameState = overlay(public, self.revealed) if public is not None else None
        self.known: dict[str, set[str]] = {s: set() for s in self.seats}
        if self.deck is None and self.dealt:
            self._record_deliveries(genesis.deliveries, "genesis")
        if state_hash(self.public) != genesis.state:
            raise ProtocolError("the initial state does not match its hash")
        self.blocked_on: str | None = None
        #: (seat, command): a seat's last command, which drew chance that
        #: its file could not have; not applied until the chance is supplied
        self.paused: tuple[str, Any] | None = None
        #: the rules' automatic steps wait for chance
        self.chance_blocked = False
        self._chance_writer: str | None = None
        #: peer games of version 4: the seats that answered the drawn chance
        #: so far (`chance_answerers`)
        self.chance_answered: tuple[str, ...] = ()
        #: the ballots of the open vote: seat -> (commitment, seq of its file)
        self.ballots: dict[str, tuple[str, int]] = {}
        #: peer games: the ballots opened so far, in seat order
        self.opened: list[tuple[str, Any]] = []
        #: the ballots of the open vote its dealer voided: seat -> (seq of
        #: the ballot, seq of the void file, why); the seat votes again
        self.voided: dict[str, tuple[int, int, str]] = {}
        self.seed: bytes | None = None
        self.seq = 0
        self.head = self.game_id
        #: the seqs of the decision files (with commands) that stand: an
        #: accepted undo drops the last one
        self.moves: tuple[int, ...] = ()
        self.undo_pending: undo_mod.Pending | None = None
        self.records: list[Record] = [Record(0, signer.name, self.game_id, outer, genesis, after=self.public, name=name)]
        if self.dealt and unrevealed_public(self.public):
            raise ProtocolError("public items are not revealed")

    def _check_deal(self, public: GameState, commitments: dict[str, str], reveals, where: str) -> None:
        """A dealer's set-up: a commitment to every item, and exactly the
        cards dealt face up revealed, each opening its commitment."""
        items = set(refs_in(public))
        missing = items - set(commitments)
        if missing:
            raise ProtocolError(f"items without a commitment: {', '.join(sorted(missing))}")
        extra = set(commitments) - items
        if extra:
            raise ProtocolError(f"commitments to items the set-up does not have: {', '.join(sorted(extra))}")
        check_openings(reveals, commitments, "reveals")
        if [o.ref for o in reveals] != unrevealed_public(public):
            raise ProtocolError(f"{where} must reveal exactly the cards dealt face up")

    # -- who is who ---------------------------------------------------------

    @property
    def dealer_mode(self) -> str:
        return "peer" if self.genesis.dealer is None else self.genesis.dealer.mode

    def identity(self, name: str) -> PublicIdentity:
        if self.genesis.dealer is not None and name == self.dealer_name:
            return self.genesis.dealer.identity
        if name in self.seats:
            return self.seats[name].identity
        raise WrongWriter(f"{name!r} is not a seat or the dealer of this game")

    def seat_specs(self) -> list[SeatSpec]:
        return [SeatSpec(s.name, s.role) for s in self.genesis.seats]

    def knows(self, seat: str) -> set[str]:
        """Refs whose card `seat` can know now."""
        if self.deck is not None:
            return self.deck.knows(seat) | set(self.revealed)
        return self.known[seat] | set(self.revealed)

    # -- what is owed ---------------------------------------------------------

    def outcome(self):
        if self.public is None:
            return None
        return self.game.outcome(self.public)

    def obligations(self) -> list[Obligation]:
        """What is owed now that needs no decision, in the order it is due."""
        if self.deck is not None:
            return self._peer_obligations()
        if not self.dealt:
            waiting = [s for s in self.seat_order if s not in self.contributions]
            if waiting:
                return [Obligation(by=waiting[0], what="join")]
            return [Obligation(by=self.dealer_name, what="deal")]
        out: list[Obligation] = []
        uncommitted = self.uncommitted()
        if uncommitted:
            out.append(Obligation(by=self.dealer_name, what="commit", refs=uncommitted))
        if self.paused is not None or self.chance_blocked:
            out.append(Obligation(by=self.dealer_name, what="chance", to=self.paused[0] if self.paused else None))
        if self.tally_due():
            out.append(Obligation(by=self.dealer_name, what="tally"))
        reveal = unrevealed_public(self.public)
        if self.blocked_on and self.blocked_on not in reveal:
            reveal.append(self.blocked_on)
        if reveal:
            out.append(Obligation(by=self.dealer_name, what="reveal", refs=reveal))
        for seat in self.seat_order:
            missing = unknown_to(self.public, seat, self.knows(seat))
            if missing:
                out.append(Obligation(by=self.dealer_name, what="deliver", refs=missing, to=seat))
        if self.outcome() is not None and self.seed is None:
            out.append(Obligation(by=self.dealer_name, what="publish-seed"))
        if not out and self.outcome() is None and not self.voters() and not self.game.to_act(self.public):
            # the rules' automatic steps wait for a file (a set-up that ends
            # before the first turn: Codex's opening hands, drawn from each
            # private deck): the dealer's next file runs them
            out.append(Obligation(by=self.dealer_name, what="chance"))
        return out

    def chance_by(self) -> str | None:
        """The seat whose file drew chance that waits for an answer."""
        if self.paused is not None:
            return self.paused[0]
        if self.chance_blocked:
            return self._chance_writer
        return None

    def chance_answerers(self) -> list[str]:
        """Peer games: the seats whose next file's beacon link the chance
        another seat's file drew still waits for, in the order they answer;
        the last one's file runs the paused command. Until version 4 only the
        next seat after the drawer answered: one seat handing the drawer its
        beacon seed let it foresee its dice. From version 4 every other seat
        answers, the next seat last (so the seat a paused command makes draw
        from its own private deck still runs it: "drawn in the owner's own
        answer"): each link is revealed after the drawer signed, so the
        drawer cannot know the chance unless every other seat tells it."""
        by = self.chance_by()
        if self.deck is None or by is None:
            return []
        i = self.seat_order.index(by)
        others = self.seat_order[i + 1:] + self.seat_order[:i]
        order = others[:1] if self.genesis.version < 4 else others[1:] + others[:1]
        return [s for s in order if s not in self.chance_answered]

    def chance_answerer(self) -> str | None:
        """The seat whose next file answers the chance another seat's file drew."""
        return next(iter(self.chance_answerers()), None)

    def resumes_chance(self, writer: str) -> bool:
        """Whether `writer`'s next file is the last answer to a drawn chance:
        it supplies the chance and runs what waited for it."""
        return self.chance_answerers() == [writer]

    def voters(self) -> list[str]:
        """The seats of the open vote (`Game.simultaneous`), in seat order;
        empty when no vote is open. The public state does not change while
        ballots come in, so neither does this."""
        if self.public is None or self.outcome() is not None:
            return []
        voting = set(self.game.simultaneous(self.public))
        return [s for s in self.seat_order if s in voting]

    def tally_due(self) -> bool:
        """Every voter's ballot is in and the keeper has not opened them."""
        voters = self.voters()
        return bool(voters) and all(v in self.ballots for v in voters)

    def uncommitted(self) -> list[str]:
        """Hidden items no commitment binds yet: a deck the rules shuffled
        during play, whose order only the dealer knows (dealer modes)."""
        return [
            it.ref
            for zone in self.public.zones.values()
            for it in zone.items
            if isinstance(it, Hidden) and it.ref not in self.commitments
        ]

    def _peer_obligations(self) -> list[Obligation]:
        from pbem.protocol import peer_changes
        from pbem.protocol.peer import owed_refs

        deck = self.deck
        if not deck.all_joined:
            return [Obligation(by=deck.next_to_join, what="join")]
        if not self.dealt:
            return [Obligation(by=self.setup_linkers()[0], what="set-up")]
        if not deck.complete:
            return [Obligation(by=deck.next_to_layer, what="layer")]
        out = peer_changes.obligations(self)
        answerer = self.chance_answerer()
        if answerer is not None:
            out.append(Obligation(by=answerer, what="chance", to=self.chance_by()))
        if self.tally_due():
            out += [Obligation(by=s, what="tally") for s in self.voters() if s not in dict(self.opened)]
        for seat in self.seat_order:
            refs = owed_refs(deck, self.public, seat, self.revealed, self.blocked_on, self.seat_order)
            if refs:
                out.append(Obligation(by=seat, what="deliver", refs=refs))
        if self.outcome() is not None:
            out += [Obligation(by=s, what="publish-secrets") for s in self.seat_order if s not in deck.secrets]
        return out

    def setup_linkers(self, deck: "PeerDeck | None" = None) -> list[str]:
        """Peer games of version 3: the seats whose first beacon link the
        set-up still waits for, in the order they open it (the last seat to
        join opened its own in its join)."""
        deck = deck or self.deck
        return [s for s in deck.join_order if deck.links_used.get(s, 0) == 0]

    def stage_setup(self, deck: "PeerDeck") -> GameState | None:
        """The set-up a peer game of version 3 gets once the staged `deck`
        holds every seat's first link (None before): the rules' own, from
        those links. A late deck learns its cards here."""
        from pbem.protocol.setup import derive_peer_setup, peer_setup_seed

        if self.dealt or not deck.all_joined or self.setup_linkers(deck):
            return None
        seed = peer_setup_seed({s: deck.latest[s] for s in self.seat_order}, self.game_id)
        state, shape = derive_peer_setup(self.game, self.options, self.seat_specs(), self.peer_shape, seed)
        if deck.late:
            deck.install(list(shape.slots), list(shape.deck), shape.faces)
        return state

    @contextlib.contextmanager
    def set_up_as(self, state: GameState | None):
        """Check a peer file whose link completes the set-up against that
        set-up (writers and verifiers alike); the chain is unchanged after."""
        before = self.public
        if state is not None:
            self.public = state
        try:
            yield
        finally:
            self.public = before

    def writers(self) -> list[str]:
        """Who may write the next file. Whoever owes an answer comes first
        (one party at a time), so two parties never race for one place in
        the chain; a seat that owes and must also decide does both in one file."""
        owed = self.obligations()
        if owed:
            return [owed[0].by]
        if self.undo_pending is not None:  # normal play waits for the answers
            return undo_mod.answerers(self, self.undo_pending)[:1]
        voters = self.voters()
        if voters:  # one ballot at a time, in seat order: no two files race
            return [v for v in voters if v not in self.ballots][:1]
        return list(self.game.to_act(self.public))

    def pending_undo(self) -> PendingUndo | None:
        """The pending undo request as `state.pbem` and `pbem status` tell it."""
        p = self.undo_pending
        if p is None:
            return None
        return PendingUndo(by=p.by, target=p.target, accepted=list(p.accepted), waiting=undo_mod.answerers(self, p))

    def _snapshot(self) -> tuple:
        # the containers are replaced, never changed in place, once a file is in
        return (self.public, self.known, self.revealed, self.blocked_on, self.deck, self.moves,
                self.paused, self.chance_blocked, self.commitments, self.ballots, self.opened)

    def needs(self, party: str) -> str:
        """"decision" if `party`'s next file needs a choice, else "auto"."""
        obligations = self.obligations()
        owed = [o for o in obligations if o.by == party]
        if party in self.ballots and self.voters():
            return "auto"  # it has voted: what it owes now needs no choice
        if not owed:
            return "decision"
        if (self.deck is not None and self.public is not None and all(o.what == "deliver" for o in owed)
                and party in self.game.to_act(self.public)):
            # its answers go at the head of its decision, once it can read its
            # own cards and every card just turned face up: with 3+ seats a
            # seat owing first may still wait for a later seat's decryptions
            # (its answers alone come first then)
            face_up = set(unrevealed_public(self.public))  # whoever decides must see them first, as at a table
            others = any(o.by != party and face_up & set(o.refs) for o in obligations if o.what == "deliver")
            if not unknown_to(self.public, party, self.knows(party)) and not others:
                return "decision"
        return "auto"

    @property
    def over(self) -> bool:
        if self.outcome() is None:
            return False
        if self.deck is not None:
            return len(self.deck.secrets) == len(self.seat_order)
        return self.seed is not None

    # -- appending --------------------------------------------------------------

    def append(
        self,
        data: bytes,
        name: str = "",
        private_openings: dict[str, str] | None = None,
    ) -> Record:
        """Check one file against the head and, if it is valid, apply it.

        Any error names the file; the chain is unchanged unless this returns.
        """
        try:
            return self._append(data, name or "file", private_openings)
        except PbemError as exc:
            raise with_place(exc, name or "file") from None

    def _append(self, data: bytes, where: str, private_openings: dict[str, str] | None) -> Record:
        outer = codec.read_envelope(data)
        if outer.kind == "genesis":
            raise StaleTurn(f"a genesis cannot follow seq {self.seq}")
        if outer.kind != "turn":
            raise FormatError(f"expected a turn file, got a {outer.kind} file")
        try:
            signer = self.identity(outer.by)
        except WrongWriter as exc:
            raise WrongWriter(f"signed by {outer.by!r}, who is not in this game") from exc
        codec.check_signature(outer, signer)
        body = codec.decode_body(outer, TurnBody)
        check_envelopes(body)
        if body.by != outer.by:
            raise FormatError(f"the body says it is by {body.by!r}, the file by {outer.by!r}")
        if body.game_id != self.game_id:
            raise WrongGame(f"belongs to another game ({body.game_id[:12]}), not {self.game_id[:12]}")
        if body.seq <= self.seq:
            raise StaleTurn(
                f"seq {body.seq} is already in the chain (the head is seq {self.seq})",
                hint="an old or replayed file: nothing to do",
            )
        if body.seq != self.seq + 1:
            raise ProtocolError(f"seq {body.seq} does not follow the head (seq {self.seq}); files are missing")
        if body.prev != self.head:
            raise StaleTurn(f"applies to another version of seq {self.seq}")
        if body.vote is not None:  # say what is wrong with a ballot before whose turn it is
            if not self.voters():
                raise ProtocolError(f"{body.by} sends a ballot, but no vote is open")
            if body.by in self.ballots:
                raise ProtocolError(f"{body.by} has voted already (seq {self.ballots[body.by][1]})")
        writers = self.writers()
        requesting = body.undo is not None and body.undo.what == "request" and self.undo_pending is None
        if body.by not in writers and not requesting:
            raise WrongWriter(
                f"{body.by} may not write now (waiting for {', '.join(writers) or 'nobody: the game is over'})"
            )
        if self.deck is not None:
            allowed = {"commands", "reveals", "join", "partials", "sealed", "beacon", "secrets", "undo", "vote", "tally",
                       "reshuffle", "commitments", "memo", "deliveries", "layer",  # reshuffle...deliveries: `peer_changes`
                       "renewal"}
        elif body.by == self.dealer_name:
            allowed = {"reveals", "deliveries", "seed", "commitments", "chance", "memo", "tally", "void"}
        else:
            allowed = {"commands", "reveals", "undo", "vote"}
        if body.undo is not None and "undo" in allowed:
            allowed = {"undo"}  # an undo file carries nothing else
        if body.void and "void" in allowed:
            allowed = {"void"}  # nor does a file voiding ballots
        if body.vote is not None:
            allowed = {"vote", "beacon"} if self.deck is not None else {"vote"}
        if not self.dealt and self.deck is None:
            allowed = {"commitments", "reveals", "deliveries", "setup_seed"} if body.by == self.dealer_name else {"contribution"}
        elif not self.dealt:
            allowed = {"join", "beacon", "partials", "sealed", "layer"}
        extra = [name for name in _OPTIONAL_PARTS if name not in allowed and getattr(body, name) not in (None, [], {})]
        if extra:
            what = "an undo file" if allowed == {"undo"} else "this file"
            raise ProtocolError(f"{what} may not carry {', '.join(extra)} (it is {body.by}'s, in a {self.dealer_mode} game)")
        if not self.dealt and self.deck is None:
            return self._append_before_deal(outer, body, where)
        if body.undo is not None:
            record = self._append_undo(outer, body, where)
            if requesting and body.by not in writers:
                record.out_of_turn = tuple(writers)
            return record
        if body.vote is not None:
            return self._append_ballot(outer, body, where)
        if body.void:
            return self._append_void(outer, body, where)
        if self.voters() and body.by != self.dealer_name and self.deck is None:
            raise ProtocolError(f"a vote is open: {body.by}'s file must carry its ballot, not commands")
        if self.undo_pending is not None:
            raise ProtocolError(
                f"{self.undo_pending.by}'s undo request of seq {self.undo_pending.target} is pending: "
                "normal play waits for the answers"
            )
        if self.deck is not None:
            return self._append_peer(outer, body, where, private_openings)
        try:
            commands = [self._decode_command(raw) for raw in body.commands]
            if body.by != self.dealer_name and not commands:
                raise ProtocolError("a seat's file needs at least one command")
            is_dealer = body.by == self.dealer_name
            commitments = self.commitments
            if body.commitments:
                again = sorted(set(body.commitments) & set(self.commitments))
                if again:
                    raise ProtocolError(f"commits again to {', '.join(again)}")
                for value in body.commitments.values():
                    b64d(value, 32)
                commitments = {**self.commitments, **body.commitments}
            check_openings(body.reveals, commitments, "reveals")
            offered = {o.ref: o.card for o in body.reveals}
            if body.by != self.dealer_name:
                strangers = set(offered) - self.knows(body.by)
                if strangers:
                    raise ProtocolError(f"{body.by} reveals {', '.join(sorted(strangers))}, never dealt to them")
            private = (
                transition.private_checker(self.game, body.by, private_openings)
                if private_openings is not None and body.by != self.dealer_name
                else None
            )
            before = self.public
            effect = transition.run(
                self.game,
                self.public,
                body.by,
                commands,
                source=offered.get,
                writer_knows=lambda st: self.knows(body.by),
                private_check=private,
                chance=PlayChance(Tape(b64d(body.chance, 32), f"public {body.seq}")) if body.chance else None,
                resume=self._resume_for(body) if is_dealer else (),
            )
            if is_dealer:
                self._check_dealer_chance(body, effect, commitments)
            unused = set(offered) - set(effect.revealed)
            if unused:
                raise ProtocolError(f"reveals {', '.join(sorted(unused))}, which the rules do not need")
            if [o.ref for o in body.reveals] != list(effect.revealed):
                raise ProtocolError("the reveals are not in the order the rules need them")
            if body.by != self.dealer_name:
                owed = set(unrevealed_public(effect.state)) | ({effect.blocked_on} - {None})
                withheld = owed & self.knows(body.by)
                if withheld:
                    raise ProtocolError(f"{body.by} must reveal {', '.join(sorted(withheld))} in this file")
            if body.deliveries and body.by != self.dealer_name:
                raise ProtocolError("only the dealer delivers cards in this game mode")
        except (IllegalCommand, InvalidCommand) as exc:
            exc.message = f"by {body.by}: {exc.message}"
            raise
        # From here on the file is valid except for its claims about the result.
        staged_known = {s: set(v) for s, v in self.known.items()}
        staged_revealed = {**self.revealed, **effect.revealed}
        for d in body.deliveries:
            if d.to not in staged_known:
                raise ProtocolError(f"delivers to {d.to!r}, who is not a seat")
            staged_known[d.to].update(d.refs)
        if body.by == self.dealer_name:
            self._check_dealer_complete(body, effect, staged_known, staged_revealed, where)
        if state_hash(effect.state) != body.state:
            raise ProtocolError("the state it claims is not the state its commands produce")
        # Commit.
        prior = self._snapshot()
        if commands and body.by != self.dealer_name:
            self.moves = (*self.moves, body.seq)
        self.commitments = commitments
        self.paused = (body.by, effect.paused) if effect.paused is not None else None
        self.chance_blocked = effect.chance_blocked
        self.known = staged_known
        self.revealed = staged_revealed
        self.public = effect.state
        self.blocked_on = effect.blocked_on
        if body.seed is not None:
            self.seed = b64d(body.seed.seed, 32)
        self.seq = body.seq
        self.head = codec.file_hash(outer)
        record = Record(body.seq, body.by, self.head, outer, body, commands, before, effect.state, where if where != "file" else "")
        record.revealed = dict(effect.revealed)
        record.prior = prior
        record.chance = body.chance is not None
        record.resumed = prior[6] if is_dealer else None
        if body.tally:
            self.ballots, self.voided = {}, {}
        self.records.append(record)
        return record

    def _resume_for(self, body: TurnBody) -> list[tuple[str, Any]]:
        """What the dealer's file runs first: the paused command, or the
        commands of the vote's ballots (all of them, in seat order)."""
        if self.paused is not None:
            if body.tally:
                raise ProtocolError("the dealer opens ballots while a command waits for chance")
            return [self.paused]
        if not self.tally_due():
            if body.tally:
                raise ProtocolError("the dealer opens ballots, but the vote is not complete")
            return []
        return self._tally_commands(body.tally, list(self.ballots))

    def _tally_commands(self, tally, seats: list[str]) -> list[tuple[str, Any]]:
        """Check openings of the ballots of `seats` (in seat order, each
        once) against their commitments; their commands."""
        from pbem.protocol.votes import check_ballot, opening_problem

        expected = [s for s in self.seat_order if s in seats]
        if [o.seat for o in tally] != expected:
            raise ProtocolError(f"the ballots must be opened exactly once each, in seat order: {', '.join(expected)}")
        out = []
        for opening in tally:
            check_ballot(self.ballots[opening.seat][0], opening)
            problem = opening_problem(self, opening)
            if problem is not None:  # refused here, in the file that opens it, never in a later opener's
                raise ProtocolError(f"{opening.seat}'s ballot is no vote: {problem}")
            out.append((opening.seat, self.decode_command(opening.command)))
        return out

    def _append_before_deal(self, outer: SignedFile, body: TurnBody, where: str) -> Record:
        """A seat's contribution to the game seed, or the referee's deal once
        every seat has given one (games dealt after their joins)."""
        from pbem.protocol.setup import derive_deal

        prior = self._snapshot()
        if body.by in self.seats:
            if body.contribution is None:
                raise ProtocolError(f"{body.by} joins with no contribution to the game seed")
            contribution = b64d(body.contribution, 32)
            if state_hash(None) != body.state:
                raise ProtocolError("a join changes no state: its state must be the empty one")
            self.contributions = {**self.contributions, body.by: contribution}
        else:
            if body.setup_seed is None:
                raise ProtocolError("the referee's deal carries no public set-up seed")
            hidden = derive_deal(self.game, self.options, self.seat_specs(), b64d(body.setup_seed, 32))
            self._check_deal(hidden, body.commitments, body.reveals, "the deal")
            revealed = {o.ref: o.card for o in body.reveals}
            public = overlay(hidden, revealed)
            if state_hash(public) != body.state:
                raise ProtocolError("the state it claims is not the state the deal gives")
            self.public, self.revealed, self.commitments = public, revealed, dict(body.commitments)
            self.known = {s: set(v) for s, v in self.known.items()}
            try:
                self._record_deliveries(body.deliveries, "the deal")
            except PbemError:
                self.public, self.revealed, self.commitments = prior[0], prior[2], prior[8]
                self.known = {s: set() for s in self.seats}
                raise
            self.deal_commitments = dict(body.commitments)
            self.setup_seed = b64d(body.setup_seed, 32)
            self.dealt = True
        self.seq = body.seq
        self.head = codec.file_hash(outer)
        record = Record(body.seq, body.by, self.head, outer, body, [], prior[0], self.public, where if where != "file" else "")
        record.prior = prior
        self.records.append(record)
        return record

    def _append_ballot(self, outer: SignedFile, body: TurnBody, where: str) -> Record:
        """A seat's ballot: nothing changes but that it has voted."""
        voters = self.voters()
        if not voters:
            raise ProtocolError(f"{body.by} sends a ballot, but no vote is open")
        if body.by in self.ballots:
            raise ProtocolError(f"{body.by} has voted already (seq {self.ballots[body.by][1]})")
        if body.by not in voters:
            raise WrongWriter(f"{body.by} does not vote now (voters: {', '.join(voters)})")
        b64d(body.vote.commitment, 32)
        check_envelope(body.vote.envelope, readers=1)
        deck = None
        if self.deck is not None:
            deck = self.deck.copy()
            deck.apply_link(body.by, body.beacon)
        if state_hash(self.public) != body.state:
            raise ProtocolError("a ballot changes nothing: its state must be the head's")
        prior = self._snapshot()
        self.ballots = {**self.ballots, body.by: (body.vote.commitment, body.seq)}
        if deck is not None:
            self.deck = deck
        return self._take_unchanged(outer, body, where, prior)

    def _take_unchanged(self, outer: SignedFile, body: TurnBody, where: str, prior: tuple) -> Record:
        """Take a file that leaves the public state as it was (a ballot, a void)."""
        self.seq = body.seq
        self.head = codec.file_hash(outer)
        record = Record(body.seq, body.by, self.head, outer, body, [], self.public, self.public, where if where != "file" else "")
        record.prior = prior
        self.records.append(record)
        return record

    def _append_void(self, outer: SignedFile, body: TurnBody, where: str) -> Record:
        """The dealer voids the ballots it cannot tally (`votes.take_void`):
        their voters vote again; nothing else changes, nothing is opened."""
        from pbem.protocol.votes import take_void

        voided = take_void(self, body)
        if state_hash(self.public) != body.state:
            raise ProtocolError("a void file changes nothing: its state must be the head's")
        prior = self._snapshot()
        self.ballots = {s: v for s, v in self.ballots.items() if s not in voided}
        self.voided = {**self.voided, **voided}
        return self._take_unchanged(outer, body, where, prior)

    def _check_dealer_chance(self, body: TurnBody, effect, commitments: dict[str, str]) -> None:
        """The dealer supplies exactly the chance the rules draw in its file,
        and commits to exactly the items that no commitment binds yet."""
        if effect.chance_blocked or effect.paused is not None:
            raise ProtocolError("the game draws chance here: the dealer's file must supply it")
        if body.chance is not None and not effect.drew_chance:
            raise ProtocolError("the dealer supplies chance that the rules do not draw")
        hidden = {it.ref for zone in effect.state.zones.values() for it in zone.items if isinstance(it, Hidden)}
        needed = (hidden | set(effect.revealed)) - set(self.commitments)
        if set(body.commitments) != needed:
            owed = ", ".join(sorted(needed)) or "nothing"
            raise ProtocolError(f"the dealer must commit to exactly the items no commitment binds: {owed}")
        if (body.memo is None) != (not body.commitments):
            raise ProtocolError("the dealer's file carries a memo exactly when it commits to new items")

    def _append_undo(self, outer: SignedFile, body: TurnBody, where: str) -> Record:
        """An undo request or answer: it changes no card and no seat's
        knowledge; the last acceptance returns to the state before the target."""
        u = body.undo
        pending = self.undo_pending
        restore = None
        if u.what == "request":
            why = undo_mod.refusal(self, body.by, u.target)
            if why is not None:
                raise ProtocolError(f"{body.by} may not ask to take back seq {u.target}: {why}")
            pending = undo_mod.Pending(body.by, u.target)
        else:
            if pending is None:
                raise ProtocolError(f"{body.by} answers an undo request, but none is pending")
            if body.by == pending.by:
                raise ProtocolError(f"{body.by} cannot answer its own undo request")
            if u.target != pending.target:
                raise ProtocolError(f"{body.by} answers an undo of seq {u.target}, but the request is of seq {pending.target}")
            if u.what == "refuse":
                pending = None
            else:
                pending = undo_mod.Pending(pending.by, pending.target, (*pending.accepted, body.by))
                if not undo_mod.answerers(self, pending):
                    restore, pending = self.records[u.target].prior, None
        after = restore[0] if restore is not None else self.public
        if state_hash(after) != body.state:
            raise ProtocolError("the state it claims is not the state the undo leaves")
        # Commit.
        prior = self._snapshot()
        if restore is not None:
            (self.public, self.known, self.revealed, self.blocked_on, self.deck, self.moves,
             self.paused, self.chance_blocked, self.commitments, self.ballots, self.opened) = restore
            self.chance_answered = ()  # an undo goes back to a decision: no chance was waiting
        self.undo_pending = pending
        before = prior[0]
        self.seq = body.seq
        self.head = codec.file_hash(outer)
        record = Record(body.seq, body.by, self.head, outer, body, [], before, self.public, where if where != "file" else "")
        record.prior = prior
        record.undone = u.target if restore is not None else None
        self.records.append(record)
        return record

    def _append_peer(self, outer: SignedFile, body: TurnBody, where: str, private_openings) -> Record:
        """A file of a peer game: beacon link, join, partial decryptions,
        commands, and at the end the seat's secrets."""
        from pbem.protocol.peer import FileReader, run_file

        writer = body.by
        commands = [self._decode_command(raw) for raw in body.commands]
        deck = self.deck.copy()
        if body.join is not None:
            # from version 3 on, the last seat to join opens its first link
            # at once: every anchor is fixed, and no other link is open
            opens_link = self.genesis.version >= 3 and deck.join_order[-1] == writer
            if commands or (body.beacon is not None and not opens_link):
                raise ProtocolError("a join file carries no commands and no beacon link (it commits the anchor)")
            if body.join.layer.seat != writer:
                raise ProtocolError(f"{writer} joins with a layer of {body.join.layer.seat}")
            deck.add_layer(body.join.layer, body.join.anchor, body.join.private)
            if opens_link:
                deck.apply_link(writer, body.beacon)
        else:
            if writer not in deck.keys:
                raise ProtocolError(f"{writer} has not joined the game")
            deck.apply_link(writer, body.beacon)
        if body.renewal is not None:  # after the file's own link: never a link of the chain it commits
            from pbem.protocol import peer_renewal

            peer_renewal.take(deck, writer, body.renewal, self.genesis.version)
        state = None if self.dealt else self.stage_setup(deck)
        if not self.dealt and state is None:
            if body.layer is not None:
                raise ProtocolError("a shuffle layer before the set-up: the deck's cards are not known yet")
            return self._append_before_setup(outer, body, where, deck)
        if deck.late and not deck.complete:
            self._take_late_layer(deck, body, commands)
        elif body.layer is not None:
            raise ProtocolError(f"{writer} adds a shuffle layer, which nobody owes now")
        if self.dealt:
            return self._append_peer_file(outer, body, where, private_openings, deck, commands)
        with self.set_up_as(state):
            record = self._append_peer_file(outer, body, where, private_openings, deck, commands, sets_up=True)
        self.public, self.dealt = record.after, True
        record.before = None
        return record

    def _take_late_layer(self, deck: "PeerDeck", body: TurnBody, commands) -> None:
        """A late deck: its next seat's file adds its layer, and nothing is
        played until every layer is on."""
        if commands:
            raise ProtocolError("the deck is still being shuffled: no command can be played")
        if deck.next_to_layer == body.by:
            if body.layer is None or body.layer.seat != body.by:
                raise ProtocolError(f"{body.by} owes its shuffle layer of the deck the set-up dealt")
            deck.add_late_layer(body.layer)
        elif body.layer is not None:
            raise ProtocolError(f"{body.by} adds a shuffle layer out of turn (next: {deck.next_to_layer})")

    def _append_before_setup(self, outer: SignedFile, body: TurnBody, where: str, deck: "PeerDeck") -> Record:
        """A join or a set-up link of a peer game whose set-up is not known
        yet: nothing else may come with it."""
        if body.partials or body.sealed:
            raise ProtocolError("nothing is dealt before the set-up: there is nothing to decrypt")
        if state_hash(None) != body.state:
            raise ProtocolError("a file before the set-up changes no state: its state must be the empty one")
        prior = self._snapshot()
        self.deck = deck
        self.seq = body.seq
        self.head = codec.file_hash(outer)
        record = Record(body.seq, body.by, self.head, outer, body, [], None, None, where if where != "file" else "")
        record.prior = prior
        self.records.append(record)
        return record

    def _append_peer_file(self, outer: SignedFile, body: TurnBody, where: str, private_openings, deck: "PeerDeck",
                          commands, sets_up: bool = False) -> Record:
        from pbem.protocol.peer import FileReader, run_file

        writer = body.by
        for box in body.sealed:
            if box.to not in self.seats or box.to == writer:
                raise ProtocolError(f"seals partial decryptions to {box.to!r}")
        reader = FileReader(body)
        private = (
            transition.private_checker(self.game, writer, private_openings) if private_openings is not None else None
        )
        resume, opened = self._peer_tally(body, commands)
        try:
            result = run_file(self, deck, writer, commands, reader, body.seq, private, resume=resume)
        except (IllegalCommand, InvalidCommand) as exc:
            exc.message = f"by {writer}: {exc.message}"
            raise
        if reader.leftovers():
            raise ProtocolError(f"{writer} decrypts {', '.join(reader.leftovers())}, which it does not owe")
        in_order = (
            list(body.partials) == result.partials
            and list(body.reveals) == result.openings
            and [(b.to, b.refs) for b in body.sealed] == reader.sealed_in_order()
            and [(d.to, d.refs) for d in body.deliveries] == reader.delivered_in_order()
        )
        if not in_order:
            raise ProtocolError("the decryptions are not in the order they apply")
        effect = result.effect
        need = set(unrevealed_public(effect.state)) | ({effect.blocked_on} - {None})
        withheld = {ref for ref in need if writer in deck.remaining.get(ref, ()) or deck.private_owner.get(ref) == writer}
        if withheld:
            raise ProtocolError(f"{writer} must reveal {', '.join(sorted(withheld))} in this file")
        over = self.game.outcome(effect.state) is not None
        if body.secrets is not None:
            if not over:
                raise ProtocolError(f"{writer} publishes its secrets before the game ended")
            deck.publish(writer, body.secrets)
        elif over and writer not in deck.secrets:
            raise ProtocolError(f"the game is over: {writer} must publish its secrets")
        answered = self.chance_answerer() == writer
        resumes = self.resumes_chance(writer)
        if not (commands or body.partials or body.reveals or body.sealed or body.join or body.secrets or body.tally
                or answered or body.reshuffle or body.commitments or body.deliveries or body.layer or sets_up):
            raise ProtocolError("the file does nothing")
        if effect.paused is not None and self.seat_order == [writer]:
            raise ProtocolError("a game of one seat cannot pause for another seat's link")
        if state_hash(effect.state) != body.state:
            raise ProtocolError("the state it claims is not the state its commands produce")
        before = self.public
        prior = self._snapshot()
        if commands:
            self.moves = (*self.moves, body.seq)
        self.deck = deck
        self.revealed = {**self.revealed, **effect.revealed}
        self.public = effect.state
        self.blocked_on = effect.blocked_on
        resumed = self.paused if resumes else None
        if answered and not resumes:  # one more link the chance waits for: it still waits for the others'
            self.chance_answered = (*self.chance_answered, writer)
        else:
            self.paused = (writer, effect.paused) if effect.paused is not None else None
            self.chance_blocked = effect.chance_blocked
            self._chance_writer = writer if effect.chance_blocked else None
            self.chance_answered = ()
        if body.tally:
            self.opened = opened
            if resume:
                self.ballots, self.opened = {}, []
        self.seq = body.seq
        self.head = codec.file_hash(outer)
        record = Record(body.seq, writer, self.head, outer, body, commands, before, effect.state, where if where != "file" else "")
        record.revealed = dict(effect.revealed)
        record.prior = prior
        record.chance = result.chance_used
        record.resumed = resumed
        self.records.append(record)
        return record

    def _peer_tally(self, body: TurnBody, commands) -> tuple[list, list]:
        return self.tally_resume(body.by, body.tally, commands)

    def tally_resume(self, by: str, tally, commands=()) -> tuple[list, list]:
        """A peer voter opening its own ballot, once every ballot is in; with
        the last opening every vote's command runs, in seat order. Returns
        the commands to run first and the openings so far."""
        tally = list(tally)
        opened = dict(self.opened)
        if not tally:
            if self.tally_due() and by in self.voters() and by not in opened:
                if [o.by for o in self.obligations()][:1] == [by]:
                    raise ProtocolError(f"{by} must open its ballot in this file")
            return [], list(self.opened)
        if not self.tally_due():
            raise ProtocolError(f"{by} opens a ballot, but the vote is not complete")
        if commands:
            raise ProtocolError("a file that opens a ballot carries no commands")
        waiting = [s for s in self.voters() if s not in opened]
        if len(tally) != 1 or tally[0].seat != by or waiting[:1] != [by]:
            raise ProtocolError(f"each voter opens its own ballot, in seat order: next is {waiting[0]}")
        now = self.opened + self._tally_commands(tally, [by])
        return (now if len(now) == len(self.voters()) else []), now

    # -- helpers ------------------------------------------------------------------

    def decode_command(self, raw: msgspec.Raw) -> Any:
        """A command of this game from its canonical bytes."""
        return self._decode_command(raw)

    def _decode_command(self, raw: msgspec.Raw) -> Any:
        try:
            command = msgspec.json.decode(bytes(raw), type=self.game.Command)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise InvalidCommand(f"not a {self.game.name} command: {exc}") from None
        if canonical(command) != bytes(raw):
            raise FormatError("a command is not in canonical form")
        return command

    def _record_deliveries(self, deliveries, where: str) -> None:
        """The deal: each seat gets exactly the cards it may see, in seat
        order (a dealer that hands a seat someone else's card is refused)."""
        expected = [(seat, unknown_to(self.public, seat, set(self.revealed))) for seat in self.seat_order]
        expected = [(seat, refs) for seat, refs in expected if refs]
        if [(d.to, list(d.refs)) for d in deliveries] != expected:
            raise ProtocolError(f"{where}: the deal does not give each seat exactly the cards it may see")
        for d in deliveries:
            self.known[d.to].update(d.refs)

    def _check_dealer_complete(self, body, effect, known, revealed, where) -> None:
        """The dealer answers everything it owes in one file, and only that."""
        state = effect.state
        if unrevealed_public(state) or effect.blocked_on:
            raise ProtocolError("the dealer left a card unrevealed")
        # exactly the cards each seat may now see and does not know, per seat
        # in seat order, each in zone order: one meaning, one byte string
        expected = [(seat, unknown_to(state, seat, self.known[seat] | set(revealed))) for seat in self.seat_order]
        expected = [(seat, refs) for seat, refs in expected if refs]
        given = [(d.to, list(d.refs)) for d in body.deliveries]
        if given != expected:
            owed = "; ".join(f"{', '.join(refs)} to {seat}" for seat, refs in expected) or "nothing"
            raise ProtocolError(f"the dealer must deliver exactly: {owed} (in seat order)")
        over = self.game.outcome(state) is not None
        if body.seed is not None:
            if not over:
                raise ProtocolError("the dealer published its seed before the game ended")
            try:
                check_opening(
                    self.genesis.dealer.seed_commitment,
                    b64d(body.seed.salt, 32),
                    b64d(body.seed.seed, 32),
                )
            except CommitmentError:
                raise CommitmentError("the published seed does not match the dealer's commitment") from None
        elif over:
            raise ProtocolError("the game is over but the dealer did not publish its seed")
