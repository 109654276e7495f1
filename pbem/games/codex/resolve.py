"""The queue runner: resolves pending triggers and engine steps in order.

After each item the state-based checks run (`engine.settle`) and the
triggers that item woke go to the front of the queue. A trigger makes all
its choices before any of its effects, in this order: "you may" (``may``;
declined, its ``else`` effects run instead, if it has any), then its
targets part by part. Each choice is taken from, in turn:

1. the answers its command gave it (``Pending.given``: a played unit's
   targets, an attacker's ``with=`` targets),
2. the command's later answers (``choose=...``, kept in ``state.answers``),
3. the only legal option, where there is exactly one (never for a card of
   the chooser's hand or codex: listing the options would show them),

and otherwise the queue stops with a `Prompt` for the active player (who
makes every decision, rulebook "Active Player Decides"; but a card of
another seat's own zones that the card says that seat picks, ``by:
owner``, is asked of that seat: its own signed command answers); the next command,
``choose ...``, answers it and the queue goes on. An answer that is not
among the options is refused with the rule that forbids it.
"""

from __future__ import annotations

from contextvars import ContextVar

from pbem.errors import IllegalCommand
from pbem.games.base import Chance
from pbem.games.codex import board, cards, effects, engine, events, hidden, registry, targets, values
from pbem.games.codex.board import log
from pbem.games.codex.cards import Ability, Part
from pbem.games.codex.state import OVER, Pending, Prompt, State, opponents, top

YES, NO = "yes", "no"
#: the seat whose command is being applied (`rules.apply`): the question of
#: a part ``by: owner`` takes its answer from that owner's own command only
COMMAND_SEAT: ContextVar[str] = ContextVar("codex_command_seat", default="")


class _Pause(Exception):
    """The head of the queue needs a decision nobody gave."""


def flush(state: State) -> None:
    """What the last step woke goes in front of what waited."""
    if state.fresh:
        state.queue[:0] = state.fresh
        state.fresh = []


def run(state: State, chance: Chance | None, stop_at: str = "") -> None:
    """Resolve the queue until it is empty, the game is over, or a choice
    is owed (or, for a look ahead, the step `stop_at` is next)."""
    engine.settle(state, chance)
    flush(state)
    while state.queue and state.prompt is None and state.phase != OVER:
        if stop_at and state.queue[0].key == stop_at:
            return
        item = state.queue.pop(0)
        try:
            if item.kind == "step":
                registry.get("step", item.key)(state, item, chance)
            else:
                resolve_trigger(state, item, chance)
        except _Pause:
            state.queue.insert(0, item)
            state.fresh = []
            return
        engine.settle(state, chance)
        flush(state)


def _given(state: State, item: Pending, used: int) -> str | None:
    """The `used`-th answer of `item` if it has one: given, or the next of the command's."""
    if used < len(item.given):
        return item.given[used]
    if state.answers:
        item.given.append(state.answers.pop(0))
        return item.given[used]
    return None


def _said(state: State, answer: str) -> str:
    """An answer as the player knows it: the parser turned a card in play
    into its ref, which means nothing to the player."""
    return board.name_of(state, answer) if answer in state.things else (answer or "none")


def ask(state: State, item: Pending, used: int, kind: str, what: str, options: list[str]) -> str:
    """The `used`-th decision of `item`: given, then the command's answers,
    then the only option; else a prompt (raises `_Pause`)."""
    answer = _given(state, item, used)
    if answer is None and len(options) == 1:
        answer = options[0]
        item.given.append(answer)
    elif answer is None:
        state.prompt = Prompt(seat=state.active, kind=kind, what=what, options=list(options))
        raise _Pause
    if answer not in options:
        shown = ", ".join(o or "none" for o in options)
        raise IllegalCommand(f"{what}: {_said(state, answer)} is not a choice here (choose one of: {shown})")
    return answer


def ask_card(state: State, item: Pending, used: int, seat: str, src: str, parts: list[Part], chosen: list[str]) -> str:
    """A card of `seat`'s own zones for part ``len(chosen)`` (`Part.zones`),
    or none: given, or asked without listing what those zones hold (`Prompt`)."""
    part = parts[len(chosen)]
    chooser = targets.zones_owner(state, seat, part) if part.by == "owner" else state.active
    if part.by == "owner" and used >= len(item.given) and state.answers and COMMAND_SEAT.get() != chooser:
        raise IllegalCommand(f"{part.what}: {chooser} chooses it, in its own command")
    answer = _given(state, item, used)
    if answer is None:
        state.prompt = Prompt(seat=chooser, kind="card", what=part.what, zones=[f"{z}:{targets.zones_owner(state, seat, part)}" for z in part.zones],
                              pick=dict(part.pick), taken=[t for t in chosen if t] if part.distinct else [],
                              optional=part.optional)
        raise _Pause
    why = targets.card_problem(state, seat, src, parts, chosen, answer)
    if why:
        raise IllegalCommand(f"{part.what}: {why}")
    return answer


def choose_targets(state: State, seat: str, src: str, parts: list[Part], item: Pending, used: int) -> list[str]:
    """An ability's (or spell's) targets, part by part, each checked with `targets.check`."""
    chosen: list[str] = []
    gold = state.players[seat].gold
    pools = [targets.candidates(state, seat, src, part) for part in parts]
    for i, part in enumerate(parts):
        if part.zones:  # "up to N cards": once one is declined, the later ones are too
            done = any(p.zones and not c for p, c in zip(parts, chosen)) or (part.by == "owner" and not any(
                state.zones[f"{z}:{targets.zones_owner(state, seat, part)}"].items for z in part.zones))
            chosen.append("" if done else ask_card(state, item, used + i, seat, src, parts, chosen))
            continue
        if part.slot_of:
            pools[i] = targets.slot_choices(state, chosen[int(part.slot_of[1:])])
        opts = []
        for x in (pools[i] + [""]) if part.optional or not pools[i] else pools[i]:
            try:
                targets.check(state, seat, src, parts[: i + 1], chosen + [x], gold, pools)
            except IllegalCommand:
                continue
            opts.append(x)
        if not opts:
            chosen.append("")
            continue
        chosen.append(ask(state, item, used + i, "target", part.what, opts))
    return chosen


def pay_targeting(state: State, seat: str, parts: list[Part], chosen: list[str]) -> None:
    """For each part that targets: resist is paid, an illusion dies when
    targeted, the tower reveals what it aims at."""
    aimed = [t for part, t in zip(parts, chosen) if part.aim and t and not board.is_structure(t) and t in state.things]
    cost = 0
    for t in aimed:
        cost += targets.resist(state, seat, t)
        targets.use_tower(state, seat, t)
    state.players[seat].gold -= cost
    dying = [t for t in aimed if t in state.things and _illusion(state, t)]
    if dying:
        log(state, "an illusion is targeted and dies: " + ", ".join(state.things[t].card for t in dying))
        engine.die(state, dying, None)


def _illusion(state: State, ref: str) -> bool:
    return values.has(state, ref, "illusion") or "Illusion" in board.subtypes(state, ref)


def resolve_trigger(state: State, item: Pending, chance: Chance | None) -> None:
    ab = events.ability(item.card, item.key)
    seat = item.ctrl
    used = 0
    if ab.raw.get("may"):
        if ask(state, item, 0, "may", f"{item.card}: {ab.raw.get('ask', 'use this ability')}?", [YES, NO]) == NO:
            if ab.raw.get("else"):  # what happens instead ("... or sacrifice this")
                log(state, f"{item.card}: declined")
                effects.run(effects.Ctx(state, seat, item.src, [], chance, item.ev, card=ab.card), ab.raw["else"])
            return
        used = 1
    if ab.targets:
        with values.frozen(state):  # choosing changes nothing values read
            chosen = choose_targets(state, seat, item.src, ab.targets, item, used)
    else:
        chosen = []
    if not events.spend(state, item.src, ab):  # after the choices: a question asked would come back here
        return
    if any(chosen):
        pay_targeting(state, seat, ab.targets, chosen)
    log(state, f"{item.card}: {ab.raw.get('log', _what(ab))}")
    effects.run(effects.Ctx(state, seat, item.src, chosen, chance, item.ev, card=ab.card), ab.do)


def _what(ab: Ability) -> str:
    if ab.on:
        return ab.on[0].replace("_", " ")
    return ab.name or "ability"


@registry.register("step", "hero_died")
def _hero_died(state: State, item: Pending, chance: Chance | None) -> None:
    """A hero of the seat `ev["dead"]` died: one hero in play of its
    opponents (any of them, with several) that can still level up levels up
    twice, the active player's pick (rulebook)."""
    up = [h for s in opponents(state, item.ev["dead"]) for h in board.heroes_in_play(state, s)
          if state.things[h].level < cards.max_level(state.things[h].card)]
    if not up:
        return
    hero = ask(state, item, 0, "hero", "which hero levels up twice (an opposing hero died)", up)
    if engine.level_up(state, hero, 2):
        log(state, f"{state.things[hero].card} levels up twice (an opposing hero died)")


@registry.register("step", hidden.ARRANGE)
def _arrange_top(state: State, item: Pending, chance: Chance | None) -> None:
    """The owner of the cards an ``arrange_top`` showed it puts them back in
    the order it chooses (question kind ``order``: it lists no options,
    which would show the cards): its own next command, ``choose
    top:NAME;top:NAME;...``, says the new order from the top (where the
    card lets it discard some: ``...;none;top:NAME`` after those kept).
    Never in the command that made it look: it did not know the cards yet."""
    seat, n, discard = item.ctrl, int(item.ev["n"]), bool(item.ev.get("discard"))
    what = f"the new order of the top {n} cards of {seat}'s draw pile, from the top" + \
        (" (then none, then those discarded)" if discard else "")
    if not item.given and state.answers and not item.ev.get("asked"):
        raise IllegalCommand(f"{what}: choose it in a command of its own, once you have seen those cards")
    if not item.given:
        if not state.answers:
            item.ev["asked"] = "1"
            state.prompt = Prompt(seat=seat, kind="order", what=what, zones=[top(seat)], optional=discard)
            raise _Pause
        item.given, state.answers = list(state.answers), []
    why = hidden.arrange_problem(state, seat, n, item.given, discard)
    if why:
        raise IllegalCommand(f"{what}: {why}")
    hidden.arrange(state, seat, item.given)


def answer_prompt(state: State, answers: list[str]) -> None:
    """The active player's ``choose``: the answers go to the waiting item."""
    if state.prompt is None:
        raise IllegalCommand("nothing waits for a choice (choose answers a question the game asked)")
    if not answers:
        raise IllegalCommand(f"{state.prompt.what}: give an answer")
    if state.prompt.kind not in ("card", "order") and answers[0] not in state.prompt.options:  # checked when used
        shown = ", ".join(o or "none" for o in state.prompt.options)
        raise IllegalCommand(f"{state.prompt.what}: {_said(state, answers[0])} is not a choice here "
                             f"(choose one of: {shown})")
    state.prompt = None
    state.answers = list(answers)
