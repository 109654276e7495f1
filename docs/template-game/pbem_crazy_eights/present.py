"""How people and bots see and play Crazy Eights (`Presentation`): the text
picture, the notation, the log's words, the bots, the rules in short.
The protocol never reads it: a verifier needs none of this."""

from __future__ import annotations

from typing import Any

from pbem.games.base import Presentation

from pbem_crazy_eights import notation, view

SUMMARY = """\
Crazy Eights, 2-5 players, one 52-card deck. Seven cards each with two
players, five with more; the next card starts the discard pile face up.
On your turn play one card onto the pile: of the suit to follow, or of
the top card's rank. Eights are wild: play one on anything and name the
suit to follow (play 8s hearts). Only when you cannot play, draw one card
(draw): if it fits you may play it at once, else pass. When the draw pile
is empty, the discard pile but its top card is shuffled into a new one.
With nothing left to draw and nothing to play, pass. The first to empty
their hand wins.
Notation: play CARD [SUIT], draw, pass. Cards: 7h, Ts (ten), Qd, 8c.
"""


def _bots() -> dict[str, Any]:
    from pbem_crazy_eights.bots import BOTS  # only where bots play (demos, playouts, tests)

    return dict(BOTS)


PRESENTATION = Presentation(
    render=view.render,
    format=notation.format_command,
    parse=notation.parse_command,
    describe=notation.describe_command,
    bots=_bots,
    summary=SUMMARY,
)
