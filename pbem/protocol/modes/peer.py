"""The peer mode: no third party (DESIGN.md section 5, "peer").

Every seat holds a layer of the mental-poker deck and a beacon chain
(`pbem.protocol.peer`). A file carries its writer's beacon link, the
decryptions it owes and its commands, run alike by writers and verifiers
(`peer.files.run_file`); a seat's join brings its key, anchor and layer; a
game set up after its joins waits for every seat's first link
(`peer.first_links`), a late deck for its layers after the set-up; and at
the end every seat publishes its secrets. Chance a file draws waits for
other seats' links (`chance_answerers`).

Importing this module imports PyNaCl: the chain does so only for a peer game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from msgspec.structs import replace

from pbem.errors import FormatError, IllegalCommand, InvalidCommand, ProtocolError
from pbem.games.base import refs_in, unknown_to, unrevealed_public
from pbem.protocol import ballots, dealing, transition
from pbem.protocol.commitments import state_hash
from pbem.protocol.turn_parts import Obligation
from pbem.protocol.head import Head, peer_deck
from pbem.protocol.modes.base import no_play_while_undo_pends
from pbem.protocol.peer import changes as peer_changes, rekey as peer_rekey, renewal as peer_renewal
from pbem.protocol.peer.deck import PeerDeck, start_deck
from pbem.protocol.peer.files import FileReader, owed_refs, run_file
from pbem.protocol.peer.first_links import setup_linkers, stage_setup

if TYPE_CHECKING:
    from pbem.games.base import Game
    from pbem.protocol.formats import GenesisBody, SignedFile, TurnBody
    from pbem.protocol.head import ChainView, Record
    from pbem.protocol.setup import DerivedSetup

#: the parts of a peer file once the game is set up (reshuffle ...
#: deliveries: `peer.changes`), and before
PARTS = {"commands", "reveals", "join", "partials", "sealed", "beacon", "secrets", "undo", "vote", "tally",
         "reshuffle", "commitments", "memo", "deliveries", "layer", "renewal"}
BEFORE_SETUP = {"join", "beacon", "partials", "sealed", "layer"}


class PeerMode:
    """Peer games."""

    name = "peer"

    def __reduce__(self) -> tuple[Callable[[], PeerMode], tuple[()]]:  # pickled (in a checkpoint) as the one peer mode
        return _mode, ()

    # -- FileRules ---------------------------------------------------------------

    def start(self, genesis: GenesisBody, game: Game[Any, Any], game_id: str, derived: DerivedSetup) -> Head:
        public = derived.hidden
        if genesis.commitments or genesis.reveals or genesis.deliveries:
            raise FormatError("a peer genesis carries no commitments, reveals or deliveries")
        shape = public if public is not None else derived.probe
        assert shape is not None  # a peer set-up: its hidden state, or (set up after the joins) its probe's
        private = {
            it.ref: (zone, owner)
            for zone, owner in dealing.private_decks(game, shape, [s.name for s in genesis.seats]).items()
            for it in shape.zones[zone].items
        }
        deck = start_deck(genesis, game_id, private)
        # a late deck learns its cards at the set-up (`first_links.stage_setup`)
        if not deck.late and (set(refs_in(shape)) != set(deck.slots) | set(private) or set(private) & set(deck.slots)):
            raise ProtocolError("the peer deck's slots and private decks are not the game's hidden items")
        return Head(seq=0, hash=game_id, public=public, deck=deck, dealt=public is not None,
                    known={s.name: frozenset() for s in genesis.seats})

    def parts(self, chain: ChainView, body: TurnBody) -> set[str]:
        if not chain.dealt:
            return BEFORE_SETUP
        if body.vote is not None:
            return {"vote", "beacon"}
        if body.undo is not None:
            return {"undo"}  # an undo file carries nothing else
        if peer_rekey.due(chain) is not None:  # a seat handed over: its newcomer's fresh layers come first,
            # from version 7 with no link of the old player's chain (`peer.rekey`)
            return {"rekey"} if chain.version.rekey_starts_chain else {"rekey", "beacon"}
        return PARTS

    def accept(self, chain: ChainView, outer: SignedFile, body: TurnBody, where: str,
               private_openings: dict[str, str] | None) -> tuple[Head, Record]:
        """A file of a peer game: beacon link, join, partial decryptions,
        commands, and at the end the seat's secrets."""
        no_play_while_undo_pends(chain)
        writer = body.by
        commands = [chain.decode_command(raw) for raw in body.commands]
        deck = peer_deck(chain).copy()
        if body.join is not None:
            # from version 3 on, the last seat to join opens its first link
            # at once: every anchor is fixed, and no other link is open
            opens_link = chain.version.setup_from_links and deck.join_order[-1] == writer
            if commands or (body.beacon is not None and not opens_link):
                raise ProtocolError("a join file carries no commands and no beacon link (it commits the anchor)")
            if body.join.layer.seat != writer:
                raise ProtocolError(f"{writer} joins with a layer of {body.join.layer.seat}")
            deck.add_layer(body.join.layer, body.join.anchor, body.join.private, body.seq, body.join.private_proofs)
            if opens_link:
                deck.apply_link(writer, body.beacon)
        else:
            if writer not in deck.keys:
                raise ProtocolError(f"{writer} has not joined the game")
            if not (chain.version.rekey_starts_chain and chain.dealt and peer_rekey.due(chain) is not None):
                deck.apply_link(writer, body.beacon)  # (a version-7 re-keying reveals none: it starts a chain)
        if body.renewal is not None:  # after the file's own link: never a link of the chain it commits
            peer_renewal.take(deck, writer, body.renewal, chain.version)
        if body.rekey is not None or (chain.dealt and peer_rekey.due(chain) is not None):
            return _take_rekey(chain, outer, body, where, deck)
        state = None if chain.dealt else stage_setup(chain, deck)
        if not chain.dealt and state is None:
            return _before_setup(chain, outer, body, where, deck)
        if deck.late and not deck.complete:
            _take_late_layer(deck, body, commands)
        elif body.layer is not None:
            raise ProtocolError(f"{writer} adds a shuffle layer, which nobody owes now")
        if chain.dealt:
            return _take_file(chain, outer, body, where, private_openings, deck, commands)
        # the file whose link completes the set-up: checked against that set-up
        head, record = _take_file(chain.set_up_as(state), outer, body, where, private_openings, deck, commands,
                                  sets_up=True)
        # an undo of its commands returns to the set-up (`Record.prior`)
        assert record.prior is not None  # every record of a turn has its prior head
        record.prior, record.before = replace(record.prior, dealt=True), None
        return replace(head, dealt=True), record

    def cast(self, chain: ChainView, body: TurnBody) -> Head:
        deck = peer_deck(chain).copy()  # a ballot reveals its writer's beacon link, as every peer file does
        deck.apply_link(body.by, body.beacon)
        return replace(chain.now, deck=deck)

    # -- Duties ----------------------------------------------------------------------

    def obligations(self, chain: ChainView) -> list[Obligation]:
        deck = peer_deck(chain)
        if not deck.all_joined:
            assert deck.next_to_join is not None  # a seat has not joined
            return [Obligation(by=deck.next_to_join, what="join")]
        if not chain.dealt:
            return [Obligation(by=setup_linkers(deck)[0], what="set-up")]
        if not deck.complete:
            assert deck.next_to_layer is not None  # a layer is missing
            return [Obligation(by=deck.next_to_layer, what="layer")]
        handed = peer_rekey.due(chain)
        if handed is not None:
            return [Obligation(by=handed, what="rekey")]
        out = peer_changes.obligations(chain)
        answerer = chain.chance_answerer()
        if answerer is not None:
            out.append(Obligation(by=answerer, what="chance", to=chain.chance_by()))
        if chain.tally_due():
            out += [Obligation(by=s, what="tally") for s in chain.voters() if s not in dict(chain.opened)]
        for seat in chain.seat_order:
            refs = owed_refs(deck, chain.public, seat, chain.revealed, chain.blocked_on, chain.seat_order)
            if refs:
                out.append(Obligation(by=seat, what="deliver", refs=refs))
        if chain.outcome() is not None:
            out += [Obligation(by=s, what="publish-secrets") for s in chain.seat_order if s not in deck.secrets]
        return out

    def knows(self, chain: ChainView, seat: str) -> set[str]:
        return peer_deck(chain).knows(seat) | set(chain.revealed)

    def chance_answerers(self, chain: ChainView) -> list[str]:
        """Until version 4 only the next seat after the drawer answered: one
        seat handing the drawer its beacon seed let it foresee its dice.
        From version 4 (`Version.chance_from_every_seat`) every other seat
        answers, the next seat last (so the seat a paused command makes draw
        from its own private deck still runs it: "drawn in the owner's own
        answer"): each link is revealed after the drawer signed, so the
        drawer cannot know the chance unless every other seat tells it."""
        by = chain.chance_by()
        if by is None:
            return []
        i = chain.seat_order.index(by)
        others = chain.seat_order[i + 1:] + chain.seat_order[:i]
        order = others[1:] + others[:1] if chain.version.chance_from_every_seat else others[:1]
        if chain.version.answer_from_drawn_deck and len(others) > 1:
            owner = _drawn_owner(chain, by)
            if owner in order:  # from version 6: the owner of the deck drawn from runs it
                order = [s for s in order if s != owner] + [owner]
        return [s for s in order if s not in chain.chance_answered]

    def answers_with_decision(self, chain: ChainView, party: str, owed: list[Obligation],
                              obligations: list[Obligation]) -> bool:
        """Its answers go at the head of its decision, once it can read its
        own cards and every card just turned face up: with 3+ seats a seat
        owing first may still wait for a later seat's decryptions (its
        answers alone come first then)."""
        if chain.public is None or not all(o.what == "deliver" for o in owed):
            return False
        if party not in chain.game.to_act(chain.public):
            return False
        face_up = set(unrevealed_public(chain.public))  # whoever decides must see them first, as at a table
        others = any(o.by != party and face_up & set(o.refs) for o in obligations if o.what == "deliver")
        return not unknown_to(chain.public, party, chain.knows(party)) and not others

    def over(self, chain: ChainView) -> bool:
        return len(peer_deck(chain).secrets) == len(chain.seat_order)


MODE = PeerMode()

_DRAWN: dict[int, tuple[Any, Any, str | None]] = {}


def _drawn_owner(chain: ChainView, by: str) -> str | None:
    """The seat other than `by` whose private deck `by`'s paused command
    draws from, found by running it on the public state with stand-in
    chance (which decks change does not depend on the chance: Codex draws
    by counts), or None (no such deck, or the rules need a hidden card).
    Cached per public state: every obligation check asks it."""
    from pbem.errors import PbemError
    from pbem.protocol.chance import PlayChance, StandInChance, Tape

    if chain.paused is None or chain.public is None:
        return None
    state, command = chain.public, chain.paused[1]
    hit = _DRAWN.get(id(state))
    if hit is not None and hit[0] is state and hit[1] is command:
        return hit[2]
    owner = None
    probe = PlayChance(Tape(bytes(32), "probe"), secret=StandInChance(), draws_public=True)
    try:
        after = chain.game.apply(state, by, command, probe)
    except PbemError:
        after = state
    for zone, seat in dealing.private_decks(chain.game, state, chain.seat_order).items():
        if seat != by and zone in after.zones and \
                [it.ref for it in state.zones[zone].items] != [it.ref for it in after.zones[zone].items]:
            owner = seat
            break
    if len(_DRAWN) > 64:
        _DRAWN.clear()
    _DRAWN[id(state)] = (state, command, owner)
    return owner


def _mode() -> PeerMode:
    return MODE



def _take_late_layer(deck: PeerDeck, body: TurnBody, commands: Sequence[Any]) -> None:
    """A late deck: its next seat's file adds its layer, and nothing is
    played until every layer is on."""
    if commands:
        raise ProtocolError("the deck is still being shuffled: no command can be played")
    if deck.next_to_layer == body.by:
        if body.layer is None or body.layer.seat != body.by:
            raise ProtocolError(f"{body.by} owes its shuffle layer of the deck the set-up dealt")
        deck.add_late_layer(body.layer, body.seq)
    elif body.layer is not None:
        raise ProtocolError(f"{body.by} adds a shuffle layer out of turn (next: {deck.next_to_layer})")


def _take_rekey(chain: ChainView, outer: SignedFile, body: TurnBody, where: str,
                deck: PeerDeck) -> tuple[Head, Record]:
    """The first file of a seat's newcomer after its handover: its fresh
    layers and beacon chain (`peer.rekey`), and nothing else."""
    owed = peer_rekey.due(chain)
    if owed != body.by or body.rekey is None:
        raise ProtocolError(f"{body.by} re-keys its layers, which nobody owes now" if owed is None else
                            f"seat {owed} was handed over: its newcomer's fresh layers come first")
    assert chain.public is not None  # a seat is handed over once the game is dealt (`handover.may_hand_over`)
    peer_rekey.take(deck, chain.public, body.by, body.rekey, body.seq, chain.version.rekey_starts_chain)
    if state_hash(chain.public) != body.state:
        raise ProtocolError("a re-keying changes no state: its state must be the head's")
    return chain.accepted(outer, body, where, replace(chain.now, deck=deck), before=chain.public, after=chain.public)


def _before_setup(chain: ChainView, outer: SignedFile, body: TurnBody, where: str,
                  deck: PeerDeck) -> tuple[Head, Record]:
    """A join or a set-up link of a peer game whose set-up is not known
    yet: nothing else may come with it."""
    if body.layer is not None:
        raise ProtocolError("a shuffle layer before the set-up: the deck's cards are not known yet")
    if body.partials or body.sealed:
        raise ProtocolError("nothing is dealt before the set-up: there is nothing to decrypt")
    if state_hash(None) != body.state:
        raise ProtocolError("a file before the set-up changes no state: its state must be the empty one")
    return chain.accepted(outer, body, where, replace(chain.now, deck=deck))


def _take_file(chain: ChainView, outer: SignedFile, body: TurnBody, where: str, private_openings: dict[str, str] | None,
               deck: PeerDeck, commands: Sequence[Any], sets_up: bool = False) -> tuple[Head, Record]:
    """A file of a set-up game (or the one that sets it up: `chain` is then
    at the set-up), run on the staged `deck`."""
    writer = body.by
    for box in body.sealed:
        if box.to not in chain.seats or box.to == writer:
            raise ProtocolError(f"seals partial decryptions to {box.to!r}")
    reader = FileReader(body)
    private = transition.private_checker(chain.game, writer, private_openings) if private_openings is not None else None
    resume, opened = ballots.tally_resume(chain, writer, body.tally, commands)
    try:
        result = run_file(chain, deck, writer, commands, reader, body.seq, private, resume=resume)
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
    need = set(unrevealed_public(effect.state)) | ({effect.blocked_on} if effect.blocked_on is not None else set())
    withheld = {ref for ref in need if writer in deck.remaining.get(ref, ()) or deck.private_owner.get(ref) == writer}
    if withheld:
        raise ProtocolError(f"{writer} must reveal {', '.join(sorted(withheld))} in this file")
    over = chain.game.outcome(effect.state) is not None or chain.now.ended is not None
    if body.secrets is not None:
        if not over:
            raise ProtocolError(f"{writer} publishes its secrets before the game ended")
        deck.publish(writer, body.secrets)
    elif over and writer not in deck.secrets:
        raise ProtocolError(f"the game is over: {writer} must publish its secrets")
    answered = chain.chance_answerer() == writer
    resumes = chain.resumes_chance(writer)
    if not (commands or body.partials or body.reveals or body.sealed or body.join or body.secrets or body.tally
            or answered or body.reshuffle or body.commitments or body.refills or body.deliveries or body.layer or sets_up):
        raise ProtocolError("the file does nothing")
    if effect.paused is not None and chain.seat_order == [writer]:
        raise ProtocolError("a game of one seat cannot pause for another seat's link")
    if state_hash(effect.state) != body.state:
        raise ProtocolError("the state it claims is not the state its commands produce")
    prior = chain.now
    if answered and not resumes:  # one more link the chance waits for: it still waits for the others'
        chance: dict[str, Any] = {"chance_answered": (*prior.chance_answered, writer)}
    else:
        chance = {"paused": (writer, effect.paused) if effect.paused is not None else None,
                  "chance_blocked": effect.chance_blocked,
                  "chance_writer": writer if effect.chance_blocked else None, "chance_answered": ()}
    votes: dict[str, Any] = {}
    if body.tally:
        votes = {"ballots": {}, "opened": ()} if resume else {"opened": tuple(opened)}
    head = replace(prior, moves=(*prior.moves, body.seq) if commands else prior.moves, deck=deck,
                   revealed={**prior.revealed, **effect.revealed}, public=effect.state,
                   blocked_on=effect.blocked_on, **chance, **votes)
    return chain.accepted(outer, body, where, head, commands=commands, before=prior.public, after=effect.state,
                          revealed=dict(effect.revealed), chance=result.chance_used,
                          resumed=prior.paused if resumes else None)
