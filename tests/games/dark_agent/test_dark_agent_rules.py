"""Dark Agent rules, one test per rule, on fixed scenarios with scripted dice.

A scenario starts from a real set-up and then lays out the area by hand
(`put`, `spy`, `sats`); `Dice` answers the rules' public chance with the
faces given, so each test knows the roll before it happens.
"""

from __future__ import annotations

import itertools
from collections import Counter

import msgspec
import pytest

from pbem.errors import IllegalCommand, InvalidCommand, InvalidOption
from pbem.games.base import Hidden, Known, RandomChance, SeatSpec
from pbem.games.dark_agent import GAME, attacks, catalogue, odds, readers, satellites
from pbem.games.dark_agent.commands import (
    Attack, Deal, Deploy, Double, End, Jacket, Media, Move, Place, Power, Spot, Swap, Use, Vote,
)
from pbem.games.dark_agent.state import (
    ACT, AREA_DECK, CELLS, DEAL, EQ_DECK, EQ_DISCARD, JACKET, MEDIA, MOVE, NEUTRAL, OVER, PLACE, VOTE,
    State, cell_zone, hand, parse_cell, spy_id, taken,
)

C = parse_cell  # C("A1") -> 0


class Dice:
    """Public chance answering with scripted die faces (secret chance: no shuffle)."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    @property
    def public(self) -> "Dice":
        return self

    def below(self, n: int) -> int:
        return self.faces.pop(0) - 1

    def shuffle(self, items):
        return list(items)

    def private_draw(self, n: int) -> int:
        return 0


def scenario(seats=("alice", "bob"), **opts) -> State:
    """A dealt game at alice's phase 2 with an empty area and one satellite
    of bob's, over line G (so that bob's phase 1 has a move)."""
    st = GAME.setup(GAME.options({k: str(v) for k, v in opts.items()}), [SeatSpec(s) for s in seats], RandomChance(0))
    st = GAME.apply(st, seats[-1], Deal(), RandomChance(0))
    for c in range(CELLS):
        st.zones[cell_zone(c)].items = []
    st.sats = [[] for _ in range(6)] + [[seats[-1]]]
    st.to_place = []
    st.phase = ACT
    return st


def put(st, cell: str, card: str) -> str:
    ref = f"t{st.next_ref:03d}"
    st.next_ref += 1
    st.zones[cell_zone(C(cell))].items = [Known(ref, card)]
    return ref


def spy(st, seat: str, level: int, cell: str) -> None:
    st.spy_cell[spy_id(seat, level)] = C(cell)


def give(st, seat: str, card: str) -> str:
    ref = f"h{st.next_ref:03d}"
    st.next_ref += 1
    st.zones[hand(seat)].items.append(Known(ref, card))
    return ref


def play(st, seat, cmd, *faces):
    return GAME.advance(GAME.apply(st, seat, cmd, Dice(*faces)), Dice(*faces))


def text(st, seat, notation, *faces):
    return play(st, seat, GAME.presentation.parse(notation, st, seat), *faces)


# --- set-up -----------------------------------------------------------------------


def test_setup_spies_tokens_and_placement_order():
    st = GAME.setup(GAME.options({}), [SeatSpec(s) for s in ("ann", "bob", "cat")], RandomChance(1))
    # the set-up shows no card: the first placer lays out the area from its deck
    assert st.phase == DEAL and GAME.to_act(st) == ["cat"] and GAME.legal(st, "cat") == [Deal()]
    assert not any(st.zones[cell_zone(c)].items for c in range(CELLS))
    assert all(z.public == name.startswith(("cell:", "taken:", "eq:discard")) for name, z in st.zones.items())
    top = [it.ref for it in st.zones[AREA_DECK].items + st.zones[EQ_DECK].items][:CELLS]
    with pytest.raises(IllegalCommand):
        GAME.apply(st, "ann", Deal(), RandomChance(1))
    st = play(st, "cat", Deal())
    assert [st.zones[cell_zone(c)].items[0].ref for c in range(CELLS)] == top  # from the top, in cell order
    assert st.phase == PLACE
    assert sorted(k for k, v in st.spy_cell.items() if v < 0) == sorted(
        f"{s}/{n}" for s in ("ann", "bob", "cat") for n in (2, 3, 5))
    assert st.double_holder == "cat"  # the last player
    assert all(st.super_left.values())
    assert sum(line.count(NEUTRAL) for line in st.sats) == 2
    # one at a time, from the last player, clockwise (reverse turn order)
    assert st.to_place == ["cat", "bob", "ann"] * 3
    assert all(len(st.zones[cell_zone(c)].items) == 1 for c in range(CELLS))
    for seat in ["cat", "bob", "ann"] * 3:
        assert GAME.to_act(st) == [seat]
        st = play(st, seat, GAME.legal(st, seat)[0])
    assert st.phase == MOVE and GAME.to_act(st) == ["ann"]
    assert all(len(line) <= 3 for line in st.sats)


def test_setup_refuses_too_many_satellites_and_bad_lengths():
    with pytest.raises(InvalidOption, match="slots"):
        GAME.seats(GAME.options({"satellites": "4"}), [SeatSpec(f"p{i}") for i in range(6)])
    with pytest.raises(InvalidOption, match="2 to 5 AIMs"):
        GAME.options({"aims": "6"})
    assert GAME.seats(GAME.options({}), [SeatSpec("solo")])  # one seat: solo play


# --- phase 1 ----------------------------------------------------------------------


def test_phase1_move_two_and_line_limit():
    st = scenario()
    st.phase = MOVE
    st.sats = [["alice", "alice"], ["bob", "bob", "bob"], [], [], [], [], ["alice"]]
    legal = GAME.legal(st, "alice")
    moves = [c for c in legal if isinstance(c, Move)]
    assert moves and all(len(m.moves) == 2 for m in moves)
    assert not any(b == 1 for m in moves for _, b in m.moves)  # line B is full
    with pytest.raises(IllegalCommand, match="two satellites"):
        GAME.apply(st, "alice", Move([(0, 2)]), Dice())
    after = play(st, "alice", Move([(0, 2), (0, 3)]))
    assert after.sats[0] == [] and after.sats[2] == ["alice"] and after.phase == ACT
    # the same satellite may not move twice
    assert Move([(6, 2), (2, 3)]) not in legal


def test_phase1_swap_but_not_with_three_of_one_player():
    st = scenario()
    st.phase = MOVE
    st.sats = [["alice"], ["bob", "bob", "bob"], ["bob", NEUTRAL], [], [], [], []]
    legal = GAME.legal(st, "alice")
    assert Swap(0, 2, "bob") in legal and Swap(0, 2, NEUTRAL) in legal
    assert Swap(0, 1, "bob") not in legal
    with pytest.raises(IllegalCommand, match="all 3 satellites"):
        GAME.apply(st, "alice", GAME.presentation.parse("swap A B bob", st, "alice"), Dice())
    after = text(st, "alice", "swap A C neutral")
    assert after.sats[0] == [NEUTRAL] and sorted(after.sats[2]) == sorted(["alice", "bob"])


# --- phase 2: reach ----------------------------------------------------------------


@pytest.mark.parametrize("owners,reach", [
    (["alice"], 1), (["alice", "bob"], 2), (["alice", "bob", NEUTRAL], 3), (["alice"] * 3, 5),
])
def test_spotting_reach(owners, reach):
    st = scenario()
    st.sats[2] = owners
    spots = {c.cell for c in GAME.legal(st, "alice") if isinstance(c, Spot) and not c.reach}
    assert spots == {C(f"C{p}") for p in range(1, reach + 1)}


def test_out_of_reach_and_super_satellite():
    st = scenario()
    st.sats[2] = ["alice", "bob"]
    with pytest.raises(IllegalCommand, match="out of reach"):
        GAME.apply(st, "alice", Spot(C("C4")), Dice())
    after = text(st, "alice", "spot C5 super")
    assert C("C5") in after.selected and not after.super_left["alice"]
    after.used_sats[2] = 0
    with pytest.raises(IllegalCommand, match="super-satellite token is used up"):
        GAME.apply(after, "alice", Spot(C("C4"), "super"), Dice())
    with pytest.raises(IllegalCommand, match="no unused satellite"):
        GAME.apply(st, "alice", Spot(C("D1")), Dice())


def test_one_cell_per_satellite():
    st = scenario()
    st.sats[0] = ["alice", "bob"]
    st = text(st, "alice", "spot A1")
    with pytest.raises(IllegalCommand, match="no unused satellite"):
        GAME.apply(st, "alice", Spot(C("A2")), Dice())


# --- equipment --------------------------------------------------------------------


def test_equipment_is_taken_and_a_fourth_is_refused():
    st = scenario()
    st.sats[0] = ["alice", "alice", "alice"]
    put(st, "A1", "eq-rifle")
    after = text(st, "alice", "spot A1")
    assert [it.card for it in after.zones[hand("alice")].items] == ["eq-rifle"]
    for card in ("eq-rocket", "eq-boat"):
        give(after, "alice", card)
    put(after, "A2", "eq-laptop")
    with pytest.raises(IllegalCommand, match="cannot take another"):
        GAME.apply(after, "alice", Spot(C("A2")), Dice())


def test_star_cards_once_per_turn_and_never_discarded_unused():
    st = scenario()
    a, b = give(st, "alice", "eq-rifle"), give(st, "alice", "eq-explosives")
    after = play(st, "alice", Use(a))
    assert [it.card for it in after.zones[EQ_DISCARD].items] == ["eq-rifle"]
    with pytest.raises(IllegalCommand, match=r"\* card"):
        GAME.apply(after, "alice", Use(b), Dice())
    j = give(st, "alice", "eq-jacket")
    with pytest.raises(IllegalCommand, match="works by itself"):
        GAME.apply(st, "alice", Use(j), Dice())


# --- attacks ----------------------------------------------------------------------


def sentry_scene(**opts):
    st = scenario(**opts)
    st.sats[0] = ["alice", "alice", "alice"]
    put(st, "A2", "sentry-20")  # defence 20, level 2
    spy(st, "alice", 3, "A1")
    st = text(st, "alice", "spot A1")
    return text(st, "alice", "spot A2")


def test_sentry_success_scores_its_level():
    st = sentry_scene()
    # 3 (spy) + 3 (nuclear) + 1 (Strike force) + 4 dice 3+3+4+3 = 20
    after = text(st, "alice", "attack A2 with A1", 3, 3, 4, 3)
    assert [it.card for it in after.zones[taken("alice")].items] == ["sentry-20"]
    assert readers.score(after, "alice") == 2 + 3  # the sentry's level + the spy in the area
    assert after.phase == ACT  # the turn goes on


def test_failed_attack_wounds_the_spies_and_ends_the_turn():
    st = sentry_scene()
    after = text(st, "alice", "attack A2 with A1", 1, 2, 3, 4)
    assert after.spy_cell["alice/3"] == -1
    assert after.phase == MOVE and GAME.to_act(after) == ["bob"]


def test_four_of_a_kind_always_succeeds():
    st = sentry_scene(nuclear=0)
    after = text(st, "alice", "attack A2 with A1", 1, 1, 1, 1)  # 3+1+4 = 8 < 20
    assert [it.card for it in after.zones[taken("alice")].items] == ["sentry-20"]


def test_nuclear_deterrence_option():
    st = sentry_scene(nuclear=2)
    assert attacks.attack_bonus(st, "alice", Attack(C("A2"), [C("A1")])) == 3 + 2 + 1
    st = sentry_scene()
    assert attacks.attack_bonus(st, "alice", Attack(C("A2"), [C("A1")])) == 3 + 3 + 1


def test_attack_needs_a_selected_spy():
    st = scenario()
    st.sats[0] = ["alice", "alice", "alice"]
    put(st, "A2", "sentry-20")
    spy(st, "alice", 3, "A1")
    st = text(st, "alice", "spot A2")
    with pytest.raises(IllegalCommand, match="no spy of yours in a selected cell"):
        GAME.apply(st, "alice", Attack(C("A2"), [C("A1")]), Dice(6, 6, 6, 6))


def test_enemy_spy_needs_higher_levels_and_a_jacket_saves_it():
    st = scenario()
    st.sats[0] = ["alice", "alice", "alice"]
    spy(st, "alice", 3, "A1")
    spy(st, "bob", 3, "A2")
    st = text(text(st, "alice", "spot A1"), "alice", "spot A2")
    with pytest.raises(IllegalCommand, match="must be above"):
        GAME.apply(st, "alice", Attack(C("A2"), [C("A1")]), Dice(6, 6, 6, 6, 1))
    spy(st, "alice", 5, "A3")
    st = text(st, "alice", "spot A3")
    jacket = give(st, "bob", "eq-jacket")
    # 8 + 3 + 1 + 20 = 32 vs 17 + 6: success; bob, who holds equipment, answers
    hit = text(st, "alice", "attack A2 with A1 A3", 5, 5, 5, 5, 6)
    assert hit.phase == JACKET and GAME.to_act(hit) == ["bob"] and GAME.legal(hit, "bob") == [Jacket(jacket)]
    with pytest.raises(IllegalCommand, match="you hold a bulletproof jacket"):
        text(hit, "bob", "jacket none")  # refused wherever bob's hand is known
    after = text(hit, "bob", "jacket")
    assert after.spy_cell["bob/3"] == C("A2") and after.phase == ACT and GAME.to_act(after) == ["alice"]
    assert [it.card for it in after.zones[EQ_DISCARD].items] == ["eq-jacket"]
    after = text(after, "alice", "attack A2 with A1 A3", 5, 5, 5, 4, 6)
    assert after.spy_cell["bob/3"] == -1 and after.phase == ACT  # no equipment: no question
    # equipment but no jacket: bob says so, and his spy goes
    give(st, "bob", "eq-rifle")
    st.zones[hand("bob")].items = st.zones[hand("bob")].items[1:]
    hit = text(st, "alice", "attack A2 with A1 A3", 5, 5, 5, 5, 6)
    assert GAME.legal(hit, "bob") == [Jacket("")]
    with pytest.raises(InvalidCommand, match="no bulletproof jacket"):
        GAME.presentation.parse("jacket", hit, "bob")
    after = text(hit, "bob", "jacket none")
    assert after.spy_cell["bob/3"] == -1 and after.phase == ACT


def test_kara_is_taken_and_scores_six():
    st = scenario()
    st.sats[0] = ["alice", "alice", "alice"]
    put(st, "A2", "dark-agent")
    spy(st, "alice", 2, "A1")
    spy(st, "alice", 5, "A3")
    st = text(text(text(st, "alice", "spot A1"), "alice", "spot A2"), "alice", "spot A3")
    with pytest.raises(IllegalCommand, match="above the target's level"):
        GAME.apply(st, "alice", Attack(C("A2"), [C("A3")]), Dice(6, 6, 6, 6, 1))
    after = text(st, "alice", "attack A2 with A1 A3", 6, 6, 5, 5, 6)
    assert readers.kara_taker(after) == "alice"
    assert readers.score(after, "alice") == 6 + 2 + 5


def aim_scene():
    st = scenario()
    st.sats[0] = ["alice", "alice", "alice"]
    aim = put(st, "A3", "aim-1")  # defence 20
    put(st, "B3", "sentry-16")  # next to the AIM
    spy(st, "alice", 5, "A1")
    st = text(text(st, "alice", "spot A1"), "alice", "spot A3")
    return st, aim


def test_aim_protected_by_adjacent_sentry_unless_explosives():
    st, _ = aim_scene()
    with pytest.raises(IllegalCommand, match="protected"):
        GAME.apply(st, "alice", Attack(C("A3"), [C("A1")]), Dice(6, 6, 6, 6))
    e = give(st, "alice", "eq-explosives")
    st = play(st, "alice", Use(e))
    after = text(st, "alice", "attack A3 with A1", 3, 3, 3, 2)  # 5+3+1+11 = 20
    assert [it.card for it in after.zones[taken("alice")].items] == ["aim-1"]
    assert after.last_aim == "alice"
    assert readers.score(after, "alice") == 6 + 3 + 5


def test_failed_aim_attack_only_leaves_an_investigation_token_that_helps():
    """The rulebook's AIM passage: a failed attack puts an investigation
    token on the AIM and ends the turn; the spies are not wounded (its
    sentry and enemy-spy passages say they are; this one does not)."""
    st, aim = aim_scene()
    st.zones[cell_zone(C("B3"))].items = []
    after = text(st, "alice", "attack A3 with A1", 1, 2, 1, 2)
    assert after.tokens[aim] == 1 and after.phase == MOVE
    assert after.spy_cell["alice/5"] == C("A1")  # still in the area
    assert attacks.attack_bonus(after, "alice", Attack(C("A3"), [C("A1")])) == 5 + 3 + 1 + 1


def test_failed_attack_on_a_sentry_still_wounds():
    st = scenario()
    st.sats[0] = ["alice", "alice", "alice"]
    put(st, "A3", "sentry-26")
    spy(st, "alice", 2, "A1")
    st = text(text(st, "alice", "spot A1"), "alice", "spot A3")
    after = text(st, "alice", "attack A3 with A1", 1, 2, 1, 2)
    assert after.spy_cell["alice/2"] == -1 and after.phase == MOVE


def test_kara_does_not_protect_an_aim_only_enemy_spies_and_sentries_do():
    st, aim = aim_scene()
    st.zones[cell_zone(C("B3"))].items = []
    put(st, "A4", "dark-agent")  # Kara next to the AIM
    view = GAME.view(st, "alice")
    assert not view.cells[C("A3")].protected
    after = text(st, "alice", "attack A3 with A1", 6, 6, 5, 5)
    assert [it.card for it in after.zones[taken("alice")].items] == ["aim-1"]
    put(st, "A2", "sentry-16")
    with pytest.raises(IllegalCommand, match=r"protected by a sentry or an enemy spy next to it$"):
        GAME.apply(st, "alice", Attack(C("A3"), [C("A1")]), Dice(6, 6, 6, 6))


def test_rules_1_are_kept_for_games_begun_under_them():
    """Rules 1 (games whose genesis says so): a failed attack on an AIM
    wounds the spies too, and Kara protects an AIM next to her."""
    from pbem.games import get

    old = get("dark-agent", "1")
    assert old.info.rules_version == "1" and GAME.info.rules_version == "2"
    st, aim = aim_scene()
    st.zones[cell_zone(C("B3"))].items = []
    after = old.apply(st, "alice", Attack(C("A3"), [C("A1")]), Dice(1, 2, 1, 2))
    assert after.tokens[aim] == 1 and after.spy_cell["alice/5"] == -1
    put(st, "A4", "dark-agent")
    assert old.view(st, "alice").cells[C("A3")].protected
    assert Attack(C("A3"), [C("A1")]) not in old.legal(st, "alice")
    assert Attack(C("A3"), [C("A1")]) in GAME.legal(st, "alice")
    with pytest.raises(IllegalCommand, match="protected by a sentry, an enemy spy or Kara next to it"):
        old.apply(st, "alice", Attack(C("A3"), [C("A1")]), Dice(6, 6, 6, 6))
    assert "Kara cannot be attacked" not in GAME.presentation.summary and "(Kara protects no AIM)" in GAME.presentation.summary
    assert "an enemy\nspy or Kara cannot be attacked" in old.presentation.summary


def test_last_aim_chip_moves():
    st, _ = aim_scene()
    st.zones[cell_zone(C("B3"))].items = []
    put(st, "A4", "aim-2")
    st = text(st, "alice", "attack A3 with A1", 6, 6, 5, 5)
    assert st.last_aim == "alice"
    st.turn, st.phase = 1, ACT
    st.selected, st.used_sats = [], [0] * 7
    st.sats[0] = ["bob", "bob", "bob"]
    spy(st, "bob", 5, "A5")
    st = text(text(st, "bob", "spot A4"), "bob", "spot A5")
    st = text(st, "bob", "attack A4 with A5", 6, 6, 6, 5)
    assert st.last_aim == "bob"
    assert readers.score(st, "alice") == 6 + 5 and readers.score(st, "bob") == 6 + 3 + 5


def test_double_spy_token_use_and_transfer():
    st, aim = aim_scene()
    st.zones[cell_zone(C("B3"))].items = []
    spy(st, "bob", 2, "A2")  # the only enemy spy next to the AIM
    st.double_holder = "alice"
    with pytest.raises(IllegalCommand, match="protected"):
        GAME.apply(st, "alice", Attack(C("A3"), [C("A1")]), Dice(6, 6, 6, 6))
    st = text(st, "alice", "spot A2")
    st = text(st, "alice", "double A2")
    with pytest.raises(IllegalCommand, match="double spy alone"):
        GAME.apply(st, "alice", Attack(C("A3"), [C("A2")]), Dice(6, 6, 6, 6))
    # 5 + 2 (bob's spy) + 3 + 1 + 10 = 21 >= 20
    after = text(st, "alice", "attack A3 with A1 A2", 3, 3, 2, 2)
    assert [it.card for it in after.zones[taken("alice")].items] == ["aim-1"]
    after = play(after, "alice", End())
    assert after.double_holder == "bob" and after.spy_cell["bob/2"] == C("A2")


def test_double_spy_on_kara_is_discarded():
    st = scenario()
    st.sats[0] = ["alice", "alice", "alice"]
    put(st, "A2", "dark-agent")
    st.double_holder = "alice"
    st = text(st, "alice", "spot A2")
    st = text(st, "alice", "double A2")
    after = play(st, "alice", End())
    assert after.double_holder == ""


# --- special cards and deploying ---------------------------------------------------


def test_support_deploys_the_lowest_spy_and_it_joins_at_once():
    st = scenario()
    st.sats[0] = ["alice", "alice", "alice"]
    for c in ("A2", "A3", "A4", "A5"):
        put(st, c, "sentry-16")
    for c in range(5, CELLS):
        st.zones[cell_zone(c)].items = [Known(f"f{c}", "sentry-26")]
    put(st, "A1", "sp-support")
    st = text(st, "alice", "spot A2")  # select the sentry
    st.zones[cell_zone(C("A3"))].items = []  # an empty cell, then selected
    st = text(st, "alice", "spot A3")
    st = text(st, "alice", "spot A1")
    assert st.phase == "deploy" and GAME.legal(st, "alice") == [Deploy(C("A3"))]
    st = text(st, "alice", "deploy A3")
    assert st.spy_cell["alice/2"] == C("A3")
    assert Attack(C("A2"), [C("A3")]) in GAME.legal(st, "alice")


def test_support_with_no_empty_cell_does_nothing():
    st = scenario()
    st.sats[0] = ["alice"]
    for c in range(CELLS):
        st.zones[cell_zone(c)].items = [Known(f"f{c}", "sentry-26")]
    put(st, "A1", "sp-support")
    after = text(st, "alice", "spot A1")
    assert after.phase == ACT and all(v < 0 for k, v in after.spy_cell.items() if k.startswith("alice"))


def test_nobody_decides_while_an_area_card_is_face_down():
    """A card just laid out or refilled travels face down until its reveal
    is in (in a peer game, one file per seat): nobody chooses before."""
    st = scenario()
    st.zones[cell_zone(C("C3"))].items = [Hidden("x001")]
    assert GAME.to_act(st) == [] and GAME.legal(st, "alice") == []
    st.zones[cell_zone(C("C3"))].items = [Known("x001", "sentry-16")]
    assert GAME.to_act(st) == ["alice"]


def test_the_refill_waits_for_the_reshuffled_deck():
    """Never a draw from a deck shuffled in the same command: the refill
    stops when the deck is out, `advance` shuffles the discards into a new
    deck after the command, and the next refill draws from it."""
    st = scenario()
    deck = st.zones[EQ_DECK].items
    st.zones[EQ_DISCARD].items, st.zones[EQ_DECK].items = deck[1:], deck[:1]
    ended = play(st, "alice", End())
    filled = [c for c in range(CELLS) if ended.zones[cell_zone(c)].items]
    assert filled == [0] and ended.zones[cell_zone(0)].items[0].ref == deck[0].ref
    assert not ended.zones[EQ_DISCARD].items and len(ended.zones[EQ_DECK].items) == len(deck) - 1
    assert {it.ref for it in ended.zones[EQ_DECK].items}.isdisjoint({it.ref for it in deck})  # fresh refs
    again = play(play(ended, "bob", GAME.legal(ended, "bob")[0]), "bob", End())
    assert sum(1 for c in range(CELLS) if again.zones[cell_zone(c)].items) == len(deck)


def test_supply_draws_and_reshuffles_the_discards():
    st = scenario()
    st.sats[0] = ["alice"]
    put(st, "A1", "sp-supply")
    deck = st.zones[EQ_DECK].items
    st.zones[EQ_DISCARD].items = deck[1:]
    st.zones[EQ_DECK].items = deck[:1]
    after = play(st, "alice", Spot(C("A1")))
    assert len(after.zones[hand("alice")].items) == 1
    assert not after.zones[EQ_DISCARD].items and len(after.zones[EQ_DECK].items) == len(deck) - 1
    assert {it.ref for it in after.zones[EQ_DECK].items}.isdisjoint({it.ref for it in deck})  # fresh refs


def test_espionage_takes_the_token():
    st = scenario()
    st.sats[0] = ["alice"]
    put(st, "A1", "sp-espionage")
    assert st.double_holder == "bob"
    assert text(st, "alice", "spot A1").double_holder == "alice"


def test_media_at_the_end_of_the_turn_but_not_after_a_failure():
    st = sentry_scene()
    st.sats[1] = ["alice"]
    put(st, "B1", "sp-media")
    st = text(st, "alice", "spot B1")
    put(st, "C1", "sentry-16")
    put(st, "D1", "aim-3")
    ended = play(st, "alice", End())
    assert ended.phase == MEDIA and GAME.to_act(ended) == ["alice"]
    done = text(ended, "alice", "media A2 C1 D1 > C1 D1 A2")
    assert done.zones[cell_zone(C("C1"))].items[0].card == "sentry-20"
    assert done.zones[cell_zone(C("A2"))].items[0].card == "aim-3"
    assert done.phase == MOVE
    failed = text(st, "alice", "attack A2 with A1", 1, 1, 1, 2)
    assert failed.phase == MOVE


def test_refill_at_the_end_of_a_turn():
    st = scenario()
    top = st.zones[EQ_DECK].items[0]
    after = play(st, "alice", End())
    assert after.zones[cell_zone(0)].items == [top]
    assert all(len(after.zones[cell_zone(c)].items) == 1 for c in range(CELLS) if c < 13)


def test_equipment_effects_adrenaline_rifle_rocket_jetpack_binoculars():
    st = sentry_scene()
    ad, rifle, rocket = give(st, "alice", "eq-adrenaline"), give(st, "alice", "eq-rifle"), give(st, "alice", "eq-rocket")
    st = play(st, "alice", Use(ad, [C("A1")]))
    st = play(st, "alice", Use(rifle))
    assert attacks.attack_bonus(st, "alice", Attack(C("A2"), [C("A1")])) == 6 + 2 + 3 + 1
    st.star_used = False
    st = play(st, "alice", Use(rocket))
    after = text(st, "alice", "attack A2 with A1", 1, 1, 1, 2)  # 12 + (6+1+1+2)=22
    assert [it.card for it in after.zones[taken("alice")].items] == ["sentry-20"]
    # jet-pack: swap a spy with a sentry; binoculars: 2 tokens
    st = scenario()
    put(st, "C3", "sentry-16")
    aim = put(st, "E5", "aim-2")
    spy(st, "alice", 2, "A1")
    jp, bn = give(st, "alice", "eq-jetpack"), give(st, "alice", "eq-binoculars")
    st = text(st, "alice", "use Jet-pack A1 C3")
    assert st.spy_cell["alice/2"] == C("C3") and st.zones[cell_zone(0)].items[0].card == "sentry-16"
    st = text(st, "alice", "use binoculars E5")
    assert st.tokens[aim] == 2
    del jp, bn


def test_rifle_attacks_a_sentry_anywhere():
    st = scenario()
    st.sats[0] = ["alice"]
    spy(st, "alice", 5, "A1")
    put(st, "G5", "sentry-16")
    r = give(st, "alice", "eq-rifle")
    st = play(play(st, "alice", Spot(C("A1"))), "alice", Use(r))
    assert Attack(C("G5"), [C("A1")]) in GAME.legal(st, "alice")


def test_nation_power_once_per_turn():
    st = scenario()  # bob has Infiltration (deploy)
    st.turn = 1
    after = play(st, "bob", Power("power-infiltration"))
    assert after.phase == "deploy"
    after = play(after, "bob", Deploy(C("B2")))
    with pytest.raises(IllegalCommand, match="already used"):
        GAME.apply(after, "bob", Power("power-infiltration"), Dice())


# --- turn order, the UN peace phase, scoring ----------------------------------------


def end_round(st):
    for seat in list(st.order)[st.turn:]:
        st.phase = ACT
        st = play(st, seat, End())
    return st


def test_turn_order_vote_shift_and_first_player_rotates():
    st = scenario(seats=("ann", "bob", "cat"))
    a = put(st, "A1", "sentry-16")
    spy(st, "bob", 2, "A3")
    st = end_round(st)
    assert st.phase == VOTE and set(GAME.simultaneous(st)) == {"ann", "bob", "cat"}
    no = play(st, "ann", Vote(False))
    st = play(st, "ann", Vote(True))
    assert GAME.presentation.describe(Vote(True), st, None) == "vote (secret)"
    assert "voted" in GAME.presentation.render(GAME.view(st, "bob"))
    for reader in (None, "bob", "cat"):  # nobody's view tells how ann voted
        assert msgspec.json.encode(GAME.view(st, reader)) == msgspec.json.encode(GAME.view(no, reader))
    with pytest.raises(IllegalCommand, match="already voted"):
        GAME.apply(st, "ann", Vote(False), Dice())
    st = play(st, "bob", Vote(True))
    st = play(st, "cat", Vote(False))  # 2 yes, 1 no: shift, no die
    assert st.zones[cell_zone(C("A5"))].items[0].ref == a
    assert st.spy_cell["bob/2"] == C("A2")
    assert st.order == ["cat", "ann", "bob"] and st.round == 2 and st.phase == MOVE


@pytest.mark.parametrize("die,shift", [(3, True), (4, False)])
def test_tie_vote_rolls_a_die(die, shift):
    st = scenario()
    a = put(st, "A1", "sentry-16")
    st = end_round(st)
    st = play(st, "alice", Vote(True))
    st = GAME.apply(st, "bob", Vote(False), Dice())
    st = GAME.advance(st, Dice(die))
    assert (st.zones[cell_zone(C("A5"))].items[:1] == [Known(a, "sentry-16")]) is shift


@pytest.mark.parametrize("die,shift", [(1, True), (6, False)])
def test_solo_no_vote_rolls_a_die(die, shift):
    st = scenario(seats=("sol",))
    a = put(st, "A1", "sentry-16")
    st = end_round(st)
    st = GAME.apply(st, "sol", Vote(False), Dice())
    st = GAME.advance(st, Dice(die))
    assert any(it.ref == a for it in st.zones[cell_zone(C("A5"))].items) is shift


def test_game_ends_when_the_aims_are_taken_and_tied_leaders_all_win():
    st = scenario(aims=2)
    st.zones[taken("alice")].items = [Known("x1", "aim-1")]
    st.zones[taken("bob")].items = [Known("x2", "aim-2")]
    st.last_aim = ""
    st = end_round(st)
    assert st.phase == OVER
    out = GAME.outcome(st)
    assert out.winners == ["alice", "bob"] and out.scores == {"alice": 6, "bob": 6}
    assert not GAME.to_act(st)


def test_kara_option_needs_kara_too():
    st = scenario(aims=2, kara="true")
    st.zones[taken("alice")].items = [Known("x1", "aim-1"), Known("x2", "aim-2")]
    assert end_round(st).phase == VOTE
    st.zones[taken("bob")].items = [Known("x3", "dark-agent")]
    assert end_round(st).phase == OVER


def test_solo_ends_after_ten_plus_target_rounds_and_its_win_conditions():
    st = scenario(seats=("sol",), aims=2)
    st.round = 12
    st = end_round(st)
    assert st.phase == OVER and GAME.outcome(st).winners == []
    st = scenario(seats=("sol",), aims=2)
    st.zones[taken("sol")].items = [Known("x1", "aim-1"), Known("x2", "dark-agent")]
    st.zones[taken("sol")].items += [Known(f"y{i}", "sentry-26") for i in range(7)]  # 28 points
    st.last_aim = "sol"
    st = end_round(st)
    assert GAME.outcome(st).winners == ["sol"]  # 6 + 6 + 28 + 3 = 43 >= 40, Kara, 2 targets


# --- the dice ------------------------------------------------------------------------


def _exact(bonus: int, defence: int, die: bool) -> float:
    """P(success) from the 4d6 sum distribution and the 6 four-of-a-kinds."""
    sums = Counter(sum(d) for d in itertools.product(range(1, 7), repeat=4))
    four = {4 * k for k in range(1, 7)}
    p = 0.0
    for dd in (range(1, 7) if die else [0]):
        need = defence + dd - bonus
        ok = sum(n for s, n in sums.items() if s >= need)
        ok += sum(1 for s in four if s < need)  # four of a kind below the need
        p += ok / 1296
    return p / (6 if die else 1)


@pytest.mark.parametrize("bonus,defence,die", [(7, 20, False), (3, 26, False), (11, 17, True), (0, 30, False)])
def test_odds_match_the_exact_distribution(bonus, defence, die):
    assert odds.success_chance(bonus, defence, die) == pytest.approx(_exact(bonus, defence, die))


def test_attack_resolution_over_every_roll():
    """The rules' verdict over all 1296 rolls equals the exact chance."""
    st = sentry_scene()
    cmd = Attack(C("A2"), [C("A1")])
    wins = sum(
        bool(GAME.apply(st, "alice", cmd, Dice(*roll)).zones[taken("alice")].items)
        for roll in itertools.product(range(1, 7), repeat=4)
    )
    assert wins / 1296 == pytest.approx(_exact(3 + 3 + 1, 20, False))


# --- catalogue ---------------------------------------------------------------------------


def test_reference_catalogue_marks_every_guess():
    cat = catalogue.reference()
    assert len(cat.aims) == 5 and cat.kara.level == 6 and [s.level for s in cat.spies] == [2, 3, 5]
    entries = [cat.kara, *cat.sentries, *cat.aims, *cat.specials, *cat.equipment, *cat.powers, *cat.spies]
    assert all(e.guess for e in entries)


def test_user_catalogue_json_and_toml_change_the_values():
    raw = msgspec.json.decode(msgspec.json.encode(catalogue.reference()))
    raw["sentries"] = [{"id": "guard", "name": "Guard", "level": 9, "defence": 5, "count": 12}]
    lines = msgspec.json.encode(raw).decode().splitlines()
    st = GAME.setup(GAME.options({"catalogue": lines}), [SeatSpec("a"), SeatSpec("b")], RandomChance(3))
    assert st.catalogue.sentries[0].level == 9
    toml = ['name = "mine"', "last_aim_bonus = 4"]
    for key in ("spies", "sentries", "aims", "specials", "equipment", "powers"):
        toml.append(f"{key} = {_toml(raw[key])}")
    toml += ["[kara]", 'id = "k"', 'name = "K"', "level = 7", "defence = 9"]
    opts = GAME.options({"catalogue": toml})
    st = GAME.setup(opts, [SeatSpec("a")], RandomChance(3))
    assert st.catalogue.kara.level == 7 and st.catalogue.last_aim_bonus == 4


def _toml(value) -> str:
    """A value as TOML (inline tables and arrays): enough for a catalogue."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items() if v is not None) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return msgspec.json.encode(value).decode()


@pytest.mark.parametrize("lines,message", [
    (["{"], "not JSON or TOML"),
    (['{"name": "x"}'], "missing required field"),
    ("a-file-name.json", "lines of a catalogue file"),
])
def test_bad_catalogue_is_a_clear_error(lines, message):
    with pytest.raises(InvalidOption, match=message):
        GAME.options({"catalogue": lines})


def test_unknown_effect_kind_is_refused():
    raw = msgspec.json.decode(msgspec.json.encode(catalogue.reference()))
    raw["equipment"][0]["effect"]["kind"] = "teleport"
    with pytest.raises(InvalidOption, match="unknown equipment effect 'teleport'"):
        GAME.options({"catalogue": [msgspec.json.encode(raw).decode()]})


# --- notation and bad input ------------------------------------------------------------


def test_notation_round_trip_and_errors():
    st = sentry_scene()
    for cmd in GAME.legal(st, "alice"):
        assert GAME.presentation.parse(GAME.presentation.format(cmd, st, "alice"), st, "alice") == cmd
    for bad, message in [("spot Z9", "not a cell"), ("attack A2", "cannot read"), ("use Rifle", "hold no"),
                         ("move A-B", "FROM>TO"), ("", "empty")]:
        with pytest.raises(InvalidCommand, match=message):
            GAME.presentation.parse(bad, st, "alice")
    with pytest.raises(IllegalCommand, match="not bob's turn"):
        GAME.apply(st, "bob", End(), Dice())
    with pytest.raises(IllegalCommand, match="not possible now"):
        GAME.apply(st, "alice", Vote(True), Dice())
    assert GAME.presentation.parse("place C", st, "alice") == Place(2)
    assert GAME.presentation.parse("media pass", st, "alice") == Media()
    assert GAME.presentation.explain(Attack(C("A2"), [C("A1")]), st, "alice").startswith("attack A2 with A1: ")


def test_errors_leave_the_state_untouched():
    st = sentry_scene()
    before = msgspec.json.encode(st)
    for cmd in (Spot(C("G5")), Attack(C("B1"), [C("A1")]), Double(C("A2")), Use("nope"), Deploy(0), Swap(0, 1, "bob")):
        with pytest.raises(IllegalCommand):
            GAME.apply(st, "alice", cmd, Dice(6, 6, 6, 6, 6))
    assert msgspec.json.encode(st) == before


def test_area_scenario_option_fixes_the_cells():
    cat = catalogue.reference()
    area = ["aim-1", "Sentry 16", "eq-rifle", "Support", "dark-agent"] + ["sentry-18"] * 3 + ["sentry-20"] * 2
    area += ["sentry-16"] * 2 + ["sp-supply"] * 3 + ["sp-support"] * 3 + ["eq-boat"] * 3 + ["eq-laptop"] * 2
    area += ["aim-2", "aim-3", "aim-4", "aim-5", "sp-media", "sp-espionage", "sp-espionage"]
    area += ["eq-jacket", "eq-jacket", "eq-jetpack", "eq-jetpack", "eq-adrenaline"]
    assert len(area) == 35
    opts = GAME.options({"area": ",".join(area)})
    st = play(GAME.setup(opts, [SeatSpec("a"), SeatSpec("b")], RandomChance(5)), "b", Deal())
    cards = [st.zones[cell_zone(c)].items[0].card for c in range(CELLS)]
    assert cards[:5] == ["aim-1", "sentry-16", "eq-rifle", "sp-support", "dark-agent"]
    total = Counter(it.card for z in st.zones.values() for it in z.items)
    ix = catalogue.index(cat)
    assert total == Counter(ix.area_deck() + ix.equipment_deck())
    assert "area" in GAME.info.scenario_options
    with pytest.raises(InvalidOption, match="more copies"):
        GAME.options({"area": ",".join(["dark-agent"] * 35)})
    with pytest.raises(InvalidOption, match="no card 'unicorn'"):
        GAME.options({"area": "unicorn"})
    with pytest.raises(InvalidOption, match="give the 35 cards"):
        GAME.options({"area": "aim-1,aim-2"})


def test_a_seat_that_cannot_move_skips_phase_1():
    st = scenario(satellites=1)
    st.phase = MOVE
    st.sats = [["alice"], ["bob", "bob", "bob"], *[[NEUTRAL] * 3 for _ in range(5)]]
    assert not satellites.moves(st, "alice")
    after = GAME.advance(st, Dice())
    assert after.phase == ACT and GAME.advance(after, Dice()) == after
