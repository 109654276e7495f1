"""Codenames rules: seats, set-up, turn flow, guess resolution, the end.

A turn of team T (standard and three-player variants):

1. phase ``clue``: T's spymaster gives a clue (checked by `clues.Checker`:
   an invalid clue is refused; an objectionable one is refused too, unless
   ``clue_review=opponent``, where the judge sees why it is objectionable).
2. phase ``review`` (only with ``clue_review=opponent``): the opposing
   spymaster accepts it, or objects. An objection is the rulebook's penalty
   for an invalid clue: T's turn ends at once and the objector (whose team
   plays next) may cover one of their own agents (phase ``penalty``:
   ``cover WORD`` or ``cover none``).
3. phase ``guess``: T's captain sends an ordered list of guesses (at least
   one over the turn; at most number + 1 in all, no cap for 0/unlimited),
   optionally ending with ``pass``; or ``pass`` alone after a first guess.
4. phase ``resolve`` (`advance`, no decision): the guesses are revealed in
   order. Own agent: covered, go on. Bystander or opposing agent: covered,
   the turn ends, the rest of the list is dropped. Assassin: T loses at once.
   After the list the turn ends if it hit the cap or ended with ``pass``;
   otherwise the captain may send more guesses (phase ``guess`` again), as at
   the table, where the team sees each result before the next guess.

A team wins the moment all its agents are covered, whoever's turn it is.

Coop (2-3 players): one spymaster and one or two operatives of one team
against the ghost team (the other colour). The players' team always starts
(9 agents). After each of the operatives' turns the spymaster covers one
ghost agent of their choice (phase ``ghost``). The players lose on the
assassin or when every ghost agent is covered, and win by finding all of
theirs; the score is the number of ghost agents still uncovered.

Three players (competitive): a red and a blue spymaster share one operative
(role ``shared``) who guesses for whichever team's turn it is. Only the
spymasters compete: the winners are the winning spymaster alone.

The rules are split by job, each module importing only those listed
before it: `setup` (options, seats and roles, set-up), `legal` (who acts,
the legal commands, the clues offered), `resolve` (the guesses' resolution,
the end of a turn and of the game), `apply`. This module is the game's
rules API: the names the game calls. Duet has rules of its own (`duet`).
"""

from __future__ import annotations

from pbem.games.codenames.apply import apply
from pbem.games.codenames.legal import clue_commands, legal, to_act
from pbem.games.codenames.resolve import advance, outcome
from pbem.games.codenames.setup import check_options, check_seats, setup

__all__ = ["check_options", "check_seats", "setup", "to_act", "legal", "clue_commands", "apply", "advance", "outcome"]
