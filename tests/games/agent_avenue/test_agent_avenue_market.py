"""Agent Avenue's advanced mode (the black market): one scenario per card
and per clarification of the rules notes (shared/rules/agent-avenue.md).

Every game is dealt with the ``deck=`` and ``market=`` scenario options, so
the agents and the black-market cards come in a known order, and driven
through the Game API with the notation. Alice (home 0) starts; bob's home is
7; the black-market spaces are 2, 5, 9 and 12. Where a card needs a
position that takes many turns to reach, `at` and `owns` rearrange the
state (documented there); everything after that is the rules' own.
"""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest

from pbem.errors import IllegalCommand, InvalidCommand, InvalidOption
from pbem.games.agent_avenue import GAME, cards
from pbem.games.agent_avenue.commands import Choose, Pass, Take
from pbem.games.agent_avenue.state import State
from pbem.games.base import NeedsReveal, RandomChance, SeatSpec, copy_struct, identity, project

SEATS = [SeatSpec("alice"), SeatSpec("bob")]


class TopChance(RandomChance):
    """Chance as a dealer gives it: a private deck (the black market) is
    drawn from the top, so ``market=`` is the order the cards come in."""

    def private_draw(self, n: int) -> int:
        return 0


CH = TopChance(0)

DA, EN, CB, DD = "Double Agent", "Enforcer", "Codebreaker", "Daredevil"
SA, SE, SK, MO = "Saboteur", "Sentinel", "Sidekick", "Mole"


def deck_of(*top: str | None) -> list[str]:
    wanted = Counter(n for n in top if n is not None)
    assert wanted <= Counter(cards.COPIES), f"too many cards: {wanted}"
    rest = [n for n in cards.NAMES for _ in range(cards.COPIES[n] - wanted[n])]
    return [n if n is not None else rest.pop(0) for n in top] + rest


def market_of(*top: str) -> list[str]:
    return list(top) + [n for n in cards.MARKET_NAMES if n not in top]


def start(alice: list[str], bob: list[str], draws: list[str] = (), market: list[str] = ()) -> State:
    """Alice's and bob's hands, then the deck's next cards, then the market's top."""
    options = GAME.options({
        "mode": "advanced",
        "deck": ",".join(deck_of(*alice, *bob, *draws)),
        "market": ",".join(market_of(*market)),
    })
    return GAME.advance(GAME.setup(options, SEATS, TopChance(7)), CH)


def act(state: State, seat: str, text: str) -> State:
    return GAME.advance(GAME.apply(state, seat, GAME.presentation.parse(text, state, seat), CH), CH)


def turn(state: State, up: str, down: str, choice: str) -> State:
    a = state.active
    b = next(s for s in state.seats if s != a)
    return act(act(state, a, f"play {up} / {down}"), b, f"recruit {choice}")


def names(state: State, zone: str) -> list[str]:
    return [identity(it) for it in state.zones[zone].items]


def at(state: State, **progress: int) -> State:
    """Surgery: put meeples at a net progress (a position many turns away)."""
    state = copy_struct(state)
    for seat, p in progress.items():
        state.progress[seat] = p
        state.position[seat] = (state.home[seat] + p) % cards.BOARD_SIZE
    return state


def owns(state: State, seat: str, *cards_: str) -> State:
    """Surgery: give `seat` ongoing black-market cards (from the market deck
    or the supply, which the rules then top up again)."""
    state = copy_struct(state)
    for name in cards_:
        for zone in ("market:deck", "market:supply"):
            items = state.zones[zone].items
            item = next((it for it in items if it.card == name), None)
            if item is not None:
                items.remove(item)
                state.zones[f"market:{seat}"].items.append(item)
                break
    return GAME.advance(state, CH)


def landed(market: list[str], alice_rest=(SA, SA), bob=(SE, SE, SE, SE), draws=()) -> State:
    """Alice plays Daredevil / Codebreaker, bob recruits the Codebreaker (0):
    alice's Daredevil (+2) ends exactly on space 2; she must take a card."""
    state = start([DD, CB, *alice_rest], list(bob), list(draws), market)
    state = turn(state, DD, CB, "face-down")
    assert state.position["alice"] == 2 and state.phase == "market"
    return state


# --- options ------------------------------------------------------------------------


def test_market_option_top_first_and_checked():
    state = start([DD, CB, SA, SA], [SE] * 4, market=["Watchtower", "Masterplan", "Outpost", "Spycation"])
    assert names(state, "market:supply") == ["Watchtower", "Masterplan", "Outpost"]
    assert names(state, "market:deck")[0] == "Spycation"
    with pytest.raises(InvalidOption, match="missing Mind Control"):
        GAME.options({"mode": "advanced", "market": ",".join(cards.MARKET_NAMES[:-1])})
    with pytest.raises(InvalidOption, match="more than once: Masterplan"):
        GAME.options({"mode": "advanced", "market": ",".join(["Masterplan", *cards.MARKET_NAMES[:-1]])})
    with pytest.raises(InvalidOption, match="unknown black-market card 'Jetpack'"):
        GAME.options({"mode": "advanced", "market": "Jetpack"})
    assert "market" in GAME.info.scenario_options


def test_simple_mode_encodings_are_unchanged():
    """A simple game's options and state encode exactly as before the black market."""
    options = GAME.options({})
    assert msgspec.json.encode(options) == b'{"mode":"simple","first":"","deck":null}'
    state = GAME.setup(options, SEATS, RandomChance(1))
    assert b"market" not in msgspec.json.encode(state)
    assert GAME.info.rules_version == "1"


def test_the_market_deck_is_hidden_from_everyone():
    state = start([DD, CB, SA, SA], [SE] * 4)
    zone = state.zones["market:deck"]
    assert not zone.public and zone.readers == []
    assert len(zone.items) == 12 and state.zones["market:supply"].public
    in_deck = set(names(state, "market:deck"))
    assert len(in_deck) == 12
    for seat in (None, "alice", "bob"):
        view = GAME.view(state, seat)
        assert view.market.deck_size == 12
        pictures = [msgspec.json.encode(view).decode(), GAME.presentation.render(view), GAME.presentation.svg(view)]
        for name in in_deck:
            assert all(name not in text for text in pictures), (seat, name)


# --- landing ------------------------------------------------------------------------


def test_landing_exactly_takes_a_card_and_the_supply_refills_before_it_resolves():
    state = landed(["Watchtower", "Surveillance Truck", "Outpost", "Masterplan"])
    assert GAME.to_act(state) == ["alice"]
    assert [GAME.presentation.format(c, state, "alice") for c in GAME.legal(state, "alice")] == [
        "take Watchtower", "take Surveillance Truck", "take Outpost",
    ]
    state = act(state, "alice", "take Surveillance Truck")  # +1: from 2 to 3
    assert names(state, "market:supply") == ["Watchtower", "Outpost", "Masterplan"]
    assert names(state, "market:used") == ["Surveillance Truck"]
    assert state.position["alice"] == 3 and state.phase == "play" and state.active == "bob"


def test_an_ongoing_card_stays_in_front_of_its_owner():
    state = act(landed(["Watchtower"]), "alice", "take Watchtower")
    assert names(state, "market:alice") == ["Watchtower"]
    assert state.phase == "play"


def test_passing_over_a_black_market_space_gives_nothing():
    state = start([SK, CB, SA, SA], [SE] * 4)
    state = turn(state, SK, CB, "face-down")  # alice +4: over 2, ends on 4
    assert state.position["alice"] == 4 and state.phase == "play" and state.active == "bob"


def test_staying_on_a_black_market_space_gives_nothing():
    state = act(landed(["Watchtower"], bob=(CB, SE, SE, SE)), "alice", "take Watchtower")
    state = turn(state, SE, CB, "face-down")  # bob's turn; alice recruits the Codebreaker (0)
    assert state.position["alice"] == 2 and state.phase == "play" and state.active == "alice"


def test_landing_backward_takes_a_card():
    state = start([SA, CB, EN, EN], [DA, CB, SE, SE])
    state = turn(state, SA, CB, "face-down")  # alice -1: 13
    state = turn(state, DA, CB, "face-up")  # bob's turn: alice recruits the Double Agent, -1: 12
    assert state.position["alice"] == 12 and GAME.to_act(state) == ["alice"]


def test_both_meeples_land_active_player_first_fully():
    # alice holds only Daredevils, so she may play two; each side gets +2
    state = start([DD, DD, DD, DD], [SE] * 4, [SA, SA, DD], ["Smoke Screen", "Watchtower", "Masterplan", "Outpost"])
    state = turn(state, DD, DD, "face-up")
    assert (state.position["alice"], state.position["bob"]) == (2, 9)
    assert GAME.to_act(state) == ["alice"] and state.market.queue == ["alice", "bob"]
    # alice's Smoke Screen recruits the deck's top (her 2nd Daredevil: +3, to 5): a chain
    top = state.zones["deck"].items[0]
    state = act(state, "alice", "take Smoke Screen")
    assert state.position["alice"] == 5 and state.zones["play:alice"].items[-1].ref == top.ref
    assert GAME.to_act(state) == ["alice"] and state.market.queue == ["alice", "bob"]
    state = act(state, "alice", "take Watchtower")
    assert GAME.to_act(state) == ["bob"]  # only now bob takes
    state = act(state, "bob", "take Masterplan")
    assert names(state, "market:bob") == ["Masterplan"] and state.phase == "play"


def test_an_empty_supply_gives_nothing():
    state = copy_struct(start([DD, CB, SA, SA], [SE] * 4))
    state.zones["market:supply"].items = []  # surgery: every card already taken
    state.zones["market:deck"].items = []
    state = turn(state, DD, CB, "face-down")
    assert state.position["alice"] == 2
    assert state.phase == "play" and state.active == "bob"
    assert "supply is empty" in " ".join(state.market.log)


# --- the ongoing cards ------------------------------------------------------------------


def test_ongoing_cards_do_not_affect_the_agent_just_recruited():
    # alice's Enforcer (+1) takes her from 1 to 2, where she takes Watchtower:
    # that Enforcer does not move again; her next one does get +2
    state = at(start([EN, CB, EN, SA], [SE, SE, SE, CB], market=["Watchtower"]), alice=1)
    state = turn(state, EN, CB, "face-down")
    state = act(state, "alice", "take Watchtower")
    assert state.position["alice"] == 2 and state.moves["alice"] == 1
    state = turn(state, SE, CB, "face-down")  # bob's turn: alice recruits a Codebreaker (0)
    state = turn(state, EN, SA, "face-down")  # her second Enforcer: +2, and +2 Watchtower
    assert state.moves["alice"] == 4 and state.position["alice"] == 6


def test_watchtower_adds_two_to_an_enforcer():
    state = owns(start([EN, CB, SA, SA], [SE] * 4), "alice", "Watchtower")
    state = turn(state, EN, CB, "face-down")
    assert state.moves["alice"] == 3 and state.position["alice"] == 3


def test_supercomputer_moves_a_codebreaker_three():
    state = owns(start([CB, SE, SA, SA], [SE] * 4), "alice", "Supercomputer")
    state = turn(state, CB, SE, "face-down")
    assert state.moves["alice"] == 3


def test_distraction_device_turns_a_saboteur_forward():
    state = owns(start([SA, CB, EN, EN], [SE] * 4), "alice", "Distraction Device")
    state = turn(state, SA, CB, "face-down")
    assert state.moves["alice"] == 1 and state.position["alice"] == 1


def test_sinister_twin_doubles_a_double_agent_either_way():
    state = owns(start([DA, CB, DA, SA], [SE, SE, CB, CB], [DA, SA]), "alice", "Sinister Twin")
    state = at(state, alice=3)
    state = turn(state, DA, CB, "face-down")
    assert state.moves["alice"] == -2
    state = turn(state, SE, CB, "face-up")  # bob's turn, alice takes a Sentinel (0)
    state = turn(state, DA, SA, "face-down")  # second Double Agent: +6 doubled
    assert state.moves["alice"] == 12


def test_getaway_car_after_stopping_on_a_home_space():
    state = at(owns(start([EN, CB, SA, SA], [SE] * 4), "alice", "Getaway Car"), alice=6, bob=4)
    state = turn(state, EN, CB, "face-down")  # 6 + 1 = 7, bob's home: 3 more
    assert state.position["alice"] == 10 and state.moves["alice"] == 4


def test_modifier_order_card_specific_first_then_getaway_car():
    # Watchtower makes the Enforcer +3 (4 -> 7); then Getaway Car sees a home
    state = at(owns(start([EN, CB, SA, SA], [SE] * 4), "alice", "Watchtower", "Getaway Car"), alice=4, bob=2)
    state = turn(state, EN, CB, "face-down")
    assert state.position["alice"] == 10 and state.moves["alice"] == 6


def test_triggers_fire_however_the_agent_is_recruited():
    # Watchtower applies to an Enforcer recruited by Smoke Screen
    state = owns(landed(["Smoke Screen"], draws=(SE, SE, EN)), "alice", "Watchtower")
    state = act(state, "alice", "take Smoke Screen")
    assert names(state, "play:alice")[-1] == EN
    assert state.position["alice"] == 2 + 1 + 2


def test_leader_of_the_pack_wins_instead_of_losing():
    state = start([DD, CB, SA, SA], [SE] * 4)
    state = owns(state, "alice", "Leader of the Pack")
    state = copy_struct(state)
    deck = state.zones["deck"].items
    for _ in range(2):  # surgery: two Daredevils already in alice's play area
        item = next(it for it in deck if it.card == DD)
        deck.remove(item)
        state.zones["play:alice"].items.append(item)
    state = at(state, alice=3)
    state = turn(state, DD, CB, "face-down")  # third Daredevil: LOSE icon
    assert state.outcome.winners == ["alice"] and "Leader of the Pack" in state.outcome.reason


def test_masterplan_seven_names_in_play_wins():
    state = owns(start([SK, CB, SA, SA], [SE] * 4), "alice", "Masterplan")
    state = copy_struct(state)
    deck = state.zones["deck"].items
    for name in (DA, EN, DD, SA, SE, MO):  # surgery: six names in play
        item = next(it for it in deck if it.card == name)
        deck.remove(item)
        state.zones["play:alice"].items.append(item)
    state = at(state, alice=0, bob=0)
    state = turn(state, SK, CB, "face-down")  # the Sidekick makes seven
    assert state.outcome.winners == ["alice"] and "Masterplan" in state.outcome.reason


def test_security_system_opponent_on_your_home_wins():
    state = at(owns(start([SE, CB, SA, SA], [DD, SE, SE, SE]), "alice", "Security System"), alice=1, bob=5)
    state = turn(state, SE, CB, "face-down")  # bob at 12 stays, nothing
    assert state.outcome is None
    state = turn(state, DD, SE, "face-down")  # bob's Daredevil: 12 + 2 = 14 = 0, alice's home
    assert state.position["bob"] == 0
    assert state.outcome.winners == ["alice"] and "Security System" in state.outcome.reason


def test_extra_wins_tie_goes_to_the_active_player():
    state = at(owns(start([EN, CB, SA, SA], [SE] * 4), "bob", "Security System"), alice=6, bob=0)
    state = turn(state, EN, CB, "face-down")  # alice: 7, bob's home (bob wins) and 7 ahead (alice catches)
    assert state.outcome.winners == ["alice"] and "tie" in state.outcome.reason


# --- the instant cards -------------------------------------------------------------------


def test_surveillance_truck_moves_one_forward_and_may_chain():
    state = at(landed(["Surveillance Truck", "Masterplan"]), alice=4)  # alice on 4
    state = copy_struct(state)
    state.position["alice"] = 4
    state = act(state, "alice", "take Surveillance Truck")  # 4 + 1 = 5: black market again
    assert state.position["alice"] == 5 and GAME.to_act(state) == ["alice"]
    assert [GAME.presentation.format(c, state, "alice") for c in GAME.legal(state, "alice")][0] == "take Masterplan"


def test_smoke_screen_recruits_the_deck_top_and_needs_its_reveal():
    state = landed(["Smoke Screen"], draws=(SE, SE, SK))
    top = state.zones["deck"].items[0]
    after = act(state, "alice", "take Smoke Screen")
    assert names(after, "play:alice") == [DD, SK] and after.position["alice"] == 6
    # on the public state the deck's top is hidden: the rules ask for it
    public = {it.ref for z in state.zones.values() if z.public for it in z.items}
    taken = GAME.apply(project(state, public), "alice", GAME.presentation.parse("take Smoke Screen", state, "alice"), CH)
    with pytest.raises(NeedsReveal) as need:
        GAME.advance(taken, CH)
    assert need.value.ref == top.ref


def test_smoke_screen_with_an_empty_deck_is_ignored():
    state = copy_struct(landed(["Smoke Screen"]))
    state.zones["deck"].items = []
    state = act(state, "alice", "take Smoke Screen")
    assert names(state, "play:alice") == [DD] and state.phase == "play"


def test_outpost_recruits_a_sentinel_from_the_hand_revealed_and_draws_up():
    state = act(landed(["Outpost"], alice_rest=(SE, SA), draws=(SA, SA, EN)), "alice", "take Outpost")
    assert GAME.to_act(state) == ["alice"] and state.market.task == "Outpost"
    assert [GAME.presentation.format(c, state, "alice") for c in GAME.legal(state, "alice")] == ["choose Sentinel"]
    with pytest.raises(IllegalCommand, match="can be carried out"):
        GAME.apply(state, "alice", Pass(), CH)
    hand_before = len(state.zones["hand:alice"].items)
    after = act(state, "alice", "choose Sentinel")
    assert names(after, "play:alice") == [DD, SE] and after.position["alice"] == 2  # 1st Sentinel: 0
    assert len(after.zones["hand:alice"].items) == hand_before == 4  # drew back up to 4
    # revealed with proof: on the public state the rules must read the card
    public = project(state, {it.ref for z in state.zones.values() if z.public for it in z.items})
    with pytest.raises(NeedsReveal):
        GAME.apply(public, "alice", GAME.presentation.parse("choose Sentinel", state, "alice"), CH)


def test_outpost_without_a_sentinel_is_ignored():
    state = act(landed(["Outpost"]), "alice", "take Outpost")
    assert GAME.legal(state, "alice") == [Pass()]
    state = act(state, "alice", "pass")
    assert state.phase == "play" and "ignored" in " ".join(state.market.log)


def test_secret_recruit_needs_a_name_not_in_play():
    state = act(landed(["Secret Recruit"], alice_rest=(SE, DD), draws=(SA, SA)), "alice", "take Secret Recruit")
    options = [GAME.presentation.format(c, state, "alice") for c in GAME.legal(state, "alice")]
    assert "choose Daredevil" not in options and "choose Sentinel" in options
    with pytest.raises(IllegalCommand, match="do not have in play"):
        GAME.apply(state, "alice", Choose(next(it.ref for it in state.zones["hand:alice"].items if it.card == DD)), CH)
    state = act(state, "alice", "choose Sentinel")
    assert names(state, "play:alice") == [DD, SE]


def test_double_trouble_reveals_a_pair_recruits_one_keeps_the_other():
    state = act(landed(["Double Trouble"], alice_rest=(EN, EN), draws=(SA, SE, SA)), "alice", "take Double Trouble")
    cmd = GAME.presentation.parse("choose Enforcer", state, "alice")
    assert isinstance(cmd, Choose) and cmd.keep is not None
    after = act(state, "alice", "choose Enforcer")
    assert names(after, "play:alice") == [DD, EN] and after.position["alice"] == 3
    assert cmd.keep in {it.ref for it in after.zones["hand:alice"].items}
    # both cards are revealed with proof (the kept one stays in the hand)
    public = project(state, {it.ref for z in state.zones.values() if z.public for it in z.items})
    with pytest.raises(NeedsReveal):
        GAME.apply(public, "alice", cmd, CH)
    with pytest.raises(InvalidCommand):
        GAME.presentation.parse("choose Enforcerx", state, "alice")
    with pytest.raises(IllegalCommand, match="only one Saboteur"):
        GAME.presentation.parse("choose Saboteur", state, "alice")


def test_spycation_returns_an_agent_moving_nobody_and_may_recruit_it_again():
    state = act(landed(["Spycation"]), "alice", "take Spycation")
    before = dict(state.position)
    assert [GAME.presentation.format(c, state, "alice") for c in GAME.legal(state, "alice")] == ["choose Daredevil"]
    state = act(state, "alice", "choose Daredevil")
    assert state.position == before and names(state, "play:alice") == []
    assert DD in names(state, "hand:alice") and len(state.zones["hand:alice"].items) == 5
    again = act(state, "alice", "choose Daredevil")  # recruited again: +2, to 4
    assert names(again, "play:alice") == [DD] and again.position["alice"] == 4
    kept = act(state, "alice", "pass")
    assert kept.position == before and kept.phase == "play"


def test_mind_control_takes_an_opponent_agent_moving_nobody():
    state = act(landed(["Mind Control"]), "alice", "take Mind Control")
    before = dict(state.position)
    state = act(state, "alice", "choose Codebreaker")
    assert names(state, "play:bob") == [] and CB in names(state, "hand:alice")
    assert state.position == before and len(state.zones["hand:alice"].items) == 5  # above 4: carry on


def test_mind_control_can_take_away_a_third_codebreaker():
    state = landed(["Mind Control"])
    state = copy_struct(state)
    deck = state.zones["deck"].items
    for _ in range(2):
        item = next(it for it in deck if it.card == CB)
        deck.remove(item)
        state.zones["play:bob"].items.append(item)
    state = act(state, "alice", "take Mind Control")  # the End step waits for her choice
    assert state.outcome is None
    state = act(state, "alice", "choose Codebreaker")
    assert state.outcome is None and names(state, "play:bob").count(CB) == 2


def test_mind_control_with_nothing_to_take_is_ignored():
    state = start([DD, DD, DD, DD], [SE] * 4, market=["Mind Control"])
    state = turn(state, DD, DD, "face-up")  # both land; bob has a Daredevil in play
    state = copy_struct(state)
    state.zones["play:bob"].items = []
    state = act(state, "alice", "take Mind Control")
    assert GAME.to_act(state) == ["bob"]  # ignored; bob's turn to take


# --- bad input -----------------------------------------------------------------------


def test_bad_market_commands_are_refused_and_change_nothing():
    state = landed(["Watchtower", "Outpost", "Masterplan"])
    frozen = msgspec.json.encode(state)
    with pytest.raises(IllegalCommand, match="Spycation is not in the black-market supply"):
        GAME.presentation.parse("take Spycation", state, "alice")
    with pytest.raises(InvalidCommand, match="unknown black-market card"):
        GAME.presentation.parse("take Jetpack", state, "alice")
    with pytest.raises(IllegalCommand, match="not in the supply"):
        GAME.apply(state, "alice", Take("m999"), CH)
    with pytest.raises(IllegalCommand, match="alice answers the black market"):
        GAME.apply(state, "bob", Take(state.zones["market:supply"].items[0].ref), CH)
    with pytest.raises(IllegalCommand, match="must take"):
        GAME.apply(state, "alice", Pass(), CH)
    assert msgspec.json.encode(state) == frozen
    state = act(state, "alice", "take Outpost")
    with pytest.raises(IllegalCommand, match="not in your hand"):
        GAME.apply(state, "alice", Choose("a999"), CH)
    with pytest.raises(IllegalCommand, match="Outpost recruits a Sentinel"):
        GAME.apply(state, "alice", Choose(state.zones["hand:alice"].items[0].ref), CH)
    simple = GAME.setup(GAME.options({}), SEATS, RandomChance(1))
    with pytest.raises(InvalidCommand, match="black market"):
        GAME.presentation.parse("take Watchtower", simple, "alice")
    with pytest.raises(IllegalCommand, match="no black market"):
        GAME.apply(simple, "alice", Pass(), CH)
