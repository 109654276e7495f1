"""Effects on hidden zones: a look at another seat's hand or discard pile,
a hand shown to everyone while a card says so, a discard from another
seat's hand (at random, chosen by the caster after a look, or chosen by
the victim itself: a target part ``by: owner``, `resolve.ask_card`), the top of
one's own draw pile looked at and traded, or put back in an order its
owner chooses (`arrange_top`: a permutation of refs the owner's own next
command names, which every dealer recomputes; the README says why the
order may be public).

Each is written as a change of a zone's readers, never as a card moved or
named in the state, so that every dealer carries it without knowing the
card: a seat added to the readers of a hand is a seat that may read it,
and whoever holds those cards (the dealer; in a peer game the hand's
owner) owes it their openings, sealed to that seat alone, before anyone
writes on; a zone made public owes its openings to everyone. The look
lasts until the next command of anyone (`end_peeks`), which the protocol
lets come only after those openings: a file whose command makes its
writer a reader of cards it does not know ends there. Undoing it at the
next command keeps a later draw into that hand from being shown too.

A seat that saw a zone knows which ref is which card; refs never change
on their own, so a card of it that later moved unseen (discarded at
random, hired as a worker) would still be named by its ref. So when a
look ends, or a zone shown to all is hidden again, the zone is `reseal`ed:
shuffled under fresh refs, as a reshuffled deck is. A dealer commits to
the new refs and delivers them to the owner alone; under peer the owner
re-commits to its own cards in a secret order (docs/protocol.md,
"Reshuffles and cross-seat moves"). Either way the seat that looked knows
what the zone holds, not which ref holds what.

Chance over a hidden hand (a card discarded at random) is public chance
(`Chance.public`): the position is drawn where no writer can foresee it
(the dealer's answer, or under peer the other seats' next beacon links),
and the card goes face down to its owner's discard pile, shown to nobody.
"""

from __future__ import annotations

from typing import Any

from pbem.games.base import Chance, own_zone, shuffle_zone
from pbem.games.codex import events, values
from pbem.games.codex.board import log
from pbem.games.codex.cards import CardDataError
from pbem.games.codex.state import Peek, Pending, State, deck, discard, hand, opponents, top

#: the effects of this module (`effects.one` hands them here)
EFFECTS = ("look", "discard", "look_top", "exchange_top", "arrange_top")
#: the zones a look or a continuous reveal may name
ZONES = ("hand", "discard")


def look(state: State, seat: str, zone: str) -> None:
    """`seat` reads `zone` (another seat's hand or discard pile) until the next command."""
    z = own_zone(state, zone)
    if z.public or seat in z.readers:
        return
    z.readers.append(seat)
    state.peeks.append(Peek(zone=zone, seat=seat))
    kind, _, owner = zone.partition(":")
    log(state, f"{seat} looks at {owner}'s {'discard pile' if kind == 'discard' else kind}")


def look_top(state: State, seat: str, n: int, chance: Chance) -> int:
    """`seat` looks at the top `n` cards of its own draw pile: those not
    known yet (under the public ones, `Player.on_top`) are taken by chance,
    as a draw takes them, into ``top:S`` (read by `seat`), where the next
    draws find them in that order. No draw pile, nothing to see: looking
    never reshuffles the discard pile (ruling on Vir Garbarean). Returns
    how many cards `seat` newly sees."""
    pile, seen = own_zone(state, deck(seat)), own_zone(state, top(seat))
    public = state.players[seat].on_top
    new = 0
    while public + len(seen.items) < n and len(pile.items) > public:
        seen.items.append(pile.items.pop(public + chance.private_draw(len(pile.items) - public)))
        new += 1
    log(state, f"{seat} looks at the top {n} card(s) of its draw pile")
    return new


def exchange_top(state: State, seat: str, ref: str, chance: Chance) -> bool:
    """A card of `seat`'s hand and the top card of its draw pile trade
    places (the top one looked at first, where it was not known). No draw
    pile, nothing happens (ruling on Vir Garbarean)."""
    p = state.players[seat]
    if not p.on_top and not state.zones[top(seat)].items:
        look_top(state, seat, 1, chance)
    hand_items = own_zone(state, hand(seat)).items
    i = next((k for k, it in enumerate(hand_items) if it.ref == ref), None)
    if i is None or (not p.on_top and not state.zones[top(seat)].items):
        return False
    # the top is a public card (`Player.on_top`: its place stays counted,
    # the next draw takes what lies there) or one `seat` looked at
    pile = own_zone(state, deck(seat)) if p.on_top else own_zone(state, top(seat))
    pile.items[0], hand_items[i] = hand_items[i], pile.items[0]
    log(state, f"{seat} trades a card of its hand with the top card of its draw pile")
    return True


#: the queue step that asks the owner the new order (`resolve`)
ARRANGE = "arrange_top"


def arrange_top(state: State, seat: str, n: int, chance: Chance, discard: bool = False) -> None:
    """`seat` looks at the top `n` cards of its own draw pile (`look_top`),
    then puts them back in an order it chooses (with `discard`, any of
    them may go to its discard pile instead): the question waits on the
    queue (`ARRANGE`) and is asked when the effects are done, so that its
    answer is a command of its own, written once the cards were delivered.
    Cards put back face up on top (`Player.on_top`: everyone knows them)
    stay above; nothing to choose asks nothing."""
    look_top(state, seat, n, chance)
    k = min(max(n - state.players[seat].on_top, 0), len(state.zones[top(seat)].items))
    if k >= 2 or (discard and k):
        ev = {"n": str(k), "discard": "1"} if discard else {"n": str(k)}
        state.fresh.append(Pending(kind="step", key=ARRANGE, ctrl=seat, ev=ev))


def split_order(order: list[str]) -> tuple[list[str], list[str]]:
    """An answer to the order question: the cards put back, from the top,
    then (after a ``""``, written ``none``) those discarded."""
    if "" not in order:
        return list(order), []
    i = order.index("")
    return order[:i], order[i + 1:]


def arrange_problem(state: State, seat: str, n: int, order: list[str], discard: bool = False) -> str | None:
    """Why `order` is not a new order of the first `n` cards of ``top:S``
    (None: it is): each of them once, no other card; cards discarded only
    where the effect lets them be."""
    refs = [it.ref for it in state.zones[top(seat)].items[:n]]
    kept, gone = split_order(order)
    if gone and not discard:
        return "none of them may be discarded, only put back"
    if any(r not in refs for r in kept + gone):
        return "that is not one of the cards you looked at"
    if len(set(kept + gone)) != len(kept + gone):
        return "it names a card twice"
    if len(kept + gone) != len(refs):
        return f"name all {len(refs)} cards you looked at, in their new order"
    return None


def arrange(state: State, seat: str, order: list[str]) -> None:
    """The first cards of ``top:S`` in the new `order` (checked by
    `arrange_problem`), those after its ``""`` to the discard pile, face
    down: the refs move, never the cards under them, so every dealer
    follows it as it stands (README, "effects on hidden zones")."""
    kept, gone = split_order(order)
    items = own_zone(state, top(seat)).items
    at = {it.ref: it for it in items}
    items[: len(kept) + len(gone)] = [at[r] for r in kept]
    own_zone(state, discard(seat)).items.extend(at[r] for r in gone)
    log(state, f"{seat} puts the top {len(kept)} card(s) of its draw pile back in the order it chose")
    if gone:
        log(state, f"{seat} discards {len(gone)} card(s) from the top of its draw pile")
        events.emit(state, events.whenever(state, "card_discarded", "", {"player": seat, "n": str(len(gone))}))


def reseal(state: State, zone: str, chance: Chance) -> None:
    """Cards some seat saw, hidden again: fresh refs in a new order (the
    module's docstring says why)."""
    if state.zones[zone].items:
        shuffle_zone(state, zone, chance, prefix="s")


#: the player flag Vir Garbarean's level 5 sets: its controller's next
#: command may play the top card of its draw pile (`top_card`), which the
#: ability made it see first
PLAY_TOP = "play_top"


def top_card(state: State, seat: str) -> tuple[str, str] | None:
    """(zone, ref) of the top card of `seat`'s draw pile as `seat` knows
    it: a public card put back on top (`Player.on_top`), else the first it
    looked at (``top:S``); None when it knows none."""
    if state.players[seat].on_top:
        return deck(seat), state.zones[deck(seat)].items[0].ref
    seen = state.zones[top(seat)].items
    return (top(seat), seen[0].ref) if seen else None


def take_top(state: State, seat: str, ref: str) -> Any:
    """The top card `ref` taken to be played (None if it is not the top)."""
    where = top_card(state, seat)
    if where is None or where[1] != ref:
        return None
    if where[0] == deck(seat):
        state.players[seat].on_top -= 1
    return own_zone(state, where[0]).items.pop(0)


def refresh(state: State, chance: Chance) -> None:
    """Zones shown to all for as long as a continuous effect says so
    (``{"static": {"reveal": "hand"}}``: the opponents of its controller
    play with that zone face up), after every command and automatic step.
    A card drawn into a zone shown to all is shown to all at once; when
    the effect ends, the zone is resealed (`reseal`): everyone knows what
    it held, nobody which ref is which card."""
    want: set[str] = set()
    for _, ctrl, ab in values.statics(state):
        kind = ab.static.get("reveal")
        if kind:
            want.update(f"{kind}:{p}" for p in opponents(state, ctrl))
    for seat in state.seats:
        for kind in ZONES:
            zone = f"{kind}:{seat}"
            if state.zones[zone].public != (zone in want):
                own_zone(state, zone).public = zone in want
                if zone not in want:
                    reseal(state, zone, chance)


def end_peeks(state: State, chance: Chance, peeks: list[Peek] | None = None) -> None:
    """Undo the looks `peeks` (default: every one), and reseal what was
    seen: a command comes only once the cards were delivered."""
    ending = list(state.peeks) if peeks is None else peeks
    for p in ending:
        z = own_zone(state, p.zone)
        if p.seat in z.readers:
            z.readers.remove(p.seat)
    for zone in sorted({p.zone for p in ending}):
        reseal(state, zone, chance)
    state.peeks = [p for p in state.peeks if p not in ending]


def discard_random(state: State, victim: str, n: int, chance: Chance) -> int:
    """`victim` discards `n` cards of its hand at random (public chance over
    their places), face down: nobody learns which. Returns how many."""
    done = 0
    for _ in range(n):
        items = own_zone(state, hand(victim)).items
        if not items:
            break
        item = items.pop(chance.public.below(len(items)))
        own_zone(state, discard(victim)).items.append(item)
        done += 1
    if done:
        log(state, f"{victim} discards {done} card(s) at random")
        events.emit(state, events.whenever(state, "card_discarded", "", {"player": victim, "n": str(done)}))
    return done


def discard_chosen(state: State, victim: str, ref: str) -> None:
    """A card a part chose from `victim`'s hand goes face down to its discard pile."""
    items = own_zone(state, hand(victim)).items
    i = next((k for k, it in enumerate(items) if it.ref == ref), None)
    if i is not None:
        own_zone(state, discard(victim)).items.append(items.pop(i))
        log(state, f"{victim} discards a card chosen by its opponent")
        events.emit(state, events.whenever(state, "card_discarded", "", {"player": victim, "n": "1"}))


def run(ctx: Any, e: dict[str, Any]) -> None:
    """One effect of `EFFECTS` (see `effects` for the forms)."""
    st = ctx.state
    name = next(iter(e))
    if name == "look":
        kind = e[name]
        if kind not in ZONES:
            raise CardDataError(f"look: one of {', '.join(ZONES)}, not {kind!r}")
        for p in ctx.players(e.get("of", "opp")):
            if p != ctx.seat:
                look(st, ctx.seat, f"{kind}:{p}")
    elif name == "look_top":
        if ctx.chance is not None:
            look_top(st, ctx.seat, int(e["look_top"]), ctx.chance)
    elif name == "arrange_top":
        if ctx.chance is not None:
            arrange_top(st, ctx.seat, int(e["arrange_top"]), ctx.chance, bool(e.get("discard")))
    elif name == "exchange_top":
        if ctx.chance is not None:
            for _, ref in ctx.cards(e["exchange_top"]):
                exchange_top(st, ctx.seat, ref, ctx.chance)
    elif name == "discard":
        if isinstance(e["discard"], str):  # cards a part chose from another seat's hand
            for zone, ref in ctx.cards(e["discard"]):
                discard_chosen(st, zone.partition(":")[2], ref)
        elif ctx.chance is not None:
            for p in ctx.players(e.get("who", "opp")):
                discard_random(st, p, int(e["discard"]), ctx.chance)
