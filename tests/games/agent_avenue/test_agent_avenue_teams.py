"""Agent Avenue's team variant (3-4 players), one test per team rule
(pbem/games/agent_avenue/TEAMS.md).

Games are set up with the ``deck=`` scenario option (4 cards to each seat
in seat order, then the draws) and driven through the Game API; positions
only reachable late in a game (the last card, running out) are arranged by
state surgery (`arrange`).
"""

from __future__ import annotations

from collections import Counter

import pytest

from pbem.errors import IllegalCommand, InvalidOption
from pbem.games.agent_avenue import GAME, cards
from pbem.games.agent_avenue.commands import Discard, PlayOne
from pbem.games.agent_avenue.state import State
from pbem.games.base import Known, RandomChance, SeatSpec, copy_struct, identity

CH = RandomChance(0)
DA, EN, CB, DD = "Double Agent", "Enforcer", "Codebreaker", "Daredevil"
SA, SE, SK, MO = "Saboteur", "Sentinel", "Sidekick", "Mole"
FOUR = ["alice:green", "bob:blue", "carol:green", "dave:blue"]
THREE = ["alice:green", "bob:blue", "carol:green"]


def specs(seats: list[str]) -> list[SeatSpec]:
    return [SeatSpec(*s.split(":")) if ":" in s else SeatSpec(s) for s in seats]


def deck_of(*top: str | None) -> list[str]:
    wanted = Counter(n for n in top if n is not None)
    rest = [n for n in cards.NAMES for _ in range(cards.COPIES[n] - wanted[n])]
    return [n if n is not None else rest.pop(0) for n in top] + rest


def start(seats=FOUR, deck: list[str] | None = None, **options: str) -> State:
    raw = dict(options)
    if deck is not None:
        raw["deck"] = ",".join(deck)
    return GAME.advance(GAME.setup(GAME.options(raw), specs(seats), RandomChance(7)), CH)


def act(state: State, seat: str, text: str) -> State:
    return GAME.advance(GAME.apply(state, seat, GAME.presentation.parse(text, state, seat), CH), CH)


def names(state: State, zone: str) -> list[str]:
    return [identity(it) for it in state.zones[zone].items]


def arrange(state: State, hands: dict[str, list[str]], deck: list[str], progress=None) -> State:
    """Hands and deck taken by name from the 38 cards; the rest leaves the
    game (into the first player's discards)."""
    state = copy_struct(state)
    agents = [z for name, z in state.zones.items() if not name.startswith("market:")]
    pool: list[Known] = [it for z in agents for it in z.items]  # type: ignore[misc]
    for z in agents:
        z.items = []

    def take(name: str) -> Known:
        item = next(it for it in pool if it.card == name)
        pool.remove(item)
        return item

    for seat, held in hands.items():
        state.zones[f"hand:{seat}"].items = [take(n) for n in held]
    state.zones["deck"].items = [take(n) for n in deck]
    state.zones["discard:alice"].items = pool
    for side, p in (progress or {}).items():
        state.progress[side] = p
        state.position[side] = (state.home[side] + p) % 14
    return state


# --- seats and teams ---------------------------------------------------------------


def test_three_or_four_seats_select_the_team_variant_with_alternating_default_teams():
    normal = GAME.seats(GAME.options({}), specs(["alice", "bob", "carol", "dave"]))
    assert [(s.name, s.role) for s in normal] == [
        ("alice", "green"), ("bob", "blue"), ("carol", "green"), ("dave", "blue")
    ]
    state = start(["ann:red", "bo:gold", "cy:gold"])
    assert state.seats == ["red", "gold"] and state.teams == {"red": ["ann"], "gold": ["bo", "cy"]}
    assert state.home == {"red": 0, "gold": 7} and state.active == "red"
    assert GAME.presentation.demo_seats(GAME.options({"teams": "2v2"})) == tuple(FOUR)
    assert GAME.presentation.demo_seats(GAME.options({"teams": "2v1"})) == tuple(THREE)


@pytest.mark.parametrize(
    "seats, options, message",
    [
        (["a:x", "b:y", "c:z"], {}, "two teams, got 3"),
        (["a:x", "b:x", "c:x", "d:y"], {}, "2 against 2 or 2 against 1"),
        (["a:x", "b", "c:x"], {}, "give every seat a team"),
        (["a:b", "b:y", "c:b"], {}, "cannot be a team name"),
        (["a:deck", "b:y", "c:deck"], {}, "cannot be a team name"),
        (["a", "b", "c"], {"teams": "2v2"}, "teams=2v2 needs 4 seats"),
        (["a", "b", "c", "d"], {"teams": "3v1"}, "teams=2v2 .4 players. or teams=2v1"),
        (["a", "b", "c", "d", "e"], {}, "2-4 seats"),
        (["a:x", "b:y"], {}, "teams .--seat NAME:TEAM. are for 3-4 players"),
    ],
)
def test_bad_team_seating_is_refused_clearly(seats, options, message):
    with pytest.raises(InvalidOption, match=message):
        GAME.seats(GAME.options(options), specs(seats))


def test_hands_are_private_per_player_and_the_meeple_and_agents_per_team():
    state = start()
    for p in ("alice", "bob", "carol", "dave"):
        assert state.zones[f"hand:{p}"].readers == [p] and len(state.zones[f"hand:{p}"].items) == 4
        assert state.zones[f"discard:{p}"].readers == [p]
    assert state.zones["play:green"].public and state.zones["play:blue"].public
    assert "play:alice" not in state.zones and set(state.progress) == {"green", "blue"}
    # the face-down card of green's first turn is carol's alone
    assert state.zones["centre:down"].readers == ["carol"]


# --- a pair's turn -------------------------------------------------------------------


def test_a_pair_plays_one_card_each_and_any_opponent_recruits():
    deck = deck_of(EN, SA, SE, DA, None, None, None, None, EN, SK, SA, SE, None, None, None, None, CB, DD)
    state = start(deck=deck)
    assert GAME.to_act(state) == ["alice"]
    with pytest.raises(IllegalCommand, match="plays one card for the team"):
        GAME.apply(state, "alice", GAME.presentation.parse("play Enforcer / Saboteur", state, "alice"), CH)
    with pytest.raises(IllegalCommand, match="cannot play now"):
        GAME.apply(state, "carol", GAME.presentation.parse("play Sidekick", state, "carol"), CH)
    state = act(state, "alice", "play Enforcer")
    assert names(state, "centre:up") == [EN] and names(state, "hand:alice") == [SA, SE, DA, CB]
    assert GAME.to_act(state) == ["carol"]
    # another name than the face-up card, since carol holds other names
    before = copy_struct(state)
    with pytest.raises(IllegalCommand, match="played Enforcer face up"):
        GAME.apply(state, "carol", PlayOne(state.zones["hand:carol"].items[0].ref), CH)
    assert state == before
    assert {GAME.presentation.format(c, state, "carol") for c in GAME.legal(state, "carol") if isinstance(c, PlayOne)} == {
        "play Sidekick", "play Saboteur", "play Sentinel"
    }
    state = act(state, "carol", "play Sidekick")
    assert state.phase == "recruit" and names(state, "hand:carol") == [EN, SA, SE, DD]
    assert GAME.to_act(state) == ["bob", "dave"]
    assert "bob or dave (blue) to recruit" in GAME.view(state, None).prompt
    with pytest.raises(IllegalCommand, match="bob or dave recruits this turn, not carol"):
        GAME.apply(state, "carol", GAME.presentation.parse("recruit face-up", state, "carol"), CH)
    state = act(state, "dave", "recruit face-down")
    assert names(state, "play:blue") == [SK] and names(state, "play:green") == [EN]
    assert state.moves == {"green": 1, "blue": 4}
    # blue plays; green's pair has swapped: carol plays face up next time
    assert state.active == "blue" and GAME.to_act(state) == ["bob"]
    assert state.teams["green"] == ["carol", "alice"] and state.zones["centre:down"].readers == ["dave"]


def test_a_second_card_of_the_face_up_name_only_when_the_whole_hand_has_it():
    deck = deck_of(EN, SA, SE, DA, None, None, None, None, EN, EN, EN, EN)
    state = act(start(deck=deck), "alice", "play Enforcer")
    plays = [c for c in GAME.legal(state, "carol") if isinstance(c, PlayOne)]
    assert [GAME.presentation.format(c, state, "carol") for c in plays] == ["play Enforcer"]
    state = act(state, "carol", "play Enforcer")
    assert state.phase == "recruit"


def test_a_player_alone_plays_both_cards_and_a_pair_recruits():
    state = start(THREE, first="bob")
    assert state.active == "blue" and GAME.to_act(state) == ["bob"]
    assert state.zones["centre:down"].readers == ["bob"]
    with pytest.raises(IllegalCommand, match="play two cards"):
        GAME.apply(state, "bob", PlayOne(state.zones["hand:bob"].items[0].ref), CH)
    legal = GAME.legal(state, "bob")
    play = next(c for c in legal if type(c).__name__ == "Play")
    state = GAME.advance(GAME.apply(state, "bob", play, CH), CH)
    assert GAME.to_act(state) == ["alice", "carol"]


def test_first_names_who_plays_face_up_first():
    state = start(first="carol")
    assert state.active == "green" and state.teams["green"] == ["carol", "alice"]
    assert GAME.to_act(state) == ["carol"] and state.zones["centre:down"].readers == ["alice"]


# --- discards ---------------------------------------------------------------------------


def test_two_discards_each_in_a_pair_four_for_a_player_alone():
    state = start()
    for _ in range(2):
        state = act(state, "alice", f"discard {identity(state.zones['hand:alice'].items[0])}")
    assert not any(isinstance(c, Discard) for c in GAME.legal(state, "alice"))
    with pytest.raises(IllegalCommand, match="used all 2 discards"):
        GAME.apply(state, "alice", Discard(state.zones["hand:alice"].items[0].ref), CH)
    assert GAME.view(state, "alice").seats[0].members[0].discards_left == 0
    solo = start(THREE, first="bob")
    for _ in range(4):
        solo = act(solo, "bob", f"discard {identity(solo.zones['hand:bob'].items[0])}")
    with pytest.raises(IllegalCommand, match="used all 4 discards"):
        GAME.apply(solo, "bob", Discard(solo.zones["hand:bob"].items[0].ref), CH)


# --- the last card and running out -----------------------------------------------------


def test_the_face_up_player_draws_the_last_card():
    state = arrange(start(), {"alice": [EN, SA, SE, DA], "bob": [CB] * 4, "carol": [SK, SA, SE, DD], "dave": [DD] * 4}, deck=[MO])
    state = act(state, "alice", "play Enforcer")
    assert names(state, "hand:alice") == [SA, SE, DA, MO] and not state.zones["deck"].items
    state = act(state, "carol", "play Sidekick")
    assert names(state, "hand:carol") == [SA, SE, DD]


def test_running_out_when_an_opponent_holds_no_card():
    hands = {"alice": [EN, SA], "bob": [SE], "carol": [DA, SA], "dave": []}
    state = arrange(start(), hands, deck=[], progress={"green": 4, "blue": 0})
    state = act(state, "alice", "play Enforcer")
    state = act(state, "carol", "play Double Agent")
    state = act(state, "bob", "recruit face-up")
    assert state.phase == "over"
    assert state.outcome.winners == ["alice", "carol"]
    assert "the deck ran out: green was closer" in state.outcome.reason


def test_a_pair_with_one_card_each_plays_on_but_a_player_alone_needs_two():
    hands = {"alice": [EN, SA], "bob": [SE], "carol": [DA, SA], "dave": [CB]}
    state = arrange(start(), hands, deck=[])
    for seat, text in (("alice", "play Enforcer"), ("carol", "play Double Agent"), ("bob", "recruit face-up")):
        state = act(state, seat, text)
    assert state.phase == "play" and GAME.to_act(state) == ["bob"]  # one card each is enough
    hands = {"alice": [EN, SA], "bob": [SE, SA], "carol": [DA, SA]}
    solo = arrange(start(THREE), hands, deck=[], progress={"green": 0, "blue": 1})
    solo.zones["hand:bob"].items.pop()  # bob alone holds 1 card: blue cannot play
    for seat, text in (("alice", "play Enforcer"), ("carol", "play Double Agent"), ("bob", "recruit face-down")):
        solo = act(solo, seat, text)
    assert solo.phase == "over" and "the deck ran out" in solo.outcome.reason


# --- black market ------------------------------------------------------------------------


class TopChance(RandomChance):
    """Chance that turns black-market cards up from the top (as a dealer does)."""

    def private_draw(self, n: int) -> int:
        return 0


def test_black_market_any_player_takes_and_resolves_with_its_own_hand():
    top = TopChance(0)
    market = [cards.OUTPOST, cards.TRUCK, cards.SMOKE]
    market += [n for n in cards.MARKET_NAMES if n not in market]
    state = GAME.setup(GAME.options({"mode": "advanced", "market": ",".join(market)}), specs(FOUR), top)
    state = GAME.advance(state, top)
    assert names(state, "market:supply") == market[:3]
    hands = {"alice": [EN, SA, DA, CB], "bob": [DA, SA, CB, DD], "carol": [SE, SE, DA, MO], "dave": [SA, DA, CB, DD]}
    state = arrange(state, hands, deck=[CB, DD, SA, SA], progress={"green": 1, "blue": 0})

    def go(state, seat, text):
        return GAME.advance(GAME.apply(state, seat, GAME.presentation.parse(text, state, seat), top), top)

    state = go(state, "alice", "play Enforcer")
    state = go(state, "carol", "play Sentinel")
    state = go(state, "bob", "recruit face-down")  # green: Enforcer +1 onto space 2
    assert state.phase == "market" and state.position["green"] == 2
    assert GAME.to_act(state) == ["alice", "carol"]  # either green player takes
    state = go(state, "carol", "take Outpost")
    assert GAME.to_act(state) == ["carol"]  # and answers with its own hand
    with pytest.raises(IllegalCommand, match="carol answers the black market now, not alice"):
        GAME.apply(state, "alice", GAME.presentation.parse("pass", state, "alice"), top)
    with pytest.raises(IllegalCommand, match="you have no Sentinel in hand"):
        GAME.presentation.parse("choose Sentinel", state, "alice")
    state = go(state, "carol", "choose Sentinel")
    assert names(state, "play:green") == [EN, SE] and names(state, "play:blue") == [SE]
    assert names(state, "hand:carol") == [DA, MO, DD, SA] and names(state, "hand:alice") == [SA, DA, CB, CB]
    assert state.active == "blue" and state.phase == "play"
