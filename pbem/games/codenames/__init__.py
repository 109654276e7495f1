"""Codenames (Vlaada Chvátil, Czech Games Edition) as a pure pbem game.

Modules, one job each:

* `words`     normalisation, tokens, Snowball stems, the word decks (data/)
* `clues`     the automatic clue checks
* `state`     options, the state Struct, zones and helpers
* `commands`  the command Structs (``cn.*`` tags) and their notation
* `rules`     seats and roles, set-up, turn flow, guess resolution, the end
* `view`      what a seat may see; `render`: the grid in a terminal;
              `svg`: the grid as a picture
* `bots`      a random bot and a simple spymaster bot
* `duet`      Codenames Duet (``variant=duet``); `duet_view` its views and
              picture; ``DUET.md`` our reading of its rules
* `game`      the `Codenames` object tying them to the `Game` API

Rules notes and decisions: ``shared/rules/codenames.md``. Decisions this
package adds where the notes are silent (details in the module docstrings):

* A guess list that ends without a miss, below the cap and without ``pass``
  does not end the turn: the captain may send more guesses or ``pass``, as
  at the table where a team sees each result before the next guess.
* ``pass`` alone is legal only after the turn's first guess.
* The guess cap counts every guess of the turn, over all the lists sent.
* A seat list given without roles gets roles in order (see
  `rules.check_seats`); with roles, every seat needs one.
* Coop: the players' team always starts (9 agents); the score is the
  number of ghost agents left uncovered on a win, 0 for every seat on a
  loss; ``clue_review=opponent`` is refused (no opposing spymaster).
* Three players: the operative has role ``shared``, guesses for both teams
  and is neither winner nor loser: the winners are the winning spymaster.
* Objected clue (``clue_review=opponent``): the penalty cover is a
  ``cover WORD`` (one of the objector's own agents) or ``cover none`` by
  the objector, who then gives their own team's clue.
* Clue checks (`clues`): every word is folded first (look-alike letters
  from Unicode's confusables data, accents where the language does not
  count the letter as its own; Swedish å ä ö stay). A clue is *invalid*
  (always refused: the same word or stem as a visible codename, a
  look-alike letter, more than one word, a single letter) or
  *objectionable* (a possible compound with a visible codename, Swedish
  linking letters included, or a substring that may be a coincidence):
  refused under ``clue_review=auto``, shown with its reason to the opposing
  spymaster under ``clue_review=opponent``. A single digit is a clue.
* Scenario options ``grid`` (public) and ``key`` (hotseat only) fix a
  layout for tests and golden transcripts.
"""

from __future__ import annotations

from pbem.games.base import Game, GameInfo
from pbem.games.codenames import game, rules
from pbem.games.codenames.commands import Command
from pbem.games.codenames.state import Options, State

INFO = GameInfo(
    name="codenames",
    title="Codenames",
    rules_version="2",  # 2: clue verdicts (invalid / objectionable, compounds, look-alikes), Duet
    min_seats=game.MIN_SEATS,
    max_seats=game.MAX_SEATS,
    Options=Options,
    State=State,
    Command=Command,
    scenario_options=frozenset({"key"}),
    file_options=frozenset({"words"}),
)

GAME = Game(
    INFO,
    options=game.options, seats=game.seats, sides=game.sides, setup=rules.setup, dealing=game.dealing,
    to_act=game.to_act, legal=game.legal, apply=game.apply, advance=game.advance, outcome=rules.outcome,
    view=game.view,
    presentation="pbem.games.codenames.present:PRESENTATION",
)

__all__ = ["GAME", "INFO"]
