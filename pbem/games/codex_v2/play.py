"""Playing a card from hand: what it needs, what it costs, and what happens.

* Units, upgrades and buildings need the tech building of their tech level
  (the base for tech 0); they arrive (`engine.new_thing`), and their own
  ``arrives`` triggers take the command's targets.
* Spells need a hero in play: a spec's spells a hero of that spec; a minor
  spell of a colour costs 1 more without a hero of that colour (neutral
  minor spells never do); an ultimate spell a hero of its spec that was at
  max level, and under its controller's control, since the turn began.
  A spell resolves at once with the command's targets and choices, goes to
  the discard pile (or, an ongoing spell, stays in play; a card that may go
  back on the draw pile goes there with ``top``), then the "spell cast"
  event wakes its watchers (Harmony).

Choices a card may take (its data says which): ``boost`` (``"boost":
{"cost": N}``; its effects read ``{"boosted": true}``), ``modes``
(``"modes": [[...], [...]]``, ``"pick": N``; ``"boost_all"``: every mode
when boosted), ``x`` (``"x": {"max": N}``), ``split`` (a ``split_damage``
effect: one amount per part it names), ``pay`` (``"discard": N`` cards
from hand as a cost).
"""

from __future__ import annotations

from typing import Any

from pbem.errors import IllegalCommand
from pbem.games.base import Chance, Known, identity
from pbem.games.codex_v2 import board, cards, engine, events, resolve, targets, values
from pbem.games.codex_v2.board import log
from pbem.games.codex_v2.cards import Card
from pbem.games.codex_v2.commands import Choices, Play
from pbem.games.codex_v2.effects import Ctx, run
from pbem.games.codex_v2.state import State, deck, hand

hire_cost = values.hire_cost


def cannot_patrol(state: State, ref: str) -> bool:
    return values.cant(state, ref, "patrol")


def requirement(state: State, seat: str, name: str) -> str | None:
    """Why `seat` may not play `name` now, cost aside (None: it may)."""
    c = cards.CARDS[name]
    if c.type == "spell":
        heroes = [state.things[h] for h in board.heroes_in_play(state, seat)]
        if not heroes:
            return "you need a hero in play to cast a spell"
        if c.spec and not any(cards.CARDS[h.card].spec == c.spec for h in heroes):
            return f"{name} needs your {c.spec} hero in play"
        if c.ultimate:
            ready = [h for h in heroes if (not c.spec or cards.CARDS[h.card].spec == c.spec)
                     and h.max_since and h.max_since < state.turn and h.since < state.turn]
            if not ready:
                return f"{name} needs a hero at max level since the start of your turn"
        return None
    if c.tech and not board.building_done(state, seat, f"tech{c.tech}"):
        return f"{name} needs a finished Tech {'I' * c.tech} building"
    return None


def cost(state: State, seat: str, name: str, ch: Choices) -> int:
    c = cards.CARDS[name]
    total = values.play_cost(state, seat, name)
    if c.minor and c.colour != "neutral" and not any(
            cards.CARDS[state.things[h].card].colour == c.colour for h in board.heroes_in_play(state, seat)):
        total += 1
    if ch.boost:
        total += int(c.boost.get("cost", 0))
    if c.raw.get("x"):
        total += ch.x * int(c.raw["x"].get("cost", 0))
    return total


def check_choices(state: State, seat: str, c: Card, ref: str, chosen: list[str], ch: Choices) -> None:
    """The card's own choices, each checked against what its data offers."""
    if ch.boost and not c.boost:
        raise IllegalCommand(f"boost: {c.name} has no boost")
    modes = c.raw.get("modes")
    if modes:
        want = len(modes) if ch.boost and c.raw.get("boost_all") else int(c.raw.get("pick", 1))
        if len(ch.modes) != want or len(set(ch.modes)) != want or any(not 0 <= m < len(modes) for m in ch.modes):
            raise IllegalCommand(f"mode: choose {want} of {c.name}'s {len(modes)} modes (mode=1..{len(modes)})")
    elif ch.modes:
        raise IllegalCommand(f"mode: {c.name} has no modes to choose")
    xs = c.raw.get("x")
    if xs:
        if not 0 <= ch.x <= int(xs.get("max", 20)):
            raise IllegalCommand(f"x: {c.name} takes X from 0 to {xs.get('max', 20)}")
    elif ch.x:
        raise IllegalCommand(f"x: {c.name} has no X to choose")
    split = next((e for e in c.do if "split_damage" in e), None)
    if split:
        among = [int(p[1:]) for p in split["among"]]
        amounts = ch.split
        if len(amounts) != len(among) or sum(amounts) != split["split_damage"] or any(
                (n > 0) != bool(chosen[i] if i < len(chosen) else "") for n, i in zip(amounts, among)):
            raise IllegalCommand(f"split: divide {split['split_damage']} damage among the chosen targets, "
                                 "at least 1 each (split=N,N,...; 0 for a target not chosen)")
    elif ch.split:
        raise IllegalCommand(f"split: {c.name} deals no damage to divide")
    discards = int(c.raw.get("discard", 0))
    in_hand = {it.ref for it in state.zones[hand(seat)].items}
    if discards:
        if len(ch.pay) != discards or len(set(ch.pay)) != discards or any(r not in in_hand for r in ch.pay):
            raise IllegalCommand(f"pay: {c.name} needs {discards} other card(s) from your hand (pay=hand:NAME,...)")
    elif ch.pay:
        raise IllegalCommand(f"pay: {c.name} takes no cards as its cost")


def _effects(c: Card, ch: Choices) -> list[Any]:
    modes = c.raw.get("modes")
    chosen = [e for m in sorted(ch.modes) for e in modes[m]] if modes else []
    return list(c.do) + chosen


def play(state: State, seat: str, cmd: Play, chance: Chance) -> None:
    p = state.players[seat]
    item = engine.take_item(state, hand(seat), cmd.ref)
    if item is None:
        raise IllegalCommand("that card is not in your hand")
    name = identity(item)
    c = cards.CARDS[name]
    if cmd.top and not c.may_top:
        raise IllegalCommand(f"top: {name} does not go back on your draw pile")
    ch = cmd.choices
    with values.frozen(state):
        why = requirement(state, seat, name)
        if why:
            raise IllegalCommand(why)
        check_choices(state, seat, c, cmd.ref, list(cmd.targets), ch)
        price = cost(state, seat, name, ch)
        if price > p.gold:
            raise IllegalCommand(f"{name} costs {price} gold, you have {p.gold}")
        if c.type == "spell":
            targets.check(state, seat, cmd.ref, c.targets, list(cmd.targets), p.gold - price)
    p.gold -= price
    engine.discard_from_hand(state, seat, list(ch.pay))
    ev = {"boosted": "1"} if ch.boost else {}
    log(state, f"{seat} plays {name}" + (" (boosted)" if ch.boost else ""))
    if c.type != "spell":
        _arrive(state, seat, item, name, list(cmd.targets), ev)
        events.emit(state, events.whenever(state, "unit_played", cmd.ref, {"subject": cmd.ref, "controller": seat})
                    if c.type == "unit" else [])
        return
    chosen = list(cmd.targets)  # checked above; resist is paid by pay_targeting
    state.shown[item.ref] = name
    if c.ongoing:
        engine.new_thing(state, seat, item, name)
    if any(chosen):
        resolve.pay_targeting(state, seat, c.targets, chosen)
    run(Ctx(state, seat, cmd.ref, chosen, chance, ev, split=list(ch.split), x=ch.x, modes=list(ch.modes)),
        _effects(c, ch))
    if c.ongoing:
        state.shown.pop(item.ref, None)
    elif cmd.top:
        state.zones[deck(seat)].items.insert(0, Known(item.ref, name))
        p.on_top += 1
    else:
        engine.to_discard(state, seat, item, name)
    engine.settle(state, chance)
    events.emit(state, events.whenever(state, "spell_cast", cmd.ref, {"subject": cmd.ref, "controller": seat,
                                                                      "card": name}))


def _arrive(state: State, seat: str, item: Any, name: str, chosen: list[str], ev: dict[str, str]) -> None:
    """A unit, upgrade or building arrives; its own arrives triggers get the
    command's targets, in order (a "you may" ability whose targets are all
    ``none`` is declined)."""
    before = len(state.fresh)
    ref = engine.new_thing(state, seat, item, name, played=True, ev=ev)
    mine = [p for p in state.fresh[before:] if p.src == ref and p.kind == "trigger"
            and "arrives" in events.ability(p.card, p.key).on]
    if not ref:
        if chosen:
            raise IllegalCommand(f"{name} did not arrive: it takes no targets now")
        return
    targets.check_own(state, seat, ref, [events.ability(p.card, p.key) for p in mine], chosen,
                      state.players[seat].gold)
    events.distribute(mine, chosen)
