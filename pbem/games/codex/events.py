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
  ``leaves``, ``max_level``, ``kills``, ``exhausts`` ...): those of the face
  it shows, taken before it left play, so a card that has left play still
  answers its ``dies`` / ``leaves`` triggers; and the triggers others give
  it (a continuous ``grant``, a modifier's), which `engine` finds before it
  leaves play. A granted trigger's `Pending.card` is the card it is
  written on;
* for ``upkeep``, ``end_of_turn`` and ``end_of_each_turn`` (subject: a
  seat), the abilities of what that seat controls;
* for "whenever" events, every card in play with an ability on that event
  whose ``who`` selector (as its controller sees it) takes the subject; a
  card answers its own whenever event only where its ability says
  ``"itself": true`` ("whenever a unit dies", the dying one included).

A trigger with ``per_turn`` N fires only the first N times a turn.

Simultaneous triggers (those of one event, or of deaths at once) are
ordered by the active player (rulebook, "Active Player Decides"): the
active player's first, then the others', each in play order, with the
sources named in ``state.first`` (the command's ``first=``) moved to the
front in that order.
"""

from __future__ import annotations

from pbem.games.codex import board, cards, select, values
from pbem.games.codex.cards import Ability, Face
from pbem.games.codex.state import Pending, State


ability = cards.ability


def _trigger(ab: Ability, src: str, card: str, ctrl: str, ev: dict[str, str]) -> Pending:
    return Pending(kind="trigger", key=ab.key, src=src, card=card, ctrl=ctrl, ev=dict(ev))


def _spent(state: State, ref: str, ab: Ability) -> bool:
    """A trigger of ``per_turn`` N ("the first time each turn") that has
    resolved N times this turn (`spend` counts them; this only reads)."""
    t = state.things.get(ref) if ab.once else None
    return t is not None and t.used_turn == state.turn and t.used.get(_count_key(ab), 0) >= ab.once


def _count_key(ab: Ability) -> str:
    """Where a ``per_turn`` trigger's uses are counted: its own key, or
    ``per_turn_as`` another's (two halves of one "first time each turn")."""
    return "on:" + ab.raw.get("per_turn_as", ab.key)


def spend(state: State, ref: str, ab: Ability) -> bool:
    """A ``per_turn`` trigger resolves: count it, or say it may not (False)."""
    if not ab.once or ref not in state.things:
        return True
    if _spent(state, ref, ab):
        return False
    t = state.things[ref]
    if t.used_turn != state.turn:
        t.used_turn, t.used = state.turn, {}
    t.used[_count_key(ab)] = t.used.get(_count_key(ab), 0) + 1
    return True


def _granted(state: State, ref: str, name: str, effects: list | None = None) -> list[tuple[str, Ability]]:
    """(card, ability) of the triggers on `name` that `ref` has from others
    (modifiers, continuous ``grant`` effects)."""
    out = []
    for card, key in values.granted(state, ref, effects):
        ab = cards.granted_ability(card, key)
        if ab is not None and name in ab.on:
            out.append((card, ab))
    return out


def _abilities_on(state: State, ref: str, name: str, effects: list | None = None) -> list[tuple[str, Ability]]:
    """(card, ability) of everything `ref` (in play) has on event `name`: its face's and those granted."""
    f = board.face(state, ref)
    return [(f.name, ab) for ab in f.triggers.get(name, ())] + _granted(state, ref, name, effects)


def own(state: State, name: str, ref: str, ctrl: str, face: Face, ev: dict[str, str]) -> list[Pending]:
    """The triggers of `ref`'s own abilities on event `name`: those of the
    face it shows (`board.face`, taken before it left play if it did); in
    play, those granted it too."""
    found = [(face.name, ab) for ab in face.triggers.get(name, ())]
    if ref in state.things:
        found += _granted(state, ref, name)
    out = []
    for source, ab in found:
        if ab.cond and not select.holds(state, ctrl, ref, ab.cond, ev) or _spent(state, ref, ab):
            continue
        out.append(_trigger(ab, ref, source, ctrl, ev))
    return out


def seat_turn(state: State, name: str, seat: str) -> list[Pending]:
    """Triggers on `seat`'s ``upkeep`` or end of turn of what it controls."""
    out = []
    effects = values.grant_effects(state)
    for ref in board.things_of(state, seat) + board.spells_of(state, seat):
        for card, ab in _abilities_on(state, ref, name, effects):
            if ab.cond and not select.holds(state, seat, ref, ab.cond, {"player": seat}) or _spent(state, ref, ab):
                continue
            out.append(_trigger(ab, ref, card, seat, {"player": seat}))
    return out


def whenever(state: State, name: str, subject: str, ev: dict[str, str]) -> list[Pending]:
    """Triggers of cards in play on a whenever-event about `subject`."""
    out = []
    effects = values.grant_effects(state)
    for ref in board.all_in_play(state):
        abs_ = _abilities_on(state, ref, name, effects)
        if not abs_:
            continue
        t = state.things[ref]
        for card, ab in abs_:
            if ref == subject and not ab.raw.get("itself"):
                continue
            if ab.who is not None and not _who(state, t.controller, ref, ab.who, subject, ev):
                continue
            if ab.cond and not select.holds(state, t.controller, ref, ab.cond, ev) or _spent(state, ref, ab):
                continue
            out.append(_trigger(ab, ref, card, t.controller, ev))
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
