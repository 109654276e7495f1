"""Codex free-for-all (3 to 5 players), rule by rule from the rulebook's
"Free-for-all (3-5 Players)": set-up, turn order, attacking any opponent,
repairs, gold for kills, lending patrollers, the end and its tie-break; and
seeded bot games to the end for each player count (PBEM_LONG=1: more)."""

from __future__ import annotations

import os
import random

import pytest

from pbem.errors import IllegalCommand, InvalidCommand, InvalidOption
from pbem.games.base import RandomChance, SeatSpec
from pbem.games.codex import GAME, cards, engine
from pbem.games.codex.state import OVER
from tests.codex_helpers import CH, do, legal_texts
from tests.codex_helpers import next_turn as end_turn

LONG = os.environ.get("PBEM_LONG") == "1"
NAMES = ("alice", "bob", "carol", "dave", "erin")


def ffa(*lines: str, n: int = 4) -> object:
    """A fixed free-for-all position of `n` seats (neutral starters)."""
    raw = {"mode": "ffa", "scenario": "\n".join(lines)}
    raw.update({f"p{i + 1}_starter": "neutral" for i in range(n)})
    state = GAME.setup(GAME.options(raw), [SeatSpec(s) for s in NAMES[:n]], CH)
    return GAME.advance(state, CH)


def new(n: int, seed: int = 1):
    chance = RandomChance(seed)
    state = GAME.setup(GAME.options({"mode": "ffa"}), [SeatSpec(s) for s in NAMES[:n]], chance)
    return GAME.advance(state, chance), chance


# --- set-up and turn order -----------------------------------------------------------------


def test_workers_and_mercenaries_by_seat():
    """Player 1 has 4 workers, players 2-5 have 5; players 3, 4, 5 get 1, 2,
    3 1/1 mercenaries in their first upkeep, without haste."""
    state, _ = new(5)
    assert [state.players[s].base_workers for s in NAMES] == [4, 5, 5, 5, 5]
    seen = {}
    for _ in range(5):
        seat = state.active
        mercs = engine.controls(state, seat, "Mercenary")
        seen[seat] = len(mercs)
        for ref in mercs:
            assert (engine.atk(state, ref), engine.hp(state, ref)) == (1, 1)
            assert not any(t.startswith("attack ") and t.split()[1].startswith("mercenary")
                           for t in legal_texts(state, seat))
        state = end_turn(state)
    assert seen == {"alice": 0, "bob": 0, "carol": 1, "dave": 2, "erin": 3}
    assert state.active == "alice" and len(engine.controls(state, "erin", "Mercenary")) == 3


def test_turn_order_goes_round_the_table():
    state, _ = new(3)
    order = []
    for _ in range(7):
        order.append(state.active)
        state = end_turn(state)
    assert order == ["alice", "bob", "carol", "alice", "bob", "carol", "alice"]


def test_seat_counts_per_mode():
    with pytest.raises(InvalidOption, match="3 to 5"):
        GAME.seats(GAME.options({"mode": "ffa"}), [SeatSpec("a"), SeatSpec("b")])
    with pytest.raises(InvalidOption, match="2-5 seats"):
        GAME.seats(GAME.options({"mode": "ffa"}), [SeatSpec(s) for s in "abcdef"])
    with pytest.raises(InvalidOption, match="mode=ffa"):
        GAME.seats(GAME.options({}), [SeatSpec(s) for s in "abc"])
    with pytest.raises(InvalidOption, match="players=4 but 3"):
        GAME.seats(GAME.options({"mode": "ffa", "players": "4"}), [SeatSpec(s) for s in "abc"])
    with pytest.raises(InvalidOption, match="words of the notation"):  # a side is written by seat name
        GAME.seats(GAME.options({"mode": "ffa"}), [SeatSpec(s) for s in ("alice", "opp", "carol")])
    assert GAME.presentation.demo_seats(GAME.options({"mode": "ffa", "players": "5"})) == NAMES
    assert len(GAME.presentation.demo_seats(GAME.options({"mode": "ffa"}))) == 4


# --- attacking any opponent ------------------------------------------------------------------


SET = ("turn = 1", "p1.units = Older Brother, Older Brother", "p1.gold = 0",
       "p2.units = Tenderfoot", "p2.patrol = sl=Tenderfoot", "p3.units = Brick Thief", "p4.base = 20")


def test_attack_any_opponent_each_guarded_by_its_own_patrol():
    state = ffa(*SET)
    texts = legal_texts(state, "alice")
    # bob's squad leader guards bob only: carol's base and units are open
    assert "attack older-brother.1 carol:base" in texts
    assert "attack older-brother.1 carol:brick-thief" in texts
    assert "attack older-brother.1 bob:tenderfoot" in texts
    assert "attack older-brother.1 bob:base" not in texts
    state = do(state, "attack older-brother dave:base")
    assert state.players["dave"].base_damage == 2


def test_opp_is_ambiguous_with_several_opponents():
    state = ffa(*SET)
    with pytest.raises(InvalidCommand, match="several opponents"):
        GAME.presentation.parse("attack older-brother opp:base", state, "alice")
    with pytest.raises(InvalidCommand, match="several opponents"):
        GAME.presentation.parse("attack older-brother base", state, "alice")


# --- repairs -----------------------------------------------------------------------------------


def test_repair_costs_three_gold_a_damage():
    state = ffa("p1.base = 15", "p1.gold = 3", "p1.base_workers = 4")  # 7 gold after the upkeep
    assert "repair 2" in legal_texts(state, "alice") and "repair 3" not in legal_texts(state, "alice")
    state = do(state, "repair 2")
    assert state.players["alice"].base_damage == 3 and state.players["alice"].gold == 1
    with pytest.raises(IllegalCommand, match="costs 3 gold"):
        GAME.apply(state, "alice", GAME.presentation.parse("repair", state, "alice"), CH)


def test_no_repair_beyond_the_damage_nor_in_a_two_player_game():
    state = ffa("p1.base = 19", "p1.gold = 10")
    with pytest.raises(IllegalCommand, match="1 damage to repair"):
        GAME.apply(state, "alice", GAME.presentation.parse("repair 2", state, "alice"), CH)
    from tests.codex_helpers import start

    two = start("p1.base = 15", "p1.gold = 10")
    assert not any(t.startswith("repair") for t in legal_texts(two, "alice"))
    with pytest.raises(IllegalCommand, match="free-for-all"):
        GAME.apply(two, "alice", GAME.presentation.parse("repair", two, "alice"), CH)


# --- gold for kills ---------------------------------------------------------------------------


def test_one_gold_a_kill_on_your_turn_at_most_three():
    state = ffa("p1.units = Older Brother, Older Brother, Older Brother, Older Brother, Older Brother",
                "p1.gold = 0", "p1.base_workers = 0",
                "p2.units = Timely Messenger, Timely Messenger", "p3.units = Timely Messenger, Timely Messenger")
    assert state.players["alice"].gold == 0
    for n, target in enumerate(("bob:timely-messenger", "bob:timely-messenger", "carol:timely-messenger",
                                "carol:timely-messenger")):
        state = do(state, f"attack older-brother.{n + 1} {target}")
        assert state.players["alice"].gold == min(n + 1, 3)
    # the kills of bob's own turn pay bob, not alice (alice's units dying pay bob)
    assert len(engine.controls(state, "alice", "Older Brother")) == 5


def test_no_gold_for_a_kill_in_a_two_player_game():
    from tests.codex_helpers import start

    state = start("p1.units = Older Brother", "p1.gold = 0", "p1.base_workers = 0", "p2.units = Timely Messenger",
                  p1="bashing", p2="finesse", p1_starter="neutral", p2_starter="neutral")
    state = do(state, "attack older-brother opp:timely-messenger")
    assert state.players["alice"].gold == 0


# --- lending patrollers -----------------------------------------------------------------------


def test_lend_a_patroller_until_the_borrowers_upkeep():
    state = ffa("p1.units = Older Brother, Tenderfoot", "p3.units = Brick Thief", n=3)
    state = end_turn(state, "end sl=tenderfoot lend=older-brother@carol:elite")
    ref = next(r for r, t in state.things.items() if t.card == "Older Brother")
    assert state.things[ref].controller == "carol" and state.things[ref].owner == "alice"
    assert state.patrol["carol"][1] == ref
    # it guards carol on bob's turn: bob's attacker must face it first
    assert "bob" == state.active
    assert state.things[ref].controller == "carol"
    state = end_turn(state)
    assert state.active == "carol"
    # back at carol's upkeep, and not into alice's patrol zone
    assert state.things[ref].controller == "alice" and ref not in state.patrol["alice"]
    assert ref not in state.patrol["carol"]


def test_lend_only_to_an_open_slot_of_another_seat():
    state = ffa("p1.units = Older Brother, Tenderfoot", "p2.units = Tenderfoot", "p2.patrol = sl=Tenderfoot",
                n=3)
    for text, why in (("end lend=older-brother@bob:sl", "not open"),
                      ("end lend=older-brother@alice:sl", "another player"),
                      ("end sl=older-brother lend=older-brother@carol:sl", "one place")):
        with pytest.raises(IllegalCommand, match=why):
            GAME.apply(state, "alice", GAME.presentation.parse(text, state, "alice"), CH)
    assert "end lend=older-brother@bob:elite" in legal_texts(state, "alice")
    from pbem.games.codex.commands import End, Loan

    ref = engine.controls(state, "alice", "Older Brother")[0]
    for loan in (Loan(ref, "carol", 7), Loan(ref, "carol", -1), Loan("nothing", "carol", 0), Loan(ref, "zed", 0)):
        with pytest.raises(IllegalCommand):  # a doctored file's loan: refused, never a crash
            GAME.apply(state, "alice", End(lend=[loan]), CH)


def test_a_lent_patroller_that_dies_pays_its_lender_the_scavenger_gold():
    state = ffa("p1.units = Timely Messenger", "p1.base_workers = 0", "p1.gold = 0",
                "p2.units = Older Brother", n=3)
    state = end_turn(state, "end lend=timely-messenger@carol:scavenger")
    gold = state.players["alice"].gold
    state = do(state, "attack older-brother carol:timely-messenger")
    assert state.players["alice"].gold == gold + 1
    assert "Timely Messenger" in [it.card for it in state.zones["discard:alice"].items]


# --- the end ---------------------------------------------------------------------------------


def test_a_destroyed_base_ends_it_and_the_most_hp_wins():
    state = ffa("p1.units = Older Brother", "p2.base = 2", "p3.base = 15", "p4.base = 12")
    state = do(state, "attack older-brother bob:base")
    assert state.phase == OVER and state.outcome.winners == ["alice"]


def test_a_tie_for_most_hp_gives_the_tied_one_more_turn_each():
    state = ffa("p1.units = Older Brother", "p2.base = 2", "p3.base = 20", "p4.base = 12")
    state = do(state, "attack older-brother bob:base")
    assert state.phase != OVER and state.final_turns == ["carol", "alice"]
    state = end_turn(state)
    assert state.active == "carol"   # bob's and dave's turns are skipped
    state = end_turn(state)
    assert state.active == "alice"
    state = do(state, "attack older-brother carol:base")  # alice breaks the tie
    state = end_turn(state)
    assert state.phase == OVER and state.outcome.winners == ["alice"]


def test_still_tied_after_the_extra_turns_goes_round_again():
    state = ffa("p1.units = Older Brother", "p2.base = 2", "p3.base = 20", n=3)
    state = do(state, "attack older-brother bob:base")
    state = end_turn(end_turn(end_turn(state)))
    assert state.phase != OVER and state.active == "carol" and state.final_turns == ["alice"]


# --- bot games --------------------------------------------------------------------------------


def bot_game(n: int, seed: int, bot: str):
    rng = random.Random(seed)
    state, chance = new(n, seed)
    for _ in range(8000):
        if GAME.outcome(state) is not None:
            return state
        seat = GAME.to_act(state)[0]
        for other in state.seats if rng.random() < 0.1 else ():  # nobody's view holds another seat's hand
            if other != seat:
                side = next(x for x in GAME.view(state, seat).sides if x.seat == other)
                assert side.my_hand is None and side.my_codex is None and side.my_workers is None
        state = GAME.advance(GAME.apply(state, seat, GAME.presentation.bots[bot](GAME, state, seat, rng), chance), chance)
    raise AssertionError("the game did not end")


GAMES = [(4, 2, "random"), (5, 3, "greedy")]
LONG_GAMES = [(3, 1, "greedy")] + [(n, seed, bot) for n in (3, 4, 5) for seed in range(4, 10)
                                   for bot in ("greedy", "random")]


@pytest.mark.parametrize("n,seed,bot", GAMES + (LONG_GAMES if LONG else []))
def test_bot_games_end_with_the_healthiest_base_winning(n, seed, bot):
    state = bot_game(n, seed, bot)
    hp = {s: cards.BASE_HP - state.players[s].base_damage for s in state.seats}
    assert any(v <= 0 for v in hp.values())
    assert state.outcome.winners and all(hp[w] > 0 for w in state.outcome.winners)
    if "tie-break" not in state.outcome.reason:
        assert all(hp[w] == max(hp.values()) for w in state.outcome.winners)


def test_every_legal_command_reads_back_from_its_notation():
    state = ffa(*SET, "p1.base = 14", "p1.gold = 9")
    cmds = GAME.legal(state, "alice")
    assert any(getattr(c, "lend", None) for c in cmds) and any(type(c).__name__ == "Repair" for c in cmds)
    for cmd in cmds:
        text = GAME.presentation.format(cmd, state, "alice")
        assert GAME.presentation.parse(text, state, "alice") == cmd, text
        assert GAME.presentation.explain(cmd, state, "alice")


def test_a_flying_swift_striker_kills_an_opponents_unit_before_its_second_strike():
    """The defender is read before the swift strike: the second strike
    still knows whose anti-air patrollers were flown over."""
    state = ffa("p1.units = Blademaster, Cloud Sprite", "p2.units = Older Brother", n=3)
    state = do(state, "attack cloud-sprite bob:older-brother")
    assert not engine.controls(state, "bob", "Older Brother") and engine.controls(state, "alice", "Cloud Sprite")
