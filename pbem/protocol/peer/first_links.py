"""The set-up of a peer game from every seat's first beacon link (version
3 on, `Version.setup_from_links`; `pbem.protocol.setup` says why).

The game is set up once every seat has joined and opened its first link:
the last seat to join opens its own in its join, the others in a file of
their own each, in join order (`setup_linkers`). The file that opens the
last link is checked against the set-up those links give (`stage_setup`,
run alike by writers and verifiers on their staged deck).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.protocol.setup import derive_peer_setup, peer_setup_seed

if TYPE_CHECKING:
    from pbem.games.base import GameState
    from pbem.protocol.head import ChainView
    from pbem.protocol.peer.deck import PeerDeck


def setup_linkers(deck: PeerDeck) -> list[str]:
    """The seats whose first beacon link the set-up still waits for, in the
    order they open it (the last seat to join opened its own in its join)."""
    return [s for s in deck.join_order if deck.links_used.get(s, 0) == 0]


def stage_setup(chain: ChainView, deck: PeerDeck) -> GameState | None:
    """The set-up the game gets once the staged `deck` holds every seat's
    first link (None before, or when the game is set up already): the
    rules' own, from those links. A late deck learns its cards here."""
    if chain.dealt or not deck.all_joined or setup_linkers(deck):
        return None
    seed = peer_setup_seed({s: deck.latest[s] for s in chain.seat_order}, chain.game_id)
    state, shape = derive_peer_setup(chain.game, chain.options, chain.seat_specs(), chain.peer_shape, seed)
    if deck.late:
        deck.install(list(shape.slots), list(shape.deck), shape.faces)
    return state
