"""Dark Agent rules: set-up, the two phases of a turn, attacks, equipment,
the UN peace phase and scoring (rules notes: ``shared/rules/dark-agent.md``).

Every card value comes from the catalogue in the state (`catalogue`); the
rules know only effect *kinds*. Public chance (dice) is drawn once per
command, where the rules roll: an attack rolls its 4 dice (and the
defender's die against a spy or Kara) when it is applied, so it is the
natural end of a file; the UN tie die and the solo vote die are rolled by
`advance` once every vote is in. Secret chance only orders the hidden
decks (set-up, and `shuffle_zone` when the equipment deck runs out).

The set-up shows no card: the area is laid out by the game's first command,
`deal` (written by the first seat to place a satellite), from the shuffled
operation-area deck, and each card is revealed as it lands face up. So the
same rules serve every dealer: a referee reveals the cards it dealt, and in
a peer game the area comes from the shared poker deck, whose order nobody
knows, every other seat taking its layer off in its next file before the
first satellite is placed.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from pbem.errors import IllegalCommand, InvalidOption
from pbem.games.base import (
    Chance, Hidden, Known, Outcome, checked_if_visible, draw_private, identity, own_zone, pick, roll, settle_zones,
    shuffle_zone,
)
from pbem.games.dark_agent import catalogue as catmod
from pbem.games.dark_agent.catalogue import Catalogue, Effect
from pbem.games.dark_agent.commands import jacket_refs
from pbem.games.dark_agent.editions import CURRENT, Edition
from pbem.games.dark_agent.commands import (
    Attack,
    Command,
    Deal,
    Deploy,
    Double,
    End,
    Jacket,
    Media,
    Move,
    Place,
    Power,
    Spot,
    Swap,
    Use,
    Vote,
)
from pbem.games.dark_agent.state import (
    ACT,
    AREA_DECK,
    CELLS,
    CELL_ZONES,
    CELLS_PER_LINE,
    DEAL,
    DEPLOY,
    EQ_DECK,
    EQ_DISCARD,
    JACKET,
    KARA_SPY,
    LINES,
    MEDIA,
    MOVE,
    NEUTRAL,
    OVER,
    PLACE,
    SLOTS,
    TALLY,
    VOTE,
    Options,
    State,
    active,
    card_at,
    cell_name,
    cell_zone,
    hand,
    is_empty,
    line_of,
    neighbours,
    new_zone,
    pos_of,
    spy_at,
    spy_id,
    spy_level,
    spy_owner,
    taken,
    thaw,
)

HAND_LIMIT = 3
SOLO_ROUNDS = 10
LOG_LINES = 6


# --- options and set-up ----------------------------------------------------------


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


# --- small readers ----------------------------------------------------------------


def idx(state: State) -> catmod.Index:
    return catmod.index(state.catalogue)


def family(state: State, card: str) -> str:
    return idx(state).family.get(card, "")


def cell_card(state: State, cell: int) -> str | None:
    item = card_at(state, cell)
    return identity(item) if item is not None else None


def sources(state: State, seat: str) -> list[tuple[str, Effect]]:
    """(source id, effect) of the seat's nation power and the AIMs it holds."""
    ix = idx(state)
    out = [(state.power[seat], ix.power[state.power[seat]].effect)]
    for it in state.zones[taken(seat)].items:
        card = identity(it)
        aim = ix.entry[card]
        if ix.family[card] == "aim" and aim.effect is not None:  # type: ignore[attr-defined]
            out.append((card, aim.effect))  # type: ignore[attr-defined]
    return out


def passive(state: State, seat: str, kind: str) -> list[Effect]:
    return [e for _, e in sources(state, seat) if e.kind == kind]


def hand_limit(state: State, seat: str) -> int:
    return max([HAND_LIMIT] + [e.amount for e in passive(state, seat, "equipment_limit")])


def turn_effects(state: State) -> list[Effect]:
    """Effects of the equipment used this turn (they last until its end)."""
    ix = idx(state)
    return [ix.entry[c].effect for c in state.effects]  # type: ignore[attr-defined]


def turn_has(state: State, kind: str) -> bool:
    return any(e.kind == kind for e in turn_effects(state))


def mine_on(state: State, seat: str, line: int, neutral: bool | None = None) -> int:
    """The seat's satellites over `line` (and the neutral ones with a
    use_neutral effect this turn; `neutral`: that effect, when known)."""
    own = state.sats[line].count(seat)
    if turn_has(state, "use_neutral") if neutral is None else neutral:
        own += state.sats[line].count(NEUTRAL)
    return own


def reach(state: State, seat: str, line: int, neutral: bool | None = None) -> int:
    """How many cells of `line` (from the satellites) the seat may select."""
    n = len(state.sats[line])
    return CELLS_PER_LINE if mine_on(state, seat, line, neutral) >= SLOTS else min(n, SLOTS)


def far_sources(state: State, seat: str) -> list[str]:
    return [s for s, e in sources(state, seat) if e.kind == "far_sight" and s not in state.powers_used]


def board_spies(state: State, seat: str) -> list[str]:
    return sorted((s for s, c in state.spy_cell.items() if c < 0 and spy_owner(s) == seat), key=spy_level)


def empty_cells(state: State) -> list[int]:
    """The cells holding neither a card nor a spy (`is_empty`), in order."""
    spies = set(state.spy_cell.values())
    zones = state.zones
    return [c for c, name in enumerate(CELL_ZONES) if not zones[name].items and c not in spies]


def can_deploy(state: State, seat: str) -> bool:
    return bool(board_spies(state, seat)) and bool(empty_cells(state))


def holder_spy_level(state: State, spy: str) -> int:
    return state.catalogue.kara.level if spy == KARA_SPY else spy_level(spy)


def log(state: State, line: str) -> None:
    state.log = (state.log + [line])[-LOG_LINES:]


def aims_taken(state: State) -> int:
    return sum(
        1 for s in state.seats for it in state.zones[taken(s)].items if family(state, identity(it)) == "aim"
    )


def kara_taker(state: State) -> str | None:
    kara = state.catalogue.kara.id
    for s in state.seats:
        if any(identity(it) == kara for it in state.zones[taken(s)].items):
            return s
    return None


def score(state: State, seat: str) -> int:
    ix = idx(state)
    total = state.catalogue.last_aim_bonus if state.last_aim == seat else 0
    for it in state.zones[taken(seat)].items:
        e = ix.entry[identity(it)]
        total += getattr(e, "points", None) or getattr(e, "level", 0)
    total += sum(spy_level(s) for s, c in state.spy_cell.items() if c >= 0 and spy_owner(s) == seat)
    return total


# --- who acts -----------------------------------------------------------------------


def area_face_down(state: State) -> bool:
    """A card lies in the area that is not face up yet: it was just laid out
    (`deal`, a refill) and its reveal is still travelling. Nobody decides
    until it is in, so nobody chooses without seeing the area (in a peer
    game several seats take their layers off, one file each)."""
    zones = state.zones
    for name in CELL_ZONES:
        for it in zones[name].items:
            if type(it) is Hidden:
                return True
    return False


def to_act(state: State) -> list[str]:
    if state.phase != OVER and area_face_down(state):
        return []
    if state.phase == DEAL:  # the first to place a satellite lays out the area
        return state.to_place[:1] or state.seats[-1:]
    if state.phase == PLACE:
        return state.to_place[:1]
    if state.phase == JACKET:
        return [spy_owner(state.hit)]
    if state.phase in (MOVE, ACT, DEPLOY, MEDIA):
        return [active(state)]
    if state.phase == VOTE:
        return [s for s in state.seats if s not in state.votes]
    return []


def simultaneous(state: State) -> list[str]:
    return to_act(state) if state.phase == VOTE else []


# --- legal commands -----------------------------------------------------------------


def legal(state: State, seat: str, edition: Edition = CURRENT) -> list[Command]:
    """`seat`'s legal commands, under the rules of `edition` (`editions`)."""
    if seat not in to_act(state):
        return []
    phase = state.phase
    if phase == DEAL:
        return [Deal()]
    if phase == PLACE:
        return [Place(ln) for ln in range(LINES) if len(state.sats[ln]) < SLOTS]
    if phase == MOVE:
        return moves(state, seat)
    if phase == DEPLOY:
        return [Deploy(c) for c in empty_cells(state)]
    if phase == JACKET:  # a jacket must save the spy: the only answer
        return [Jacket((jacket_refs(state, seat) or [""])[0])]
    if phase == MEDIA:
        cards = [c for c in range(CELLS) if card_at(state, c) is not None]
        out: list[Command] = [Media()]
        for k in range(0, min(len(cards) - 2, 9), 3):  # a small sample; any triple is allowed
            a, b, c = cards[k:k + 3]
            out += [Media([a, b, c], [b, c, a]), Media([a, b, c], [b, a, c])]
        return out
    if phase == VOTE:
        return [Vote(True), Vote(False)]
    if phase == ACT:
        return act_commands(state, seat, edition)
    return []


def moves(state: State, seat: str) -> list[Command]:
    """Every two-satellite move (one only if no second move exists), then swaps."""
    sats = state.sats
    own = [line.count(seat) for line in sats]
    size = [len(line) for line in sats]
    mine = {line for line in range(LINES) if own[line]}
    free = {line for line in range(LINES) if size[line] < SLOTS}
    twos: list[Command] = []
    table = _TWO_MOVES or _two_moves()
    for a, b in _singles(own, size):
        # after one satellite moved from a to b: the seat's lines, the lines with room
        mine2 = mine | {b} if own[a] > 1 else (mine | {b}) - {a}
        free2 = sorted(free | {a} if size[b] + 1 < SLOTS else (free | {a}) - {b})
        row = table[a][b]
        for c in sorted(mine2):
            if c != b or own[b] >= 1:  # the second move must move another satellite
                twos += filter(None, map(row[c].__getitem__, free2))  # None: from c to c
    out = twos or [_MOVES[a, b] for a, b in _singles(own, size)]
    owners = [[o for o in sorted(set(line) - {seat}) if _swappable(sats, b, o)] for b, line in enumerate(sats)]
    for a in range(LINES):
        if own[a]:
            out += [Swap(a, b, o) for b in range(LINES) if b != a for o in owners[b]]
    return out


def _singles(own: list[int], size: list[int]) -> list[tuple[int, int]]:
    """One satellite's moves, from the seat's satellites per line (`own`)
    and the satellites per line (`size`): from a line of the seat's to
    another line with a free slot."""
    free = [b for b in range(LINES) if size[b] < SLOTS]
    return [(a, b) for a in range(LINES) if own[a] for b in free if b != a]


#: every `Move` there can be, made once (a search asks for the moves again
#: and again): one satellite's by (from, to), two by [a][b][c][d], the
#: latter on the first `moves` (2,401 of them: a command that lists no
#: moves, as `status`, does not pay for them)
_MOVES: dict[tuple[int, int], Move] = {(a, b): Move([(a, b)]) for a in range(LINES) for b in range(LINES)}
_TWO_MOVES: list[list[list[list[Move | None]]]] = []


def _two_moves() -> list[list[list[list[Move | None]]]]:
    if not _TWO_MOVES:
        _TWO_MOVES[:] = [[[[Move([(a, b), (c, d)]) if c != d else None for d in range(LINES)] for c in range(LINES)]
                          for b in range(LINES)] for a in range(LINES)]
    return _TWO_MOVES


def is_move(state: State, seat: str, cmd: Command) -> bool:
    """``cmd in moves(state, seat)``, without listing the moves."""
    sats = state.sats
    if isinstance(cmd, Swap):
        a, b, owner = cmd.mine, cmd.other, cmd.owner
        return (0 <= a < LINES and 0 <= b < LINES and a != b and seat in sats[a]
                and owner != seat and owner in sats[b] and _swappable(sats, b, owner))
    if not isinstance(cmd, Move) or not 1 <= len(cmd.moves) <= 2:
        return False
    if any(type(m) is not tuple or len(m) != 2 or not all(0 <= x < LINES for x in m) for m in cmd.moves):
        return False
    own = [line.count(seat) for line in sats]
    size = [len(line) for line in sats]
    (a, b), *rest = cmd.moves
    if not _single(own, size, a, b):
        return False
    own[a] -= 1
    own[b] += 1
    size[a] -= 1
    size[b] += 1
    if rest:
        c, d = rest[0]
        return _single(own, size, c, d) and (c != b or own[b] >= 2)
    own[a] += 1
    own[b] -= 1
    size[a] += 1
    size[b] -= 1
    return not _has_two(own, size)


def _single(own: list[int], size: list[int], a: int, b: int) -> bool:
    return a != b and own[a] > 0 and size[b] < SLOTS


def _has_two(own: list[int], size: list[int]) -> bool:
    """A two-satellite move exists (see `moves`)."""
    for a, b in _singles(own, size):
        own2, size2 = list(own), list(size)
        own2[a] -= 1
        own2[b] += 1
        size2[a] -= 1
        size2[b] += 1
        if any(c != b or own2[b] >= 2 for c, d in _singles(own2, size2)):
            return True
    return False


def can_move(state: State, seat: str) -> bool:
    """`moves` is not empty: a satellite of the seat's can move or swap."""
    sats = state.sats
    mine = [a for a in range(LINES) if seat in sats[a]]
    if any(len(sats[b]) < SLOTS for a in mine for b in range(LINES) if b != a):
        return True
    return any(_swappable(sats, b, owner) for a in mine for b in range(LINES) if b != a
               for owner in set(sats[b]) - {seat})


def _moved(sats: list[list[str]], seat: str, a: int, b: int) -> list[list[str]]:
    out = [list(x) for x in sats]
    out[a].remove(seat)
    out[b].append(seat)
    return out


def _swappable(sats: list[list[str]], line: int, owner: str) -> bool:
    return not (len(sats[line]) == SLOTS and all(o == owner for o in sats[line]))


def act_commands(state: State, seat: str, edition: Edition = CURRENT) -> list[Command]:
    out: list[Command] = []
    full = len(state.zones[hand(seat)].items) >= hand_limit(state, seat)
    fams = area_families(state) if full else []
    far = bool(far_sources(state, seat))
    neutral = turn_has(state, "use_neutral")
    for line in range(LINES):
        if mine_on(state, seat, line, neutral) - state.used_sats[line] <= 0:
            continue
        r = reach(state, seat, line, neutral)
        for pos in range(CELLS_PER_LINE):
            cell = line * CELLS_PER_LINE + pos
            if cell in state.selected:
                continue
            if full and fams[cell] == "equipment":
                continue
            if pos < r:
                out.append(Spot(cell))
                continue
            if state.super_left[seat]:
                out.append(Spot(cell, "super"))
            if far:
                out.append(Spot(cell, "far"))
    out += _attacks(state, seat, edition)
    if state.double_holder == seat and not state.turned:
        for cell in state.selected:
            if _double_target(state, seat, cell):
                out.append(Double(cell))
    out += _uses(state, seat)
    for source, eff in sources(state, seat):
        if _power_problem(state, seat, source) is None:
            out.append(Power(source))
    out.append(End())
    return out


def _attackers(state: State, seat: str) -> list[int]:
    out = []
    for cell in sorted(state.selected):
        spy = spy_at(state, cell)
        if spy is not None and (spy_owner(spy) == seat or spy == state.turned):
            out.append(cell)
        elif state.turned == KARA_SPY and cell_card(state, cell) == state.catalogue.kara.id:
            out.append(cell)
    return out


def _attacks(state: State, seat: str, edition: Edition) -> list[Command]:
    attackers = _attackers(state, seat)
    if not attackers:
        return []
    any_sentry = any(e.kind == "attack_bonus" and e.any_sentry for e in turn_effects(state))
    candidates = range(CELLS) if any_sentry else sorted(state.selected)
    targets = [c for c in candidates if c not in attackers and _target_kind(state, seat, c)]
    out: list[Command] = []
    for t in targets:
        for k in range(1, len(attackers) + 1):
            for group in combinations(attackers, k):
                cmd = Attack(t, list(group))
                if _attack_problem(state, seat, cmd, edition) is None:
                    out.append(cmd)
    return out


def _uses(state: State, seat: str) -> list[Command]:
    """Every `Use` that `_use_problem` lets through, one card of each name
    (its lowest ref): the candidate cells of each kind, filtered by the same
    tests, computed once for the whole hand (tests/test_rules_shortcuts.py
    holds them to the candidates `_use_problem` passes one by one)."""
    items = state.zones[hand(seat)].items
    if not items:
        return []
    ix = idx(state)
    first = spies_by_cell(state)
    fams = area_families(state)
    mine = sorted(c for s, c in state.spy_cell.items() if c >= 0 and spy_owner(s) == seat)
    own = [c for c in mine if (s := first.get(c)) and spy_owner(s) == seat]
    out: list[Command] = []
    seen: set[str] = set()
    for it in sorted(items, key=lambda i: (len(i.ref), i.ref)):
        card = identity(it)
        if card in seen:
            continue
        seen.add(card)
        eq = ix.entry[card]
        kind = eq.effect.kind  # type: ignore[attr-defined]
        if kind == "jacket" or (eq.star and state.star_used):  # type: ignore[attr-defined]
            continue
        if kind == "adrenaline":
            out += [Use(it.ref, [c]) for c in own if first[c] not in state.adrenaline]
        elif kind == "investigate":
            out += [Use(it.ref, [c]) for c in range(CELLS) if fams[c] == "aim"]
        elif kind == "jetpack":
            hits = [c for c in range(CELLS) if _jetpack_target(state, seat, first.get(c), fams[c])]
            out += [Use(it.ref, [m, o]) for m in own for o in hits if o != m]
        else:
            out.append(Use(it.ref, []))
    return out


def spies_by_cell(state: State) -> dict[int, str]:
    """Cell -> the spy `spy_at` finds there (the first in `spy_cell`)."""
    out: dict[int, str] = {}
    for spy, cell in state.spy_cell.items():
        out.setdefault(cell, spy)
    return out


def area_families(state: State) -> list[str]:
    """The family of the card in each cell ("" where there is none):
    ``family(state, cell_card(state, cell) or "")`` for every cell at once."""
    fam = idx(state).family
    zones = state.zones
    return [fam.get(identity(items[0]), "") if (items := zones[name].items) else "" for name in CELL_ZONES]


def _jetpack_target(state: State, seat: str, other: str | None, fam: str) -> bool:
    """Where a jet-pack may go: a cell holding an enemy spy (`other`, the
    spy there) or a sentry (`fam`, the family of its card)."""
    return (other is not None and spy_owner(other) != seat and other != state.turned) or fam == "sentry"


# --- problems (None: legal) -----------------------------------------------------------


def _spot_problem(state: State, seat: str, cmd: Spot) -> str | None:
    cell = cmd.cell
    if not 0 <= cell < CELLS:
        return "no such cell"
    if cell in state.selected:
        return f"{cell_name(cell)} is already selected"
    line = line_of(cell)
    if mine_on(state, seat, line) - state.used_sats[line] <= 0:
        return f"you have no unused satellite over line {cell_name(cell)[0]}"
    within = pos_of(cell) < reach(state, seat, line)
    if cmd.reach == "":
        if not within:
            return f"{cell_name(cell)} is out of reach (line {cell_name(cell)[0]} reaches {reach(state, seat, line)} cells)"
    elif within:
        return f"{cell_name(cell)} is within reach: spot it without {cmd.reach}"
    elif cmd.reach == "super":
        if not state.super_left[seat]:
            return "your super-satellite token is used up"
    elif cmd.reach == "far":
        if not far_sources(state, seat):
            return "you have no far-sight power left this turn"
    else:
        return f"unknown reach {cmd.reach!r}"
    card = cell_card(state, cell)
    if card is not None and family(state, card) == "equipment" and len(state.zones[hand(seat)].items) >= hand_limit(state, seat):
        return f"you hold {hand_limit(state, seat)} equipment cards: you cannot take another"
    return None


def _target_kind(state: State, seat: str, cell: int) -> str:
    """What an attack on `cell` would be: sentry, aim, kara, spy, or ''."""
    spy = spy_at(state, cell)
    if spy is not None:
        return "spy" if spy_owner(spy) != seat and spy != state.turned else ""
    card = cell_card(state, cell)
    if card is None:
        return ""
    fam = family(state, card)
    if fam == "kara":
        return "" if state.turned == KARA_SPY else "kara"
    return fam if fam in ("sentry", "aim") else ""


def protected(state: State, seat: str, cell: int, edition: Edition = CURRENT) -> bool:
    """An AIM that `seat` cannot attack: an enemy spy (not the one `seat`
    turned with the double-spy token) or a sentry lies orthogonally next to
    it. The rulebook names only these two; Kara, the Dark Agent, is no
    enemy spy and protects nothing (rules 1 let her protect: `editions`)."""
    for n in neighbours(cell):
        spy = spy_at(state, n)
        if spy is not None and spy_owner(spy) != seat and spy != state.turned:
            return True
        card = cell_card(state, n)
        if card is not None:
            fam = family(state, card)
            if fam == "sentry" or (fam == "kara" and edition.kara_protects_aims and state.turned != KARA_SPY):
                return True
    return False


def _level_at(state: State, cell: int) -> int:
    spy = spy_at(state, cell)
    if spy is not None:
        return spy_level(spy)
    return state.catalogue.kara.level  # a turned Kara


def _attack_problem(state: State, seat: str, cmd: Attack, edition: Edition) -> str | None:
    t = cmd.target
    if not 0 <= t < CELLS:
        return "no such cell"
    kind = _target_kind(state, seat, t)
    if not kind:
        return f"nothing to attack in {cell_name(t)}"
    any_sentry = any(e.kind == "attack_bonus" and e.any_sentry for e in turn_effects(state))
    if t not in state.selected and not (kind == "sentry" and any_sentry):
        return f"{cell_name(t)} is not selected"
    if not cmd.spies:
        return "an attack needs at least one of your spies"
    if len(set(cmd.spies)) != len(cmd.spies) or t in cmd.spies:
        return "each attacking spy once, and not the target"
    attackers = _attackers(state, seat)
    for c in cmd.spies:
        if c not in attackers:
            return f"no spy of yours in a selected cell {cell_name(c)}"
    own = [c for c in cmd.spies if (s := spy_at(state, c)) is not None and spy_owner(s) == seat]
    if not own:
        return "you cannot attack with the double spy alone"
    if kind in ("spy", "kara"):
        level = spy_level(spy_at(state, t)) if kind == "spy" else state.catalogue.kara.level  # type: ignore[arg-type]
        total = sum(_level_at(state, c) for c in cmd.spies)
        if total <= level:
            return f"your spies' levels ({total}) must be above the target's level ({level})"
    if kind == "aim" and protected(state, seat, t, edition) and not turn_has(state, "explosives"):
        return f"the AIM in {cell_name(t)} is protected by {edition.protectors()} next to it"
    return None


def _double_target(state: State, seat: str, cell: int) -> bool:
    spy = spy_at(state, cell)
    if spy is not None:
        return spy_owner(spy) != seat
    return cell_card(state, cell) == state.catalogue.kara.id


def _use_problem(state: State, seat: str, cmd: Use) -> str | None:
    item = next((it for it in state.zones[hand(seat)].items if it.ref == cmd.ref), None)
    if item is None:
        return "that card is not in your hand"
    ix = idx(state)
    card = identity(item)
    eq = ix.entry[card]
    kind = eq.effect.kind  # type: ignore[attr-defined]
    if eq.star and state.star_used:  # type: ignore[attr-defined]
        return "you already used a * card this turn"
    cells = cmd.cells
    if any(not 0 <= c < CELLS for c in cells):
        return "no such cell"
    if kind == "jacket":
        return "a bulletproof jacket works by itself when one of your spies is hit"
    if kind == "adrenaline":
        if len(cells) != 1 or not ((s := spy_at(state, cells[0])) and spy_owner(s) == seat):
            return "adrenaline: name a cell holding one of your spies"
        if s in state.adrenaline:
            return "that spy already has adrenaline"
    elif kind == "investigate":
        if len(cells) != 1 or family(state, cell_card(state, cells[0]) or "") != "aim":
            return "name a cell holding an AIM"
    elif kind == "jetpack":
        if len(cells) != 2 or not ((s := spy_at(state, cells[0])) and spy_owner(s) == seat):
            return "jet-pack: name your spy's cell, then an enemy spy's or a sentry's"
        if not _jetpack_target(state, seat, spy_at(state, cells[1]), family(state, cell_card(state, cells[1]) or "")):
            return "jet-pack: the second cell must hold an enemy spy or a sentry"
    elif cells:
        return f"{ix.name(card)} takes no cell"
    return None


def _power_problem(state: State, seat: str, source: str) -> str | None:
    eff = dict(sources(state, seat)).get(source)
    if eff is None:
        return "that power is not yours"
    if eff.kind not in ("draw_equipment", "deploy"):
        return "that power works by itself" if eff.kind != "far_sight" else "use it with: spot CELL far"
    if source in state.powers_used:
        return "already used this turn"
    if eff.kind == "deploy" and not can_deploy(state, seat):
        return "no spy on your board or no empty cell"
    if eff.kind == "draw_equipment" and (
        len(state.zones[hand(seat)].items) >= hand_limit(state, seat)
        or not (state.zones[EQ_DECK].items or state.zones[EQ_DISCARD].items)
    ):
        return "your hand is full or there is no equipment left"
    return None


# --- apply ------------------------------------------------------------------------


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
                raise IllegalCommand(_move_problem(state, seat, cmd))
            if isinstance(cmd, Move):
                for a, b in cmd.moves:
                    s.sats = _moved(s.sats, seat, a, b)
            else:
                s.sats[cmd.mine].remove(seat)
                s.sats[cmd.other].remove(cmd.owner)
                s.sats[cmd.mine].append(cmd.owner)
                s.sats[cmd.other].append(seat)
            key = _sat_key(s)
            s.sats = [sorted(x, key=key) for x in s.sats]
            s.phase = ACT
        case Spot() if phase == ACT:
            problem = _spot_problem(state, seat, cmd)
            if problem:
                raise IllegalCommand(problem)
            _spot(s, seat, cmd, chance)
        case Attack() if phase == ACT:
            problem = _attack_problem(state, seat, cmd, edition)
            if problem:
                raise IllegalCommand(problem)
            _attack(s, seat, cmd, chance, edition)
        case Double(cell) if phase == ACT:
            if s.double_holder != seat:
                raise IllegalCommand("you do not hold the double-spy token")
            if s.turned:
                raise IllegalCommand("the double-spy token is already in use this turn")
            if cell not in s.selected or not _double_target(s, seat, cell):
                raise IllegalCommand("the double-spy token needs a selected enemy spy (or Kara)")
            spy = spy_at(s, cell)
            s.turned = spy if spy is not None else KARA_SPY
            log(s, f"{seat} turns the {'spy ' + spy if spy else 'Dark Agent'} in {cell_name(cell)}")
        case Use() if phase == ACT:
            problem = _use_problem(state, seat, cmd)
            if problem:
                raise IllegalCommand(problem)
            _use(s, seat, cmd, chance)
        case Power(source) if phase == ACT:
            problem = _power_problem(state, seat, source)
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
            _answer_hit(s, seat, ref)
        case End() if phase == ACT:
            log(s, f"{seat} ends the turn")
            if s.media:
                s.phase = MEDIA
            else:
                _finish_turn(s, chance)
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
            _finish_turn(s, chance)
        case Vote(yes) if phase == VOTE:
            s.votes[seat] = yes
            if all(x in s.votes for x in s.seats):
                s.phase = TALLY
        case _:
            raise IllegalCommand(f"{type(cmd).__name__.lower()} is not possible now ({phase})")
    settle_zones(s)
    return s


def _move_problem(state: State, seat: str, cmd: Command) -> str:
    if isinstance(cmd, Swap):
        if not 0 <= cmd.other < LINES or cmd.owner not in state.sats[cmd.other]:
            return "no such satellite to swap with"
        if not _swappable(state.sats, cmd.other, cmd.owner):
            return "you cannot swap with a satellite of a player who has all 3 satellites of that line"
        return "you need a satellite of yours on another line to swap"
    if isinstance(cmd, Move) and len(cmd.moves) == 1 and any(len(m.moves) == 2 for m in moves(state, seat) if isinstance(m, Move)):
        return "move two satellites (one only when no second move is possible)"
    return "a satellite moves from a line of yours to another line with a free slot (at most 3 per line)"


def _sat_key(state: State):
    order = {s: i for i, s in enumerate(state.seats)}
    return lambda owner: order.get(owner, len(order))


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


def _reshuffle_if_out(s: State, chance: Chance) -> None:
    if not s.zones[EQ_DECK].items and s.zones[EQ_DISCARD].items:
        own_zone(s, EQ_DECK).items = list(s.zones[EQ_DISCARD].items)
        own_zone(s, EQ_DISCARD).items = []
        shuffle_zone(s, EQ_DECK, chance, prefix="e")
        log(s, "the equipment discards are shuffled into a new deck")


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


def attack_dice(dice: list[int], fix: bool) -> list[int]:
    """The four attack dice after a Rocket launcher (the lowest becomes a 6)."""
    out = list(dice)
    if fix:
        out[out.index(min(out))] = 6
    return out


def attack_bonus(s: State, seat: str, cmd: Attack) -> int:
    """Everything added to the attack dice: spy levels (adrenaline again),
    passive and equipment bonuses, nuclear deterrence, investigation tokens."""
    total = 0
    for c in cmd.spies:
        lvl = _level_at(s, c)
        spy = spy_at(s, c)
        total += lvl * (2 if spy is not None and spy in s.adrenaline else 1)
    total += sum(e.amount for e in passive(s, seat, "attack_bonus"))
    total += sum(e.amount for e in turn_effects(s) if e.kind == "attack_bonus")
    total += s.nuclear
    item = card_at(s, cmd.target)
    if item is not None:
        total += s.tokens.get(item.ref, 0)
    return total


def defence(s: State, seat: str, target: int) -> tuple[int, bool]:
    """The target's defence before any die, and whether a die is added."""
    spy = spy_at(s, target)
    if spy is not None:
        bonus = sum(e.amount for e in passive(s, spy_owner(spy), "spy_defence"))
        return idx(s).spy_defence[spy_level(spy)] + bonus, True
    card = cell_card(s, target)
    e = idx(s).entry[card]  # type: ignore[index]
    return e.defence, family(s, card) == "kara"  # type: ignore[attr-defined,arg-type]


def _attack(s: State, seat: str, cmd: Attack, chance: Chance, edition: Edition) -> None:
    """Roll the attack. A failure ends the turn: against a sentry, an enemy
    spy or Kara it wounds the attacking spies (back to the board, unless
    impregnable); against an AIM it puts an investigation token on the AIM
    and wounds nobody (the rulebook's AIM passage; rules 1 wounded them too)."""
    kind = _target_kind(s, seat, cmd.target)
    base, with_die = defence(s, seat, cmd.target)
    dice = roll(chance.public, 5 if with_die else 4, 6)  # the one roll of this command
    att = attack_dice(dice[:4], turn_has(s, "fix_die"))
    bonus = attack_bonus(s, seat, cmd)
    total = bonus + sum(att)
    need = base + (dice[4] if with_die else 0)
    four = len(set(att)) == 1
    ok = four or total >= need
    s.last_roll = dice
    ix = idx(s)
    what = f"spy {spy_at(s, cmd.target)}" if kind == "spy" else ix.name(cell_card(s, cmd.target) or "")
    log(s, f"{seat} attacks {what} in {cell_name(cmd.target)}: {bonus}+{'+'.join(map(str, att))}={total}"
        f" vs {need}{' (four of a kind)' if four else ''}: {'success' if ok else 'failure'}")
    if not ok:
        wounds = kind != "aim" or edition.aim_failure_wounds
        if wounds and not passive(s, seat, "impregnable"):
            for c in cmd.spies:
                spy = spy_at(s, c)
                if spy is not None and spy_owner(spy) == seat:
                    s.spy_cell[spy] = -1  # wounded: back to the board
        if kind == "aim":
            ref = card_at(s, cmd.target).ref  # type: ignore[union-attr]
            s.tokens[ref] = s.tokens.get(ref, 0) + 1
        s.media = False  # a failed attack loses Media
        _finish_turn(s, chance)
        return
    if kind == "spy":
        victim = spy_at(s, cmd.target)
        if s.zones[hand(spy_owner(victim))].items:  # type: ignore[arg-type]
            s.phase, s.hit = JACKET, victim  # type: ignore[assignment]
        else:
            s.spy_cell[victim] = -1  # type: ignore[index]
        return
    item = own_zone(s, cell_zone(cmd.target)).items.pop()
    own_zone(s, taken(seat)).items.append(item)
    s.tokens.pop(item.ref, None)
    if kind == "aim":
        s.last_aim = seat


def _answer_hit(s: State, owner: str, ref: str) -> None:
    """The hit spy's owner answers (`Jacket`): the jacket it names is shown
    and discarded and the spy stays; without one the spy goes back to its
    board. Only the owner sees its hand, so nobody else's file could say;
    "no jacket" while holding one is refused wherever the hand is known
    (the owner's own client, the dealer, the audit)."""
    items = s.zones[hand(owner)].items
    if ref:
        item = next((it for it in items if it.ref == ref), None)
        card = identity(item) if item is not None else ""
        if item is None or family(s, card) != "equipment" or idx(s).entry[card].effect.kind != "jacket":  # type: ignore[attr-defined]
            raise IllegalCommand("that card is not a bulletproof jacket in your hand")
        own_zone(s, hand(owner)).items.remove(item)
        own_zone(s, EQ_DISCARD).items.append(item)
        log(s, f"{owner}'s bulletproof jacket saves the spy")
    else:
        with checked_if_visible():
            for it in items:
                card = identity(it)
                if idx(s).entry[card].effect.kind == "jacket":  # type: ignore[attr-defined]
                    raise IllegalCommand("you hold a bulletproof jacket: it saves your spy (answer: jacket)")
        s.spy_cell[s.hit] = -1
        log(s, f"{owner}'s spy {spy_level(s.hit)} goes back to the board")
    s.phase, s.hit = ACT, ""


def _finish_turn(s: State, chance: Chance) -> None:
    """End of turn: the double-spy token moves, empty cells are refilled
    with equipment (while the deck lasts: cells it cannot fill wait for the
    next refill, from the deck `advance` shuffles of the discards), the next
    seat plays or the UN peace phase begins."""
    if s.turned:
        s.double_holder = "" if s.turned == KARA_SPY else spy_owner(s.turned)
    for cell in empty_cells(s):  # a refill leaves the other cells as they are
        if s.zones[EQ_DECK].items:
            own_zone(s, cell_zone(cell)).items = [own_zone(s, EQ_DECK).items.pop(0)]
    s.selected, s.used_sats, s.effects, s.adrenaline = [], [0] * LINES, [], []
    s.star_used, s.powers_used, s.turned, s.media, s.deploy_from = False, [], "", False, ""
    s.turn += 1
    if s.turn < len(s.order):
        s.phase = MOVE
        return
    _peace_phase(s)


def _peace_phase(s: State) -> None:
    if _game_over(s):
        s.phase = OVER
        s.outcome = _outcome(s)
        return
    s.phase = VOTE
    s.votes = {}


def _game_over(s: State) -> bool:
    aims = aims_taken(s)
    kara = kara_taker(s)
    if s.solo:
        if aims + (1 if kara else 0) >= s.target or s.round >= SOLO_ROUNDS + s.target:
            return True
    elif aims >= s.target and (not s.kara_needed or kara is not None):
        return True
    return bool(s.max_rounds) and s.round >= s.max_rounds


def _outcome(s: State) -> Outcome:
    scores = {seat: score(s, seat) for seat in s.seats}
    if s.solo:
        seat = s.seats[0]
        goal = 30 + 5 * s.target
        got = aims_taken(s) + (1 if kara_taker(s) else 0)
        won = kara_taker(s) == seat and scores[seat] >= goal and got >= s.target
        return Outcome([seat] if won else [], "solo: won" if won else
                       f"solo: lost (needs Kara, {goal} points and {s.target} targets)", scores)
    best = max(scores.values())
    return Outcome([x for x in s.seats if scores[x] == best], f"highest score {best}", scores)


def advance(state: State, chance: Chance) -> State:
    if state.phase != OVER and not state.zones[EQ_DECK].items and state.zones[EQ_DISCARD].items:
        for it in state.zones[EQ_DISCARD].items:
            identity(it)  # face up before it is shuffled (a jacket's reveal travels first)
        state = thaw(state)
        _reshuffle_if_out(state, chance)
    out = _advance(state, chance)
    settle_zones(out)
    return out


def _advance(state: State, chance: Chance) -> State:
    if state.phase == MOVE and not can_move(state, active(state)):
        s = thaw(state)  # no satellite can move: phase 1 is skipped
        s.phase = ACT
        log(s, f"{active(s)} cannot move a satellite")
        return s
    if state.phase == TALLY:
        s = thaw(state)
        yes = sum(1 for v in s.votes.values() if v)
        no = len(s.votes) - yes
        if s.solo:
            if yes:
                shift = True
            else:
                die = roll(chance.public, 1, 6)[0]
                s.last_roll = [die]
                shift = die <= 3
        elif yes != no:
            shift = yes > no
        else:
            die = roll(chance.public, 1, 6)[0]
            s.last_roll = [die]
            shift = die <= 3
        log(s, f"UN vote: {yes} yes, {no} no" + (f", die {s.last_roll[0]}" if (s.solo and not yes) or (not s.solo and yes == no) else "")
            + (": the area shifts" if shift else ": no shift"))
        if shift:
            shift_area(s)
        s.votes = {}
        s.order = [s.order[-1]] + s.order[:-1]  # the last player becomes the first
        s.turn = 0
        s.round += 1
        s.phase = MOVE
        return s
    return state


def shift_area(s: State) -> None:
    """Each line's first cell moves to the far end, the others one closer."""
    old = {c: s.zones[cell_zone(c)].items for c in range(CELLS)}
    for line in range(LINES):
        base = line * CELLS_PER_LINE
        for p in range(CELLS_PER_LINE):
            own_zone(s, cell_zone(base + p)).items = list(old[base + (p + 1) % CELLS_PER_LINE])
    for spy, cell in s.spy_cell.items():
        if cell >= 0:
            base, p = line_of(cell) * CELLS_PER_LINE, pos_of(cell)
            s.spy_cell[spy] = base + (p - 1) % CELLS_PER_LINE


def outcome(state: State) -> Outcome | None:
    return state.outcome


