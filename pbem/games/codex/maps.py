"""Map cards (rulebook, "Map Cards"): one changes a rule for every player
for the whole game; the option ``map=NAME`` picks it (``pbem info codex``
lists them). The names are the cards'; the words are ours.

Each rule lives where the rule it changes lives, asking `has`:
`values` (Bloodbowl's ATK and haste; Hard Times Mill's hiring cost; Lost
Temple's spells and tech), `rules` (Flagstone Mines and Daggerfall Prison
Camp's hiring; Fury Road's one patroller; Vortoss Ruins' add-ons, with
`modes`), `turn` (Big Game Hunters' gold; Mystical Forest's runes),
`engine` (No Rush's prevention; Burial Grounds' and Pinnacle's dead
heroes), `play` (Pinnacle's ultimates).

Decisions where a card leaves a question open:

* **No Rush 15 Minutes**: every damage is prevented (combat, effects,
  bases and buildings) until each seat has ended four turns: the first
  seat's fifth turn is the first that deals damage.
* **Mystical Forest**: the choice is made for the ready step of the
  seat's own turn, in its ``tech`` command (``rune=me:NAME,...``: those
  exhausted things get a +1/+1 rune and stay exhausted); a thing an
  effect readies later in the turn simply readies.
* **Daggerfall Prison Camp**: ``hire`` names no card and adds a worker to
  the worker card (the count is public).
* **Vortoss Ruins**: in 3-hero mode the tech II building, first begun,
  names two specs (its own and the tech lab's); the heroes' hall counts as
  built. In 1-hero mode it changes nothing.
* **Lost Temple**: spells need no hero (ultimates included) and cards no
  tech building (nor, in 3-hero mode, its spec); a minor spell still
  costs 1 more without a hero of its colour.
* **Pinnacle**: a dead hero comes back a turn later than usual.
"""

from __future__ import annotations

from pbem.errors import InvalidOption
from pbem.games.codex.state import State

#: key -> (the card's name, its rule in our words)
MAPS: dict[str, tuple[str, str]] = {
    "fury-road": ("Fury Road", "one patroller at most a player"),
    "flagstone-mines": ("Flagstone Mines", "hire any number of workers a turn"),
    "big-game-hunters": ("Big Game Hunters", "2 more gold in each of your upkeeps"),
    "hard-times-mill": ("Hard Times Mill", "hiring a worker costs 1 more gold"),
    "no-rush-15-minutes": ("No Rush 15 Minutes", "no damage until each player has had 4 turns"),
    "daggerfall-prison-camp": ("Daggerfall Prison Camp", "hiring a worker takes no card"),
    "mystical-forest": ("Mystical Forest", "your ready step: a +1/+1 rune instead of readying"),
    "burial-grounds": ("Burial Grounds", "a hero that dies leaves the game for good"),
    "pinnacle": ("Pinnacle", "ultimates need no max level; the dead wait a turn more"),
    "vortoss-ruins": ("Vortoss Ruins", "no tech lab or heroes' hall: everyone has both"),
    "bloodbowl": ("Bloodbowl", "every unit has +1 ATK and haste"),
    "lost-temple": ("Lost Temple", "no tech building needed, nor a hero for spells"),
}

#: turns each seat ends before No Rush 15 Minutes lets damage through
NO_RUSH_TURNS = 4
#: Big Game Hunters' gold in each upkeep
UPKEEP_GOLD = 2


def key_of(value: str) -> str:
    """The map key an option names (its key or its name, any case); "" for none."""
    word = "-".join(value.strip().lower().replace("'", "").split())
    if not word:
        return ""
    for key, (name, _) in MAPS.items():
        if word in (key, "-".join(name.lower().split())) or key.startswith(word + "-"):
            return key
    raise InvalidOption(f"map={value}: no such map card ({', '.join(MAPS)})")


def has(state: State, key: str) -> bool:
    return state.map == key


def no_rush(state: State) -> bool:
    """No Rush 15 Minutes still prevents damage: a seat has not yet ended
    its fourth turn (the active seat has not ended the one it is in)."""
    if not has(state, "no-rush-15-minutes"):
        return False
    return any(p.turns - (s == state.active) < NO_RUSH_TURNS for s, p in state.players.items())
