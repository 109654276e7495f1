"""The state after a Dark Agent command (`apply`): each command checked by
its problem (`problems`, `satellites`), then done here or by the attack
(`attacks`) and the turn's end (`turn_end`). The effects of a spotted card
and of used equipment live here, as only commands cause them.
"""

from __future__ import annotations

from pbem.errors import IllegalCommand
from pbem.games.base import Chance, identity, own_zone, settle_zones
from pbem.games.dark_agent.attacks import answer_hit, attack
from pbem.games.dark_agent.commands import (
    Attack, Command, Deal, Deploy, Double, End, Jacket, Media, Move, Place, Power, Spot, Swap, Use, Vote,
)
from pbem.games.dark_agent.editions import CURRENT, Edition
from pbem.games.dark_agent.problems import attack_problem, double_target, power_problem, spot_problem, use_problem
from pbem.games.dark_agent.readers import (
    board_spies, can_deploy, family, far_sources, hand_limit, idx, log, sources, to_act,
)
from pbem.games.dark_agent.satellites import is_move, move_problem, moved, sat_key
from pbem.games.dark_agent.setup import deal_area
from pbem.games.dark_agent.state import (
    ACT, CELLS, DEAL, DEPLOY, EQ_DECK, EQ_DISCARD, JACKET, KARA_SPY, LINES, MEDIA, MOVE, PLACE, SLOTS, TALLY, VOTE,
    State, card_at, cell_name, cell_zone, hand, is_empty, line_of, spy_at, spy_level, thaw,
)
from pbem.games.dark_agent.turn_end import finish_turn


def apply(state: State, seat: str, cmd: Command, chance: Chance, edition: Edition = CURRENT) -> State:
    """The state after `seat`'s `cmd`, under the rules of `edition` (`editions`)."""
    if seat not in to_act(state):
        if state.phase == VOTE and seat in state.votes:
            raise IllegalCommand(f"{seat} has already voted")
        raise IllegalCommand(f"it is not {seat}'s turn ({state.phase})")
    s = thaw(state)
    phase = s.phase
    match cmd:
        case Deal() if phase == DEAL:
            deal_area(s, chance)
        case Place(line) if phase == PLACE:
            if not 0 <= line < LINES or len(s.sats[line]) >= SLOTS:
                raise IllegalCommand("that line has no free satellite slot")
            s.sats[line].append(seat)
            s.to_place.pop(0)
            if not s.to_place:
                s.phase = MOVE
                log(s, "all satellites placed")
        case Move() | Swap() if phase == MOVE:
            if not is_move(state, seat, cmd):
                raise IllegalCommand(move_problem(state, seat, cmd))
            if isinstance(cmd, Move):
                for a, b in cmd.moves:
                    s.sats = moved(s.sats, seat, a, b)
            else:
                s.sats[cmd.mine].remove(seat)
                s.sats[cmd.other].remove(cmd.owner)
                s.sats[cmd.mine].append(cmd.owner)
                s.sats[cmd.other].append(seat)
            key = sat_key(s)
            s.sats = [sorted(x, key=key) for x in s.sats]
            s.phase = ACT
        case Spot() if phase == ACT:
            problem = spot_problem(state, seat, cmd)
            if problem:
                raise IllegalCommand(problem)
            _spot(s, seat, cmd, chance)
        case Attack() if phase == ACT:
            problem = attack_problem(state, seat, cmd, edition)
            if problem:
                raise IllegalCommand(problem)
            attack(s, seat, cmd, chance, edition)
        case Double(cell) if phase == ACT:
            if s.double_holder != seat:
                raise IllegalCommand("you do not hold the double-spy token")
            if s.turned:
                raise IllegalCommand("the double-spy token is already in use this turn")
            if cell not in s.selected or not double_target(s, seat, cell):
                raise IllegalCommand("the double-spy token needs a selected enemy spy (or Kara)")
            spy = spy_at(s, cell)
            s.turned = spy if spy is not None else KARA_SPY
            log(s, f"{seat} turns the {'spy ' + spy if spy else 'Dark Agent'} in {cell_name(cell)}")
        case Use() if phase == ACT:
            problem = use_problem(state, seat, cmd)
            if problem:
                raise IllegalCommand(problem)
            _use(s, seat, cmd, chance)
        case Power(source) if phase == ACT:
            problem = power_problem(state, seat, source)
            if problem:
                raise IllegalCommand(problem)
            s.powers_used.append(source)
            kind = dict(sources(s, seat))[source].kind
            if kind == "deploy":
                _start_deploy(s, seat, "power")
            else:
                _draw_equipment(s, seat, chance)
        case Deploy(cell) if phase == DEPLOY:
            if not 0 <= cell < CELLS or not is_empty(s, cell):
                raise IllegalCommand(f"{cell_name(cell) if 0 <= cell < CELLS else cell} is not an empty cell")
            spy = board_spies(s, seat)[0]
            s.spy_cell[spy] = cell
            s.phase = ACT
            log(s, f"{seat} deploys spy {spy_level(spy)} to {cell_name(cell)}")
        case Jacket(ref) if phase == JACKET:
            answer_hit(s, seat, ref)
        case End() if phase == ACT:
            log(s, f"{seat} ends the turn")
            if s.media:
                s.phase = MEDIA
            else:
                finish_turn(s, chance)
        case Media(take, put) if phase == MEDIA:
            if take:
                cards = [c for c in range(CELLS) if card_at(s, c) is not None]
                if (len(take) != 3 or len(set(take)) != 3 or sorted(take) != sorted(put)
                        or any(c not in cards for c in take)):
                    raise IllegalCommand("media: three different cells holding cards, put back among the same cells")
                items = {c: s.zones[cell_zone(c)].items for c in take}
                for src, dst in zip(take, put):
                    own_zone(s, cell_zone(dst)).items = list(items[src])
                log(s, f"{seat} rearranges {', '.join(map(cell_name, take))} (Media)")
            finish_turn(s, chance)
        case Vote(yes) if phase == VOTE:
            s.votes[seat] = yes
            if all(x in s.votes for x in s.seats):
                s.phase = TALLY
        case _:
            raise IllegalCommand(f"{type(cmd).__name__.lower()} is not possible now ({phase})")
    settle_zones(s)
    return s


def _spot(s: State, seat: str, cmd: Spot, chance: Chance) -> None:
    line = line_of(cmd.cell)
    s.selected.append(cmd.cell)
    s.used_sats[line] += 1
    if cmd.reach == "super":
        s.super_left[seat] = False
    elif cmd.reach == "far":
        s.powers_used.append(far_sources(s, seat)[0])
    item = card_at(s, cmd.cell)
    log(s, f"{seat} spots {cell_name(cmd.cell)}" + (f" ({cmd.reach})" if cmd.reach else ""))
    if item is None:
        return
    card = identity(item)
    fam = family(s, card)
    ix = idx(s)
    if fam == "equipment":
        own_zone(s, cell_zone(cmd.cell)).items = []
        own_zone(s, hand(seat)).items.append(item)
        log(s, f"{seat} takes {ix.name(card)}")
    elif fam == "special":
        kind = ix.entry[card].kind  # type: ignore[attr-defined]
        if kind == "supply":
            if len(s.zones[hand(seat)].items) < hand_limit(s, seat):
                _draw_equipment(s, seat, chance)
        elif kind == "support":
            _start_deploy(s, seat, "support")
        elif kind == "media":
            s.media = True
        elif kind == "espionage":
            s.double_holder = seat
            log(s, f"{seat} takes the double-spy token")


def _draw_equipment(s: State, seat: str, chance: Chance) -> None:
    """Top of the equipment deck into the hand (nothing if it is empty).
    Once the deck is out, `advance` shuffles the discards into a new one
    after the command: a card is never drawn from a deck shuffled in the
    same command, so in a peer game every seat's new layer is on it first."""
    if s.zones[EQ_DECK].items:
        own_zone(s, hand(seat)).items.append(own_zone(s, EQ_DECK).items.pop(0))
        log(s, f"{seat} draws an equipment card")


def _start_deploy(s: State, seat: str, source: str) -> None:
    if can_deploy(s, seat):
        s.phase = DEPLOY
        s.deploy_from = source
    else:
        log(s, f"{seat} has no spy to deploy or no empty cell")


def _use(s: State, seat: str, cmd: Use, chance: Chance) -> None:
    items = own_zone(s, hand(seat)).items
    item = next(it for it in items if it.ref == cmd.ref)
    items.remove(item)
    own_zone(s, EQ_DISCARD).items.append(item)
    card = identity(item)
    ix = idx(s)
    eq = ix.entry[card]
    if eq.star:  # type: ignore[attr-defined]
        s.star_used = True
    kind = eq.effect.kind  # type: ignore[attr-defined]
    log(s, f"{seat} uses {ix.name(card)}" + "".join(f" {cell_name(c)}" for c in cmd.cells))
    if kind == "adrenaline":
        s.adrenaline.append(spy_at(s, cmd.cells[0]))  # type: ignore[arg-type]
    elif kind == "investigate":
        ref = card_at(s, cmd.cells[0]).ref  # type: ignore[union-attr]
        s.tokens[ref] = s.tokens.get(ref, 0) + eq.effect.amount  # type: ignore[attr-defined]
    elif kind == "jetpack":
        a, b = cmd.cells
        mine = spy_at(s, a)
        other = spy_at(s, b)
        s.spy_cell[mine] = b  # type: ignore[index]
        if other is not None:
            s.spy_cell[other] = a
        else:
            own_zone(s, cell_zone(a)).items, own_zone(s, cell_zone(b)).items = list(s.zones[cell_zone(b)].items), []
    elif kind == "deploy":
        _start_deploy(s, seat, "equipment")
    s.effects.append(card)
