"""The chain: genesis -> turn -> turn ..., replayed and checked file by file.

`Chain` holds the records of a game and its head (`now`, a frozen
`head.Head`): the public state and everything needed to judge the next
file (who may write: the dealer while it owes anything, otherwise the seats
the rules name; which refs each seat knows; the commitments every reveal
must open). `Chain.append` checks a file's frame (signature, game, seq,
writer, the parts it may carry) and hands it to what judges it: an undo
(`undo.accept`), a ballot or a void (`ballots`), anything else the game's
dealer mode (`modes`: one strategy for hotseat and referee, one for peer).
Each returns the new head and the file's record; only `append` takes them,
so a file is accepted completely or not at all. Nothing here touches the
filesystem, and nothing here branches on the dealer mode.
"""

from __future__ import annotations

import copy
from operator import attrgetter
from typing import TYPE_CHECKING, Any

import msgspec
from msgspec.structs import replace

from pbem.crypto.encoding import canonical
from pbem.crypto.keys import PublicIdentity
from pbem.errors import FormatError, InvalidCommand, PbemError, ProtocolError, StaleTurn, WrongGame, WrongWriter
from pbem.games.base import GameState, Hidden, Outcome, SeatSpec
from pbem.protocol import (
    ballots as ballots_mod, codec, genesis as genesis_mod, handover as handover_mod, long_games, undo as undo_mod,
)
from pbem.protocol.commitments import item_bytes, state_hash  # noqa: F401 - re-exported
from pbem.protocol.formats import SignedFile, TurnBody
from pbem.protocol.turn_parts import Obligation, PendingUndo
from pbem.protocol.head import Head, Record
from pbem.protocol.modes.base import check_parts

if TYPE_CHECKING:
    from pathlib import Path

    from pbem.protocol.modes.base import Mode


def with_place(exc: PbemError, where: str) -> PbemError:
    """The same error, its message prefixed with the file it is about."""
    if exc.message.startswith(where):
        return exc
    exc.message = f"{where}: {exc.message}"
    exc.args = (exc.message,)
    return exc


def _of_head(name: str, doc: str | None = None) -> property:
    """A read-only attribute of the chain that is its head's (`Chain.now`)."""
    return property(attrgetter(f"now.{name}"), doc=doc or f"`Head.{name}` of the head")


class Chain:
    """The checked state of a game at its head (`now`), and its records."""

    def __init__(self, genesis_bytes: bytes, name: str = "000000-genesis.pbem") -> None:
        try:
            begun = genesis_mod.accept(genesis_bytes, name)
        except PbemError as exc:
            raise with_place(exc, name) from None
        self.genesis = begun.genesis
        #: what the protocol version the game was begun under has (`versions`)
        self.version = begun.version
        self.game_id = begun.game_id
        self.game = begun.game
        self.options = begun.options
        self.seats = begun.seats
        self.seat_order = begun.seat_order
        self.dealer_name = begun.dealer_name
        self._identities = begun.identities
        #: how the game's dealer mode judges files, and who owes what in it
        self.mode: Mode = begun.mode
        #: peer games set up after their joins (version 3): the set-up's
        #: shape (which refs are hidden, in which zones), from a probe seed
        self.shape: GameState | None = begun.shape
        self.peer_shape = begun.peer_shape
        #: the head: everything that judges the next file
        self.now: Head = begun.head
        self.records: list[Record] = [begun.record]
        #: what a reader should be told that stops nothing (copies of a
        #: file, repaired line endings): `pbem.gamedir.folder.load` fills it
        self.notes: list[str] = []
        #: files of the folder that the rule of out-of-turn undo requests set
        #: aside (`forks.settle`): `folder.load` fills it, writers move them
        self.set_aside: list[Path] = []

    # -- the head, read as the chain's own attributes -------------------------

    seq = _of_head("seq")
    head = _of_head("hash", "the hash of the last file (the genesis's: the game id)")
    public = _of_head("public")
    revealed = _of_head("revealed")
    known = _of_head("known")
    blocked_on = _of_head("blocked_on")
    deck = _of_head("deck")
    moves = _of_head("moves")
    paused = _of_head("paused")
    chance_blocked = _of_head("chance_blocked")
    chance_answered = _of_head("chance_answered")
    commitments = _of_head("commitments")
    deal_commitments = _of_head("deal_commitments")
    ballots = _of_head("ballots")
    opened = _of_head("opened")
    voided = _of_head("voided")
    contributions = _of_head("contributions")
    dealt = _of_head("dealt")
    seed = _of_head("seed")
    setup_seed = _of_head("setup_seed")
    undo_pending = _of_head("undo_pending")
    handed = _of_head("handed")

    def set_up_as(self, state: GameState | None) -> Chain:
        """The chain with `state` as its public state: a peer file whose
        link completes the set-up is checked against that set-up (writers
        and verifiers alike). The chain itself is unchanged."""
        if state is None:
            return self
        view = copy.copy(self)
        view.now = replace(self.now, public=state)
        return view

    # -- who is who ---------------------------------------------------------

    @property
    def dealer_mode(self) -> str:
        return self.mode.name

    def identity(self, name: str) -> PublicIdentity:
        """The keys `name`'s next file is signed with and its cards sealed
        to, under `name`: a seat handed over has its newcomer's keys."""
        handed = self.now.handed.get(name)
        if handed is not None:
            return replace(handed[1], name=name)
        try:
            return self._identities[name]
        except KeyError:
            raise WrongWriter(f"{name!r} is not a seat or the dealer of this game") from None

    def holder(self, name: str) -> PublicIdentity:
        """The identity that holds seat `name` now (its newcomer's, under
        the newcomer's own name, once it was handed over)."""
        handed = self.now.handed.get(name)
        return handed[1] if handed is not None else self.identity(name)

    def seat_specs(self) -> list[SeatSpec]:
        return [SeatSpec(s.name, s.role) for s in self.genesis.seats]

    def knows(self, seat: str) -> set[str]:
        """Refs whose card `seat` can know now."""
        return self.mode.knows(self, seat)

    # -- what is owed ---------------------------------------------------------

    def outcome(self) -> Outcome | None:
        ended: Outcome | None = self.now.ended
        if ended is not None:  # a resignation, an abandonment (`long_games`)
            return ended
        if self.public is None:
            return None
        return self.game.outcome(self.public)

    def obligations(self) -> list[Obligation]:
        """What is owed now that needs no decision, in the order it is due.

        A function of the head alone, computed once per head: `writers`,
        `needs` and the writers ask it many times between two files, and a
        peer game's answer decrypts nothing but walks every seat's cards.
        The head is never changed in place (a file makes a new one; a
        staged deck is a copy), so the head object itself is the key, held
        here so that its id cannot be reused."""
        cached = self.__dict__.get("_owed")
        if cached is None or cached[0] is not self.now:
            cached = self._owed = (self.now, self.mode.obligations(self))
        return list(cached[1])

    def chance_by(self) -> str | None:
        """The seat whose file drew chance that waits for an answer."""
        paused: tuple[str, Any] | None = self.paused
        if paused is not None:
            return paused[0]
        if self.chance_blocked:
            return self.now.chance_writer
        return None

    def chance_answerers(self) -> list[str]:
        """Peer games: the seats whose next file's beacon link the chance
        another seat's file drew still waits for, in the order they answer;
        the last one's file runs the paused command (`PeerMode.chance_answerers`
        says which seats). In the dealt modes the dealer owes the chance."""
        return self.mode.chance_answerers(self)

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

    def writers(self) -> list[str]:
        """Who may write the next file. Whoever owes an answer comes first
        (one party at a time), so two parties never race for one place in
        the chain; a seat that owes and must also decide does both in one file."""
        owed = self.obligations()
        if owed:
            return [owed[0].by]
        if self.now.ended is not None:
            return []
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

    def needs(self, party: str) -> str:
        """"decision" if `party`'s next file needs a choice, else "auto"."""
        obligations = self.obligations()
        owed = [o for o in obligations if o.by == party]
        if party in self.ballots and self.voters():
            return "auto"  # it has voted: what it owes now needs no choice
        if not owed:
            return "decision"
        if self.mode.answers_with_decision(self, party, owed, obligations):
            return "decision"
        return "auto"

    @property
    def over(self) -> bool:
        if self.outcome() is None:
            return False
        return self.mode.over(self)

    # -- appending --------------------------------------------------------------

    def append(
        self,
        data: bytes,
        name: str = "",
        private_openings: dict[str, str] | None = None,
    ) -> Record:
        """Check one file against the head and, if it is valid, apply it.

        With `private_openings` (ref -> card) a seat's commands are also
        checked on the state as a party holding those cards sees it. Any
        error names the file; the chain is unchanged unless this returns.
        """
        try:
            head, record = self._judge(data, name or "file", private_openings)
        except PbemError as exc:
            raise with_place(exc, name or "file") from None
        self.now = head
        self.records.append(record)
        return record

    def accepted(self, outer: SignedFile, body: TurnBody, where: str, head: Head, **record: Any) -> tuple[Head, Record]:
        """The head after an accepted file (`head`, at its seq and hash), and
        its record, which keeps the head before it (an undo returns to it)."""
        head = replace(head, seq=body.seq, hash=codec.file_hash(outer))
        name = where if where != "file" else ""
        return head, Record(body.seq, body.by, head.hash, outer, body, name=name, prior=self.now, **record)

    def _judge(self, data: bytes, where: str, private_openings: dict[str, str] | None) -> tuple[Head, Record]:
        """The head after the file `data`, and its record; or raise."""
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
        codec.check_envelopes(body)
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
        long_games.check_version(self, body)
        if long_games.kind(body) is not None:  # a resignation, a pause, a timeout: whoever is to write
            return long_games.accept(self, outer, body, where)
        if body.timeout is not None:  # the referee's bot moves for an absent seat
            seat = long_games.bot_seat(self, body)
            inner = replace(body, by=seat, timeout=None)
            check_parts(inner, self.mode.parts(self, inner), self.mode.name)
            head, record = self.mode.accept(self, outer, inner, where, private_openings)
            return replace(head, absent=head.absent | {seat}), record
        if body.vote is not None:  # say what is wrong with a ballot before whose turn it is
            if not self.voters():
                raise ProtocolError(f"{body.by} sends a ballot, but no vote is open")
            if body.by in self.ballots:
                raise ProtocolError(f"{body.by} has voted already (seq {self.ballots[body.by][1]})")
        if body.handover is not None:  # may come from the referee, for the seat the game waits for
            return handover_mod.accept(self, outer, body, where)
        writers = self.writers()
        requesting = body.undo is not None and body.undo.what == "request" and self.undo_pending is None
        if body.by not in writers and not requesting:
            raise WrongWriter(
                f"{body.by} may not write now (waiting for {', '.join(writers) or 'nobody: the game is over'})"
            )
        check_parts(body, self.mode.parts(self, body), self.mode.name)
        if body.undo is not None:
            return undo_mod.accept(self, outer, body, where)
        if body.vote is not None:
            return ballots_mod.accept_ballot(self, outer, body, where, self.mode.cast)
        if body.void:
            return ballots_mod.accept_void(self, outer, body, where)
        head, record = self.mode.accept(self, outer, body, where, private_openings)
        return long_games.after_move(head, body.by, bool(record.commands)), record

    # -- helpers ------------------------------------------------------------------

    def decode_command(self, raw: msgspec.Raw) -> Any:
        """A command of this game from its canonical bytes."""
        try:
            command = msgspec.json.decode(bytes(raw), type=self.game.info.Command)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise InvalidCommand(f"not a {self.game.info.name} command: {exc}") from None
        if canonical(command) != bytes(raw):
            raise FormatError("a command is not in canonical form")
        return command
