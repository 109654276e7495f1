"""Playing a card from hand: what it needs, what it costs, and what happens.

* Units, upgrades and buildings need the tech building of their tech level
  (the base for tech 0; in 3-hero mode, of their spec from tech II on:
  `modes.spec_problem`); they arrive (`engine.new_thing`), and their own
  ``arrives`` triggers take the command's targets.
* Spells need a hero in play (unless a continuous effect says ``no_hero``
  for them): a spec's spells a hero of that spec; a minor
  spell of a colour costs 1 more without a hero of that colour (neutral
  minor spells never do); an ultimate spell a hero of its spec that was at
  max level, and under its controller's control, since the turn began.
  A spell resolves at once with the command's targets and choices, goes to
  the discard pile (or, an ongoing spell, stays in play; a card that may go
  back on the draw pile goes there with ``top``; one whose effects say
  ``{"trash": "self"}`` leaves the game), then the "spell cast" event wakes its watchers (Harmony).

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
from pbem.games.codex import board, cards, engine, events, hidden, maps, modes, registry, resolve, targets, values
from pbem.games.codex.board import log
from pbem.games.codex.cards import Card, Part
from pbem.games.codex.commands import Choices, Play
from pbem.games.codex.effects import Ctx, run
from pbem.games.codex.state import Pending, State, deck, hand

hire_cost = values.hire_cost


def cannot_patrol(state: State, ref: str) -> bool:
    return values.cant(state, ref, "patrol")


def requirement(state: State, seat: str, name: str) -> str | None:
    """Why `seat` may not play `name` now, cost aside (None: it may)."""
    c = cards.CARDS[name]
    if c.type == "spell":
        if values.needs_no_hero(state, seat, name):
            return None
        heroes = [state.things[h] for h in board.heroes_in_play(state, seat)]
        if not heroes:
            return "you need a hero in play to cast a spell"
        if c.spec and not any(cards.CARDS[h.card].spec == c.spec for h in heroes):
            return f"{name} needs your {c.spec} hero in play"
        if c.ultimate and not maps.has(state, "pinnacle"):
            ready = [h for h in heroes if (not c.spec or cards.CARDS[h.card].spec == c.spec)
                     and h.max_since and h.max_since < state.turn and h.since < state.turn]
            if not ready:
                return f"{name} needs a hero at max level since the start of your turn"
        return None
    if values.needs_no_tech(state, seat, name):
        return None
    if c.tech and not board.building_done(state, seat, f"tech{c.tech}"):
        return f"{name} needs a finished Tech {'I' * c.tech} building"
    return modes.spec_problem(state, seat, name)


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


def split_total(state: State, seat: str, c: Card) -> int:
    """The damage `c`'s ``split_damage`` divides when `seat` casts it, a
    damage boost included (0: it divides none)."""
    split = next((e for e in c.do if "split_damage" in e), None)
    return int(split["split_damage"]) + values.damage_boost(state, seat, c.name) if split else 0


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
        total = split_total(state, seat, c)
        if len(amounts) != len(among) or sum(amounts) != total or any(
                (n > 0) != bool(chosen[i] if i < len(chosen) else "") for n, i in zip(amounts, among)):
            raise IllegalCommand(f"split: divide {total} damage among the chosen targets, "
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


#: the part of a mode not chosen: nothing may be named there
_UNUSED = Part({"what": "nothing (its mode is not chosen)", "pick": {"kinds": []}, "optional": True})


def parts_for(c: Card, modes: list[int]) -> list[Part]:
    """The card's targets with the chosen modes (0-based): a part of a mode
    not chosen (``"mode": N``, 1-based) takes nothing."""
    return [_UNUSED if p.mode and p.mode - 1 not in modes else p for p in c.targets]


def _effects(c: Card, ch: Choices) -> list[Any]:
    modes = c.raw.get("modes")
    chosen = [e for m in sorted(ch.modes) for e in modes[m]] if modes else []
    return list(c.do) + chosen


def play(state: State, seat: str, cmd: Play, chance: Chance, from_top: bool = False) -> None:
    """Play a card of the hand or, `from_top` (Vir Garbarean's level 5),
    the top card of the draw pile, paying for it as usual."""
    p = state.players[seat]
    item = engine.take_item(state, hand(seat), cmd.ref)
    in_hand = item is not None
    if item is None and from_top:
        item = hidden.take_top(state, seat, cmd.ref)
    if item is None:
        raise IllegalCommand("that card is not in your hand" + (" nor on top of your draw pile" if from_top else ""))
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
            targets.check(state, seat, cmd.ref, parts_for(c, list(ch.modes)), list(cmd.targets), p.gold - price)
    p.gold -= price
    engine.discard_from_hand(state, seat, list(ch.pay))
    ev = {"boosted": "1"} if ch.boost else {}
    log(state, f"{seat} plays {name}" + (" (boosted)" if ch.boost else ""))
    if c.type != "spell":
        _arrive(state, seat, item, name, list(cmd.targets), ev, in_hand)
        events.emit(state, events.whenever(state, "unit_played", cmd.ref, {"subject": cmd.ref, "controller": seat})
                    if c.type == "unit" else [])
        return
    cast_spell(state, seat, item, name, list(cmd.targets), ch, chance, top=cmd.top)  # resist: pay_targeting


def cast_spell(state: State, seat: str, item: Any, name: str, chosen: list[str], ch: Choices,
               chance: Chance | None, top: bool = False) -> None:
    """A spell out of its zone, paid for and its choices checked, resolves:
    resist is paid and illusions die, its effects run, it goes to the
    discard pile (or stays in play, ongoing; or on top of the draw pile;
    or to the trash if its effects said so);
    then the "spell cast" event."""
    p = state.players[seat]
    c = cards.CARDS[name]
    state.shown[item.ref] = name
    p.flags["spell_cast"] = state.turn
    if c.ongoing:
        engine.new_thing(state, seat, item, name)
    if any(chosen):
        resolve.pay_targeting(state, seat, parts_for(c, list(ch.modes)), chosen)
    ev = {"boosted": "1"} if ch.boost else {}
    ctx = Ctx(state, seat, item.ref, chosen, chance, ev, split=list(ch.split), x=ch.x, modes=list(ch.modes), card=name)
    run(ctx, _effects(c, ch))
    if c.ongoing:
        state.shown.pop(item.ref, None)
    elif ctx.fate == "trash":
        engine.to_trash(state, seat, item, name)
    elif top:
        state.zones[deck(seat)].items.insert(0, Known(item.ref, name))
        p.on_top += 1
    else:
        engine.to_discard(state, seat, item, name)
    engine.settle(state, chance)
    events.emit(state, events.whenever(state, "spell_cast", item.ref, {"subject": item.ref, "controller": seat,
                                                                       "card": name}))


def splits(total: int, among: int, chosen: list[bool]) -> list[list[int]]:
    """Every way to divide `total` among the chosen of `among` places, at least 1 each."""
    picked = [i for i in range(among) if i < len(chosen) and chosen[i]]
    out: list[list[int]] = []

    def fill(k: int, left: int, acc: list[int]) -> None:
        if k == len(picked) - 1:
            out.append(acc + [left])
            return
        for n in range(1, left - (len(picked) - k - 1) + 1):
            fill(k + 1, left - n, acc + [n])

    if picked and len(picked) <= total:
        fill(0, total, [])
    result = []
    for amounts in out:
        row = [0] * among
        for i, n in zip(picked, amounts):
            row[i] = n
        result.append(row)
    return result


@registry.register("step", "cast")
def _cast(state: State, item: Pending, chance: Chance | None) -> None:
    """A spell an effect plays for free from its controller's hand or codex
    (`effects`' ``cast``): its targets, then how its damage is divided, are
    asked now; no cost, no hero needed."""
    seat = item.ctrl
    zone = next((f"{k}:{seat}" for k in ("hand", "codex", "discard")
                 if any(it.ref == item.src for it in state.zones[f"{k}:{seat}"].items)), "")
    if not zone:
        return
    card = next(it for it in state.zones[zone].items if it.ref == item.src)
    name = identity(card)
    c = cards.CARDS[name]
    with values.frozen(state):
        chosen = resolve.choose_targets(state, seat, item.src, c.targets, item, 0)
    split: list[int] = []
    total = split_total(state, seat, c)
    if total:
        among = next(e for e in c.do if "split_damage" in e)["among"]
        spots = [bool(chosen[int(p[1:])]) if int(p[1:]) < len(chosen) else False for p in among]
        ways = [",".join(map(str, w)) for w in splits(total, len(among), spots)]
        if not ways:
            return
        answer = resolve.ask(state, item, len(c.targets), "split", f"{name}: divide {total} damage", ways)
        split = [int(n) for n in answer.split(",")]
    engine.take_item(state, zone, item.src)
    log(state, f"{seat} plays {name} for free")
    cast_spell(state, seat, card, name, chosen, Choices(split=split), chance)


def _arrive(state: State, seat: str, item: Any, name: str, chosen: list[str], ev: dict[str, str],
            from_hand: bool = True) -> None:
    """A unit, upgrade or building arrives; its own arrives triggers get the
    command's targets, in order (a "you may" ability whose targets are all
    ``none`` is declined)."""
    before = len(state.fresh)
    ref = engine.new_thing(state, seat, item, name, played=True, ev=ev, from_hand=from_hand)
    mine = [p for p in state.fresh[before:] if p.src == ref and p.kind == "trigger"
            and "arrives" in events.ability(p.card, p.key).on]
    if not ref:
        if chosen:
            raise IllegalCommand(f"{name} did not arrive: it takes no targets now")
        return
    targets.check_own(state, seat, ref, [events.ability(p.card, p.key) for p in mine], chosen,
                      state.players[seat].gold)
    events.distribute(mine, chosen)
