"""Writing the files of a peer game: the genesis, a join, a turn, an answer.
(What the writing seat knows, its secrets and its cards, is `knowledge`'s.)

Every file is built by running `files.run_file` on a staged copy of the
deck, the same function verifiers run, with a partial source that makes
this seat's decryptions on demand. What the verifier will accept is
therefore exactly what the writer wrote.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from pbem.crypto import beacon, poker
from pbem.crypto.committed import secret_order
from pbem.crypto.encoding import b64d, b64e, canonical
from pbem.crypto.keys import PublicIdentity, SecretIdentity
from pbem.crypto.seal import seal
from pbem.errors import InvalidOption, PbemError, ProtocolError, WrongWriter
from pbem.games.base import Chance, Game, GameState, SeatSpec, project
from pbem.protocol import ballots, codec, dealing, versions
from pbem.protocol.clock import file_time, now, stamp
from pbem.protocol.commitments import state_hash
from pbem.protocol.file_parts import SeatEntry
from pbem.protocol.formats import PROTOCOL_VERSION, GenesisBody, TurnBody
from pbem.protocol.long_parts import Pace
from pbem.protocol.peer_parts import BeaconRenewal, Join, PeerSecrets, PeerSetup, PokerLayer, SealedPartials
from pbem.protocol.turn_parts import BallotOpening
from pbem.protocol.head import ChainView
from pbem.protocol.peer import (
    changes as peer_changes, deck as peer_deck, own_decks, proofs, rekey as peer_rekey, renewal as peer_renewal,
)
from pbem.protocol.peer.deck import PeerDeck, new_layer
from pbem.protocol.peer.files import WriterParts, run_file
from pbem.protocol.peer.first_links import stage_setup
from pbem.protocol.peer.knowledge import cards_known, delivered_openings, held_partials, my_secrets, sealed_ad
from pbem.protocol.peer.secrets import commit_private, secret_box
from pbem.protocol.setup import PeerShape, peer_dealing_problem, peer_setup_chance, peer_shape, probe_seed


def make_genesis(
    game: Game[Any, Any],
    options: Any,
    seats: list[tuple[SeatSpec, PublicIdentity]],
    creator: SecretIdentity,
    beacon_length: int | None = None,
    pace: Pace | None = None,
) -> bytes:
    """The genesis of a peer game, with the creator's beacon anchor and layer.

    It holds no set-up: the game is set up once every seat has joined, from
    every seat's first beacon link (`pbem.protocol.setup`). A run of the
    rules with a probe seed gives the cards of the shared deck and of each
    private deck, which the shuffle layers need now, when they never depend
    on the set-up's chance (`fixed_hidden_cards`: found here by probes,
    checked by every verifier at the set-up).
    Otherwise (the Codenames key follows the starting team), and always
    for linked zones (the two-faced deck of Duet, `peer_faces`), the deck is
    late: every layer goes on after the set-up (`PeerSetup.late`).
    """
    specs = [spec for spec, _ in seats]
    if creator.name not in {s.name for s in specs}:
        raise InvalidOption(f"{creator.name} must have a seat in a peer game they create")
    nonce = b64e(os.urandom(16))
    full = game.setup(options, specs, peer_setup_chance(probe_seed(nonce)))
    problem = peer_dealing_problem(game, full, [s.name for s in specs])
    if problem is not None:
        raise InvalidOption(f"{game.info.name}: {problem}", hint="use --dealer referee --referee NAME (or hotseat for one machine)")
    names = [s.name for s in specs]
    shape = peer_shape(game, full, names)
    # a two-faced deck learns its pairs at the set-up
    late = bool(shape.faces) or not fixed_hidden_cards(game, options, specs, nonce, shape)
    if late:
        # which cards are hidden may depend on the set-up's chance: the
        # layers wait for the set-up (one more file); the genesis names no card
        if shape.private_refs:
            raise InvalidOption(
                f"{game.info.name} has private decks, which peer dealing can commit to only if its hidden cards at "
                "set-up never depend on the set-up's chance",
                hint="use --dealer referee --referee NAME",
            )
        shape = msgspec.structs.replace(shape, slots=(), deck=())
    probe = project(full, set())
    proven = versions.of(PROTOCOL_VERSION).shuffle_proofs
    scalar, layer = new_layer(creator.name, [] if late else list(poker.card_table(nonce, list(shape.deck))), None,
                              proofs.context_of(nonce, 0, proofs.SHARED) if proven else None)
    beacon_length = beacon_length or peer_deck.BEACON_LENGTH  # another length: only for tests and attacks
    seed, anchor = beacon.new_chain(beacon_length)
    private, private_proofs, mapping = _private_decks(
        versions.of(PROTOCOL_VERSION).proven_private_decks, lambda name: proofs.context_of(nonce, 0, name), nonce,
        probe, dealing.private_decks(game, full, names), shape.contents, creator.name, scalar, seed)
    body = GenesisBody(
        game=game.info.name,
        rules_version=game.info.rules_version,
        options=msgspec.Raw(canonical(options)),
        seats=[SeatEntry(name=spec.name, role=spec.role, identity=ident) for spec, ident in seats],
        peer=PeerSetup(
            creator=creator.name,
            deck=list(shape.deck),
            slots=list(shape.slots),
            beacon_length=beacon_length,
            layer=layer,
            anchor=b64e(anchor),
            secret_box=secret_box(creator, scalar, seed, nonce, mapping),
            private_contents=shape.contents,
            private=private,
            private_proofs=private_proofs,
            late=late,
        ),
        initial=msgspec.Raw(b"null"),
        commitments={},
        state=state_hash(None),
        created_at=stamp(now()),
        pace=pace,
        nonce=nonce,
        version=PROTOCOL_VERSION,
    )
    return codec.encode_signed("genesis", body, creator)


class _EdgeChance:
    """Set-up chance at one edge of every draw: the lowest number and the
    order as given, or the highest and the order reversed."""

    def __init__(self, high: bool) -> None:
        self.high = high

    @property
    def public(self) -> "_EdgeChance":
        return self

    def below(self, n: int) -> int:
        return n - 1 if self.high else 0

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        return list(reversed(items)) if self.high else list(items)

    def private_draw(self, n: int) -> int:
        return self.below(n)


def fixed_hidden_cards(game: Game[Any, Any], options: Any, specs: list[SeatSpec], nonce: str, shape: PeerShape) -> bool:
    """Whether the set-up's hidden cards (which cards, in which private
    decks) never depend on the set-up's chance, as far as probes show: the
    rules set up with chance at both edges of every draw and with two more
    probe seeds all give `shape`. Then the deck is shuffled at the joins,
    one file sooner; otherwise it waits for the set-up (a late deck). The
    game declares nothing: every verifier checks at the set-up that the
    cards the genesis dealt are the set-up's (`setup.derive_peer_setup`),
    so probes that missed a dependence stop the game there, never leak."""
    names = [s.name for s in specs]
    chances: tuple[Chance, ...] = (_EdgeChance(False), _EdgeChance(True), *(peer_setup_chance(probe_seed(nonce, n)) for n in (1, 2)))
    try:
        return all(peer_shape(game, game.setup(options, specs, chance), names) == shape for chance in chances)
    except PbemError:
        return False


def _private_decks(proven: bool, context: Callable[[str], bytes], nonce: str, state: GameState,
                   private_decks: dict[str, str], contents: dict[str, list[str]], owner: str, scalar: bytes,
                   seed: bytes) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """`owner`'s commitments to its private decks, their proofs, and the
    places it seals to itself: its proven layer over them (version 6,
    `own_decks`: it reads the places back by decrypting), or a hash
    commitment to each place in a secret order."""
    if proven:
        zones = {zone: [it.ref for it in state.zones[zone].items] for zone, who in private_decks.items() if who == owner}
        points, proven_by = own_decks.lay(context, nonce, zones, contents, scalar)
        return points, proven_by, {}
    mapping = place_private(state, private_decks, contents, owner)
    return commit_private(seed, mapping), {}, mapping


def place_private(state: GameState, private_decks: dict[str, str], contents: dict[str, list[str]], owner: str) -> dict[str, str]:
    """Where each card of `owner`'s private decks lies: a secret random
    order only the owner knows (the draws are picked by the beacons)."""
    mapping: dict[str, str] = {}
    for zone, who in private_decks.items():
        if who == owner:
            refs = [it.ref for it in state.zones[zone].items]
            mapping.update(zip(refs, secret_order(contents[zone])))
    return mapping


def join(chain: ChainView, me: SecretIdentity) -> bytes:
    """This seat's join file: beacon anchor, shuffle layer, and the partial
    decryptions it owes once the deck is complete."""
    deck, shape = chain.deck, chain.shape
    assert deck is not None and shape is not None  # a peer game's chain: its deck, the set-up's shape
    if deck.next_to_join != me.name:
        raise WrongWriter(
            f"{me.name} cannot join now",
            hint=f"next to join: {deck.next_to_join}" if deck.next_to_join else "everyone has joined",
        )
    if deck.beacon_length != peer_deck.BEACON_LENGTH:  # the creator's choice, whatever the version: a short one kills the game
        raise ProtocolError(
            f"this game's beacon chains have {deck.beacon_length} links, which its creator chose: pbem joins only "
            f"games whose chains have its {peer_deck.BEACON_LENGTH} (renewed as they run out)",
            hint="ask its creator to make the game again with this pbem",
        )
    staged = deck.copy()
    scalar, layer = new_layer(me.name, deck.received() if not deck.late else [], None,
                              deck.proof_context(chain.seq + 1))
    seed, anchor = beacon.new_chain(deck.beacon_length)
    private, private_proofs, mapping = _private_decks(
        deck.proven_private, lambda name: proofs.context(deck, chain.seq + 1, name), deck.nonce, shape,
        dealing.private_decks(chain.game, shape, chain.seat_order), deck.private_contents, me.name, scalar, seed)
    join_info = Join(
        anchor=b64e(anchor),
        layer=layer,
        secret_box=secret_box(me, scalar, seed, chain.genesis.nonce, mapping),
        private=private,
        private_proofs=private_proofs,
    )
    staged.add_layer(layer, join_info.anchor, join_info.private, chain.seq + 1, join_info.private_proofs)
    link = None
    if chain.version.setup_from_links and deck.join_order[-1] == me.name:  # the last to join opens its first link
        link = b64e(staged.next_link(me.name, seed))
        staged.apply_link(me.name, link)
    return _write(chain, staged, me, scalar, [], join=join_info, beacon_link=link)


def turn(chain: ChainView, me: SecretIdentity, commands: list[Any],
         private_check: Callable[[GameState, Any], None] | None = None, tally: Sequence[BallotOpening] = ()) -> bytes:
    """A peer file by `me`: owed decryptions first, then `commands` (or the
    opening of its own ballot, `tally`)."""
    secrets = my_secrets(chain, me)
    if secrets is None:
        raise ProtocolError(f"{me.name} has not joined this game", hint="pbem join DIR GENESIS --as NAME")
    assert chain.deck is not None  # a peer game's
    staged = chain.deck.copy()
    seed = b64d(secrets.beacon_seed, 32)
    if chain.dealt and peer_rekey.due(chain) == me.name:  # a newcomer's first file: nothing else
        if commands or tally:
            raise ProtocolError(f"seat {me.name} was handed over to you: your fresh layers come first",
                                hint="pbem sync writes them")
        assert chain.public is not None  # dealt
        old_link = None  # from version 7 it reveals no link of the old player's chain
        if not chain.version.rekey_starts_chain:
            old_link = b64e(staged.next_link(me.name, seed, [b64d(s, 32) for s in secrets.renewals]))
            staged.apply_link(me.name, old_link)
        rekey = peer_rekey.make(staged, chain.public, me, chain.seq + 1)
        body = TurnBody(game_id=chain.game_id, seq=chain.seq + 1, prev=chain.head, by=me.name, beacon=old_link,
                        rekey=rekey, at=file_time(chain), state=state_hash(chain.public))
        return codec.encode_signed("turn", body, me)
    link = staged.next_link(me.name, seed, [b64d(s, 32) for s in secrets.renewals])
    staged.apply_link(me.name, b64e(link))
    renewal = peer_renewal.due(staged, me, chain.game_id, chain.seq + 1) if chain.dealt else None
    if renewal is not None:  # after this file's own link, which is still of the old chain
        peer_renewal.take(staged, me.name, renewal[0], chain.version)
        secrets = msgspec.structs.replace(secrets, renewals=[*secrets.renewals, b64e(renewal[1])])
    return _write(chain, staged, me, b64d(secrets.scalar, 32), commands, beacon_link=b64e(link), secrets=secrets,
                  private_check=private_check, tally=list(tally), renewal=renewal[0] if renewal else None)


def _write(chain: ChainView, staged: PeerDeck, me: SecretIdentity, scalar: bytes, commands: Sequence[Any], *,
           join: Join | None = None, beacon_link: str | None = None, secrets: PeerSecrets | None = None,
           private_check: Callable[[GameState, Any], None] | None = None, tally: Sequence[BallotOpening] = (),
           renewal: BeaconRenewal | None = None) -> bytes:
    """A peer file: before the set-up only a join or a link; the file whose
    link completes the set-up is checked against it (`Chain.set_up_as`)."""
    seq = chain.seq + 1
    setup = None if chain.dealt else stage_setup(chain, staged)
    if not chain.dealt and setup is None:  # a join or a set-up link, with nothing dealt yet
        if commands:
            raise ProtocolError("the game is not set up yet: no command can be played")
        body = TurnBody(game_id=chain.game_id, seq=seq, prev=chain.head, by=me.name, join=join, beacon=beacon_link,
                        at=file_time(chain), state=state_hash(None))
        return codec.encode_signed("turn", body, me)
    layer = None
    if staged.late and staged.next_to_layer == me.name:  # a late deck: this seat's layer is due
        layer = staged.late_layer(me.name, scalar, seq)
        staged.add_late_layer(layer, seq)
    return _write_dealt(chain.set_up_as(setup), staged, me, scalar, commands, join=join, beacon_link=beacon_link,
                        secrets=secrets, private_check=private_check, tally=tally, layer=layer, renewal=renewal)


def _write_dealt(chain: ChainView, staged: PeerDeck, me: SecretIdentity, scalar: bytes, commands: Sequence[Any], *,
                 join: Join | None = None, beacon_link: str | None = None, secrets: PeerSecrets | None = None,
                 private_check: Callable[[GameState, Any], None] | None = None, tally: Sequence[BallotOpening] = (),
                 layer: PokerLayer | None = None, renewal: BeaconRenewal | None = None) -> bytes:
    seq = chain.seq + 1
    parts = WriterParts(staged, me, scalar, held_partials(chain, me) if join is None else {}, secrets,
                        cards_known=lambda secrets: cards_known(chain, me, secrets))
    if join is None:
        parts.delivered = delivered_openings(chain, me)
    resume, _ = ballots.tally_resume(chain, me.name, tally, commands)
    result = run_file(chain, staged, me.name, commands, parts, seq, private_check, resume=resume)
    over = chain.game.outcome(result.effect.state) is not None or chain.now.ended is not None
    sealed = [
        SealedPartials(
            to=to,
            refs=[p.ref for p in partials],
            envelope=seal(canonical(partials), [chain.identity(to)], sealed_ad(chain.game_id, seq, to)),
        )
        for to, partials in parts.to_seal.items()
    ]
    body = TurnBody(
        game_id=chain.game_id,
        seq=seq,
        prev=chain.head,
        by=me.name,
        commands=[msgspec.Raw(canonical(c)) for c in commands],
        reveals=result.openings,
        join=join,
        partials=result.partials,
        sealed=sealed,
        beacon=beacon_link,
        renewal=renewal,
        layer=layer,
        secrets=parts.secrets if over and join is None else None,  # with what this file committed to
        tally=list(tally),
        at=file_time(chain),
        state=state_hash(result.effect.state),
        **peer_changes.body_parts(chain, parts, seq),
    )
    return codec.encode_signed("turn", body, me)
