"""The end-of-game audit: replay everything with every secret revealed.

Once the dealer has published its master seed, anyone can recompute the
set-up deal and every salt. The audit checks that the genesis commitments
are the seed's deal (the shuffle was the committed one, not a chosen one),
that the public initial state is its projection, and then replays every file
knowing every card, so a command that was illegal in a way only its writer
could see (two cards of one name, one of them face down) is reported with the
signature that covers it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pbem.crypto.commit import commit
from pbem.crypto.encoding import canonical
from pbem.errors import AuditError, PbemError
from pbem.games.base import Known, project
from pbem.protocol import dealer as dealer_mod
from pbem.gamedir import folder as folder_mod
from pbem.protocol.commitments import item_bytes
from pbem.protocol.chance import public_chance_seed
from pbem.protocol.setup import public_setup_seed
from pbem.crypto.encoding import b64d


@dataclass
class AuditReport:
    files: int
    checks: int
    failures: list[str]

    @property
    def ok(self) -> bool:
        return not self.failures


def audit(folder: Path) -> AuditReport:
    chain = folder_mod.load(folder, full=True)  # never from a checkpoint
    if chain.outcome() is None:
        raise AuditError("the game is not over: an audit needs every secret, published at the end")
    if chain.deck is not None:
        return _audit_peer(folder, chain)
    if chain.seed is None:
        raise AuditError(
            f"the dealer {chain.dealer_name} has not published its seed",
            hint=f"pbem sync {folder} --as {chain.dealer_name}",
        )
    seed = chain.seed
    failures: list[str] = []
    checks = 0
    gseed = dealer_mod.game_seed(chain, seed)
    deal = next((r for r in chain.records[1:] if r.body.setup_seed is not None), None)
    if deal is not None:
        who = f"{deal.name or folder_mod.turn_name(deal.seq, deal.by)} (signed by {chain.dealer_name})"
    else:
        who = f"{folder_mod.GENESIS} (signed by {chain.dealer_name})"
    proven = dealer_mod.proves_chance(chain)
    if proven:  # the public set-up seed and every die were proven when they came: the key must be the seed's
        checks += 1
        if chain.genesis.dealer.chance_key != referee_chance_key(seed):
            failures.append(f"{folder_mod.GENESIS} (signed by {chain.dealer_name}): the key of the referee's chance "
                            "is not the one its master seed gives")
    elif chain.setup_seed is not None:
        checks += 1
        if chain.setup_seed != public_setup_seed(gseed):
            failures.append(f"{who}: the public set-up seed is not the one the master seed gives"
                            + (" with every seat's contribution" if deal is not None else ""))
    full = dealer_mod.full_setup(chain.game, chain.options, chain.seat_specs(), gseed, chain.setup_seed)
    cards = {it.ref: it.card for z in full.zones.values() for it in z.items if isinstance(it, Known)}
    if set(cards) != set(chain.deal_commitments):
        failures.append(f"{who}: the committed items are not the items of the seed's deal")
    for ref, card in sorted(cards.items()):
        checks += 1
        expected = commit(dealer_mod.salt_for(seed, ref), item_bytes(ref, card))
        if chain.deal_commitments.get(ref) != expected:
            failures.append(f"{who}: the commitment of {ref} is not the seed's {card}")
    if deal is None:
        checks += 1
        if canonical(project(full, set())) != bytes(chain.genesis.initial):
            failures.append(f"{who}: the initial public state is not the seed's deal")
    checks += _audit_play_chance(folder, chain, seed, cards, failures)
    failures += _void_ballots(chain)
    return _replay_knowing(folder, chain, cards, checks, failures)


def _void_ballots(chain) -> list[str]:
    """Each ballot the dealer voided, blamed on its voter's signed file: a
    ballot no keeper could tally was the voter's doing (or, where it did not
    open, the dealer's word against it: named as such)."""
    def name(rec):
        return rec.name or folder_mod.turn_name(rec.seq, rec.by)

    out = []
    for rec in chain.records[1:]:
        for void in rec.body.void:
            ballot = next(r for r in reversed(chain.records[:rec.seq]) if r.by == void.seat and r.body.vote is not None)
            why = "it opens to no vote" if void.opening is not None else f"{rec.by} could not open it"
            out.append(f"{name(ballot)} (signed by {void.seat}): its ballot could not be tallied ({why}); "
                       f"{rec.by} voided it in {name(rec)} and {void.seat} voted again")
    return out


def _audit_play_chance(folder: Path, chain, master: bytes, cards: dict[str, str], failures: list[str]) -> int:
    """Replay the chain as the dealer did, with its seed: each chance seed it
    supplied during play must be the one its committed seed gives, and each
    item it committed to during play (a reshuffled deck) the card the seed's
    shuffle put there. Adds those cards to `cards`."""
    seed = dealer_mod.game_seed(chain, master)
    checks = 0
    dealer_files = {r.seq: r for r in chain.records[1:] if r.by == chain.dealer_name and r.body.setup_seed is None}

    def check(prefix) -> None:
        nonlocal checks
        record = dealer_files.get(prefix.seq + 1)
        if record is None:
            return
        where = f"{record.name or folder_mod.turn_name(record.seq, record.by)} (signed by {record.by})"
        body = record.body
        proven = dealer_mod.proves_chance(prefix)
        if body.chance is not None and not proven:  # proven chance was checked when its file came
            checks += 1
            if b64d(body.chance, 32) != public_chance_seed(seed, record.seq):
                failures.append(f"{where}: the chance it supplied is not the one the dealer's seed gives")
        if not body.commitments:
            return
        known = dict(cards)
        if prefix.uncommitted():
            known.update(dealer_mod.cards_of(dealer_mod.replay_full(prefix, prefix.records[-1], known, seed)))
        resume = [prefix.paused] if prefix.paused else [(o.seat, prefix.decode_command(o.command)) for o in body.tally]
        pseed = b64d(body.chance, 32) if proven and body.chance is not None else None
        _, known = dealer_mod.dealer_effects(prefix, seed, known, record.seq, resume, pseed)
        for ref, value in sorted(body.commitments.items()):
            checks += 1
            card = known.get(ref)
            if card is None or value != commit(dealer_mod.salt_for(master, ref), item_bytes(ref, card)):
                failures.append(f"{where}: the commitment of {ref} is not the card the seed's shuffle put there")
            else:
                cards[ref] = card

    if dealer_files:
        try:
            folder_mod.load(folder, before_each=check)
        except PbemError as exc:
            failures.append(f"replay with the dealer's seed: {exc.message}")
    return checks


def _replay_knowing(folder: Path, chain, cards: dict[str, str], checks: int, failures: list[str]) -> AuditReport:
    """Replay knowing every card: illegal moves the public could not see
    (a face-down card of the same name) surface here, with their file."""
    try:
        replay = folder_mod.load(folder, private_openings=cards, full=True)
        checks += len(replay.records)
    except PbemError as exc:
        failures.append(f"replay with every card known: {exc.message}")
    return AuditReport(files=len(chain.records), checks=checks, failures=failures)


def _audit_peer(folder: Path, chain) -> AuditReport:
    """Check every shuffle layer with the published scalars, decrypt every
    card (`pbem.protocol.peer.audit`), and replay knowing them all."""
    from pbem.protocol.peer import audit as peer_audit  # PyNaCl: peer games only

    def name(seq: int, by: str) -> str:
        return chain.records[seq].name or folder_mod.turn_name(seq, by)

    cards, checks, failures = peer_audit.audit(chain, name, folder_mod.GENESIS)
    if cards is None:
        return AuditReport(files=len(chain.records), checks=checks, failures=failures)
    return _replay_knowing(folder, chain, cards, checks, failures)


def referee_chance_key(master: bytes) -> str:
    """The key of a referee's public chance its master seed gives (version 7)."""
    from pbem.protocol import referee_chance  # PyNaCl: referee games of version 7 only

    return referee_chance.public_key(master)
