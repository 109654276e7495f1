"""Where Codex rules 5 (the current rules) and rules 4 read the rules
otherwise, so that a game keeps the rules it began under.

A game's genesis records its rules version, and every verifier replays it
with the `Game` of that version (`pbem.games.get(name, version)`). Rules
1 to 3 changed the state Structs and are frozen package copies
(`pbem.games.codex_v1` ...). Rules 5 changed no state and no command, only
behaviour, so rules 4 is this package played under the `Edition`
`RULES_4`: `pbem.games.codex.GAME_RULES_4`.

Why a context variable and not a parameter: the places that differ sit
deep under the continuous-effects pass (a selector's ``side`` judged for
every effect of every thing) and combat, reached from every rules entry
point through dozens of calls; threading an argument through all of them
would touch most of the package for two readings. Instead each `Game`'s
rules functions (set-up, to_act, legal, apply, advance, outcome, view, and
the presentation's functions that read a state, bots included) are
wrapped by `under`, which sets the edition for the length of the call;
the rules read it with `current()` exactly where they differ (each use is
named below). Outside any wrapper (a test calling a rules module
directly) the current rules hold. The state carries no version, so states
and their hashes stay exactly as each version writes them; a call under
one edition never leaves its edition behind for the next
(tests/games/codex/test_codex_editions.py plays both, interleaved).

Rules 4 -> 5 (the team's one base and team buildings in the Two-Headed
Dragon; ``rulings.json``):

* ``team_base_shared``: a selector's ``mine`` matches the team's shared
  base for either teammate (`select._side_ok`); under rules 4 only the
  first teammate's, whose it is (`board.base_of`). Moment's Peace cast by
  the second teammate so guards the team base (ruling 2 on Moment's
  Peace).
* ``team_tower``: a team's tower deals its 1 damage to an attacker of
  anything the team controls, and spends its one detection of a sneaky
  attacker on it, so that the attacker cannot ignore the team's
  patrollers (`combat.tower_of`, `combat._defender_detects`); under rules
  4 only when the attacked thing or patroller is its owner's own (the
  Tower rulings: "the player (or team in 2v2) with the tower", and a
  revealed attacker "can't ignore your patrollers").
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = ["Edition", "CURRENT", "RULES_4", "current", "under", "of"]


@dataclass(frozen=True)
class Edition:
    """What a rules version reads (the defaults: the current rules, 5)."""

    #: a selector's ``mine`` matches the team's shared base for both teammates (rules 5)
    team_base_shared: bool = True
    #: a team's tower guards everything the team controls (rules 5)
    team_tower: bool = True


CURRENT = Edition()
RULES_4 = Edition(team_base_shared=False, team_tower=False)
#: rules version -> its edition
_BY_VERSION = {"4": RULES_4, "5": CURRENT}

_EDITION: ContextVar[Edition] = ContextVar("codex_edition", default=CURRENT)

F = TypeVar("F", bound=Callable[..., Any])


def current() -> Edition:
    """The edition of the rules call under way (`CURRENT` outside any)."""
    return _EDITION.get()


def of(rules_version: str) -> Edition:
    return _BY_VERSION[rules_version]


def under(edition: Edition, fn: F) -> F:
    """`fn` run with `edition` as the current one (restored after, even on an error)."""
    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        token = _EDITION.set(edition)
        try:
            return fn(*args, **kwargs)
        finally:
            _EDITION.reset(token)

    return run  # type: ignore[return-value]
