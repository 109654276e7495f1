"""The dealt modes, hotseat and referee: one dealer owns every hidden card
and all chance (DESIGN.md section 5).

The dealer commits to every item and reveals, delivers and supplies chance
in files of its own, each answering everything it owes at once
(`_check_dealer_complete`); a seat's file carries commands and the reveals
its commands need, opening the dealer's commitments. A referee game of
version 2 or later is dealt only once every seat has joined with a
contribution to the game seed (`_before_deal`). Hotseat is the same dealer
with its key in the game folder; the rules of the files are the same.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from msgspec.structs import replace

from pbem.crypto.commit import check_opening
from pbem.crypto.encoding import b64d
from pbem.errors import CommitmentError, FormatError, IllegalCommand, InvalidCommand, ProtocolError
from pbem.games.base import GameState, Hidden, overlay, refs_in, unknown_to, unrevealed_public
from pbem.protocol import ballots, transition
from pbem.protocol.chance import PlayChance, Tape, tape_label
from pbem.protocol.commitments import check_openings, state_hash
from pbem.protocol.turn_parts import Obligation
from pbem.protocol.head import Head
from pbem.protocol.modes.base import no_play_while_undo_pends

if TYPE_CHECKING:
    from pbem.games.base import Game
    from pbem.protocol.file_parts import Delivery, Opening
    from pbem.protocol.transition import Effect
    from pbem.protocol.formats import GenesisBody, SignedFile, TurnBody
    from pbem.protocol.head import ChainView, Record
    from pbem.protocol.setup import DerivedSetup

#: the parts of a file by the dealer, and by a seat, once the game is dealt
DEALER_PARTS = {"reveals", "deliveries", "seed", "commitments", "chance", "memo", "tally", "void"}
SEAT_PARTS = {"commands", "reveals", "undo", "vote"}


class DealtMode:
    """Hotseat and referee games (`name` says which)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __reduce__(self) -> tuple[Callable[[str], DealtMode], tuple[str]]:  # pickled (in a checkpoint) as one of the two modes
        return _mode, (self.name,)

    # -- FileRules ---------------------------------------------------------------

    def start(self, genesis: GenesisBody, game: Game[Any, Any], game_id: str, derived: DerivedSetup) -> Head:
        public, seat_order = derived.hidden, [s.name for s in genesis.seats]
        nothing: dict[str, frozenset[str]] = {s: frozenset() for s in seat_order}
        if public is None:  # dealt after the joins (`_before_deal`)
            if genesis.commitments or genesis.reveals or genesis.deliveries:
                raise FormatError("a genesis dealt after the joins carries no commitments, reveals or deliveries")
            return Head(seq=0, hash=game_id, public=None, known=nothing)
        _check_deal(public, genesis.commitments, genesis.reveals, "the genesis")
        revealed = {o.ref: o.card for o in genesis.reveals}
        state = overlay(public, revealed)
        known = _dealt(seat_order, state, revealed, nothing, genesis.deliveries, "genesis")
        return Head(seq=0, hash=game_id, public=state, revealed=revealed, known=known, dealt=True,
                    commitments=dict(genesis.commitments), deal_commitments=dict(genesis.commitments),
                    setup_seed=b64d(genesis.setup_seed, 32) if genesis.setup_seed is not None else None)

    def parts(self, chain: ChainView, body: TurnBody) -> set[str]:
        dealer = body.by == chain.dealer_name
        proof = {"chance_proof"} if _proves_chance(chain) else set()
        if not chain.dealt:
            return {"commitments", "reveals", "deliveries", "setup_seed"} | proof if dealer else {"contribution"}
        if body.vote is not None:
            return {"vote"}
        allowed = DEALER_PARTS | proof if dealer else SEAT_PARTS
        if body.undo is not None and "undo" in allowed:
            return {"undo"}  # an undo file carries nothing else
        if body.void and "void" in allowed:
            return {"void"}  # nor does a file voiding ballots
        return allowed

    def accept(self, chain: ChainView, outer: SignedFile, body: TurnBody, where: str,
               private_openings: dict[str, str] | None) -> tuple[Head, Record]:
        if not chain.dealt:
            return _before_deal(chain, outer, body, where)
        is_dealer = body.by == chain.dealer_name
        if chain.voters() and not is_dealer:
            raise ProtocolError(f"a vote is open: {body.by}'s file must carry its ballot, not commands")
        no_play_while_undo_pends(chain)
        try:
            commands = [chain.decode_command(raw) for raw in body.commands]
            if not is_dealer and not commands:
                raise ProtocolError("a seat's file needs at least one command")
            commitments = chain.commitments
            if body.commitments:
                again = sorted(set(body.commitments) & set(chain.commitments))
                if again:
                    raise ProtocolError(f"commits again to {', '.join(again)}")
                for value in body.commitments.values():
                    b64d(value, 32)
                commitments = {**chain.commitments, **body.commitments}
            check_openings(body.reveals, commitments, "reveals")
            offered = {o.ref: o.card for o in body.reveals}
            if not is_dealer:
                strangers = set(offered) - chain.knows(body.by)
                if strangers:
                    raise ProtocolError(f"{body.by} reveals {', '.join(sorted(strangers))}, never dealt to them")
            private = (
                transition.private_checker(chain.game, body.by, private_openings)
                if private_openings is not None and not is_dealer
                else None
            )
            if is_dealer and _proves_chance(chain):
                _check_proven_chance(chain, body)
            state = chain.public
            assert state is not None  # dealt
            effect = transition.run(
                chain.game,
                state,
                body.by,
                commands,
                source=offered.get,
                writer_knows=lambda st: chain.knows(body.by),
                private_check=private,
                chance=(PlayChance(Tape(b64d(body.chance, 32), tape_label(body.seq, _proves_chance(chain))))
                        if body.chance else None),
                resume=_resume_for(chain, body) if is_dealer else (),
            )
            if is_dealer:
                _check_dealer_chance(chain, body, effect, commitments)
            unused = set(offered) - set(effect.revealed)
            if unused:
                raise ProtocolError(f"reveals {', '.join(sorted(unused))}, which the rules do not need")
            if [o.ref for o in body.reveals] != list(effect.revealed):
                raise ProtocolError("the reveals are not in the order the rules need them")
            if not is_dealer:
                owed = set(unrevealed_public(effect.state)) | ({effect.blocked_on} if effect.blocked_on is not None else set())
                withheld = owed & chain.knows(body.by)
                if withheld:
                    raise ProtocolError(f"{body.by} must reveal {', '.join(sorted(withheld))} in this file")
            if body.deliveries and not is_dealer:
                raise ProtocolError("only the dealer delivers cards in this game mode")
        except (IllegalCommand, InvalidCommand) as exc:
            exc.message = f"by {body.by}: {exc.message}"
            raise
        # From here on the file is valid except for its claims about the result.
        revealed = {**chain.revealed, **effect.revealed}
        given: dict[str, list[str]] = {}
        for d in body.deliveries:
            if d.to not in chain.known:
                raise ProtocolError(f"delivers to {d.to!r}, who is not a seat")
            given.setdefault(d.to, []).extend(d.refs)
        known = {s: v | frozenset(given[s]) if s in given else v for s, v in chain.known.items()}
        if is_dealer:
            _check_dealer_complete(chain, body, effect, revealed)
        if state_hash(effect.state) != body.state:
            raise ProtocolError("the state it claims is not the state its commands produce")
        prior = chain.now
        head = replace(
            prior,
            moves=(*prior.moves, body.seq) if commands and not is_dealer else prior.moves,
            commitments=commitments,
            paused=(body.by, effect.paused) if effect.paused is not None else None,
            chance_blocked=effect.chance_blocked,
            known=known,
            revealed=revealed,
            public=effect.state,
            blocked_on=effect.blocked_on,
            seed=b64d(body.seed.seed, 32) if body.seed is not None else prior.seed,
            chance_draws=prior.chance_draws + (1 if is_dealer and body.chance is not None else 0),
            **({"ballots": {}, "voided": {}} if body.tally else {}),
        )
        return chain.accepted(outer, body, where, head, commands=commands, before=prior.public, after=effect.state,
                              revealed=dict(effect.revealed), chance=body.chance is not None,
                              resumed=prior.paused if is_dealer else None)

    def cast(self, chain: ChainView, body: TurnBody) -> Head:
        return chain.now  # a ballot is sealed to the dealer: nothing else in it

    # -- Duties ----------------------------------------------------------------------

    def obligations(self, chain: ChainView) -> list[Obligation]:
        dealer = chain.dealer_name
        assert dealer is not None  # a dealt game's genesis names its dealer
        if not chain.dealt:
            waiting = [s for s in chain.seat_order if s not in chain.contributions]
            if waiting:
                return [Obligation(by=waiting[0], what="join")]
            return [Obligation(by=dealer, what="deal")]
        out: list[Obligation] = []
        uncommitted = chain.uncommitted()
        if uncommitted:
            out.append(Obligation(by=dealer, what="commit", refs=uncommitted))
        if chain.paused is not None or chain.chance_blocked:
            out.append(Obligation(by=dealer, what="chance", to=chain.paused[0] if chain.paused else None))
        if chain.tally_due():
            out.append(Obligation(by=dealer, what="tally"))
        public = chain.public
        assert public is not None  # dealt
        reveal = unrevealed_public(public)
        if chain.blocked_on and chain.blocked_on not in reveal:
            reveal.append(chain.blocked_on)
        if reveal:
            out.append(Obligation(by=dealer, what="reveal", refs=reveal))
        for seat in chain.seat_order:
            missing = unknown_to(public, seat, chain.knows(seat))
            if missing:
                out.append(Obligation(by=dealer, what="deliver", refs=missing, to=seat))
        if chain.outcome() is not None and chain.seed is None:
            out.append(Obligation(by=dealer, what="publish-seed"))
        if not out and chain.outcome() is None and not chain.voters() and not chain.game.to_act(public):
            # the rules' automatic steps wait for a file (a set-up that ends
            # before the first turn: Codex's opening hands, drawn from each
            # private deck): the dealer's next file runs them
            out.append(Obligation(by=dealer, what="chance"))
        return out

    def knows(self, chain: ChainView, seat: str) -> set[str]:
        return set(chain.revealed).union(chain.known[seat])

    def chance_answerers(self, chain: ChainView) -> list[str]:
        return []  # the dealer supplies chance: an obligation of its own

    def answers_with_decision(self, chain: ChainView, party: str, owed: list[Obligation],
                              obligations: list[Obligation]) -> bool:
        return False  # a seat owes nothing but its moves

    def over(self, chain: ChainView) -> bool:
        return chain.seed is not None


MODES = {name: DealtMode(name) for name in ("hotseat", "referee")}


def _mode(name: str) -> DealtMode:
    return MODES[name]


def _check_deal(public: GameState, commitments: dict[str, str], reveals: list[Opening], where: str) -> None:
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


def _dealt(seat_order: list[str], public: GameState, revealed: dict[str, str], known: dict[str, frozenset[str]],
           deliveries: list[Delivery], where: str) -> dict[str, frozenset[str]]:
    """The deal: each seat gets exactly the cards it may see, in seat
    order (a dealer that hands a seat someone else's card is refused).
    What each seat knows after it."""
    expected = [(seat, unknown_to(public, seat, set(revealed))) for seat in seat_order]
    expected = [(seat, refs) for seat, refs in expected if refs]
    if [(d.to, list(d.refs)) for d in deliveries] != expected:
        raise ProtocolError(f"{where}: the deal does not give each seat exactly the cards it may see")
    given = {d.to: frozenset(d.refs) for d in deliveries}
    return {s: v | given[s] if s in given else v for s, v in known.items()}


def _before_deal(chain: ChainView, outer: SignedFile, body: TurnBody, where: str) -> tuple[Head, Record]:
    """A seat's contribution to the game seed, or the referee's deal once
    every seat has given one (games dealt after their joins)."""
    from pbem.protocol.setup import derive_deal

    prior = chain.now
    if body.by in chain.seats:
        if body.contribution is None:
            raise ProtocolError(f"{body.by} joins with no contribution to the game seed")
        contribution = b64d(body.contribution, 32)
        if state_hash(None) != body.state:
            raise ProtocolError("a join changes no state: its state must be the empty one")
        head = replace(prior, contributions={**prior.contributions, body.by: contribution})
    else:
        if body.setup_seed is None:
            raise ProtocolError("the referee's deal carries no public set-up seed")
        if _proves_chance(chain):
            from pbem.protocol import referee_chance  # PyNaCl: referee games of version 7 only

            _check_draw(chain, referee_chance.SET_UP, b64d(body.setup_seed, 32), body.chance_proof,
                        "public set-up seed")
        hidden = derive_deal(chain.game, chain.options, chain.seat_specs(), b64d(body.setup_seed, 32))
        _check_deal(hidden, body.commitments, body.reveals, "the deal")
        revealed = {o.ref: o.card for o in body.reveals}
        public = overlay(hidden, revealed)
        if state_hash(public) != body.state:
            raise ProtocolError("the state it claims is not the state the deal gives")
        known = _dealt(chain.seat_order, public, revealed, prior.known, body.deliveries, "the deal")
        head = replace(prior, public=public, revealed=revealed, commitments=dict(body.commitments), known=known,
                       deal_commitments=dict(body.commitments), setup_seed=b64d(body.setup_seed, 32), dealt=True)
    return chain.accepted(outer, body, where, head, before=prior.public, after=head.public)


def _proves_chance(chain: ChainView) -> bool:
    """A referee game of version 7: its public chance is proven (`referee_chance`)."""
    return chain.version.proven_chance and chain.dealer_mode == "referee"


def _check_draw(chain: ChainView, name: str, seed: bytes, proof: str | None, what: str) -> None:
    from pbem.protocol import referee_chance  # PyNaCl: referee games of version 7 only

    info = chain.genesis.dealer
    assert info is not None and info.chance_key is not None  # checked with the genesis
    referee_chance.check(info.chance_key, chain.game_id, [chain.contributions[s] for s in chain.seat_order], name,
                         seed, proof, what)


def _check_proven_chance(chain: ChainView, body: TurnBody) -> None:
    """The chance of the referee's answer is its key's output for the next
    draw of play, proven in the file; a proof comes only with chance."""
    if body.chance is None:
        if body.chance_proof is not None:
            raise ProtocolError("the referee's file carries a chance proof but no chance")
        return
    from pbem.protocol import referee_chance  # PyNaCl: only for a file that draws

    _check_draw(chain, referee_chance.play_draw(chain.now.chance_draws + 1), b64d(body.chance, 32),
                body.chance_proof, "chance")


def _resume_for(chain: ChainView, body: TurnBody) -> list[tuple[str, Any]]:
    """What the dealer's file runs first: the paused command, or the
    commands of the vote's ballots (all of them, in seat order)."""
    if chain.paused is not None:
        if body.tally:
            raise ProtocolError("the dealer opens ballots while a command waits for chance")
        return [chain.paused]
    if not chain.tally_due():
        if body.tally:
            raise ProtocolError("the dealer opens ballots, but the vote is not complete")
        return []
    return ballots.tally_commands(chain, body.tally, list(chain.ballots))


def _check_dealer_chance(chain: ChainView, body: TurnBody, effect: Effect, commitments: dict[str, str]) -> None:
    """The dealer supplies exactly the chance the rules draw in its file,
    and commits to exactly the items that no commitment binds yet."""
    if effect.chance_blocked or effect.paused is not None:
        raise ProtocolError("the game draws chance here: the dealer's file must supply it")
    if body.chance is not None and not effect.drew_chance:
        raise ProtocolError("the dealer supplies chance that the rules do not draw")
    hidden = {it.ref for zone in effect.state.zones.values() for it in zone.items if isinstance(it, Hidden)}
    needed = (hidden | set(effect.revealed)) - set(chain.commitments)
    if set(body.commitments) != needed:
        owed = ", ".join(sorted(needed)) or "nothing"
        raise ProtocolError(f"the dealer must commit to exactly the items no commitment binds: {owed}")
    if (body.memo is None) != (not body.commitments):
        raise ProtocolError("the dealer's file carries a memo exactly when it commits to new items")


def _check_dealer_complete(chain: ChainView, body: TurnBody, effect: Effect, revealed: dict[str, str]) -> None:
    """The dealer answers everything it owes in one file, and only that."""
    state = effect.state
    if unrevealed_public(state) or effect.blocked_on:
        raise ProtocolError("the dealer left a card unrevealed")
    # exactly the cards each seat may now see and does not know, per seat
    # in seat order, each in zone order: one meaning, one byte string
    expected = [(seat, unknown_to(state, seat, chain.known[seat] | set(revealed))) for seat in chain.seat_order]
    expected = [(seat, refs) for seat, refs in expected if refs]
    given = [(d.to, list(d.refs)) for d in body.deliveries]
    if given != expected:
        owed = "; ".join(f"{', '.join(refs)} to {seat}" for seat, refs in expected) or "nothing"
        raise ProtocolError(f"the dealer must deliver exactly: {owed} (in seat order)")
    over = chain.game.outcome(state) is not None or chain.now.ended is not None
    if body.seed is not None:
        if not over:
            raise ProtocolError("the dealer published its seed before the game ended")
        assert chain.genesis.dealer is not None  # a dealt game's genesis names its dealer
        try:
            check_opening(chain.genesis.dealer.seed_commitment, b64d(body.seed.salt, 32), b64d(body.seed.seed, 32))
        except CommitmentError:
            raise CommitmentError("the published seed does not match the dealer's commitment") from None
    elif over:
        raise ProtocolError("the game is over but the dealer did not publish its seed")
