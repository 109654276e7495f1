"""One game as a seat sees it on `pbem serve`'s page: the board, who is to
act, the commands it may give, the undo it may ask for (`pages.Screen`).

Apart from `pbem.app.serving` because it only reads a chain and a party:
the session decides when to draw it and holds the lock while it does.
"""

from __future__ import annotations

from pbem.app import reading, turns
from pbem.errors import PbemError
from pbem.render import serve_page as pages


def game_screen(chain, me, name: str, key: str, folder: str, notes: list[str],
                log: list[tuple[int, str, str]]) -> pages.Screen:
    """What the game page shows `name` (`me`: its party, None when it has
    no seat: an observer's page)."""
    from pbem.protocol import undo as undo_mod

    info = turns.status(chain)
    screen = pages.Screen(
        key=key, title=chain.game.info.title, game=chain.game.info.name, game_id=chain.game_id, seq=chain.seq,
        folder=folder, viewer=name if me is not None else None, to_act=turns.to_act_lines(info),
        pending=info.pending, log=log, outcome=outcome_words(chain), notes=notes,
    )
    try:
        seen = reading.view(chain, me)
    except PbemError as exc:  # not set up yet
        screen.board_html = pages.board_text(exc.message)
        seen = None
    if seen is not None:
        screen.board_html = pages.board(chain.game, seen)
        screen.prompt = getattr(seen, "prompt", None) or None
    if me is None:
        return screen
    screen.owes, screen.owed_words = turns.owed(chain, name)
    screen.commands = reading.legal(chain, me)
    pending = chain.pending_undo()
    if pending is not None:
        screen.undo_pending = next((line for line in info.pending if line.startswith("undo:")), "undo pending")
    elif undo_mod.refusal(chain, name) is None:
        screen.may_undo = True
    return screen


def outcome_words(chain) -> str | None:
    outcome = chain.outcome()
    if outcome is None:
        return None
    words = f"{' and '.join(outcome.winners) or 'nobody'} won: {outcome.reason}"
    if outcome.scores:
        words += " (scores: " + ", ".join(f"{k} {v}" for k, v in outcome.scores.items()) + ")"
    return words
