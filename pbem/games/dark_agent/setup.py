"""Dark Agent's options and set-up: the options checked against the
catalogue (`check_options`), the `area` scenario, the shuffled decks and
the neutral satellites (`setup`), and the operation area laid out by the
game's first command (`deal_area`). Apart because nothing after the
set-up reads the options again; `apply` calls only `deal_area`.
"""

from __future__ import annotations

from collections import Counter

from pbem.errors import InvalidOption
from pbem.games.base import Chance, Known, draw_private, own_zone, pick
from pbem.games.dark_agent import catalogue as catmod
from pbem.games.dark_agent.catalogue import Catalogue
from pbem.games.dark_agent.readers import log
from pbem.games.dark_agent.state import (
    AREA_DECK, CELLS, DEAL, EQ_DECK, EQ_DISCARD, LINES, NEUTRAL, PLACE, SLOTS, Options, State, cell_zone, hand,
    new_zone, spy_id, taken,
)


def load_catalogue(options: Options) -> Catalogue:
    if options.catalogue is None:
        return catmod.reference()
    return catmod.parse("\n".join(options.catalogue), "catalogue")


def check_options(options: Options, seats: int | None = None) -> Catalogue:
    cat = load_catalogue(options)
    if options.powers not in ("table", "random"):
        raise InvalidOption(f"powers={options.powers!r}: expected table or random")
    if options.nuclear < 0 or options.rounds < 0 or options.satellites < 1 or options.neutral < 0:
        raise InvalidOption("nuclear, rounds and neutral must be 0 or more, satellites 1 or more")
    most = len(cat.aims) + (1 if seats == 1 else 0)
    if not 2 <= options.aims <= min(5, most):
        raise InvalidOption(f"aims={options.aims}: the game ends after 2 to {min(5, most)} AIMs")
    if seats is not None:
        need = options.satellites * seats + options.neutral
        if need > LINES * SLOTS:
            raise InvalidOption(
                f"{seats} players with {options.satellites} satellites each and {options.neutral} neutral "
                f"need {need} slots; the area has {LINES * SLOTS}"
            )
        if seats > 1 and options.powers == "table" and len(cat.powers) < seats:
            raise InvalidOption(f"the catalogue has {len(cat.powers)} nation powers for {seats} players")
    if options.area is not None:
        scenario_area(options.area, cat)
    return cat


def scenario_area(names: list[str], cat: Catalogue) -> list[str]:
    """The card ids of the `area` scenario option (35 cells, A1..G5), checked
    against the catalogue's copies."""
    ix = catmod.index(cat)
    by_key = {}
    for card in ix.entry:
        by_key[_key(card)] = card
        by_key.setdefault(_key(ix.name(card)), card)
    out = []
    for name in names:
        card = by_key.get(_key(name))
        if card is None:
            raise InvalidOption(f"area: no card {name.strip()!r} in the catalogue")
        out.append(card)
    if len(out) != CELLS:
        raise InvalidOption(f"area: give the {CELLS} cards of A1..G5, got {len(out)}")
    have = Counter(ix.area_deck() + ix.equipment_deck())
    over = [c for c, n in Counter(out).items() if n > have[c]]
    if over:
        raise InvalidOption(f"area: more copies than the catalogue has of {', '.join(sorted(over))}")
    return out


def _key(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def setup(options: Options, seat_names: list[str], chance: Chance) -> State:
    """Hidden decks shuffled with secret chance (refs given after shuffling),
    the area left in its deck for `deal`; neutral satellites and (option)
    the nation powers by public chance."""
    cat = check_options(options, len(seat_names))
    idx = catmod.index(cat)
    n = len(seat_names)
    if options.powers == "random":
        powers = [p.id for p in chance.public.shuffle(cat.powers)]
    else:
        powers = [p.id for p in cat.powers]
    state = State(
        catalogue=cat,
        seats=list(seat_names),
        order=list(seat_names),
        phase=DEAL,
        target=options.aims,
        kara_needed=options.kara,
        nuclear=options.nuclear,
        max_rounds=options.rounds,
        solo=n == 1,
        sats=[[] for _ in range(LINES)],
        spy_cell={spy_id(s, sp.level): -1 for s in seat_names for sp in cat.spies},
        power={s: powers[i % len(powers)] for i, s in enumerate(seat_names)},
        super_left={s: True for s in seat_names},
        double_holder=seat_names[-1],
        used_sats=[0] * LINES,
    )
    zones = {}
    area_deck, eq_deck = idx.area_deck(), idx.equipment_deck()
    fixed: list[str] = []
    if options.area is not None:  # the scenario: these cards lie on top, in cell order
        fixed = scenario_area(options.area, cat)
        for card in fixed:
            (area_deck if card in area_deck else eq_deck).remove(card)
    for name, order, prefix in ((AREA_DECK, fixed + chance.shuffle(area_deck), "d"),
                                (EQ_DECK, chance.shuffle(eq_deck), "e")):
        zone = new_zone()
        for card in order:
            zone.items.append(Known(f"{prefix}{state.next_ref:03d}", card))
            state.next_ref += 1
        zones[name] = zone
    zones[EQ_DISCARD] = new_zone(public=True)
    for cell in range(CELLS):
        zones[cell_zone(cell)] = new_zone(public=True)
    for s in seat_names:
        zones[hand(s)] = new_zone([s])
        zones[taken(s)] = new_zone(public=True)
    state.zones = zones
    # neutral satellites: public chance, on lines with room, one at a time
    for _ in range(options.neutral):
        room = [ln for ln in range(LINES) if len(state.sats[ln]) < SLOTS]
        state.sats[pick(chance.public, room)].append(NEUTRAL)
    # satellites are placed one at a time from the last player, clockwise
    # (the reverse of the counter-clockwise turn order)
    state.to_place = [s for _ in range(options.satellites) for s in reversed(seat_names)]
    return state


def deal_area(s: State, chance: Chance) -> None:
    """The 35 cells, face up from the operation-area deck (then from the top
    of the equipment deck if it runs short). The area deck is drawn by the
    beacons (`Dealing.by_beacon`): with a dealer its top is drawn (the `area`
    scenario's cards lie on top in cell order); in a peer game the beacons
    pick each card."""
    for cell in range(CELLS):
        if s.zones[AREA_DECK].items:
            own_zone(s, cell_zone(cell)).items = [draw_private(s, AREA_DECK, chance)]
        elif s.zones[EQ_DECK].items:
            own_zone(s, cell_zone(cell)).items = [own_zone(s, EQ_DECK).items.pop(0)]
    s.phase = PLACE
    log(s, "the operation area is laid out")
