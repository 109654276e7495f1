"""Who can know which chance when, for one game as it was begun.

`pbem status --json` carries these sentences (field ``chance``) and
`pbem info DIR` prints them once; docs/security.md explains them. They
follow from the dealer mode, the protocol version the game was begun under
and what the game declares (`GameInfo.immediate_chance`), so they are computed,
never written by hand per game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.protocol.versions import first

if TYPE_CHECKING:
    from pbem.protocol.chain import Chain


def chance_knowledge(chain: "Chain") -> list[str]:
    """The facts, one sentence each, most important first."""
    mode = chain.dealer_mode
    version = chain.version
    game = chain.game
    if mode == "hotseat":
        return [
            "hotseat: the dealer's key and seed lie in the game folder, so whoever can read dealer.key "
            "could learn every hidden card and every die before it is drawn; fine at one table.",
        ]
    if mode == "referee":
        name = chain.dealer_name
        if version.proven_chance:
            out = [f"{name} (the referee) knows every hidden card, and every die of the game once the last seat has "
                   "joined; a colluding referee could tell a player what it knows, but cannot change a die (each is "
                   "its verifiable random function's output, proven in its file and refused at once otherwise) "
                   "or a deal without the audit naming it."]
        else:
            out = [f"{name} (the referee) knows every hidden card, and every die as it is drawn; a colluding "
                   "referee could tell a player what it knows, but cannot change a die or a deal without the audit "
                   "naming it."]
        if version.contributions:
            out.append("No seat knows a die or a draw before the command that makes it is signed: the referee "
                       "supplies it in its answer, from its seed committed in the genesis and every seat's "
                       "contribution (the deal waits for them), so neither it nor the last seat to join can aim it.")
        else:
            out.append(f"This game was begun before players' contributions (protocol version {version.number}): "
                       "the referee chose its seed alone, so it could have tried seeds until the deal suited someone.")
        return out
    out = []
    if version.chance_from_every_seat and not game.info.immediate_chance:
        out.append("Chance a file draws (a die, which card of a private deck is drawn) waits for a new beacon link "
                   "of every other seat, each revealed in an answer after the file is signed: its writer cannot know "
                   "it before deciding, even with the help of every other seat but one. The last seat to answer can "
                   "compute it as it writes its answer; it cannot change it, only fail to answer, which status names.")
    elif version.unforeseen_chance and not game.info.immediate_chance:
        out.append("Chance a file draws (a die, which card of a private deck is drawn) comes from the beacon links "
                   "of the next seat's answer, revealed after the file is signed: its writer cannot know it before "
                   "deciding, unless that seat tells it its beacon seed (this game was begun before protocol "
                   f"version {first('chance_from_every_seat')}, which waits for every other seat's link). The "
                   "answering seat can compute it as it writes its answer; it cannot change it, only fail to answer, "
                   "which status names.")
    else:
        why = (f"{game.info.title} declares its chance harmless to foresee" if game.info.immediate_chance
               else f"this game was begun under protocol version {version.number}")
        out.append(f"The writer of a file can compute the chance inside that file before writing it, from every "
                   f"seat's beacon links ({why}); it cannot change it.")
    if version.setup_from_links:
        out.append("Public chance at set-up (who starts, the words on the table) comes from every seat's first "
                   "beacon link, each committed at its join and opened only once all have joined: no seat, and no "
                   "group short of all of them, can aim it; the last seat to open its link learns the set-up first "
                   "and can only refuse to go on, which status names.")
    else:
        out.append("Public chance at set-up (who starts, the words on the table) comes from the creator's nonce: the "
                   "creator could try nonces before sending the genesis (this game was begun before protocol "
                   f"version {first('setup_from_links')}).")
    out.append("The order of the shared deck is known to nobody: every seat shuffled it with its own layer.")
    return out
