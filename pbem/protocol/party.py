"""One party's knowledge of a game, and the files that party writes.

A seat knows the public state plus the openings sealed to it; the dealer
knows everything (from its seed). `Party` opens the deliveries addressed to
its name, checks every opening against its commitment (a dealer that hands a
seat the wrong card is caught here, with its signature on the file), and
builds the seat's own turn files through the same transition code every
verifier runs.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any, Literal

import msgspec

from pbem.crypto.encoding import b64d, canonical
from pbem.crypto.keys import PublicIdentity, SecretIdentity
from pbem.errors import IllegalCommand, PbemError, ProtocolError, SealError, WrongWriter
from pbem.games.base import GameState, overlay
from pbem.games.refchoice import rechoose_refs
from pbem.protocol import codec, dealer as dealer_mod, transition
from pbem.protocol.chain import Chain
from pbem.protocol.commitments import check_openings, state_hash
from pbem.protocol.file_parts import Opening
from pbem.protocol.formats import TurnBody
from pbem.protocol.turn_parts import Undo
from pbem.protocol import undo as undo_mod
from pbem.protocol.clock import file_time


class Party:
    """What `secret`'s owner knows in `chain`."""

    def __init__(self, chain: Chain, secret: SecretIdentity) -> None:
        self.chain = chain
        self.secret = secret
        self.name = secret.name
        if self.name != chain.dealer_name and self.name not in chain.seats:
            raise WrongWriter(f"{self.name} has no seat in this game", hint=f"seats: {', '.join(chain.seat_order)}")
        self.is_dealer = self.name == chain.dealer_name
        expected = chain.identity(self.name)
        if expected != secret.public and self.name in chain.handed:
            seq, newcomer = chain.handed[self.name]
            raise WrongWriter(f"seat {self.name} was handed over to {newcomer.name} (seq {seq}): "
                              f"it plays with {newcomer.name}'s key now ({newcomer.fingerprint()})")
        if expected != secret.public:  # both keys: a swapped sealing key would let another read our cards
            raise WrongWriter(
                f"seat {self.name} in this game has the key {expected.fingerprint()}, "
                f"not your key {self.name} ({secret.public.fingerprint()})"
            )
        self.openings: dict[str, Opening] = {}
        self.peer_secrets = None
        self._peer_cards: tuple[int, dict[str, str]] | None = None  # (seq, cards)
        if chain.deck is not None:
            from pbem.protocol.peer import knowledge as peer_knowledge  # PyNaCl only for peer games

            self.peer_secrets = peer_knowledge.my_secrets(chain, secret)
        elif self.is_dealer:
            seed = b64d(dealer_mod.open_seed_box(chain, secret).seed, 32)
            self.openings = dealer_mod.dealer_openings(chain, seed, secret)
        else:
            self._open_deliveries()
        self._check_ballots()

    def _check_ballots(self) -> None:
        """The ballots this party keeps must open to what their voters
        committed to, as commands of the game: checked when they arrive, so a
        bad one is named with its signer's file, not found at the tally."""
        from pbem.protocol.ballots import check_ballot, open_ballot

        chain = self.chain
        keeper = chain.dealer_name if chain.genesis.dealer is not None else None
        if keeper == self.name and chain.version.void_ballots:
            return  # it voids what it cannot tally (`ballots.voids`), naming the voter
        for seat, (commitment, seq) in chain.ballots.items():
            if (keeper or seat) != self.name:
                continue
            record = chain.records[seq]
            where = record.name or f"seq {seq}"
            try:
                opening = open_ballot(record.body.vote, self.secret, chain.game_id, seq, seat)
                check_ballot(commitment, opening)
                chain.decode_command(opening.command)
            except PbemError as exc:
                raise type(exc)(f"{where}: {seat}'s ballot, kept by {self.name}: {exc.message}") from None

    def _open_deliveries(self) -> None:
        """The openings of the cards the dealer sealed to this seat; for a
        seat handed over, those sealed to its old key come from its handover."""
        from pbem.protocol import handover

        chain = self.chain
        since = handover.since(chain, self.name)
        if since:
            handed = handover.opened(chain, self.secret)
            assert handed is not None  # the seat was handed over (at `since`)
            self.openings.update({o.ref: o for o in handed.openings})
        for record in chain.records[since:]:
            body = record.body
            if record.seq == 0:
                assert chain.genesis.dealer is not None  # a game without a deck is a dealer's
                key, seq = dealer_mod.genesis_ad_key(chain.genesis.dealer.seed_commitment), 0
            else:
                key, seq = chain.game_id, record.seq
            for d in body.deliveries:
                if d.to != self.name:
                    continue
                where = record.name or f"seq {record.seq}"
                try:
                    openings = dealer_mod.opened_once(d.envelope, self.secret, dealer_mod.delivery_ad(key, seq, d.to))
                except SealError as exc:
                    raise SealError(f"{where}: the dealer's delivery to {self.name} cannot be opened: {exc}") from None
                if sorted(o.ref for o in openings) != sorted(d.refs):
                    raise ProtocolError(f"{where}: the dealer's delivery to {self.name} holds other cards than it says")
                check_openings(openings, chain.commitments, f"{where} (signed by {record.by})")
                for o in openings:
                    self.openings[o.ref] = o

    @property
    def cards(self) -> dict[str, str]:
        """ref -> card for everything this party may know now."""
        if self.chain.deck is not None:
            from pbem.protocol.peer import knowledge as peer_knowledge

            if self.peer_secrets is None:
                return dict(self.chain.revealed)
            # opening every sealed partial is work: once per head
            if self._peer_cards is None or self._peer_cards[0] != self.chain.seq:
                self._peer_cards = (self.chain.seq, peer_knowledge.cards_known(self.chain, self.secret, self.peer_secrets))
            return dict(self._peer_cards[1])
        out = {ref: o.card for ref, o in self.openings.items()}
        out.update(self.chain.revealed)
        return out

    def state(self) -> GameState | None:
        """The head state as this party sees it (None before a game dealt
        after its joins is dealt)."""
        public: GameState | None = self.chain.public
        if public is None:
            return None
        return overlay(public, self.cards)

    # -- writing -------------------------------------------------------------

    def turn(self, commands: list[Any], choose: Callable[[int], int] = secrets.randbelow) -> bytes:
        """Sign a turn with `commands`; raises if any of them is not legal.

        Refs carry no information: each ref of a card the writer holds
        copies of is first re-chosen uniformly among the copies (in the same
        zone) with `choose`, the writer's private randomness
        (`pbem.games.refchoice`); tests may pass a seeded one.
        """
        chain = self.chain
        if self.is_dealer:
            raise ProtocolError("the dealer writes with `pbem sync`, not with commands")
        self.check_no_undo_pending()
        if self.name not in chain.writers():
            waiting = ", ".join(chain.writers()) or "nobody (the game is over)"
            raise WrongWriter(f"it is not {self.name}'s turn to write (waiting for {waiting})")
        if self.name in chain.voters():
            if self.name in chain.ballots:
                raise WrongWriter(f"{self.name} has voted already: the vote waits for the others",
                                  hint=f"what {self.name} owes meanwhile: pbem sync")
            return self._ballot(commands)
        seen = self.state()
        if seen is not None:  # None: a game not dealt yet (its seats' files are joins, with no commands)
            commands = rechoose_refs(chain.game, seen, self.name, commands, choose)
        cards = self.cards
        private = transition.private_checker(chain.game, self.name, cards)
        if chain.deck is not None:
            from pbem.protocol.peer import writer as peer_writer

            return peer_writer.turn(chain, self.secret, commands, private)
        effect = transition.run(
            chain.game,
            chain.public,
            self.name,
            commands,
            source=lambda ref: cards.get(ref) if ref in chain.knows(self.name) else None,
            writer_knows=lambda st: chain.knows(self.name),
            private_check=private,
        )
        reveals = [self._opening(ref) for ref in effect.revealed]
        body = TurnBody(
            game_id=chain.game_id,
            seq=chain.seq + 1,
            prev=chain.head,
            by=self.name,
            commands=[msgspec.Raw(canonical(c)) for c in commands],
            reveals=reveals,
            at=file_time(chain),
            state=state_hash(effect.state),
        )
        return codec.encode_signed("turn", body, self.secret)

    def _ballot(self, commands: list[Any]) -> bytes:
        """This seat's secret choice in the open vote, checked here as every
        verifier checks its opening (`ballots.ballot_problem`)."""
        from pbem.protocol.ballots import ballot_problem, make_ballot

        chain = self.chain
        if len(commands) != 1:
            raise ProtocolError(f"a vote is open: {self.name} sends exactly one choice, its ballot")
        problem = ballot_problem(chain.game, self.state(), self.name, commands[0])
        if problem is not None:
            raise IllegalCommand(problem)
        seq = chain.seq + 1
        keeper = chain.genesis.dealer.identity if chain.genesis.dealer is not None else self.secret.public
        beacon = None
        if chain.deck is not None:
            from pbem.crypto.encoding import b64e
            from pbem.protocol.peer import knowledge as peer_knowledge

            secrets = peer_knowledge.my_secrets(chain, self.secret)
            assert secrets is not None  # a seat that votes has joined
            beacon = b64e(chain.deck.next_link(self.name, b64d(secrets.beacon_seed, 32),
                                               [b64d(s, 32) for s in secrets.renewals]))
        body = TurnBody(
            game_id=chain.game_id,
            seq=seq,
            prev=chain.head,
            by=self.name,
            vote=make_ballot(commands[0], keeper, chain.game_id, seq, self.name),
            beacon=beacon,
            at=file_time(chain),
            state=state_hash(chain.public),
        )
        return codec.encode_signed("turn", body, self.secret)

    def check_no_undo_pending(self) -> None:
        """Refuse a move while an undo request waits for its answers."""
        pending = self.chain.undo_pending
        if pending is not None:
            raise WrongWriter(
                f"{pending.by} asks to take back seq {pending.target}: play waits for the answers",
                hint=f"{', '.join(undo_mod.answerers(self.chain, pending))} must answer: pbem undo accept|refuse DIR --as NAME",
            )

    def undo(self, what: Literal["request", "accept", "refuse"]) -> bytes:
        """This seat's undo file: `request` takes back its last move,
        `accept` / `refuse` answer the pending request. Refused here for the
        reason every verifier would refuse it."""
        chain = self.chain
        if self.is_dealer:
            raise ProtocolError("the dealer takes no part in an undo: the seats agree on it")
        pending = chain.undo_pending
        after = chain.public
        if what == "request":
            why = undo_mod.refusal(chain, self.name)
            if why is not None:
                raise ProtocolError(f"{self.name} cannot ask for an undo: {why}")
            target = chain.moves[-1]
        else:
            if pending is None:
                raise ProtocolError("no undo request is pending")
            waiting = undo_mod.answerers(chain, pending)
            if self.name == pending.by:
                raise WrongWriter(f"{self.name} asked for this undo: the other seats answer it",
                                  hint=f"waiting for {', '.join(waiting)}")
            if chain.writers() != [self.name]:
                raise WrongWriter(f"it is not {self.name}'s turn to answer the undo (waiting for {', '.join(chain.writers())})")
            target = pending.target
            if what == "accept" and waiting == [self.name]:
                after = chain.records[target].prior.public
        body = TurnBody(
            game_id=chain.game_id,
            seq=chain.seq + 1,
            prev=chain.head,
            by=self.name,
            undo=Undo(what=what, target=target),
            at=file_time(chain),
            state=state_hash(after),
        )
        return codec.encode_signed("turn", body, self.secret)

    def handover(self, seat: str, newcomer: PublicIdentity, address: str | None = None,
                 consent: str | None = None) -> bytes:
        """The file handing `seat` (this party's own, or as the referee a
        vanished one) over to `newcomer` (who gets mail at `address`), with
        everything the seat may read sealed to the newcomer alone
        (`pbem.protocol.handover`), and from version 7 the newcomer's
        signature of its acceptance (`consent`, `pbem.protocol.acceptance`)."""
        from pbem.protocol import handover
        from pbem.protocol.long_parts import SeatSecrets

        chain = self.chain
        if chain.deck is None:
            return handover.write(chain, self.secret, seat, newcomer, SeatSecrets(openings=list(self.openings.values())),
                                  address, consent)
        if seat != self.name:
            raise ProtocolError(f"in a peer game only {seat} itself knows its secrets: nobody else can hand it over")
        from pbem.protocol.peer import knowledge

        held = knowledge.held_partials(chain, self.secret)
        partials = [msgspec.structs.replace(p, seat=by) for ref in sorted(held) for by, p in sorted(held[ref].items())]
        secrets = SeatSecrets(openings=list(knowledge.delivered_openings(chain, self.secret).values()),
                              peer=self.peer_secrets, partials=partials)
        return handover.write(chain, self.secret, seat, newcomer, secrets, address, consent)

    def _opening(self, ref: str) -> Opening:
        if ref not in self.openings:
            raise IllegalCommand(f"{self.name} cannot open {ref}")
        return self.openings[ref]

    def answer(self) -> bytes | None:
        """The file this party owes that needs no decision, if any."""
        if self.is_dealer:
            return dealer_mod.answer(self.chain, self.secret)
        chain = self.chain
        if chain.deck is None and not chain.dealt and chain.writers() == [self.name]:
            return dealer_mod.contribution(chain, self.secret)  # joining a game dealt after its joins
        if chain.deck is not None and not chain.deck.all_joined and chain.deck.next_to_join == self.name:
            from pbem.protocol.peer import writer as peer_writer  # joining in place (one shared folder)

            return peer_writer.join(chain, self.secret)
        if chain.deck is not None and chain.deck.all_joined and chain.writers() == [self.name]:
            owed = [o for o in chain.obligations() if o.by == self.name]
            if owed:
                from pbem.protocol.peer import writer as peer_writer

                tally = []
                if owed[0].what == "tally":
                    from pbem.protocol.ballots import open_ballot

                    seq = chain.ballots[self.name][1]
                    tally = [open_ballot(chain.records[seq].body.vote, self.secret, chain.game_id, seq, self.name)]
                return peer_writer.turn(chain, self.secret, [], tally=tally)
        return None
