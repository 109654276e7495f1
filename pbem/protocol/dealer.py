"""The dealer: the party that owns every hidden and chance zone.

In the hotseat and referee modes (DESIGN.md section 5) one identity holds a
master seed. The seed drives the set-up shuffle and every salt, so the whole
game is determined by it; the genesis carries a commitment to it (and the
seed itself sealed to the dealer's own key, so the dealer needs no other
storage). The dealer answers its obligations (reveal what must become public,
deliver to each seat the cards it may now see) and publishes the seed when
the game ends, after which `pbem audit` can replay everything.

Hotseat is the same dealer with its key kept in the game folder: one process
holds everything, which is exactly what hotseat means.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from pbem.crypto.commit import commit
from pbem.crypto.envelope import Envelope
from pbem.crypto.encoding import b64d, b64e, canonical
from pbem.crypto.keys import PublicIdentity, SecretIdentity
from pbem.crypto.limits import check_limits
from pbem.crypto.seal import open_envelope, seal, seal_ad
from pbem.crypto.stream import derive
from pbem.errors import InvalidOption, ProtocolError, SealError
from pbem.games.base import Game, GameState, Hidden, Known, SeatSpec, overlay, project, unknown_to, unrevealed_public
from pbem.protocol.chance import PlayChance, Tape, public_chance_seed, secret_chance, tape_label
from pbem.protocol import codec, transition, versions
from pbem.protocol.chain import Chain
from pbem.protocol.clock import file_time, now, stamp
from pbem.protocol.commitments import item_bytes, state_hash
from pbem.protocol.setup import dealer_setup_chance, public_setup_seed
from pbem.protocol.setup import game_seed as setup_game_seed
from pbem.protocol.file_parts import DealerInfo, Delivery, Opening, SeatEntry, SeedOpening
from pbem.protocol.formats import PROTOCOL_VERSION, GenesisBody, TurnBody
from pbem.protocol.long_parts import Pace

if TYPE_CHECKING:
    from pbem.protocol.head import ChainView, Record
    from pbem.protocol.transition import Effect
    from pbem.protocol.turn_parts import BallotOpening

SEED_BOX_AD = b"pbem/1 dealer seed"
_openings_decoder = msgspec.json.Decoder(list[Opening])


def salt_for(seed: bytes, ref: str) -> bytes:
    """Every commitment's salt comes from the seed, so the audit can redo them."""
    return derive(seed, b"salt " + ref.encode())


def opening_for(seed: bytes, ref: str, card: str) -> Opening:
    return Opening(ref=ref, card=card, salt=b64e(salt_for(seed, ref)))


def delivery_ad(chain_or_commitment: str, seq: int, to: str) -> bytes:
    return seal_ad(chain_or_commitment, seq, f"deliver:{to}")


def genesis_ad_key(seed_commitment: str) -> str:
    """The genesis cannot name its own game id, so its envelopes bind the
    (unique, random-salted) seed commitment instead."""
    return f"genesis:{seed_commitment}"


PAD_BLOCK = 256


def padded(payload: bytes) -> bytes:
    """Pad with JSON whitespace to a multiple of `PAD_BLOCK` bytes.

    Without it the size of a sealed delivery would tell everyone the length
    of the card names inside ("Mole" is shorter than "Double Agent"); the
    number of cards is public anyway (the refs are listed in clear).
    """
    return payload + b" " * (-len(payload) % PAD_BLOCK)


def seal_openings(openings: list[Opening], reader: PublicIdentity, ad: bytes) -> Envelope:
    return seal(padded(canonical(openings)), [reader], ad)


def open_openings(envelope: Envelope, secret: SecretIdentity, ad: bytes) -> list[Opening]:
    payload = open_envelope(envelope, secret, ad)
    check_limits(payload, "a sealed delivery")
    try:
        return _openings_decoder.decode(payload)
    except (msgspec.DecodeError, msgspec.ValidationError):
        raise SealError("a sealed delivery holds garbage") from None


def full_setup(game: Game[Any, Any], options: Any, seats: list[SeatSpec], seed: bytes, setup_seed: bytes | None) -> GameState:
    """The complete initial state, exactly as the dealer and the audit make it
    (public chance from `setup_seed`, secret chance from the master seed)."""
    full: GameState = game.setup(options, seats, dealer_setup_chance(seed, setup_seed))
    return full


def make_genesis(
    game: Game[Any, Any],
    options: Any,
    seats: list[tuple[SeatSpec, PublicIdentity]],
    mode: Literal["hotseat", "referee"],
    dealer: SecretIdentity,
    seed: bytes,
    created_at: str | None = None,
    pace: Pace | None = None,
    referee_handover: bool = False,
) -> bytes:
    """Set the game up with the seed and write the signed genesis file
    (`referee_handover`: the seats let the referee hand a vanished seat over)."""
    specs = [spec for spec, _ in seats]
    if any(spec.name == dealer.name for spec in specs):
        raise InvalidOption(f"the dealer's name {dealer.name!r} cannot also be a seat")
    if mode == "referee":
        return _genesis_dealt_after_joins(game, options, seats, dealer, seed, created_at, pace, referee_handover)
    if referee_handover:
        raise InvalidOption("only a referee may be let hand a seat over (--referee-handover needs --dealer referee)")
    setup_seed = public_setup_seed(seed)
    full = full_setup(game, options, specs, seed, setup_seed)
    cards = {it.ref: it.card for zone in full.zones.values() for it in zone.items if isinstance(it, Known)}
    commitments = {ref: commit(salt_for(seed, ref), item_bytes(ref, card)) for ref, card in cards.items()}
    initial = project(full, set())  # every item hidden: verifiers rebuild exactly this
    reveals = [opening_for(seed, ref, cards[ref]) for ref in unrevealed_public(initial)]
    public = overlay(initial, {o.ref: o.card for o in reveals})
    seed_commitment, box = _seed_box(dealer, seed)
    ad_key = genesis_ad_key(seed_commitment)
    revealed = {o.ref for o in reveals}
    deliveries = []
    for spec, ident in seats:
        refs = unknown_to(public, spec.name, revealed)
        if refs:
            openings = [opening_for(seed, ref, cards[ref]) for ref in refs]
            deliveries.append(
                Delivery(to=spec.name, refs=refs, envelope=seal_openings(openings, ident, delivery_ad(ad_key, 0, spec.name)))
            )
    body = GenesisBody(
        game=game.info.name,
        rules_version=game.info.rules_version,
        options=msgspec.Raw(canonical(options)),
        seats=[SeatEntry(name=spec.name, role=spec.role, identity=ident) for spec, ident in seats],
        dealer=DealerInfo(mode=mode, identity=dealer.public, seed_commitment=seed_commitment, seed_box=box),
        initial=msgspec.Raw(canonical(initial)),
        commitments=commitments,
        reveals=reveals,
        deliveries=deliveries,
        state=state_hash(public),
        created_at=created_at or stamp(now()),
        pace=pace,
        nonce=b64e(os.urandom(16)),
        setup_seed=b64e(setup_seed),
        version=PROTOCOL_VERSION,
    )
    return codec.encode_signed("genesis", body, dealer)


def _seed_box(dealer: SecretIdentity, seed: bytes) -> tuple[str, Envelope]:
    seed_salt = os.urandom(32)
    seed_commitment = commit(seed_salt, seed)
    box = seal(canonical(SeedOpening(seed=b64e(seed), salt=b64e(seed_salt))), [dealer.public], SEED_BOX_AD + seed_commitment.encode())
    return seed_commitment, box


def _genesis_dealt_after_joins(game: Game[Any, Any], options: Any, seats: list[tuple[SeatSpec, PublicIdentity]],
                               dealer: SecretIdentity, seed: bytes, created_at: str | None,
                               pace: Pace | None = None, referee_handover: bool = False) -> bytes:
    """A referee's genesis: the options, the seats and its commitment to
    its master seed, but no set-up. Every seat then joins with a fresh
    contribution, and the referee deals from the seed of them all
    (`pbem.protocol.setup.game_seed`): it cannot try seeds until the deal
    suits a friend, nor can the last seat to join aim it."""
    seed_commitment, box = _seed_box(dealer, seed)
    chance_key = None
    if versions.of(PROTOCOL_VERSION).proven_chance:
        from pbem.protocol import referee_chance  # PyNaCl: referee games of version 7 only

        chance_key = referee_chance.public_key(seed)
    body = GenesisBody(
        game=game.info.name,
        rules_version=game.info.rules_version,
        options=msgspec.Raw(canonical(options)),
        seats=[SeatEntry(name=spec.name, role=spec.role, identity=ident) for spec, ident in seats],
        dealer=DealerInfo(mode="referee", identity=dealer.public, seed_commitment=seed_commitment, seed_box=box,
                          chance_key=chance_key),
        initial=msgspec.Raw(b"null"),
        commitments={},
        state=state_hash(None),
        created_at=created_at or stamp(now()),
        pace=pace,
        nonce=b64e(os.urandom(16)),
        version=PROTOCOL_VERSION,
        referee_handover=referee_handover,
    )
    return codec.encode_signed("genesis", body, dealer)


def deal(chain: Chain, dealer: SecretIdentity, master: bytes) -> bytes:
    """The referee's deal, once every seat has joined: the set-up from the
    game seed, a commitment to every item, the face-up cards revealed and
    each seat's cards sealed to it."""
    seed = game_seed(chain, master)
    setup_seed, proof = public_draw(chain, master, seed, None)
    full = full_setup(chain.game, chain.options, chain.seat_specs(), seed, setup_seed)
    cards = cards_of(full)
    commitments = {ref: commit(salt_for(master, ref), item_bytes(ref, card)) for ref, card in cards.items()}
    initial = project(full, set())
    reveals = [opening_for(master, ref, cards[ref]) for ref in unrevealed_public(initial)]
    public = overlay(initial, {o.ref: o.card for o in reveals})
    revealed = {o.ref for o in reveals}
    seq = chain.seq + 1
    deliveries = []
    for name in chain.seat_order:
        refs = unknown_to(public, name, revealed)
        if refs:
            openings = [opening_for(master, ref, cards[ref]) for ref in refs]
            env = seal_openings(openings, chain.identity(name), delivery_ad(chain.game_id, seq, name))
            deliveries.append(Delivery(to=name, refs=refs, envelope=env))
    body = TurnBody(
        game_id=chain.game_id, seq=seq, prev=chain.head, by=dealer.name, commitments=commitments, reveals=reveals,
        deliveries=deliveries, setup_seed=b64e(setup_seed), chance_proof=proof, at=file_time(chain),
        state=state_hash(public),
    )
    return codec.encode_signed("turn", body, dealer)


def proves_chance(chain: ChainView) -> bool:
    """The referee's public chance is proven at once (version 7)."""
    return chain.version.proven_chance and chain.dealer_mode == "referee"


def public_draw(chain: ChainView, master: bytes, seed: bytes, seq: int | None) -> tuple[bytes, str | None]:
    """The seed of the dealer's public chance in its file at `seq` (None:
    the deal's public set-up seed), and its proof where the game proves it:
    from version 7 a referee's is its verifiable random function's output
    for the draw (`referee_chance`); otherwise it is derived from the game
    seed, which the audit checks."""
    if not proves_chance(chain):
        return (public_setup_seed(seed) if seq is None else public_chance_seed(seed, seq)), None
    from pbem.protocol import referee_chance  # PyNaCl: referee games of version 7 only

    name = referee_chance.SET_UP if seq is None else referee_chance.play_draw(chain.now.chance_draws + 1)
    out, proof = referee_chance.draw(master, chain.game_id, [chain.contributions[s] for s in chain.seat_order], name)
    return out, b64e(proof)


def contribution(chain: Chain, seat: SecretIdentity) -> bytes:
    """A seat's join file of a game dealt after its joins: fresh randomness
    for the game seed (public: without the referee's secret seed it tells
    nobody anything about the deal)."""
    body = TurnBody(
        game_id=chain.game_id, seq=chain.seq + 1, prev=chain.head, by=seat.name,
        contribution=b64e(os.urandom(32)), at=file_time(chain), state=state_hash(None),
    )
    return codec.encode_signed("turn", body, seat)


def open_seed_box(chain: Chain, dealer: SecretIdentity) -> SeedOpening:
    info = chain.genesis.dealer
    assert info is not None  # a dealt game's genesis names its dealer
    payload = open_envelope(info.seed_box, dealer, SEED_BOX_AD + info.seed_commitment.encode())
    check_limits(payload, "the dealer's seed box")
    return msgspec.json.decode(payload, type=SeedOpening)


def dealer_openings(chain: Chain, seed: bytes, dealer: SecretIdentity | None = None) -> dict[str, Opening]:
    """Every opening of the game: the set-up's, recomputed from the seed,
    and (with the dealer's key) those of the items it committed to during
    play, from the memos it sealed to itself."""
    if not chain.dealt:
        return {}
    key = (chain.game_id, seed, chain.setup_seed)
    setup = _SETUP_OPENINGS.get(key)
    if setup is None:
        full = full_setup(chain.game, chain.options, chain.seat_specs(), game_seed(chain, seed), chain.setup_seed)
        setup = {it.ref: opening_for(seed, it.ref, it.card)
                 for zone in full.zones.values() for it in zone.items if isinstance(it, Known)}
        if len(_SETUP_OPENINGS) >= _MAX_REMEMBERED:
            _SETUP_OPENINGS.clear()
        _SETUP_OPENINGS[key] = setup
    out = dict(setup)
    if dealer is not None:
        for record in chain.records[1:]:
            body = record.body
            if record.by == chain.dealer_name and isinstance(body, TurnBody) and body.memo is not None:
                memo = opened_once(body.memo, dealer, memo_ad(chain.game_id, record.seq))
                out.update({o.ref: o for o in memo})
    return out


#: (game id, seed, set-up seed) -> the set-up's openings: a process (the
#: demo, a hotseat game's commands) recomputes the set-up once
_SETUP_OPENINGS: dict[tuple[str, bytes, bytes | None], dict[str, Opening]] = {}
#: (recipient's sealing key, digest of the sealed bytes and their associated
#: data) -> the openings inside: a process opens each delivery or memo once,
#: however often it builds a party
_OPENED: dict[tuple[str, bytes], list[Opening]] = {}
_MAX_REMEMBERED = 20_000
#: what earlier processes opened with a key, where the app layer keeps it
#: (`pbem.home.opened`, encrypted under a key only that private key gives):
#: called with the key on its first delivery, it returns digest -> openings
#: (a dict the app layer saves again with what this process added to it)
remembered: Callable[[SecretIdentity], dict[bytes, list[Opening]]] | None = None


def sealed_digest(envelope: Envelope, ad: bytes) -> bytes:
    """What names one sealed delivery or memo to its recipient: the same
    bytes under the same associated data open to the same openings."""
    from hashlib import blake2b

    return blake2b(msgspec.json.encode(envelope) + b"\n" + ad, digest_size=32, person=b"pbem-sealed").digest()


def opened_once(envelope: Envelope, secret: SecretIdentity, ad: bytes) -> list[Opening]:
    """`open_openings`, remembered for this process, and (through
    `remembered`) from one command to the next: nothing is decrypted twice."""
    digest = sealed_digest(envelope, ad)
    key = (secret.public.seal, digest)
    found = _OPENED.get(key)
    if found is None:
        kept = remembered(secret) if remembered is not None else {}
        found = kept.get(digest)
        if found is None:
            found = kept[digest] = open_openings(envelope, secret, ad)
        if len(_OPENED) >= _MAX_REMEMBERED:
            _OPENED.clear()
        _OPENED[key] = found
    return list(found)


def memo_ad(game_id: str, seq: int) -> bytes:
    return seal_ad(game_id, seq, "memo")


def game_seed(chain: Chain, master_seed: bytes) -> bytes:
    """The seed every chance result derives from: in a game dealt after
    its joins, the master seed and every seat's contribution; otherwise the
    master seed itself (hotseat, and referee games of version 1)."""
    assert chain.genesis.dealer is not None  # a dealt game's genesis names its dealer
    if chain.genesis.dealer.mode == "referee" and chain.version.contributions:
        return setup_game_seed(master_seed, [chain.contributions[s] for s in chain.seat_order])
    return master_seed


def replay_full(chain: Chain, record: Record, cards: dict[str, str], seed: bytes) -> GameState:
    """A seat's file replayed on the full state, with the dealer's real
    secret chance: what its shuffles really dealt (`cards` must hold every
    item that existed before it)."""
    assert record.before is not None  # a seat's file of a game dealt
    effect = transition.run(
        chain.game,
        overlay(record.before, cards),
        record.by,
        record.commands,
        source=cards.get,
        writer_knows=lambda st: set(cards),
        chance=PlayChance(Tape(None, ""), secret=secret_chance(seed, record.seq)),
        keep_fresh=True,
    )
    return effect.state


def cards_of(state: GameState) -> dict[str, str]:
    return {it.ref: it.card for zone in state.zones.values() for it in zone.items if isinstance(it, Known)}


def dealer_effects(chain: ChainView, seed: bytes, cards: dict[str, str], seq: int,
                   resume: Sequence[tuple[str, Any]], pseed: bytes | None = None) -> tuple[Effect, dict[str, str]]:
    """The dealer's own file at `seq`, run on the public state (what it
    writes) and on the full state (what its shuffles deal): the effect and
    the cards of every item. `pseed` is the seed of its public chance
    (None: the one the game seed gives, as before version 7)."""
    if pseed is None:
        pseed = public_chance_seed(seed, seq)
    label = tape_label(seq, proves_chance(chain))
    state, dealer = chain.public, chain.dealer_name
    assert state is not None and dealer is not None  # the dealer's file in a game dealt
    public = transition.run(
        chain.game, state, dealer, [], source=cards.get, writer_knows=lambda st: set(cards),
        chance=PlayChance(Tape(pseed, label)), resume=resume,
    )
    full = transition.run(
        chain.game, overlay(state, cards), dealer, [], source=cards.get,
        writer_knows=lambda st: set(cards),
        chance=PlayChance(Tape(pseed, label), secret=secret_chance(seed, seq)),
        resume=resume, keep_fresh=True,
    )
    return public, {**cards, **cards_of(full.state)}


def open_ballots(chain: Chain, dealer: SecretIdentity) -> list[BallotOpening]:
    """Every ballot of the vote, opened, in seat order, once all are in."""
    from pbem.protocol.ballots import open_ballot

    if not chain.tally_due():
        return []
    return [
        open_ballot(chain.records[seq].body.vote, dealer, chain.game_id, seq, seat)
        for seat, (_, seq) in sorted(chain.ballots.items(), key=lambda kv: chain.seat_order.index(kv[0]))
    ]


def _void_file(chain: Chain, dealer: SecretIdentity) -> bytes | None:
    """From protocol version 4, before a tally: the file voiding the
    ballots the dealer cannot tally, if any (`ballots.voids`)."""
    from pbem.protocol.ballots import voids

    if not chain.version.void_ballots or not chain.tally_due() or chain.paused is not None:
        return None
    void = voids(chain, dealer)
    if not void:
        return None
    body = TurnBody(game_id=chain.game_id, seq=chain.seq + 1, prev=chain.head, by=dealer.name, void=void,
                    at=file_time(chain), state=state_hash(chain.public))
    return codec.encode_signed("turn", body, dealer)


def answer(chain: Chain, dealer: SecretIdentity) -> bytes | None:
    """The dealer's next file, or None when it owes nothing."""
    if chain.dealer_name != dealer.name or chain.dealer_name not in chain.writers():
        return None
    seed_opening = open_seed_box(chain, dealer)
    master = b64d(seed_opening.seed, 32)
    if not chain.dealt:
        return deal(chain, dealer, master)
    seed = game_seed(chain, master)
    openings = dealer_openings(chain, master, dealer)
    cards = {ref: o.card for ref, o in openings.items()}
    seq = chain.seq + 1
    if chain.uncommitted():  # the last file shuffled: learn what it dealt
        cards.update(cards_of(replay_full(chain, chain.records[-1], cards, seed)))
    void = _void_file(chain, dealer)
    if void is not None:
        return void
    tally = open_ballots(chain, dealer)
    resume = [chain.paused] if chain.paused else [(o.seat, chain.decode_command(o.command)) for o in tally]
    pseed, proof = public_draw(chain, master, seed, seq)
    effect, cards = dealer_effects(chain, seed, cards, seq, resume, pseed)
    hidden = [it.ref for zone in effect.state.zones.values() for it in zone.items if isinstance(it, Hidden)]
    new = [ref for ref in dict.fromkeys(hidden + list(effect.revealed)) if ref not in chain.commitments]
    fresh = {ref: opening_for(master, ref, cards[ref]) for ref in new}
    openings.update(fresh)
    revealed = set(chain.revealed) | set(effect.revealed)
    deliveries = []
    for name in chain.seat_order:
        refs = unknown_to(effect.state, name, chain.known[name] | revealed)
        if refs:
            ad = delivery_ad(chain.game_id, seq, name)
            env = seal_openings([openings[r] for r in refs], chain.identity(name), ad)
            deliveries.append(Delivery(to=name, refs=refs, envelope=env))
    over = chain.game.outcome(effect.state) is not None or chain.now.ended is not None
    body = TurnBody(
        game_id=chain.game_id,
        seq=seq,
        prev=chain.head,
        by=dealer.name,
        reveals=[openings[r] for r in effect.revealed],
        deliveries=deliveries,
        commitments={ref: commit(b64d(o.salt, 32), item_bytes(ref, o.card)) for ref, o in fresh.items()},
        seed=seed_opening if over else None,
        chance=b64e(pseed) if effect.drew_chance else None,
        chance_proof=proof if effect.drew_chance else None,
        memo=seal_openings(list(fresh.values()), dealer.public, memo_ad(chain.game_id, seq)) if fresh else None,
        tally=tally,
        at=file_time(chain),
        state=state_hash(effect.state),
    )
    if not (body.reveals or body.deliveries or body.seed or body.commitments or body.chance or body.tally):
        raise ProtocolError("the dealer has nothing to answer")  # writers() said otherwise: a bug
    return codec.encode_signed("turn", body, dealer)


def hotseat_dealer() -> SecretIdentity:
    return SecretIdentity.generate("dealer")

