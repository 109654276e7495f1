"""Peer decks that change during play (docs/protocol.md, "Reshuffles and
cards that change hands in peer games").

Two things a peer game's deck did not do at first:

* **Reshuffles.** The rules put cards into a hidden zone and shuffle it
  (`shuffle_zone`): after the file, refs have disappeared and fresh refs
  lie in that zone. In a peer game the rules' own shuffle is worth nothing
  (its chance is the beacons', which everyone can compute), so the cards
  are dealt again. Into the *shared* deck only face-up cards may go: their
  current points are the bare card points, and every seat in turn adds a
  fresh layer over them (obligations, written by `pbem sync`), exactly as
  at the join; the fresh refs are the last layer's points, in order. Into
  a *private* deck (`Dealing.private`) the owner, who knows the cards
  (they were face up or its own), commits to each fresh ref, as at the
  join, in its next file (or the same one if it wrote it).
* **Cards that change hands.** A card of seat A's hidden hand that goes to
  seat B: when only A's layer is still on it, A seals its partial
  decryption to B instead of publishing it (`files.owed`); a card of A's
  private deck is opened to B by A, sealed (a `Delivery`), and B checks the
  opening against A's commitment.

Games begun before version 2 keep their old behaviour (`DeckChanges.enabled`).
`PeerDeck.changes` holds the bookkeeping; every function here is called
from `files.run_file`, so writers and verifiers run the same code.

Reshuffles into the shared deck, and the check at the end of each file that
finds every change (`after_run`), are here; cards reshuffled into a private
deck (or a resealed hand) are `refills`'s. Since writers and verifiers must
run the same code, the writer's parts (its layer, made where a verifier
reads it from the file) sit beside the checks. What a seat opens of its own
is `knowledge`'s; the audit of the changes at the end is `audit`'s.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, cast

from pbem.crypto import poker
from pbem.crypto.encoding import b64d, b64e, canonical
from pbem.crypto.envelope import check_envelope, seal_ad
from pbem.crypto.seal import seal
from pbem.errors import CryptoError, FormatError, PbemError, ProtocolError
from pbem.protocol import dealing
from pbem.protocol.file_parts import Delivery
from pbem.protocol.peer_parts import PeerSecrets, ReshuffleLayer
from pbem.protocol.turn_parts import Obligation
from pbem.protocol.peer import proofs
from pbem.protocol.peer.reads import ChangingChain, ChangingDeck, MadeParts, Parts, making, reading
from pbem.protocol.peer.refills import Refill, commit_refill, public_cards, refill_memo_ad, register_refill

if TYPE_CHECKING:
    from pbem.games.base import GameState
    from pbem.protocol.transition import Effect


@dataclass
class Reshuffle:
    """Face-up cards the rules shuffled into the shared deck, dealt again:
    each seat adds a layer in turn (`seats`); then `refs[i]` is point i of
    the last layer."""

    zone: str
    refs: list[str]
    inputs: list[bytes]  # the bare points of the cards that went in
    seats: list[str]
    seq: int  # the file that shuffled them
    layers: list[ReshuffleLayer] = field(default_factory=list)
    files: list[int] = field(default_factory=list)  # the seq of each layer's file

    @property
    def next_seat(self) -> str | None:
        return self.seats[len(self.layers)] if len(self.layers) < len(self.seats) else None

    def points(self) -> list[bytes]:
        return [b64d(p, 32) for p in self.layers[-1].points] if self.layers else list(self.inputs)


@dataclass
class DeckChanges:
    enabled: bool = False  # genesis version 2 and later
    reshuffles: list[Reshuffle] = field(default_factory=list)
    refills: list[Refill] = field(default_factory=list)
    #: ref -> seat -> the key of that seat's layer, for reshuffled refs
    keys: dict[str, dict[str, bytes]] = field(default_factory=dict)
    index: dict[str, int] = field(default_factory=dict)  # ref -> its reshuffle
    #: version 7: ref -> the proven refill that made it (`proven_refills`)
    refilled: dict[str, int] = field(default_factory=dict)

    def copy(self) -> "DeckChanges":
        return DeckChanges(
            enabled=self.enabled,
            reshuffles=[dataclasses.replace(r, layers=list(r.layers), files=list(r.files)) for r in self.reshuffles],
            refills=[dataclasses.replace(f, opened=list(f.opened)) for f in self.refills],
            keys=dict(self.keys),  # each entry is replaced, never changed
            index=dict(self.index),
            refilled=dict(self.refilled),
        )

    def pending(self) -> Reshuffle | None:
        return next((r for r in self.reshuffles if r.next_seat is not None), None)


#: the deck as this module reads it (a `PeerDeck`)
Deck = ChangingDeck[DeckChanges]


class OwingChain(ChangingChain, Protocol):
    """The chain as `obligations` reads it: its deck too."""

    @property
    def deck(self) -> Deck | None: ...


def reshuffle_scalar_ad(game_id: str, seq: int) -> bytes:
    """What binds a reshuffle layer's scalar, sealed by its seat to itself."""
    return seal_ad(game_id, seq, "reshuffle scalar")


def openings_ad(game_id: str, seq: int, to: str) -> bytes:
    """What binds the openings of private-deck cards sealed to the seat they go to."""
    return seal_ad(game_id, seq, f"openings:{to}")


# --- what is owed ---------------------------------------------------------------


def obligations(chain: OwingChain) -> list[Obligation]:
    """The layers and commitments owed for reshuffled cards, in order: they
    come before anything else, so nobody draws from a deck not yet dealt."""
    assert chain.deck is not None  # a peer game's
    changes = chain.deck.changes
    out = []
    pending = changes.pending()
    seat = pending.next_seat if pending is not None else None
    if pending is not None and seat is not None and chain.outcome() is None:
        out.append(Obligation(by=seat, what="reshuffle", refs=list(pending.refs)))
    out += [Obligation(by=f.owner, what="commit", refs=list(f.refs)) for f in changes.refills if f.committed is None]
    return out


def take_due(chain: ChangingChain, deck: Deck, writer: str, parts: Parts, seq: int) -> None:
    """The start of a file: the writer's layer of a pending reshuffle, and
    its commitments to cards reshuffled into its private deck, if owed."""
    changes = deck.changes
    body = reading(parts)
    pending = changes.pending() if changes.enabled and chain.outcome() is None else None
    if pending is not None and pending.next_seat == writer:
        layer = body.reshuffle if body is not None else _make_layer(chain, deck, pending, writer, making(parts), seq)
        if layer is None:
            raise ProtocolError(f"{writer} owes its layer of the cards reshuffled into {pending.zone} and does not give it")
        _add_layer(deck, pending, writer, layer, seq)
    elif body is not None and body.reshuffle is not None:
        raise ProtocolError(f"{writer} adds a reshuffle layer, but none is due from it")
    for refill in changes.refills:
        if refill.committed is None and refill.owner == writer:
            commit_refill(chain, deck, refill, parts, seq, {})


def _make_layer(chain: ChangingChain, deck: Deck, pending: Reshuffle, writer: str, parts: MadeParts,
                seq: int) -> ReshuffleLayer:
    # A fresh scalar for every reshuffle, never the seat's join scalar or an
    # earlier one: the cards that went in were face up, so for each of them
    # the points k·P of every seat's layer k on that card are public (the
    # partials that revealed it). A reused k would map each bare card P to a
    # k·P that everyone has seen with its card's name, and with every seat
    # reusing its scalar the new deck's points would be the old deck's: the
    # new order readable by all. `_add_layer` refuses a key seen before.
    scalar = poker.new_scalar()
    index = deck.changes.reshuffles.index(pending)
    if deck.proven:
        points, proof = proofs.prove(proofs.context(deck, seq, proofs.reshuffle_deck(index)), pending.points(), scalar)
    else:
        points, proof = poker.shuffle_layer(scalar, pending.points()), None
    box = seal(scalar, [parts.identity.public], reshuffle_scalar_ad(chain.game_id, seq))
    parts.made.setdefault("layer_scalars", {})[index] = scalar
    parts.made["reshuffle"] = layer = ReshuffleLayer(
        key=b64e(poker.public_key(scalar)), points=[b64e(p) for p in points], box=box, proof=proof)
    return layer


def _used_keys(deck: Deck) -> set[bytes]:
    keys = set(deck.keys.values())
    for r in deck.changes.reshuffles:
        keys |= {b64d(layer.key, 32) for layer in r.layers}
    return keys


def _add_layer(deck: Deck, pending: Reshuffle, seat: str, layer: ReshuffleLayer, seq: int) -> None:
    what = f"{seat}'s layer of the cards reshuffled into {pending.zone}"
    before = pending.points()
    if len(layer.points) != len(before):
        raise ProtocolError(f"{what} has {len(layer.points)} cards, not {len(before)}")
    points = [poker.check_point(b64d(p, 32), f"{what}, point {i}") for i, p in enumerate(layer.points)]
    if len(set(points)) != len(points):
        raise ProtocolError(f"{what} repeats a card (a duplicated card)")
    key = poker.check_point(b64d(layer.key, 32), f"the key of {what}")
    if key in _used_keys(deck):
        raise ProtocolError(f"{what} reuses the scalar of an earlier layer: its key is not fresh")
    check_envelope(layer.box, readers=1)
    index = deck.changes.reshuffles.index(pending)
    proofs.check(deck, seq, proofs.reshuffle_deck(index), layer, before, points, what)
    pending.layers.append(layer)
    pending.files.append(seq)
    if pending.next_seat is None:  # complete: the fresh refs are the last layer's points
        keys = {s: b64d(lay.key, 32) for s, lay in zip(pending.seats, pending.layers)}
        for ref, point in zip(pending.refs, points):
            deck.points[ref] = point
            deck.remaining[ref] = set(pending.seats)
            deck.changes.keys[ref] = dict(keys)
            deck.changes.index[ref] = index


# --- the end of a file: did the rules reshuffle? ----------------------------------


def _shuffles(chance: object, fresh: list[str], before: dict[str, str],
              after: dict[str, str]) -> list[tuple[str | None, list[str], list[str]]]:
    """The file's reshuffles as ``(zone shuffled, fresh refs, refs that went
    in)``, one per shuffle the rules noted (`ShuffleNotes`). A card can
    vanish for another reason in the same command (a dead hero leaves the
    zones) and does not count as reshuffled; two reshuffles in one file
    (both seats' decks) are two. A ref a shuffle made and a later one took
    again stands for what went into the first. Without notes: one reshuffle
    of every ref that vanished, its zone left to `_register` to find."""
    vanished = [r for r in before if r not in after]
    notes = chance.shuffles_noted() if hasattr(chance, "shuffles_noted") else None
    if notes is None:
        return [(None, list(fresh), sorted(vanished))]
    made_from = {ref: old for _, made, old in notes for ref in made}

    def origins(refs: list[str]) -> Iterator[str]:
        for ref in refs:
            if ref in before:
                yield ref
            elif ref in made_from:  # fresh refs are new names: no cycle
                yield from origins(made_from[ref])

    out: list[tuple[str | None, list[str], list[str]]] = []
    covered: set[str] = set()
    fresh_set = set(fresh)
    for zone, made, old in notes:
        covered |= set(made)
        refs = sorted(r for r in made if r in fresh_set)
        if refs:
            out.append((zone, refs, sorted({r for r in origins(old) if r not in after})))
    rest = [r for r in fresh if r not in covered]
    if rest:  # new hidden refs no shuffle made: refused by `_register`
        out.append((None, rest, []))
    return out


def after_run(chain: ChangingChain, deck: Deck, writer: str, effect: Effect, parts: Parts, seq: int,
              chance: object = None) -> None:
    """After the file's commands: fresh refs in hidden zones where others
    disappeared are a reshuffle; register it (or refuse what peer dealing
    cannot follow). A file whose last command paused for chance commits
    ahead to the writer's own private deck that command reshuffles
    (`_commit_ahead`). A verifier then checks the file carried no extra part."""
    from pbem.games.base import refs_in

    changes = deck.changes
    body = reading(parts)
    if changes.enabled:
        assert chain.public is not None  # the game is set up
        before, after = refs_in(chain.public), refs_in(effect.state)
        fresh = sorted(r for r, z in after.items() if r not in before and not effect.state.zones[z].public)
        for zone, refs, gone in _shuffles(chance, fresh, before, after) if fresh else ():
            ahead = next((f for f in changes.refills if f.ahead and f.refs == refs), None)
            if ahead is None:
                _register(chain, deck, writer, effect, parts, seq, zone, refs, gone, after)
            elif ahead.gone != gone:
                raise ProtocolError(f"{ahead.zone}: the paused command reshuffled other cards than "
                                    f"{ahead.owner} committed to when it paused")
            else:
                ahead.ahead = False  # its commitments were in the file that paused
        resumed = (chain.paused is not None or chain.chance_blocked) and chain.resumes_chance(writer)
        left = [f for f in changes.refills if f.ahead and resumed]
        if left:
            raise ProtocolError(f"{left[0].zone}: the paused command did not reshuffle the cards {left[0].owner} "
                                "committed to when it paused")
        if (effect.paused is not None or effect.chance_blocked) and dealing.reshuffles_ahead(chain.game, effect.state):
            _commit_ahead(chain, deck, writer, effect, parts, seq)
    if body is not None:
        committed = {r for f in changes.refills if f.committed == seq and f.key is None for r in f.refs}
        layers = sum(1 for f in changes.refills if f.committed == seq and f.key is not None)
        if len(body.refills) != layers:
            raise ProtocolError(f"{writer}'s file carries {len(body.refills)} refill layers, not the {layers} it owes")
        if set(body.commitments) != committed:
            raise ProtocolError(f"{writer} must commit to exactly the cards reshuffled into its private deck: "
                                f"{', '.join(sorted(committed)) or 'none are due'}")
        if (body.memo is None) != (not committed):
            raise ProtocolError(f"{writer}'s file carries a memo exactly when it commits to reshuffled cards")


def _register(chain: ChangingChain, deck: Deck, writer: str, effect: Effect, parts: Parts, seq: int,
              zone: str | None, fresh: list[str], gone: list[str], after: dict[str, str]) -> None:
    """One reshuffle of the file into `zone` (the zone the rules shuffled;
    None: the one most of the fresh refs lie in, or a private deck among
    them), into a private deck or the shared one."""
    zones = {after[r] for r in fresh}
    private = dealing.private_decks(chain.game, effect.state, chain.seat_order)
    if zone is None:
        zone = next((z for z in sorted(zones) if z in private), None) or Counter(after[r] for r in fresh).most_common(1)[0][0]
    if len(gone) != len(fresh):
        raise ProtocolError(f"{zone}: {len(fresh)} new hidden cards where {len(gone)} went: "
                            "peer games can follow only a reshuffle of cards already in the game")
    owner = private.get(zone) or _holder(chain, effect.state, zone)
    if owner is not None:
        register_refill(chain, deck, writer, effect, parts, seq, zone, owner, fresh, gone, zones)
    else:
        _register_reshuffle(chain, deck, zone, fresh, gone, seq)


def _holder(chain: ChangingChain, state: GameState, zone: str) -> str | None:
    """The seat whose hidden zone `zone` is (a hand: its first reader; the
    rules add a seat that looks at it after), where the rules renamed its
    cards (Codex reseals a hand another seat looked at, so the looker
    cannot follow its cards): from version 6 (`resealed_zones`) that seat
    re-commits to them in a secret order, as to a refill of its private
    deck (a seat that looks at it again in the same file is then dealt
    the new refs by it, as for any look). None: nobody reads it, or the
    game is older (a shared deck's reshuffle, then)."""
    readers = state.zones[zone].readers
    return readers[0] if chain.version.resealed_zones and readers else None


def _commit_ahead(chain: ChangingChain, deck: Deck, writer: str, effect: Effect, parts: Parts, seq: int) -> None:
    """The file's last command paused for chance (a draw the writer may not
    foresee), or the rules' `advance` after it did (Codex: Surplus's upkeep
    draw after the tech step), and before that chance the rules reshuffle
    into the writer's own private deck, which they then draw from (Codex: a
    draw that empties the deck goes on from the reshuffled discard pile).

    The answer that supplies the chance runs the command, but its writer
    cannot commit to another seat's deck, and the draw may not wait for the
    owner's next file (its chance is already drawn). So the owner commits
    here, in the file that paused: the rules are probed on the public state
    with placeholder chance to learn which cards go in under which fresh
    refs, which must not depend on the chance (the answer checks that they
    do not: `after_run`). The commitments are signed before the chance that
    picks the drawn places exists, so the owner cannot fit its order to it.
    Only for games that declare it (`Dealing.reshuffle_ahead`); anything else
    (another seat's deck, a probe that fails) is left to the answer, which
    refuses what peer dealing cannot follow."""
    from pbem.games.base import overlay, refs_in
    from pbem.protocol.chance import PlayChance, StandInChance, Tape

    state = after_state = overlay(effect.state, dict(effect.revealed)) if effect.revealed else effect.state
    probe = PlayChance(Tape(bytes(32), "probe"), secret=StandInChance(), draws_public=True)
    try:
        if effect.paused is not None:
            after_state = chain.game.apply(state, writer, effect.paused, probe)
        after_state = chain.game.advance(after_state, probe)  # the automatic steps the answer settles
    except PbemError:
        if after_state is state:
            return
    before, after = refs_in(effect.state), refs_in(after_state)
    fresh = sorted(r for r, z in after.items() if r not in before and not after_state.zones[z].public)
    private = dealing.private_decks(chain.game, after_state, chain.seat_order)
    public = set(chain.revealed) | set(effect.revealed)
    known = deck.knows(writer)
    for zone, refs, gone in _shuffles(probe, fresh, before, after) if fresh else ():
        if zone is None:
            zone = next((z for z in sorted({after[r] for r in refs}) if z in private), None)
        if (zone is None or private.get(zone) != writer or len(gone) != len(refs)
                or any(g not in public and g not in known for g in gone)):
            continue  # left to the answer, which refuses what peer dealing cannot follow
        refill = Refill(zone=zone, owner=writer, refs=refs, gone=gone, seq=seq, ahead=True,
                        cards=public_cards(gone, {**chain.revealed, **effect.revealed}))
        deck.changes.refills.append(refill)
        commit_refill(chain, deck, refill, parts, seq, dict(effect.revealed))


def _register_reshuffle(chain: ChangingChain, deck: Deck, zone: str, fresh: list[str], gone: list[str],
                        seq: int) -> None:
    hidden = [g for g in gone if g not in deck.points or deck.remaining.get(g)]
    if hidden:
        raise ProtocolError(
            f"{zone}: peer games can reshuffle only face-up cards into a shared deck "
            f"({', '.join(hidden)} {'is' if len(hidden) == 1 else 'are'} not)",
            hint="the rules must reveal the cards they shuffle back, or the game needs a dealer",
        )
    deck.changes.reshuffles.append(
        Reshuffle(zone=zone, refs=fresh, inputs=[deck.points[g] for g in gone], seats=list(chain.seat_order), seq=seq))


# --- the writer's side -------------------------------------------------------------


def body_parts(chain: ChangingChain, parts: MadeParts, seq: int) -> dict[str, Any]:
    """The parts `peer_changes` adds to a writer's file: its reshuffle
    layer, commitments and their memo, openings sealed to new holders."""
    made = parts.made
    out: dict[str, Any] = {}
    if "reshuffle" in made:
        out["reshuffle"] = made["reshuffle"]
    if made.get("refill_layers"):
        out["refills"] = made["refill_layers"]
    if made.get("commitments"):
        out["commitments"] = made["commitments"]
        out["memo"] = seal(canonical(made["mapping"]), [parts.identity.public], refill_memo_ad(chain.game_id, seq))
    if parts.to_deliver:
        out["deliveries"] = [
            Delivery(to=to, refs=[o.ref for o in openings],
                     envelope=seal(canonical(openings), [chain.identity(to)], openings_ad(chain.game_id, seq, to)))
            for to, openings in parts.to_deliver.items()
        ]
    return out


def scalar_for(deck: Deck, seat: str, ref: str, secrets: PeerSecrets | None,
               made: dict[str, Any]) -> bytes | None:
    """`seat`'s scalar of its layer on a reshuffled or (version 7) refilled
    `ref` (None: its join scalar)."""
    if ref in deck.changes.refilled:
        from pbem.protocol.peer import proven_refills

        return proven_refills.scalar_for(cast("proven_refills.RefillDeck", deck), ref, secrets, made)
    index = deck.changes.index.get(ref)
    if index is None:
        return None
    if index in made.get("layer_scalars", {}):
        scalar: bytes = made["layer_scalars"][index]
        return scalar
    assert secrets is not None  # a seat that added layers has its secrets
    mine = sum(1 for r in deck.changes.reshuffles[:index] for s in r.seats[:len(r.layers)] if s == seat)
    return b64d(secrets.layers[mine], 32)


# --- the end of the game ------------------------------------------------------------


def check_published(deck: Deck, seat: str, secrets: PeerSecrets) -> None:
    """A seat's published reshuffle scalars: one per layer it added, each
    the scalar of that layer's key."""
    keys = [b64d(r.layers[i].key, 32) for r in deck.changes.reshuffles for i in range(len(r.layers)) if r.seats[i] == seat]
    if len(secrets.layers) != len(keys):
        raise ProtocolError(f"{seat} publishes {len(secrets.layers)} reshuffle scalars, not the {len(keys)} of its layers")
    for i, (scalar, key) in enumerate(zip(secrets.layers, keys)):
        try:
            poker.check_key(b64d(scalar, 32), key)
        except (CryptoError, FormatError):
            raise ProtocolError(f"{seat}'s published scalar of its reshuffle layer {i + 1} is not the one of its key") from None
