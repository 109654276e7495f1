"""Agent Avenue's advanced mode: the black market.

After the recruit, both meeples move (the active seat's first); each one
that *ends* its move exactly on a black-market space (forward or backward;
passing over or staying put gives nothing) takes one of the face-up supply
cards, the active seat first, each resolving fully (chains included) before
the other. The supply is refilled at once, before the card resolves; an
empty supply gives nothing. Ongoing cards stay in front of their owner
(zone ``market:<seat>``) and never change a move already made; instants
resolve and go to ``market:used``. An instant that cannot be carried out is
ignored; when only its owner can tell (its hand is secret), the owner says
``pass`` and the check runs wherever the hand is known (`checked_if_visible`).

Cards taken from a hand and revealed (Outpost, Secret Recruit, Double
Trouble) are read with `identity`, so on the public state the writer must
include their openings: they are revealed with proof. Smoke Screen's card
goes from the deck to a public play area, and its identity is needed to
move, so the dealer (or the peer layers) must open it.

Team variant: `Market.who` is a side (its meeple landed); any one of its
players takes the card (`take NAME`), and that player (`Market.player`)
answers the card's questions with its own hand: Outpost, Secret Recruit
and Double Trouble recruit from it, Spycation and Mind Control put the agent
into it; the agent recruited goes to the side's play area.

Modifier order (rules notes, Decision): base icon, then the card-specific
modifiers (`cards.move_steps`), then Getaway Car where the move ends on a
home space.
"""

from __future__ import annotations

from pbem.errors import IllegalCommand, InvalidCommand
from pbem.games.agent_avenue import cards
from pbem.games.agent_avenue.commands import Choose, Command, Pass, Take
from pbem.games.agent_avenue.state import (
    AGAIN,
    DECK,
    MARKET,
    MARKET_DECK,
    MARKET_SUPPLY,
    MARKET_USED,
    RESOLVE_CARD,
    TAKE,
    Market,
    State,
    hand,
    is_team,
    known_name,
    members,
    new_zone,
    ongoing,
    other,
    play_area,
    ref_key,
    side_of,
)
from pbem.games.base import Chance, Item, Known, checked_if_visible, draw_private, identity, own_zone

#: tasks where `Market.who` must send a command
DECISIONS = frozenset({TAKE, AGAIN, cards.OUTPOST, cards.SECRET, cards.TROUBLE, cards.SPYCATION, cards.MIND})


def is_advanced(state: State) -> bool:
    return state.mode == "advanced"


# --- set-up ------------------------------------------------------------------


def setup_market(state: State, order: list[str]) -> None:
    """Add the black-market zones; the deck in `order`, top first. The supply
    is turned face up by the first `advance` (peer games show nothing at
    set-up), so it starts empty."""
    deck = new_zone()
    for name in order:
        deck.items.append(Known(f"m{state.next_ref:03d}", name))
        state.next_ref += 1
    state.zones[MARKET_DECK] = deck
    state.zones[MARKET_SUPPLY] = new_zone(public=True)
    state.zones[MARKET_USED] = new_zone(public=True)
    for seat in state.seats:
        state.zones[ongoing(seat)] = new_zone(public=True)
    state.market = Market()


def supply_short(state: State) -> bool:
    return len(state.zones[MARKET_SUPPLY].items) < cards.SUPPLY_SIZE and bool(state.zones[MARKET_DECK].items)


def refill(state: State, chance: Chance) -> None:
    """Turn black-market cards face up until the supply holds 3 (or the deck is out).

    The black-market deck is drawn by the beacons (`Dealing.by_beacon`):
    with a dealer its top is drawn; in peer games, where the seat that
    commits to it knows which ref is which card, the beacons pick the card
    (`draw_private`)."""
    supply = own_zone(state, MARKET_SUPPLY).items
    while len(supply) < cards.SUPPLY_SIZE and state.zones[MARKET_DECK].items:
        supply.append(draw_private(state, MARKET_DECK, chance))


# --- reading the state ---------------------------------------------------------


def ongoing_names(state: State, seat: str) -> set[str]:
    return {identity(it) for it in state.zones[ongoing(seat)].items}


def _names_in_play(state: State, seat: str) -> list[str]:
    return [identity(it) for it in state.zones[play_area(seat)].items]


def market(state: State) -> Market:
    assert isinstance(state.market, Market), "not an advanced-mode state"
    return state.market


def to_act(state: State) -> list[str]:
    m = market(state)
    if m.task in DECISIONS and m.who is not None:
        return members(state, m.who) if m.task == TAKE else [decider(state)]
    return []


def decider(state: State) -> str:
    """Who answers the card being resolved: the side's player who took it."""
    m = market(state)
    if is_team(state) and isinstance(m.player, str):
        return m.player
    assert m.who is not None
    return m.who


# --- moving ------------------------------------------------------------------


def move(state: State, seat: str, n: int) -> bool:
    """Move `seat`'s meeple `n` spaces (Getaway Car applied where it stops);
    True when it ends exactly on a black-market space. 0 moves nobody."""
    if n == 0:
        return False
    _step(state, seat, n)
    if cards.GETAWAY in ongoing_names(state, seat) and state.position[seat] in set(state.home.values()):
        _step(state, seat, 3)
        market(state).log.append(f"{seat}'s Getaway Car: 3 more forward")
    return state.position[seat] in cards.MARKET_SPACES


def _step(state: State, seat: str, n: int) -> None:
    state.progress[seat] += n
    state.position[seat] = (state.home[seat] + state.progress[seat]) % cards.BOARD_SIZE
    state.moves[seat] = state.moves.get(seat, 0) + n


def recruit_move(state: State, seat: str, item: Item) -> None:
    """Put `item` in `seat`'s play area and move for it; a landing on a
    black-market space queues `seat` to take another card first (a chain)."""
    own_zone(state, play_area(seat)).items.append(item)
    name = identity(item)
    count = _names_in_play(state, seat).count(name)
    n = cards.move_steps(name, count, ongoing_names(state, seat))
    _note(state, f"{seat} recruited {name} ({n:+d})", name)
    if move(state, seat, n):
        market(state).queue.insert(0, seat)


def _note(state: State, line: str, *names: str) -> None:
    """Log `line`; `names` are the agents it names, all public by then (the
    view lists them, so a picture never names a card its reader has not seen)."""
    m = market(state)
    m.log.append(line)
    m.shown.extend(n for n in names if n not in m.shown)


def draw_up(state: State, seat: str) -> None:
    """After a card left the hand: draw up to 4 (above 4, carry on)."""
    held = own_zone(state, hand(seat)).items
    deck = own_zone(state, DECK).items
    while len(held) < cards.HAND_SIZE and deck:
        held.append(deck.pop(0))


# --- the market phase --------------------------------------------------------------


def start(state: State, landed: list[str]) -> None:
    """After the recruit's moves: queue the seats that landed (active first)."""
    m = market(state)
    m.queue = list(landed)
    m.task, m.who, m.card, m.spy = "", None, None, None
    state.phase = MARKET


def run(state: State) -> bool:
    """Do every black-market step that needs no decision; True when the
    market is done for this turn (then the End step follows)."""
    m = market(state)
    while True:
        if m.task in DECISIONS:
            return False
        if m.task == RESOLVE_CARD:
            _resolve(state)
            continue
        if not m.queue:
            m.task, m.who = "", None
            return True
        seat = m.queue[0]
        if not state.zones[MARKET_SUPPLY].items:
            m.queue.pop(0)
            m.log.append(f"{seat} landed on the black market, but the supply is empty")
            continue
        m.task, m.who = TAKE, seat


def _resolve(state: State) -> None:
    """Resolve the instant `Market.card` for `Market.who`, or set its question."""
    m = market(state)
    seat = m.who
    assert seat is not None and m.card is not None
    card = identity(next(it for it in state.zones[MARKET_USED].items if it.ref == m.card))
    m.task = ""
    if card == cards.TRUCK:
        m.log.append(f"{seat}'s Surveillance Truck: 1 forward")
        if move(state, seat, 1):
            m.queue.insert(0, seat)
    elif card == cards.SMOKE:
        if not state.zones[DECK].items:
            m.log.append("Smoke Screen: the agent deck is empty, nothing happens")
        else:
            recruit_move(state, seat, own_zone(state, DECK).items.pop(0))
    elif card == cards.SPYCATION and not state.zones[play_area(seat)].items:
        m.log.append(f"Spycation: {seat} has no agent in play, nothing happens")
    elif card == cards.MIND and not state.zones[play_area(other(state, seat))].items:
        m.log.append("Mind Control: the opponent has no agent in play, nothing happens")
    else:
        m.task = card  # a question for `seat`


# --- legal commands ----------------------------------------------------------------


def _lowest(items: list[Item], want=lambda name: True) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for it in items:
        name = known_name(it)
        if name is not None and want(name):
            out.setdefault(name, []).append(it.ref)
    return {n: sorted(out[n], key=ref_key) for n in cards.NAMES if n in out}


def legal(state: State, seat: str) -> list[Command]:
    m = market(state)
    if seat not in to_act(state):
        return []
    if m.task == TAKE:
        return [Take(it.ref) for it in state.zones[MARKET_SUPPLY].items]
    held = state.zones[hand(seat)].items
    side = side_of(state, seat)
    out: list[Command]
    if m.task == cards.OUTPOST:
        refs = _lowest(held, lambda n: n == cards.SENTINEL)
        out = [Choose(r[0]) for r in refs.values()]
    elif m.task == cards.SECRET:
        have = set(_names_in_play(state, side))
        out = [Choose(r[0]) for r in _lowest(held, lambda n: n not in have).values()]
    elif m.task == cards.TROUBLE:
        out = [Choose(r[0], r[1]) for r in _lowest(held).values() if len(r) >= 2]
    elif m.task == cards.SPYCATION:
        return [Choose(r[0]) for r in _lowest(state.zones[play_area(side)].items).values()]
    elif m.task == cards.MIND:
        return [Choose(r[0]) for r in _lowest(state.zones[play_area(other(state, side))].items).values()]
    else:  # AGAIN
        return [Choose(m.spy), Pass()] if m.spy is not None else [Pass()]
    return out or [Pass()]


# --- apply -------------------------------------------------------------------------


def _pop(items: list[Item], ref: str) -> Item | None:
    for i, it in enumerate(items):
        if it.ref == ref:
            return items.pop(i)
    return None


def apply(state: State, seat: str, command: Command, chance: Chance) -> State:
    """Apply a black-market command to `state` (already a copy)."""
    m = market(state)
    if state.phase != MARKET or m.task not in DECISIONS:
        raise IllegalCommand(f"{seat} cannot {_verb(command)} now: nothing is asked of the black market")
    if seat not in to_act(state):
        raise IllegalCommand(f"{' or '.join(to_act(state))} answers the black market now, not {seat}")
    side = side_of(state, seat)
    if m.task == TAKE:
        if not isinstance(command, Take):
            raise IllegalCommand(f"{seat} must take a black-market card from the supply ('take NAME')")
        item = _pop(own_zone(state, MARKET_SUPPLY).items, command.ref)
        if item is None:
            raise IllegalCommand(f"black-market card {command.ref} is not in the supply")
        name = identity(item)
        m.queue.pop(0)
        refill(state, chance)  # at once, before the card resolves
        m.log.append(f"{seat} took {name}")
        if is_team(state):
            m.player = seat
        if cards.MARKET_KIND[name] == "ongoing":
            own_zone(state, ongoing(side)).items.append(item)
            m.task = ""
        else:
            own_zone(state, MARKET_USED).items.append(item)
            m.task, m.card = RESOLVE_CARD, item.ref
        return state
    if isinstance(command, Take):
        raise IllegalCommand(f"{seat} must first answer {m.task} ('choose NAME' or 'pass')")
    if m.task == AGAIN:
        if isinstance(command, Pass):
            m.log.append(f"{seat} keeps the agent in hand")
        else:
            # any copy of the returned agent will do: the writer re-chooses
            # refs among equal cards in a hand (`pbem.games.refchoice`)
            held = own_zone(state, hand(seat)).items
            spy = next((it for it in held if it.ref == m.spy), None)
            mine = next((it for it in held if it.ref == command.ref), None)
            if spy is None or mine is None or identity(mine) != identity(spy):
                raise IllegalCommand("Spycation recruits again only the agent it returned")
            recruit_move(state, side, _pop(held, command.ref))
            draw_up(state, seat)
        m.task, m.spy = "", None
        return state
    if isinstance(command, Pass):
        if m.task in (cards.SPYCATION, cards.MIND):
            raise IllegalCommand(f"{m.task} can be carried out: choose an agent")
        with checked_if_visible():
            if legal(state, seat) != [Pass()]:
                raise IllegalCommand(f"{m.task} can be carried out: you hold a suitable agent")
        m.log.append(f"{m.task} cannot be carried out: ignored")
        m.task = ""
        return state
    assert isinstance(command, Choose)
    held = own_zone(state, hand(seat)).items
    if m.task == cards.SPYCATION:
        item = _pop(own_zone(state, play_area(side)).items, command.ref)
        if item is None:
            raise IllegalCommand(f"agent {command.ref} is not in your play area")
        held.append(item)  # moves nobody
        m.revealed.append(item.ref)
        _note(state, f"{seat} took {identity(item)} back into the hand (Spycation)", identity(item))
        m.task, m.spy = AGAIN, item.ref
        return state
    if m.task == cards.MIND:
        item = _pop(own_zone(state, play_area(other(state, side))).items, command.ref)
        if item is None:
            raise IllegalCommand(f"agent {command.ref} is not in your opponent's play area")
        held.append(item)  # moves nobody
        m.revealed.append(item.ref)
        _note(state, f"{seat} took {identity(item)} from the opponent (Mind Control)", identity(item))
        m.task = ""
        return state
    refs = {it.ref: it for it in held}
    if command.ref not in refs or (command.keep is not None and command.keep not in refs):
        raise IllegalCommand("that card is not in your hand")
    name = identity(refs[command.ref])  # revealed with proof
    if m.task == cards.OUTPOST and name != cards.SENTINEL:
        raise IllegalCommand(f"Outpost recruits a Sentinel, not a {name}")
    if m.task == cards.SECRET and name in _names_in_play(state, side):
        raise IllegalCommand(f"Secret Recruit needs an agent you do not have in play; you have {name}")
    if m.task == cards.TROUBLE:
        if command.keep is None or command.keep == command.ref:
            raise IllegalCommand("Double Trouble reveals two cards: choose a pair")
        if identity(refs[command.keep]) != name:
            raise IllegalCommand("Double Trouble needs two identical agents")
        _note(state, f"{seat} revealed two {name} (Double Trouble)", name)
        m.revealed.append(command.keep)
    elif command.keep is not None:
        raise IllegalCommand(f"{m.task} recruits one card")
    m.task = ""
    recruit_move(state, side, _pop(held, command.ref))
    draw_up(state, seat)
    return state


def _verb(command: Command) -> str:
    return {Take: "take", Choose: "choose", Pass: "pass"}.get(type(command), "act")


# --- notation ---------------------------------------------------------------------


def parse_market(verb: str, rest: str, text: str, state: State, seat: str) -> Command:
    if not is_advanced(state):
        raise InvalidCommand(
            f"cannot read {text.strip()!r}: {verb!r} is for the black market (mode=advanced)",
            hint="expected 'discard NAME', 'play FACEUP / FACEDOWN' or 'recruit face-up|face-down'",
        )
    m = market(state)
    if verb == "pass":
        if rest:
            raise InvalidCommand(f"cannot read {text.strip()!r}: 'pass' takes nothing", hint="pass")
        return Pass()
    if not rest:
        raise InvalidCommand(f"{verb} needs a card name", hint="e.g. 'take Watchtower' or 'choose Sentinel'")
    if verb == "take":
        name = cards.market_canonical(rest)
        for it in state.zones[MARKET_SUPPLY].items:
            if known_name(it) == name:
                return Take(it.ref)
        supply = ", ".join(n for it in state.zones[MARKET_SUPPLY].items if (n := known_name(it))) or "empty"
        raise IllegalCommand(f"{name} is not in the black-market supply (supply: {supply})")
    name = cards.canonical(rest)
    if m.task == AGAIN:
        if m.spy is not None and known_name(_find(state, hand(seat), m.spy)) == name:
            return Choose(m.spy)
        raise IllegalCommand(f"Spycation recruits again only the agent it returned, not {name}")
    if m.task in (cards.SPYCATION, cards.MIND):
        side = side_of(state, seat)
        owner = side if m.task == cards.SPYCATION else other(state, side)
        refs = _lowest(state.zones[play_area(owner)].items).get(name)
        if not refs:
            whose = "you have" if owner == side else "your opponent has"
            raise IllegalCommand(f"{whose} no {name} in play")
        return Choose(refs[0])
    refs = _lowest(state.zones[hand(seat)].items).get(name)
    if not refs:
        raise IllegalCommand(f"you have no {name} in hand")
    if m.task == cards.TROUBLE:
        if len(refs) < 2:
            raise IllegalCommand(f"you have only one {name} in hand: Double Trouble needs two")
        return Choose(refs[0], refs[1])
    return Choose(refs[0])


def _find(state: State, zone: str, ref: str) -> Item:
    return next(it for it in state.zones[zone].items if it.ref == ref)
