"""Game modes: the 1-hero game and the standard 3-hero game (rulebook,
"Codex 3-Hero Game"); who plays what, and the rules 3-hero mode adds.

The option ``mode`` names the mode (``1hero``, the default, or ``3hero``);
other modes (teams, more seats) add their own values to the same option.

3-hero mode, rule by rule:

* **Heroes and codex.** Each seat names three different specs
  (``p1=anarchy,blood,fire``; mixed colours allowed); all three heroes
  wait in its command zone (public), and its codex holds the 24 cards of
  each spec (72). The first spec named is the *main* one: the seat gets
  the starter deck of its colour; ``p1_starter`` may name the colour of
  another of its heroes instead (a neutral hero's colour is the neutral
  starter).
* **Hero limit.** A seat may summon a hero only while it has fewer heroes
  in play than its limit: 1; 2 with a finished tech II building or a
  heroes' hall; 3 with a finished tech III building, or tech II and a
  hall (ruling on Heroes' Hall). It is checked only when summoning: losing
  a building never sends a hero away.
* **The tech II spec.** Beginning its first tech II building, a seat
  declares one of its specs for it, for the rest of the game (a rebuilt
  one keeps it). Its tech II and III buildings make only tech II and III
  cards of that spec (and of the tech lab's); tech 0 and I cards of any
  spec need only the base and tech I building, as in 1-hero mode.
* **Add-ons.** The tech lab (unlocks one more of the seat's specs, named
  when it is built: rebuilt, it may name another) and the heroes' hall
  (one more hero in play) join surplus and tower; a seat still has one
  add-on at a time. Neither exists in 1-hero mode.
* **Off-colour gold.** A seat whose heroes are of more than one colour
  (neutral does not count) pays 1 more gold for its first tech building
  or add-on.

Minor spells of a colour cost 1 more gold with no hero of that colour in
play, and a spec's spells need that spec's hero in play: the rules of
1-hero mode (`play`) already say so for any number of heroes.
"""

from __future__ import annotations

from pbem.errors import InvalidOption
from pbem.games.codex import board, cards, maps
from pbem.games.codex.state import Options, State

ONE, THREE = "1hero", "3hero"
#: the free-for-all (3 to 5 seats) and the Two-Headed Dragon (two teams of
#: two), one hero a seat (`ffa`, `setup.seat_decks`)
FFA, TEAMS = "ffa", "2v2"
MODES = (ONE, THREE, FFA, TEAMS)
#: the modes of two seats, whose specs `teams` reads
TWO_SEATS = (ONE, THREE)
#: each seat's specs when the options name none
DEFAULT_SPECS = {ONE: (("Bashing",), ("Finesse",)),
                 THREE: (("Anarchy", "Blood", "Fire"), ("Balance", "Feral", "Growth"))}
HEROES = {ONE: 1, THREE: 3}


def mode_of(options: Options) -> str:
    """The mode the options name (none: 1-hero, two seats)."""
    mode = options.mode.strip().lower() or ONE
    if mode not in MODES:
        raise InvalidOption(f"mode={options.mode}: no such mode ({', '.join(MODES)})")
    return mode


def spec_named(value: str, key: str) -> str:
    s = cards.lookup_spec(value)
    if s is not None:
        if s not in cards.playable_specs():
            raise InvalidOption(f"{key}={value}: the {s} spec is not playable yet "
                                f"(playable: {', '.join(cards.playable_specs())})")
        return s
    raise InvalidOption(f"{key}={value}: no such spec (playable: {', '.join(cards.playable_specs())})")


def teams(options: Options) -> list[tuple[list[str], str]]:
    """Each seat's specs (main first) and starter colour, from the options."""
    mode = mode_of(options)
    named = [options.p1, options.p2]
    if options.first:
        if options.first.lower() not in ("bashing", "finesse") or any(named) or mode != ONE:
            raise InvalidOption(f"first={options.first}: the first seat plays bashing or finesse "
                                "(or give p1= and p2= instead)")
        named = ["bashing", "finesse"] if options.first.lower() == "bashing" else ["finesse", "bashing"]
    out = []
    for i, (value, starter) in enumerate(zip(named, (options.p1_starter, options.p2_starter))):
        key = f"p{i + 1}"
        words = [w for w in value.split(",") if w.strip()]
        specs = [spec_named(w, key) for w in words] if words else list(DEFAULT_SPECS[mode][i])
        if len(specs) != HEROES[mode] or len(set(specs)) != len(specs):
            raise InvalidOption(f"{key}={value}: {HEROES[mode]} different spec(s) in {mode} mode"
                                + (" (mode=3hero for three)" if mode == ONE and len(specs) > 1 else ""))
        out.append((specs, starter_of(key, starter, specs, mode)))
    return out


def starter_of(key: str, starter: str, specs: list[str], mode: str) -> str:
    """The starter deck's colour of a seat (`key`: ``p1`` ...): the one
    `starter` names, or its main spec's; in 3-hero mode one of its heroes'."""
    colour = starter.strip().lower() or cards.colour_of(specs[0])
    if colour not in cards.STARTERS:
        raise InvalidOption(f"{key}_starter={colour}: no such colour ({', '.join(cards.COLOURS)})")
    if mode == THREE and colour not in {cards.colour_of(s) for s in specs}:
        raise InvalidOption(f"{key}_starter={colour}: the starter deck of one of your heroes' colours "
                            f"({', '.join(dict.fromkeys(cards.colour_of(s) for s in specs))})")
    if not cards.starter_ready(colour):
        ready = [c for c in cards.COLOURS if cards.starter_ready(c)]
        raise InvalidOption(f"{key}_starter={colour}: the {colour} starter deck is not written yet "
                            f"(ready: {', '.join(ready)})")
    return colour


def codex_of(specs: list[str]) -> list[str]:
    return [name for spec in specs for name in cards.codex_cards(spec)]


# --- 3-hero rules -------------------------------------------------------------------------------


def _has_addon(state: State, seat: str, kind: str) -> bool:
    return board.building_done(state, seat, kind) or maps.has(state, "vortoss-ruins")


def hero_limit(state: State, seat: str) -> int:
    """How many heroes `seat` may have in play when it summons one."""
    if state.mode != THREE:
        return 1
    tech2, hall = board.building_done(state, seat, "tech2"), _has_addon(state, seat, "hall")
    if board.building_done(state, seat, "tech3") or (tech2 and hall):
        return 3
    return 2 if tech2 or hall else 1


def unlocked_specs(state: State, seat: str) -> list[str]:
    """The specs `seat`'s tech II and III buildings make (3-hero mode)."""
    p = state.players[seat]
    out = list(p.tech_specs)
    lab = p.buildings.get("techlab")
    if lab is not None and lab.done and lab.spec:
        out.append(lab.spec)
    return out


def spec_problem(state: State, seat: str, name: str) -> str | None:
    """Why `seat`'s tech buildings cannot make `name` for its spec (None: they can)."""
    c = cards.CARDS[name]
    if state.mode != THREE or c.tech < 2 or not c.spec or c.spec in unlocked_specs(state, seat):
        return None
    made = " and ".join(unlocked_specs(state, seat)) or "no spec yet"
    return f"{name} is a {c.spec} card: your tech II and III buildings make {made}"


def mixed_colours(state: State, seat: str) -> bool:
    colours = {cards.colour_of(s) for s in state.players[seat].specs} - {"neutral"}
    return len(colours) > 1


def build_extra(state: State, seat: str) -> int:
    """The off-colour gold: 1 on the first tech building or add-on of a
    seat whose heroes are of more than one colour."""
    p = state.players[seat]
    return int(state.mode == THREE and mixed_colours(state, seat) and not p.built)


def specs_to_name(state: State, seat: str, kind: str) -> int:
    """How many specs building `kind` declares now."""
    if state.mode != THREE:
        return 0
    if kind == "techlab":
        return 1
    if kind == "tech2" and not state.players[seat].tech_specs:
        return 2 if maps.has(state, "vortoss-ruins") else 1
    return 0


def build_spec_problem(state: State, seat: str, kind: str, specs: list[str]) -> str | None:
    """Why `specs` cannot be what building `kind` declares (None: they can)."""
    want = specs_to_name(state, seat, kind)
    p = state.players[seat]
    if len(specs) != want:
        if not want:
            return (f"your tech II building makes {' and '.join(p.tech_specs)} for the rest of the game"
                    if kind == "tech2" and p.tech_specs else f"building a {cards.BUILDINGS[kind]['name']} names no spec")
        return f"name {want} of your specs for it ({', '.join(s.lower() for s in p.specs)})"
    taken = p.tech_specs if kind == "techlab" else []
    for s in specs:
        if s not in p.specs:
            return f"{s} is not one of your specs ({', '.join(x.lower() for x in p.specs)})"
        if s in taken:
            return f"your tech II building makes {s} already"
    if len(set(specs)) != len(specs):
        return "name different specs"
    return None


def spec_choices(state: State, seat: str, kind: str) -> list[list[str]]:
    """Every list of specs building `kind` may declare now (``[[]]``: none)."""
    want = specs_to_name(state, seat, kind)
    if not want:
        return [[]]
    p = state.players[seat]
    if want == 1:
        return [[s] for s in p.specs if build_spec_problem(state, seat, kind, [s]) is None]
    return [[a, b] for i, a in enumerate(p.specs) for b in p.specs[i + 1:]]
