"""Scenario files (the ``scenario`` option, hotseat only): a fixed position.

One ``KEY = VALUE`` per line, ``#`` comments. Keys, for each seat by its
order (``p1.``, ``p2.``; ``p3.`` to ``p5.`` in a free-for-all):

* ``hand``, ``deck`` (top first), ``discard``, ``workers`` (hired worker
  cards), ``codex``: comma-separated card names. Cards of the seat's 10
  starters and 24 codex cards not named anywhere go to the bottom of the
  deck (starters) or stay in the codex (codex cards); a listed ``codex``
  keeps only the codex cards it names. With no ``hand``, the opening hand
  is drawn from the top of the deck. A card of neither (another colour's,
  for a test of one card) is added for the seat.
* ``gold`` (before the active seat's upkeep, which adds a gold per
  worker), ``base`` (HP left), ``base_workers`` (workers on the worker
  card): numbers.
* ``buildings``: ``tech1, tech2, tower`` (finished); in 3-hero mode
  ``tech2 SPEC`` (or two specs) declares the tech II spec, ``techlab SPEC``
  the tech lab's.
* ``hero``: ``LEVEL`` (in play at that level) or ``home``: the (main) hero.
* ``heroes``: other heroes, ``NAME LEVEL, ...`` in play: the seat's own
  (3-hero mode), or written heroes of any spec for a test (they join the
  seat's heroes); or ``NAME home``: in its command zone, to be summoned
  (nothing shown at set-up).
* ``units``: comma-separated cards in play (units, tokens, upgrades and
  building cards): ``NAME [dmg=N] [runes=N] [RUNE=N ...] [exhausted]
  [new]``; ``RUNE`` is any other rune kind (``time=2``, ``blood=1``).
* ``ongoing``: ongoing spells in play (``Harmony``).
* ``future``: cards waiting in the future, ``NAME time=N``.
* ``patrol``: ``sl=NAME elite=NAME ...`` (the names among its units/hero).

Top-level ``turn`` (default 1, which says who is active: p1 on turn 1,
then each seat in turn), ``tech`` (``yes``: the active seat starts by
teching) and ``opening`` (``draw``: no hand is fixed; each seat draws its
opening hand from its draw pile as a new game does, by the dealer's chance:
the hands a peer dealer deals cannot be fixed, its draw piles' contents can).
"""

from __future__ import annotations

from collections import Counter

from pbem.errors import InvalidOption
from pbem.games.base import Chance, Known
from pbem.games.codex import board, cards, engine, modes
from pbem.games.codex.state import (
    OPENING,
    TECH,
    UPKEEP,
    Building,
    Future,
    Hero,
    State,
    codex,
    turn_order,
    deck,
    discard,
    future,
    hand,
    workers,
)

LIST_KEYS = ("hand", "deck", "discard", "workers", "codex", "units", "buildings", "ongoing", "future", "heroes")
NUM_KEYS = ("gold", "base", "base_workers")
_FLAGS = ("exhausted", "new")


def _hero_in_play(state: State, seat: str, name: str, level: int, turn: int) -> str:
    """`seat`'s hero `name` in play since before the game at `level` (at
    max level, since the turn before `turn`: its ultimates are ready)."""
    ref = f"h{state.next_ref:03d}"
    state.next_ref += 1
    h = state.players[seat].heroes[name]
    h.home, h.ref = False, ref
    engine.new_thing(state, seat, Known(ref, name), name)
    t = state.things[ref]
    t.since = t.arrived = 0
    engine.level_up(state, ref, level - 1)
    t.max_since = 0 if t.level < cards.max_level(name) else max(0, turn - 1)
    return ref


def parse(lines: list[str], seats: int = 2) -> dict[str, str]:
    """The scenario's keys (``p1.`` ... for the first `seats` seats only)."""
    out: dict[str, str] = {}
    for n, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, sep, value = line.partition("=")
        key = key.strip().lower()
        if not sep:
            raise InvalidOption(f"scenario line {n}: write KEY = VALUE")
        who, _, what = key.partition(".")
        if key in ("turn", "tech", "opening"):
            out[key] = value.strip()
            continue
        if who not in [f"p{i + 1}" for i in range(seats)] or what not in LIST_KEYS + NUM_KEYS + ("hero", "patrol"):
            raise InvalidOption(f"scenario line {n}: unknown key {key!r}")
        out[key] = value.strip()
    for key, value in out.items():
        what = key.partition(".")[2]
        if what in NUM_KEYS or key == "turn":
            if not value.isdigit():
                raise InvalidOption(f"scenario: {key} must be a number")
        if what in ("hand", "deck", "discard", "workers", "codex", "units", "ongoing", "future"):
            for entry in _names(value):
                name = _card_words(entry)
                if cards.lookup(name) is None:
                    raise InvalidOption(f"scenario: {key}: unknown card {name!r}")
    return out


def _names(value: str) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()]


def _card_words(entry: str) -> str:
    return " ".join(w for w in entry.split() if "=" not in w and w not in _FLAGS)


def _number(word: str, key: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise InvalidOption(f"scenario: {key}={word!r} is not a number") from None


def apply_scenario(state: State, sc: dict[str, str], chance: Chance) -> None:
    turn = int(sc.get("turn", "1") or 1)
    opening = sc.get("opening", "") == "draw"
    if sc.get("opening", "draw") != "draw" or (opening and any(k.endswith(".hand") for k in sc)):
        raise InvalidOption("scenario: opening = draw, and then no hand is fixed")
    state.turn = turn
    order = turn_order(state)
    state.active = order[(turn - 1) % len(order)]
    for i, seat in enumerate(state.seats):
        key = f"p{i + 1}."
        p = state.players[seat]
        starters = Counter(cards.starter(p.colour))
        codex_left = Counter(modes.codex_of(p.specs))

        def take(name: str) -> str:
            real = cards.lookup(name)
            if real is None:
                raise InvalidOption(f"scenario: unknown card {name!r}")
            for pool in (starters, codex_left):
                if pool[real] > 0:
                    pool[real] -= 1
                    return real
            if cards.is_hero(real):
                raise InvalidOption(f"scenario: {real} is a hero (use {key}hero)")
            return real  # a card from elsewhere, added for this test

        def put(zone: str, name: str) -> str:
            ref = f"c{state.next_ref:03d}"
            state.next_ref += 1
            state.zones[zone].items.append(Known(ref, name))
            return ref

        for what, zone in (("hand", hand(seat)), ("deck", deck(seat)), ("discard", discard(seat)),
                           ("workers", workers(seat))):
            for name in _names(sc.get(key + what, "")):
                put(zone, take(name))
        units = []
        for entry in _names(sc.get(key + "units", "")) + _names(sc.get(key + "ongoing", "")):
            words = entry.split()
            real = cards.lookup(_card_words(entry))
            assert real is not None
            if cards.kind(real) == "token":
                ref = engine.make_token(state, seat, real)
            else:
                real = take(real)
                ref = f"c{state.next_ref:03d}"
                state.next_ref += 1
                engine.new_thing(state, seat, Known(ref, real), real)
            t = state.things[ref]
            t.since = t.arrived = 0 if "new" not in words else turn
            for w in words:
                k, _, v = w.partition("=")
                if w == "exhausted":
                    t.exhausted = True
                elif k == "dmg":
                    t.damage = _number(v, k)
                elif k == "runes":
                    t.runes = _number(v, k)
                elif v:
                    t.counters[k] = _number(v, k)
            units.append(ref)
        for entry in _names(sc.get(key + "future", "")):
            real = take(_card_words(entry))
            time = next((_number(w[5:], "time") for w in entry.split() if w.startswith("time=")), 1)
            ref = put(future(seat), real)
            state.future[ref] = Future(card=real, owner=seat, time=time)
        for name in cards.starter(p.colour):
            while starters[name] > 0:
                starters[name] -= 1
                put(deck(seat), name)
        listed_codex = _names(sc.get(key + "codex", ""))
        if listed_codex:
            left = Counter(cards.lookup(n) for n in listed_codex)
            for name in list(codex_left):
                extra = codex_left[name] - left.get(name, 0)
                if extra > 0:  # not listed: into the deck bottom
                    for _ in range(extra):
                        put(deck(seat), name)
                    codex_left[name] -= extra
            codex_left += left - codex_left  # cards of other specs, added for a test
        for name in sorted(codex_left.elements()):
            put(codex(seat), name)
        hero_ref = ""
        hero = sc.get(key + "hero", "home")
        if hero != "home":
            hero_ref = _hero_in_play(state, seat, next(iter(p.heroes)), _number(hero, key + "hero"), turn)
        for entry in _names(sc.get(key + "heroes", "")):
            words = entry.split()
            name = cards.lookup(" ".join(words[:-1]))
            if name is None or not cards.is_hero(name) or not (words[-1].isdigit() or words[-1] == "home"):
                raise InvalidOption(f"scenario: {key}heroes: write NAME LEVEL (or NAME home) for a written hero "
                                    f"({entry!r})")
            p.heroes.setdefault(name, Hero())
            if words[-1] != "home":
                units.append(_hero_in_play(state, seat, name, int(words[-1]), turn))
        p.gold = int(sc.get(key + "gold", "0"))
        if key + "base_workers" in sc:
            p.base_workers = int(sc[key + "base_workers"])
        if key + "base" in sc:  # a team's shared base: the last teammate's line counts
            board.damage_base(state, seat, board.base_max(state) - int(sc[key + "base"]) - p.base_damage)
        for entry in _names(sc.get(key + "buildings", "")):
            b, *named = entry.split()
            specs = [cards.lookup_spec(w) for w in named]
            if b not in cards.BUILDINGS or None in specs:
                raise InvalidOption(f"scenario: unknown building or spec {entry!r}")
            p.buildings[b] = Building(kind=b, done=True, spec=specs[0] if b == "techlab" and specs else "")
            if b == "tech2" and specs:
                p.tech_specs = [s for s in specs if s is not None]
            if b in cards.TECH_BUILDINGS:
                p.built.append(b)
        p.turns = (turn + len(order) - 2 - order.index(seat)) // len(order)  # turns begun before this one
        p.tech_due = p.turns > 0
        slots = [""] * 5
        for entry in sc.get(key + "patrol", "").split():
            word, _, name = entry.partition("=")
            words = ("sl", "elite", "scavenger", "technician", "lookout")
            if word not in words:
                raise InvalidOption(f"scenario: patrol slot {word!r} (sl, elite, scavenger, technician, lookout)")
            real = cards.lookup(name)
            ref = next((r for r in units + [hero_ref] if r in state.things and state.things[r].card == real
                        and r not in slots), None)
            if ref is None:
                raise InvalidOption(f"scenario: {seat} has no {name} to patrol")
            slots[words.index(word)] = ref
        state.patrol[seat] = slots
        if not sc.get(key + "hand") and not opening:
            items = state.zones[deck(seat)].items
            state.zones[hand(seat)].items, state.zones[deck(seat)].items = items[:5], items[5:]
    # arrivals above were set-up, not events of the game
    state.fresh, state.queue = [], []
    state.phase = TECH if sc.get("tech", "no").lower() in ("yes", "true", "1") else UPKEEP
    if opening:  # `rules.advance` draws the hands, then begins the turn
        state.phase = OPENING
    if state.phase == TECH:
        state.players[state.active].tech_due = True
