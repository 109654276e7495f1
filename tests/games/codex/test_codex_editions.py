"""Codex rules 5 and rules 4 in one package (`pbem.games.codex.editions`):
each `Game` answers with its own rules, also when the two are asked in
turn in one process; the team's tower (rules 5) against its owner's
(rules 4); and games begun under rules 4 are given `GAME_RULES_4`."""

from __future__ import annotations

import pytest

from pbem import games
from pbem.errors import IllegalCommand
from pbem.games.base import SeatSpec
from pbem.games.codex import GAME, GAME_RULES_4, editions
from tests.codex_helpers import CH

SEATS = [SeatSpec("alice", "red"), SeatSpec("bob", "blue"), SeatSpec("carol", "red"), SeatSpec("dave", "blue")]
#: carol (the second of alice's team) has cast Moment's Peace; bob to attack
PEACE = ["turn = 3", "p1.units = Older Brother", "p3.units = Tenderfoot", "p3.hero = 1", "p2.units = Iron Man",
         "p3.ongoing = Moment's Peace"]


def dragon(game, lines: list[str]):
    raw = {"mode": "2v2", "scenario": "\n".join(lines), **{f"p{i}_starter": "neutral" for i in range(1, 5)},
           "p3": "balance"}
    return game.advance(game.setup(game.options(raw), SEATS, CH), CH)


def attacks(game, state, seat: str = "bob") -> list[str]:
    return sorted(t for c in game.legal(state, seat)
                  if (t := game.presentation.format(c, state, seat)).startswith("attack"))


def after_peace(game):
    """The position after carol cast Moment's Peace, bob to play."""
    raw = ["turn = 2", "p3.hand = Moment's Peace", "p3.hero = 1", "p3.gold = 5", "p1.units = Older Brother",
           "p3.units = Tenderfoot", "p2.units = Iron Man"]
    st = dragon(game, raw)
    assert st.active == "carol"
    for text in ("play moment-s-peace", "end"):
        st = game.advance(game.apply(st, st.active, game.presentation.parse(text, st, st.active), CH), CH)
    if st.phase == "tech":
        cmd = next(c for c in game.legal(st, st.active) if not c.choices.first)
        st = game.advance(game.apply(st, st.active, cmd, CH), CH)
    assert st.active == "bob"
    return st


def test_old_games_get_rules_4_and_new_games_rules_5():
    assert games.get("codex") is GAME and GAME.info.rules_version == "5"
    assert games.get("codex", "4") is GAME_RULES_4 and GAME_RULES_4.info.rules_version == "4"
    assert editions.of("4") is editions.RULES_4 and editions.of("5") is editions.CURRENT


def test_both_editions_answer_with_their_own_rules_interleaved_on_one_state():
    st5, st4 = after_peace(GAME), after_peace(GAME_RULES_4)
    assert st5 == st4, "the same commands make the same state: rules 5 changed no state"
    open_base = ["attack iron-man alice:base", "attack iron-man alice:older-brother"]
    for _ in range(2):
        assert attacks(GAME, st4) == ["attack iron-man alice:older-brother"]
        assert attacks(GAME_RULES_4, st4) == open_base
        assert editions.current() is editions.CURRENT, "a call leaves no edition behind"
    cmd = GAME_RULES_4.presentation.parse("attack iron-man alice:base", st4, "bob")
    with pytest.raises(IllegalCommand, match="Moment's Peace forbids it"):
        GAME.apply(st4, "bob", cmd, CH)
    with pytest.raises(IllegalCommand):
        GAME_RULES_4.apply(st4, "dave", cmd, CH)
    assert editions.current() is editions.CURRENT, "an error leaves no edition behind"
    after = GAME_RULES_4.advance(GAME_RULES_4.apply(st4, "bob", cmd, CH), CH)
    assert after.players["alice"].base_damage == after.players["carol"].base_damage > 0


def _iron_man_damage(game, target: str) -> int:
    st = dragon(game, ["turn = 3", "p3.buildings = tower", "p1.units = Older Brother", "p2.units = Iron Man"])
    assert st.active == "bob"
    st = game.advance(game.apply(st, "bob", game.presentation.parse(f"attack iron-man {target}", st, "bob"), CH), CH)
    iron = next(t for t in st.things.values() if t.card == "Iron Man")
    return iron.damage


def test_a_teammates_tower_hits_attackers_of_the_team_under_rules_5_only():
    """Ruling on the Tower: it hits attackers of anything of the player's
    "(or team in 2v2)"; rules 4 read only its owner's things."""
    assert _iron_man_damage(GAME, "alice:older-brother") == 2 + 1  # Older Brother's 2, carol's tower's 1
    assert _iron_man_damage(GAME, "alice:base") == 1
    assert _iron_man_damage(GAME_RULES_4, "alice:older-brother") == 2
    assert _iron_man_damage(GAME_RULES_4, "alice:base") == 0


def test_a_teammates_tower_keeps_a_stealthy_attacker_on_the_teams_patrollers_under_rules_5_only():
    """Ruling on the Tower: the first stealthy attacker it reveals cannot
    ignore the patrollers; under rules 5 a teammate's tower so guards the
    team's squad leader as its own."""
    lines = ["turn = 3", "p3.buildings = tower", "p1.units = Older Brother", "p1.patrol = sl=older-brother",
             "p2.units = Chameleon"]
    st5, st4 = dragon(GAME, lines), dragon(GAME_RULES_4, lines)
    assert attacks(GAME, st5) == ["attack chameleon alice:older-brother"]
    assert "attack chameleon alice:base" in attacks(GAME_RULES_4, st4)
