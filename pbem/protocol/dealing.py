"""A game's dealing (`Game.dealing`) in the one form the peer dealer uses.

A deck drawn by the beacons (`Dealing.by_beacon`: its contents public, every
card drawn turning face up) is committed to like a private deck, by the
first seat: that seat knowing which ref is which card learns nothing, and
what must stay unknown, which card comes next, the beacons decide. Kept
here, not in the games, so that a game says what its deck *is* and the
protocol how it deals it (files made before this module read the same).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.errors import InvalidOption
from pbem.games.base import Game, GameState


def private_decks(game: Game[Any, Any], state: GameState, seats: Sequence[str]) -> dict[str, str]:
    """zone -> the seat that commits to its cards in a peer game: a seat's
    own private decks, and the decks drawn by the beacons (the first seat)."""
    dealing = game.dealing(state)
    out = dict(dealing.private)
    for zone in dealing.by_beacon:
        if zone in state.zones:
            out[zone] = seats[0]
    return out


def has_private_decks(game: Game[Any, Any], state: GameState) -> bool:
    dealing = game.dealing(state)
    return bool(dealing.private) or any(zone in state.zones for zone in dealing.by_beacon)


def linked_zones(game: Game[Any, Any], state: GameState) -> tuple[tuple[str, ...], ...]:
    return game.dealing(state).linked


def reshuffles_ahead(game: Game[Any, Any], state: Any) -> bool:
    return game.dealing(state).reshuffle_ahead


def check_dealer(game: Game[Any, Any], seats: Sequence[Any], dealer: str) -> None:
    """Refuse (`InvalidOption`) a dealer mode these seats cannot be played
    under, before any file is written: a peer game's chance comes from the
    beacon links of the seats other than the writer's, and a solo game has
    none (unless the game declares its chance harmless to foresee)."""
    if dealer == "peer" and len(seats) < 2 and not game.info.immediate_chance:
        default = " (the default dealer)" if game.info.default_dealer == "referee" else ""
        raise InvalidOption(
            f"a solo game of {game.info.name} cannot be a peer game: its chance would come from another seat's link",
            hint=f"use --referee NAME{default} or --dealer hotseat",
        )
