"""The end-of-game audit of a peer game, once every seat published its
secrets (`PeerSecrets`): every shuffle layer checked with its published
scalar (the two-faced deck's with `faces.audit`), every card of the shared
deck decrypted, each private deck's cards taken from their owner's
published places, and the decks changed during play checked too
(`_audit_changes`: reshuffle layers, refills). `pbem.app.audit` then
replays the game knowing every card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from pbem.crypto import poker
from pbem.crypto.encoding import b64d
from pbem.errors import CryptoError, FormatError, PbemError
from pbem.protocol.formats import TurnBody
from pbem.protocol.head import ChainView
from pbem.protocol.peer import faces as peer_faces
from pbem.protocol.peer.proven_refills import order_seed
from pbem.protocol.peer.refills import derived_order
from pbem.protocol.peer.rekey import scalar_of
from pbem.protocol.peer.deck import PeerDeck

#: the name of the file at (seq, by), for a failure to name
FileName = Callable[[int, str], str]


def audit(chain: ChainView, file_of: FileName, genesis: str) -> tuple[dict[str, str] | None, int, list[str]]:
    """Every card of the game that can be known (None when a layer is
    false), the checks made, and the failures.

    A seat that never published its secrets is named, and everything else
    is still cleared: each layer is checked with its own seat's scalar
    (and, from protocol version 5, was proven when it arrived), and every
    card on which no silent seat's layer remains is decrypted, so the
    replay still judges the other seats' face-down plays. What stays
    unchecked is only what the silent seat's secrets hold: the cards it
    alone could still read, its private decks' places and its beacon seed.
    """
    deck, setup = chain.deck, chain.genesis.peer
    assert deck is not None and setup is not None  # a peer game's
    failures: list[str] = []
    checks = 0
    layer_file = {setup.creator: genesis}
    turns = [(rec, rec.body) for rec in chain.records[1:] if isinstance(rec.body, TurnBody)]  # all but the genesis
    for rec, body in turns:
        if body.join is not None:
            layer_file[rec.by] = file_of(rec.seq, rec.by)
    silent = [s for s in chain.seat_order if s not in deck.secrets]
    for seat in silent:
        failures.append(f"{seat} has not published its secrets: the cards only it could still read, its private "
                        "decks and its beacon seed cannot be checked (every other seat's are)")
    scalars = {s: b64d(deck.secrets[s].scalar, 32) for s in chain.seat_order if s not in silent}
    if deck.late:  # the layers came after the set-up, one file each
        files = [file_of(rec.seq, rec.by) for rec, body in turns if body.layer is not None]
    else:
        files = [layer_file[layer.seat] for layer in deck.layers]
    before = deck.starting_points()
    if deck.faces is not None:  # the two-faced deck's pair layers: every layer needs both scalars
        if not silent:
            done, found = peer_faces.audit(deck, scalars, files)
            checks += done
            failures += found
        before = [b64d(p, 32) for p in deck.layers[-1].points]
    for layer, where in zip(deck.layers if deck.faces is None else (), files):
        after = [b64d(p, 32) for p in layer.points]
        if layer.seat in scalars:  # each layer needs its own seat's scalar only
            checks += 1
            try:
                poker.check_layer(scalars[layer.seat], before, after)
            except (CryptoError, FormatError) as exc:
                failures.append(f"{where} (signed by {layer.seat}): shuffle layer: {exc.message}")
        before = after
    if len(failures) > len(silent):
        return None, checks, failures
    cards: dict[str, str] = {}
    if silent:
        checks += _readable(deck, list(deck.points), cards, failures)
    else:
        for ref, point in zip(deck.slots, before):
            for seat in chain.seat_order:
                point = poker.decrypt(scalars[seat], point)
            cards[ref] = deck.identify(point)[0]
            checks += 1
        checks += _readable(deck, list(deck.own), cards, failures)  # private decks proven in the joins (version 6)
    for seat in deck.secrets:  # private decks: checked when published
        cards.update(deck.secrets[seat].private)
        checks += len(deck.secrets[seat].private)
    checks += _audit_changes(chain.game_id, deck, cards, failures, file_of, bool(silent))
    return cards, checks, failures


def _readable(deck: PeerDeck, refs: list[str], cards: dict[str, str], failures: list[str]) -> int:
    """Each card of `refs` on which only published seats' layers remain,
    decrypted from its point as play left it (each partial taken off was
    proven), into `cards`. Returns the checks."""
    checks = 0
    for ref in refs:
        point = deck.points[ref]
        seats = deck.remaining.get(ref, set())
        if not seats <= set(deck.secrets):
            continue
        for seat in sorted(seats):
            secrets = deck.secrets[seat]
            point = poker.decrypt(scalar_of(deck, seat, ref, secrets), point)
        checks += 1
        try:
            cards[ref] = deck.identify(point)[0]
        except CryptoError:
            failures.append(f"{ref} decrypts to no card with the published scalars")
    return checks


def _audit_changes(game_id: str, deck: PeerDeck, cards: dict[str, str], failures: list[str],
                   file_of: FileName, silent: bool = False) -> int:
    """Check every reshuffle layer with its published scalar and decrypt
    the reshuffled cards into `cards`; then check that each private deck
    was refilled with exactly the cards that went in. With a seat `silent`,
    what needs its secrets is passed over (`audit` named it). Returns the
    checks."""
    checks = 0
    taken: Counter[str] = Counter()
    for r in deck.changes.reshuffles:
        before, scalars, good = list(r.inputs), [], True
        for i, layer in enumerate(r.layers):
            seat = r.seats[i]
            after = [b64d(p, 32) for p in layer.points]
            if seat not in deck.secrets:
                good, before = False, after
                continue
            checks += 1
            try:
                scalar = b64d(deck.secrets[seat].layers[taken[seat]], 32)
                poker.check_key(scalar, b64d(layer.key, 32))
                poker.check_layer(scalar, before, after)
                scalars.append(scalar)
            except (PbemError, IndexError) as exc:
                good = False
                failures.append(f"{file_of(r.files[i], seat)} (signed by {seat}): reshuffle layer of {r.zone}: "
                                f"{getattr(exc, 'message', exc)}")
            taken[seat] += 1
            before = after
        if good and r.next_seat is None:
            for ref, point in zip(r.refs, before):
                for scalar in scalars:
                    point = poker.decrypt(scalar, point)
                cards[ref] = deck.identify(point)[0]
                checks += 1
    for f in deck.changes.refills:
        went = sorted(cards.get(g, "?") for g in f.gone)
        if silent and (f.owner not in deck.secrets or "?" in went):
            continue
        checks += 1
        if f.key is not None:  # version 7: its layer, proven when it arrived, decrypted here
            checks += _readable(deck, list(f.refs), cards, failures)
            came = sorted(cards.get(r, "?") for r in f.refs)
        else:
            came = sorted(str(deck.secrets[f.owner].private.get(r)) for r in f.refs)
        if went != came and f.committed is not None:
            failures.append(f"{file_of(f.committed, f.owner)} (signed by {f.owner}): its commitments to the cards "
                            f"reshuffled into {f.zone} are not the cards that went in")
        elif f.derived and "?" not in went:
            assert f.committed is not None  # a refill the rules drew from at once: its owner wrote that file
            checks += 1
            places = {r: cards.get(r) if f.key is not None else deck.secrets[f.owner].private.get(r) for r in f.refs}
            published = deck.secrets[f.owner]
            seed = order_seed(f, published) if f.key is not None else b64d(published.beacon_seed, 32)
            if places != derived_order(seed, game_id, f, went):
                failures.append(f"{file_of(f.committed, f.owner)} (signed by {f.owner}): it drew from the cards it "
                                f"reshuffled into {f.zone} in the same file, and their places are not the ones its "
                                "beacon seed gives: it chose them")
    return checks
