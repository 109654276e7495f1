"""Events and the triggers they wake.

An event is a name and what it is about (`ev`: ``subject`` is a ref, and
``attacked``, ``player``, ``card``, ``boosted`` ... as the event has them).
`emit` finds every triggered ability listening to it and puts one
`Pending` for each into ``state.fresh``; the queue runner (`resolve`)
moves what a step made fresh to the front of the queue once that step is
done, so triggers resolve before what was waiting behind the step that
caused them, in the order things happened.

Who listens (`cards.OWN_EVENTS` and `cards.WHENEVER_EVENTS`):

* the subject's own abilities (``arrives``, ``attacks``, ``dies``,
  ``leaves``, ``max_level``, ``kills`` ...): read from its card, so a card
  that has left play still answers its ``dies`` / ``leaves`` triggers;
* for ``upkeep`` and ``end_of_turn`` (subject: a seat), the abilities of
  what that seat controls;
* for "whenever" events, every card in play with an ability on that event
  whose ``who`` selector (as its controller sees it) takes the subject; a
  card never answers its own whenever event.

Simultaneous triggers (those of one event, or of deaths at once) are
ordered by the active player (rulebook, "Active Player Decides"): the
active player's first, then the others', each in play order, with the
sources named in ``state.first`` (the command's ``first=``) moved to the
front in that order.
"""

from __future__ import annotations

from pbem.games.codex_v2 import board, cards, select
from pbem.games.codex_v2.cards import Ability
from pbem.games.codex_v2.state import Pending, State


def ability(card: str, key: str) -> Ability:
    """A card's ability by key, whatever band of a hero it came from."""
    for f in cards.CARDS[card].faces:
        for ab in f.abilities:
            if ab.key == key:
                return ab
    raise KeyError(f"{card} has no ability {key!r}")


def _trigger(ab: Ability, src: str, card: str, ctrl: str, ev: dict[str, str]) -> Pending:
    return Pending(kind="trigger", key=ab.key, src=src, card=card, ctrl=ctrl, ev=dict(ev))


def own(state: State, name: str, ref: str, card: str, ctrl: str, band: int, ev: dict[str, str]) -> list[Pending]:
    """The triggers of `ref`'s own abilities on event `name` (it may have left play)."""
    f = cards.CARDS[card].faces[band]
    out = []
    for ab in f.triggers.get(name, ()):
        if ab.cond and not select.holds(state, ctrl, ref, ab.cond, ev):
            continue
        out.append(_trigger(ab, ref, card, ctrl, ev))
    return out


def seat_turn(state: State, name: str, seat: str) -> list[Pending]:
    """Triggers on `seat`'s ``upkeep`` or ``end_of_turn`` of what it controls."""
    out = []
    for ref in board.things_of(state, seat) + board.spells_of(state, seat):
        t = state.things[ref]
        for ab in board.face(state, ref).triggers.get(name, ()):
            if ab.cond and not select.holds(state, seat, ref, ab.cond, {"player": seat}):
                continue
            out.append(_trigger(ab, ref, t.card, seat, {"player": seat}))
    return out


def whenever(state: State, name: str, subject: str, ev: dict[str, str]) -> list[Pending]:
    """Triggers of cards in play on a whenever-event about `subject`."""
    out = []
    for ref in board.all_in_play(state):
        abs_ = board.face(state, ref).triggers.get(name)
        if not abs_ or ref == subject:
            continue
        t = state.things[ref]
        for ab in abs_:
            if ab.who is not None and not _who(state, t.controller, ref, ab.who, subject, ev):
                continue
            if ab.cond and not select.holds(state, t.controller, ref, ab.cond, ev):
                continue
            out.append(_trigger(ab, ref, t.card, t.controller, ev))
    return out


def _who(state: State, seat: str, src: str, who: dict, subject: str, ev: dict[str, str]) -> bool:
    if subject in state.things:
        return select.matches(state, seat, src, who, subject)
    # the subject has left play (it died): judge it by what the event recorded
    side = who.get("side", "any")
    owner = ev.get("controller") or ev.get("player", "")
    if side in ("mine", "friendly") and owner != seat or side == "theirs" and owner == seat:
        return False
    return True


def distribute(items: list[Pending], answers: list[str]) -> None:
    """A command's targets for its own triggers (a played unit's ``arrives``,
    an attacker's ``attacks``), in order: each takes as many as its ability
    has parts. A "you may" ability given only ``none`` declines; given
    targets, it accepts."""
    rest = list(answers)
    for p in items:
        ab = ability(p.card, p.key)
        n = len(ab.targets)
        p.given, rest = rest[:n], rest[n:]
        if ab.raw.get("may") and n:
            p.given = (["yes"] + p.given) if any(p.given) else ["no"]


def emit(state: State, items: list[Pending]) -> None:
    """Queue simultaneous triggers (ordered by the active player) as fresh."""
    if items:
        state.fresh.extend(order(state, items))


def order(state: State, items: list[Pending]) -> list[Pending]:
    first = state.first
    rank = {src: i for i, src in enumerate(first)}
    for it in items:
        if it.src in rank and it.src not in state.ordered:
            state.ordered.append(it.src)

    def key(it: Pending) -> tuple[int, int]:
        if it.src in rank:
            return (0, rank[it.src])
        return (1 if it.ctrl == state.active else 2, 0)

    return sorted(items, key=key)  # stable: play order within each group
