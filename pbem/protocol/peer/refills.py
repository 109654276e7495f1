"""Cards the rules reshuffle into a seat's *private* deck in a peer game, or
into a hand they reseal (`changes` finds them; docs/protocol.md,
"Reshuffles and cards that change hands in peer games").

The owner knows the cards (they were face up or its own), so no layer is
added: it commits to each fresh ref, as at its join, in its next file (or the
same one if it wrote it), in a secret order, or in one its beacon seed fixes
when the same file already draws from the deck (`derived_order`). When every
card that went in was face up, each card opened later is checked at once
against what is left of them (`check_opening`). Writers and verifiers run
the same code: the owner's commitments are made where a verifier reads them.
From protocol version 7 the owner lays a proven layer over the cards
instead of committing (`proven_refills`), checked when its file arrives.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

import msgspec

from pbem.crypto.encoding import b64d, canonical
from pbem.crypto.envelope import seal_ad
from pbem.crypto.stream import DeterministicStream, derive
from pbem.errors import ProtocolError
from pbem.protocol.peer.reads import ChangingChain, ChangingDeck, MadeParts, Parts, RefillBook, making, reading
from pbem.protocol.peer.secrets import commit_private

if TYPE_CHECKING:
    from pbem.protocol.transition import Effect


@dataclass
class Refill:
    """Cards the rules shuffled into `owner`'s private deck: the owner
    commits to each fresh ref (`committed`: the seq of that file)."""

    zone: str
    owner: str
    refs: list[str]
    gone: list[str]
    seq: int
    committed: int | None = None
    #: committed by the file whose last command paused for chance, before
    #: that command ran (`_commit_ahead`): the answer that runs it must
    #: reshuffle exactly these cards into these refs
    ahead: bool = False
    #: committed by the owner in a file whose chance it knows, which also
    #: draws from it: the places follow from its beacon seed
    #: (`derived_order`) instead of being chosen, and the audit checks them
    derived: bool = False
    #: the cards that went in, when every one was face up (a multiset
    #: everyone knows), and the cards of the refill opened since: each
    #: opening is checked at once against what is left (`check_opening`)
    cards: list[str] | None = None
    opened: list[str] = field(default_factory=list)
    #: version 7 (`proven_refills`): the owner's proven layer over the
    #: cards, under `key` (s·s·G) over their re-encryptions to `base`
    #: (s·G); `number`: its place among the owner's refill layers
    base: bytes | None = None
    key: bytes | None = None
    number: int = 0
    #: laid by the newcomer of a seat handed over (`proven_refills.order_seed`)
    after_rekey: bool = False


def refill_memo_ad(game_id: str, seq: int) -> bytes:
    """What binds the places of a refill's cards, sealed by their owner to itself."""
    return seal_ad(game_id, seq, "private refill")


def register_refill(chain: ChangingChain, deck: ChangingDeck[RefillBook[Refill]], writer: str, effect: Effect,
                    parts: Parts, seq: int, zone: str, owner: str, fresh: list[str], gone: list[str],
                    zones: set[str]) -> None:
    public = set(chain.revealed) | set(effect.revealed)
    known = deck.knows(owner)
    strangers = [g for g in gone if g not in public and g not in known]
    if strangers:
        raise ProtocolError(f"{zone}: peer games can reshuffle into {owner}'s own zone only cards that are "
                            f"face up or {owner}'s own ({', '.join(strangers)} are not)")
    drawn = zones - {zone}
    if drawn:
        # The same file already drew from the new deck (a draw that
        # emptied it goes on from the reshuffled pile). Only its owner can
        # commit to it here, and the drawn cards must stay where only the
        # owner reads them; the owner knows this file's chance as it
        # writes, so it may not choose the order (`derived_order`).
        elsewhere = sorted(z for z in drawn if effect.state.zones[z].public or effect.state.zones[z].readers != [owner])
        if writer != owner or elsewhere:
            raise ProtocolError(
                f"{zone}: cards reshuffled into {owner}'s private deck must stay in it until {owner} commits "
                f"to them (in its next file): the rules draw from it too early"
                + (f", into {', '.join(elsewhere)}" if elsewhere else ""))
    refill = Refill(zone=zone, owner=owner, refs=fresh, gone=gone, seq=seq, derived=bool(drawn),
                    cards=public_cards(gone, {**chain.revealed, **effect.revealed}))
    deck.changes.refills.append(refill)
    if writer == owner:
        commit_refill(chain, deck, refill, parts, seq, dict(effect.revealed))


def public_cards(gone: list[str], revealed: dict[str, str]) -> list[str] | None:
    """The cards that went into a refill, when every one of them was face up."""
    return sorted(revealed[g] for g in gone) if all(g in revealed for g in gone) else None


def check_opening(deck: ChangingDeck[RefillBook[Refill]], ref: str, card: str) -> None:
    """A card of a refill whose cards all went in face up, opened by its
    owner (or the seat it went to): everyone knows the multiset that went
    in, so the card must be one still left of it. A refill committed to
    other cards is caught at the first opening that cannot be, not only by
    the audit at the end (a second Wither where one went in)."""
    refill = next((f for f in deck.changes.refills if ref in f.refs and f.cards is not None), None)
    if refill is None:
        return
    left = Counter(refill.cards) - Counter(refill.opened)
    if left[card] <= 0:
        raise ProtocolError(
            f"{ref} opens as {card}, but the cards {refill.owner} reshuffled into {refill.zone} at seq {refill.seq} "
            f"were all face up, and no {card} is left of them: {refill.owner}'s commitments to them are false")
    refill.opened.append(card)


def commit_refill(chain: ChangingChain, deck: ChangingDeck[RefillBook[Refill]], refill: Refill, parts: Parts, seq: int,
                  revealed: dict[str, str]) -> None:
    """The owner's commitments to the cards reshuffled into its private
    deck: made by the writer, read from the file by a verifier. From
    version 7 its proven layer over them instead (`proven_refills`)."""
    if deck.proven_refills:
        from pbem.protocol.peer import proven_refills

        proven_refills.commit(chain, cast("proven_refills.RefillDeck", deck), refill, parts, seq, revealed, derived_order)
        return
    body = reading(parts)  # a verifier's; None for a writer's parts
    if body is not None:
        missing = [r for r in refill.refs if r not in body.commitments]
        if missing:
            raise ProtocolError(f"{refill.owner} must commit to the cards reshuffled into {refill.zone}: "
                                f"{', '.join(missing)}")
        commitments = {r: body.commitments[r] for r in refill.refs}
        for value in commitments.values():
            b64d(value, 32)
    else:
        commitments = _make_commitments(chain, refill, making(parts), revealed)
    for ref, value in commitments.items():
        deck.private_owner[ref] = refill.owner
        deck.private_commitments[ref] = value
    refill.committed = seq


def refill_order(cards: list[str]) -> list[str]:
    """The owner's secret order of the cards it commits to (a test may
    replace it to play a cheat)."""
    from pbem.crypto.committed import secret_order

    return secret_order(sorted(cards))


def derived_order(beacon_seed: bytes, game_id: str, refill: Refill, cards: list[str]) -> dict[str, str]:
    """The places of a refill its owner may not choose: a shuffle of the
    cards (sorted) keyed by the owner's beacon seed, committed at its join
    and secret until the end, and by where the refill happens.

    The owner can compute it, so it knows the card each draw of the file
    takes; it cannot change it, and the file carries none of its decisions
    (an answer to chance carries no commands). The other seats cannot
    compute it until the seed is published; then the audit does."""
    label = canonical(["refill order", game_id, refill.seq, refill.zone, list(refill.refs)])
    key = derive(beacon_seed, b"pbem refill order")
    return dict(zip(refill.refs, DeterministicStream(key, label).shuffle(sorted(cards))))


def _make_commitments(chain: ChangingChain, refill: Refill, parts: MadeParts,
                      revealed: dict[str, str]) -> dict[str, str]:
    assert parts.secrets is not None and parts.cards_known is not None  # a turn's writer (a join refills nothing)
    known = {**parts.cards_known(parts.secrets), **revealed}
    cards = [known[g] for g in refill.gone]
    if refill.derived:
        mapping = derived_order(b64d(parts.secrets.beacon_seed, 32), chain.game_id, refill, cards)
    else:
        mapping = dict(zip(refill.refs, refill_order(cards)))
    parts.made.setdefault("mapping", {}).update(mapping)
    # the new places count as the owner's from here on (openings, knowledge)
    parts.secrets = msgspec.structs.replace(parts.secrets, private={**parts.secrets.private, **mapping})
    commitments = commit_private(b64d(parts.secrets.beacon_seed, 32), mapping)
    parts.made.setdefault("commitments", {}).update(commitments)
    return commitments
