"""Agent Avenue rules, one test per rule and clarification.

Games are set up with the ``deck=`` scenario option so the card order is
known, then driven through the Game API (parse/apply/advance). A few End-step
edge cases that cannot arise before the deck is exhausted (both players lose,
running out) start from an arranged position (`arrange`), documented there.
"""

from __future__ import annotations

import random
from collections import Counter

import msgspec
import pytest

from pbem.errors import IllegalCommand, InvalidOption
from pbem.games import get
from pbem.games.agent_avenue import GAME, cards
from pbem.games.agent_avenue.commands import Discard, Play, Recruit
from pbem.games.agent_avenue.state import State
from pbem.games.base import (
    Known,
    NeedsReveal,
    RandomChance,
    SeatSpec,
    copy_struct,
    identity,
    overlay,
    project,
)

SEATS = [SeatSpec("alice"), SeatSpec("bob")]
CH = RandomChance(0)

DA, EN, CB, DD = "Double Agent", "Enforcer", "Codebreaker", "Daredevil"
SA, SE, SK, MO = "Saboteur", "Sentinel", "Sidekick", "Mole"


# --- helpers ---------------------------------------------------------------------


def deck_of(*top: str) -> list[str]:
    """The 38-card deck starting with `top` (4 to alice, 4 to bob, then the
    draws); `None` entries and the rest are filled in table order."""
    wanted = Counter(n for n in top if n is not None)
    assert wanted <= Counter(cards.COPIES), f"too many cards: {wanted}"
    rest = [n for n in cards.NAMES for _ in range(cards.COPIES[n] - wanted[n])]
    out = [n if n is not None else rest.pop(0) for n in top]
    return out + rest


def scripted(turns: list[tuple[str, str]], first: str = "alice") -> list[str]:
    """A deck such that the active seat (alternating, `first` first) holds the
    two cards it plays each turn, `(face up, face down)`."""
    order = ["alice", "bob"] if first == "alice" else ["bob", "alice"]
    queue: dict[str, list[str]] = {"alice": [], "bob": []}
    for i, (up, down) in enumerate(turns):
        queue[order[i % 2]] += [up, down]

    def take(seat: str, n: int) -> list[str | None]:
        got: list[str | None] = list(queue[seat][:n])
        queue[seat] = queue[seat][n:]
        return got + [None] * (n - len(got))

    top = take("alice", 4) + take("bob", 4)
    for i in range(len(turns)):
        top += take(order[i % 2], 2)
    return deck_of(*top)


def start(deck: list[str] | None = None, **options: str) -> State:
    raw = dict(options)
    if deck is not None:
        raw["deck"] = ",".join(deck)
    return GAME.setup(GAME.options(raw), SEATS, RandomChance(7))


def act(state: State, seat: str, text: str) -> State:
    command = GAME.presentation.parse(text, state, seat)
    return GAME.advance(GAME.apply(state, seat, command, CH), CH)


def turn(state: State, up: str, down: str, choice: str) -> State:
    """The active seat plays `up` face up, `down` face down; the opponent recruits."""
    a = state.active
    b = next(s for s in state.seats if s != a)
    state = act(state, a, f"play {up} / {down}")
    return act(state, b, f"recruit {choice}")


def names(state: State, zone: str) -> list[str]:
    return [identity(it) for it in state.zones[zone].items]


def public_state(state: State, hide: set[str] = frozenset()) -> State:
    """The public state: only items in public zones are known (minus `hide`)."""
    public = {
        it.ref for z in state.zones.values() if z.public for it in z.items
    } - set(hide)
    return project(state, public)


def arrange(
    state: State,
    *,
    hands: dict[str, list[str]],
    play: dict[str, list[str]] | None = None,
    deck: list[str] | None = None,
    progress: dict[str, int] | None = None,
) -> State:
    """State surgery for positions only reachable late in a game: cards are
    taken by name from all 38; those not placed go face down to the discard
    piles (out of the game). Positions follow from progress."""
    state = copy_struct(state)
    pool: list[Known] = [it for z in state.zones.values() for it in z.items]  # type: ignore[misc]
    for z in state.zones.values():
        z.items = []

    def take(name: str) -> Known:
        item = next(it for it in pool if it.card == name)
        pool.remove(item)
        return item

    for seat, held in hands.items():
        state.zones[f"hand:{seat}"].items = [take(n) for n in held]
    for seat, agents in (play or {}).items():
        state.zones[f"play:{seat}"].items = [take(n) for n in agents]
    state.zones["deck"].items = [take(n) for n in (deck or [])]
    for i, item in enumerate(pool):
        state.zones[f"discard:{state.seats[i % 2]}"].items.append(item)
    for seat, p in (progress or {}).items():
        state.progress[seat] = p
        state.position[seat] = (state.home[seat] + p) % 14
    return state


# --- set-up ---------------------------------------------------------------------------


def test_registry_and_metadata():
    assert get("aa") is GAME and get("agentavenue") is GAME
    assert (GAME.info.name, GAME.info.title, GAME.info.rules_version) == ("agent-avenue", "Agent Avenue", "1")
    assert (GAME.info.min_seats, GAME.info.max_seats) == (2, 4)  # 3-4: the team variant
    assert GAME.info.scenario_options == frozenset({"deck", "market"})
    assert sorted(GAME.presentation.bots) == ["greedy", "random"]


def test_card_table():
    assert cards.DECK_SIZE == 38 and len(cards.full_deck()) == 38
    assert cards.COPIES == {DA: 6, EN: 6, CB: 6, DD: 6, SA: 6, SE: 6, SK: 1, MO: 1}
    assert cards.AGENTS[DA][1] == (-1, 6, -1)
    assert cards.AGENTS[CB][1] == (0, 0, cards.WIN)
    assert cards.AGENTS[DD][1] == (2, 3, cards.LOSE)


def test_setup_deals_four_each_first_seat_first():
    deck = deck_of(EN, EN, SA, SE, DA, DA, CB, MO)
    state = start(deck)
    assert names(state, "hand:alice") == [EN, EN, SA, SE]
    assert names(state, "hand:bob") == [DA, DA, CB, MO]
    assert names(state, "deck") == deck[8:]
    assert state.active == "alice" and state.phase == "play" and GAME.to_act(state) == ["alice"]
    assert state.home == {"alice": 0, "bob": 7} == state.position
    assert state.progress == {"alice": 0, "bob": 0}
    # zones and readers
    z = state.zones
    assert z["deck"].readers == [] and not z["deck"].public
    assert z["hand:alice"].readers == ["alice"] and z["discard:bob"].readers == ["bob"]
    assert z["play:alice"].public and z["centre:up"].public
    assert z["centre:down"].readers == ["alice"]


def test_refs_are_given_after_shuffling():
    state = start()
    order = [it.ref for it in state.zones["hand:alice"].items]
    order += [it.ref for it in state.zones["hand:bob"].items]
    order += [it.ref for it in state.zones["deck"].items]
    assert order == [f"a{i:03d}" for i in range(38)]
    assert state.next_ref == 38
    assert Counter(it.card for z in state.zones.values() for it in z.items) == Counter(cards.COPIES)


def test_setup_is_deterministic_per_seed():
    a = GAME.setup(GAME.options({}), SEATS, RandomChance(3))
    b = GAME.setup(GAME.options({}), SEATS, RandomChance(3))
    c = GAME.setup(GAME.options({}), SEATS, RandomChance(4))
    assert a == b and a != c


def test_first_option():
    assert start(first="bob").active == "bob"
    assert start(first="alice").active == "alice"
    assert start().active == "alice"
    starters = {
        GAME.setup(GAME.options({"first": "random"}), SEATS, RandomChance(seed)).active
        for seed in range(20)
    }
    assert starters == {"alice", "bob"}
    bob_first = start(first="bob")
    assert bob_first.zones["centre:down"].readers == ["bob"]
    assert GAME.to_act(bob_first) == ["bob"]
    with pytest.raises(InvalidOption, match="not a seat"):
        start(first="carol")


def test_options_rejected():
    with pytest.raises(InvalidOption, match="unknown option 'colour'"):
        GAME.options({"colour": "green"})
    assert GAME.options({"mode": "advanced"}).mode == "advanced"
    with pytest.raises(InvalidOption, match="market= .* needs mode=advanced"):
        GAME.options({"market": "Masterplan"})
    with pytest.raises(InvalidOption, match="unknown mode"):
        GAME.options({"mode": "team"})
    assert GAME.options({"mode": "simple"}).mode == "simple"


def test_bad_deck_rejected():
    good = deck_of()
    with pytest.raises(InvalidOption, match="got 37 cards"):
        GAME.options({"deck": ",".join(good[:-1])})
    with pytest.raises(InvalidOption, match="missing Mole x1; too many Enforcer x1"):
        GAME.options({"deck": ",".join([EN if n == MO else n for n in good])})
    with pytest.raises(InvalidOption, match="unknown agent name 'Spy'"):
        GAME.options({"deck": ",".join(["Spy"] + good[1:])})
    # names are case-insensitive and normalised
    opts = GAME.options({"deck": ",".join(n.upper() for n in good)})
    assert opts.deck == good


def test_seat_count():
    with pytest.raises(InvalidOption, match="2-4 seats"):
        GAME.setup(GAME.options({}), [SeatSpec("alice")], CH)


# --- discard ---------------------------------------------------------------------------


def test_discard_draws_a_replacement_and_goes_face_down():
    state = start(deck_of(EN, SA, SE, DA, CB, CB, CB, CB, MO, SK))
    top = state.zones["deck"].items[0]
    state = act(state, "alice", "discard Saboteur")
    assert names(state, "hand:alice") == [EN, SE, DA, MO]
    assert state.zones["hand:alice"].items[-1] == top
    assert names(state, "discard:alice") == [SA]
    assert state.zones["discard:alice"].readers == ["alice"]
    assert not state.zones["discard:alice"].public
    assert state.discards_used == {"alice": 1, "bob": 0}
    assert len(state.zones["deck"].items) == 29
    assert state.phase == "play" and state.active == "alice"  # may discard again or play


def _first(state: State, seat: str, kind: type):
    return next(c for c in GAME.legal(state, seat) if isinstance(c, kind))


def test_discard_limit_is_four_per_game():
    state = start()
    for _ in range(3):
        state = GAME.apply(state, "alice", _first(state, "alice", Discard), CH)
    state = GAME.apply(state, "alice", _first(state, "alice", Play), CH)
    state = GAME.advance(GAME.apply(state, "bob", Recruit("face-up"), CH), CH)
    state = GAME.apply(state, "bob", _first(state, "bob", Play), CH)
    state = GAME.advance(GAME.apply(state, "alice", Recruit("face-up"), CH), CH)
    assert state.outcome is None and state.active == "alice"
    state = GAME.apply(state, "alice", _first(state, "alice", Discard), CH)
    assert state.discards_used == {"alice": 4, "bob": 0}
    assert len(state.zones["discard:alice"].items) == 4
    assert not any(isinstance(c, Discard) for c in GAME.legal(state, "alice"))
    with pytest.raises(IllegalCommand, match="used all 4 discards"):
        GAME.apply(state, "alice", Discard(state.zones["hand:alice"].items[0].ref), CH)


def test_no_discard_when_the_deck_is_empty():
    state = arrange(start(), hands={"alice": [EN, SA, SE, DA], "bob": [CB, CB, EN, SA]})
    assert state.zones["deck"].items == []
    assert not any(isinstance(c, Discard) for c in GAME.legal(state, "alice"))
    with pytest.raises(IllegalCommand, match="deck is empty"):
        GAME.apply(state, "alice", Discard(state.zones["hand:alice"].items[0].ref), CH)


# --- play ---------------------------------------------------------------------------------


def test_play_two_cards_then_draw_up_to_four():
    state = start(deck_of(EN, SA, SE, DA, CB, CB, CB, CB, MO, SK))
    state = act(state, "alice", "play Enforcer / Saboteur")
    assert names(state, "centre:up") == [EN]
    assert names(state, "centre:down") == [SA]
    assert names(state, "hand:alice") == [SE, DA, MO, SK]
    assert len(state.zones["deck"].items) == 28
    assert state.phase == "recruit" and GAME.to_act(state) == ["bob"]


def test_play_needs_different_names():
    state = start(deck_of(EN, EN, SA, SE))
    with pytest.raises(IllegalCommand, match="both cards are named Enforcer"):
        act(state, "alice", "play Enforcer / Enforcer")
    up, down = (it.ref for it in state.zones["hand:alice"].items[:2])
    with pytest.raises(IllegalCommand, match="both cards are named Enforcer"):
        GAME.apply(state, "alice", Play(up, down), CH)
    with pytest.raises(IllegalCommand, match="two different cards"):
        GAME.apply(state, "alice", Play(up, up), CH)
    with pytest.raises(IllegalCommand, match="not in your hand"):
        GAME.apply(state, "alice", Play(up, state.zones["hand:bob"].items[0].ref), CH)


def test_identical_names_allowed_when_the_whole_hand_has_one_name():
    state = start(deck_of(SE, SE, SE, SE))
    assert GAME.legal(state, "alice") == [
        Discard(state.zones["hand:alice"].items[0].ref),
        Play(*(it.ref for it in state.zones["hand:alice"].items[:2])),
    ]
    state = act(state, "alice", "play Sentinel / Sentinel")
    assert names(state, "centre:up") == [SE] == names(state, "centre:down")


def test_the_name_check_is_skipped_on_the_public_state():
    """Only who sees the cards can check them (checked_if_visible)."""
    state = start(deck_of(EN, EN, SA, SE))
    up, down = (it.ref for it in state.zones["hand:alice"].items[:2])
    pub = public_state(state)
    after = GAME.apply(pub, "alice", Play(up, down), CH)
    assert after.phase == "recruit"


def test_draw_stops_when_the_deck_runs_out():
    state = arrange(
        start(), hands={"alice": [EN, SA, SE, DA], "bob": [CB, CB, EN, SA]}, deck=[MO]
    )
    state = act(state, "alice", "play Enforcer / Saboteur")
    assert names(state, "hand:alice") == [SE, DA, MO]
    assert state.zones["deck"].items == []
    state = act(state, "bob", "recruit face-up")
    state = act(state, "bob", "play Codebreaker / Enforcer")
    assert names(state, "hand:bob") == [CB, SA]  # no draw from an empty deck


# --- recruit and movement -------------------------------------------------------------------


def test_recruit_face_up():
    state = start(scripted([(EN, SA)]))
    state = turn(state, EN, SA, "face-up")
    assert names(state, "play:bob") == [EN] and names(state, "play:alice") == [SA]
    assert state.moves == {"alice": -1, "bob": 1}
    assert state.choice is None and state.active == "bob" and state.turn == 2


def test_recruit_face_down():
    state = start(scripted([(EN, SA)]))
    state = act(state, "alice", "play Enforcer / Saboteur")
    state = act(state, "bob", "recruit face-down")
    assert names(state, "play:bob") == [SA] and names(state, "play:alice") == [EN]
    assert state.progress == {"alice": 1, "bob": -1}
    assert state.position == {"alice": 1, "bob": 6}
    assert state.zones["centre:up"].items == [] == state.zones["centre:down"].items


def test_only_the_opponent_recruits():
    state = act(start(scripted([(EN, SA)])), "alice", "play Enforcer / Saboteur")
    assert GAME.to_act(state) == ["bob"]
    assert GAME.legal(state, "bob") == [Recruit("face-up"), Recruit("face-down")]
    assert GAME.legal(state, "alice") == []
    with pytest.raises(IllegalCommand, match="bob recruits"):
        GAME.apply(state, "alice", Recruit("face-up"), CH)
    with pytest.raises(IllegalCommand, match="cannot play now"):
        GAME.apply(state, "bob", Play("a000", "a001"), CH)


@pytest.mark.parametrize(
    "name, moves, fillers",
    [
        (EN, [1, 2, 3, 3], [SE, SE, SE, SE]),
        (DA, [-1, 6, -1, -1], [SE, SE, CB, CB]),
        (SE, [0, 2, 6, 6], [EN, EN, EN, EN]),
        (SA, [-1, -1, -2, -2], [CB, SE, CB, DA]),
        (CB, [0, 0, 0], [EN, EN, EN]),
        (DD, [2, 3, 0], [SE, SE, SE]),
    ],
)
def test_movement_icons_by_copy_count(name, moves, fillers):
    """Alice recruits her 1st, 2nd, 3rd, 4th copy (the 4th uses the 3rd icon)
    while bob gets the fillers (chosen so that nobody is caught)."""
    turns = [(f, name) if i % 2 == 0 else (name, f) for i, f in enumerate(fillers)]
    state = start(scripted(turns))
    got = []
    for up, down in turns:
        # alice's turns: bob takes the face-up filler; bob's: alice takes the face-up agent
        assert state.outcome is None
        state = turn(state, up, down, "face-up")
        got.append(state.moves["alice"])
    assert got == moves
    assert names(state, "play:alice") == [name] * len(moves)


def test_sidekick_and_mole_always_use_their_single_icon():
    assert [cards.steps(SK, n) for n in (1, 2, 3, 4)] == [4, 4, 4, 4]
    assert [cards.steps(MO, n) for n in (1, 2, 3, 4)] == [-3, -3, -3, -3]
    state = start(scripted([(SK, MO)]))
    state = turn(state, SK, MO, "face-down")  # bob takes the Mole
    assert state.moves == {"alice": 4, "bob": -3}
    assert state.position == {"alice": 4, "bob": 4}  # and alice has caught bob


def test_special_icons_do_not_move():
    assert cards.icon(CB, 3) == cards.WIN and cards.steps(CB, 3) == 0
    assert cards.icon(DD, 5) == cards.LOSE and cards.steps(DD, 5) == 0


def test_movement_wraps_around_the_loop():
    state = start(scripted([(EN, MO)]))
    state = turn(state, EN, MO, "face-up")  # alice takes the Mole
    assert state.progress["alice"] == -3 and state.position["alice"] == 11


# --- End: catching ---------------------------------------------------------------------------


def test_catch_by_reaching():
    state = start(scripted([(DA, SK), (EN, SA)]))
    state = turn(state, DA, SK, "face-up")  # alice +4, bob -1
    assert state.outcome is None
    state = turn(state, EN, SA, "face-up")  # bob's turn: alice +1 (5), bob -1 (-2)
    assert state.progress == {"alice": 5, "bob": -2}
    assert state.position["alice"] == state.position["bob"] == 5
    assert state.phase == "over" and GAME.to_act(state) == []
    assert GAME.outcome(state).winners == ["alice"]
    assert GAME.outcome(state).reason == "alice caught bob"


def test_catch_by_passing():
    state = start(scripted([(DA, SK), (EN, MO)]))
    state = turn(state, DA, SK, "face-up")
    state = turn(state, EN, MO, "face-up")  # alice 5, bob -4
    assert state.progress["alice"] - state.progress["bob"] == 9
    assert GAME.outcome(state).winners == ["alice"]


def test_opponent_moving_backward_onto_you_is_your_catch():
    state = start(scripted([(SE, SK), (MO, SE)]))
    state = turn(state, SE, SK, "face-up")  # alice +4, bob 0
    state = turn(state, MO, SE, "face-down")  # bob's own Mole: bob -3; alice Sentinel 0
    assert state.position == {"alice": 4, "bob": 4}
    assert GAME.outcome(state).winners == ["alice"]
    assert GAME.outcome(state).reason == "alice caught bob"


def test_escaping_forward_in_the_same_turn_is_not_a_catch():
    state = start(scripted([(SE, SK), (DD, EN), (EN, DD)]))
    state = turn(state, SE, SK, "face-up")  # alice 4, bob 0
    state = turn(state, DD, EN, "face-up")  # alice 6, bob 1
    state = turn(state, EN, DD, "face-up")  # alice +3 -> 9 passes bob's 8, but bob moves to 10
    assert state.position == {"alice": 9, "bob": 10}
    assert state.outcome is None and state.phase == "play"


def test_bob_catches_alice():
    state = start(scripted([(SK, DA), (SA, EN)]))
    state = turn(state, SK, DA, "face-up")  # bob +4, alice -1
    state = turn(state, SA, EN, "face-up")  # alice -1 (-2), bob +1 (5)
    assert GAME.outcome(state).winners == ["bob"]
    assert GAME.outcome(state).reason == "bob caught alice"


# --- End: Codebreakers, Daredevils, ties --------------------------------------------------------


def test_three_codebreakers_win():
    state = start(scripted([(EN, CB), (CB, EN), (EN, CB)]))
    state = turn(state, EN, CB, "face-up")
    state = turn(state, CB, EN, "face-up")
    assert state.outcome is None
    state = turn(state, EN, CB, "face-up")  # alice's 3rd Codebreaker; bob at +6
    assert GAME.outcome(state).winners == ["alice"]
    assert GAME.outcome(state).reason == "alice has 3 Codebreakers in play"


def test_three_daredevils_lose():
    state = start(scripted([(SE, DD), (DD, SE), (SE, DD)]))
    state = turn(state, SE, DD, "face-up")  # alice +2
    state = turn(state, DD, SE, "face-up")  # alice +3 (5), bob +2 (2)
    state = turn(state, SE, DD, "face-up")  # alice's 3rd Daredevil; bob's 3rd Sentinel +6 (8)
    assert state.progress == {"alice": 5, "bob": 8}
    assert GAME.outcome(state).winners == ["bob"]
    assert GAME.outcome(state).reason == "alice has 3 Daredevils in play: bob wins"


def test_wins_only_in_end_third_codebreaker_and_catch_tie_to_active():
    """Bob recruits his 3rd Codebreaker in alice's turn while alice catches
    him: both are checked together at End, the active player (alice) wins."""
    state = start(scripted([(CB, SK), (EN, CB), (CB, DD)]))
    state = turn(state, CB, SK, "face-up")  # bob CB 1; alice +4
    state = turn(state, EN, CB, "face-up")  # alice +1 (5); bob CB 2
    state = turn(state, CB, DD, "face-up")  # bob CB 3 (no move); alice +2 (7): catch
    out = GAME.outcome(state)
    assert out.winners == ["alice"]
    assert out.reason == (
        "alice caught bob; bob has 3 Codebreakers in play (tie: the active player wins)"
    )


def test_one_player_wins_and_loses_tie_goes_to_the_active_player():
    """Alice catches bob and has 3 Daredevils in bob's turn: bob wins."""
    state = start(scripted([(SE, DD), (DD, SE), (EN, SA), (DD, MO)]))
    state = turn(state, SE, DD, "face-up")  # alice +2
    state = turn(state, DD, SE, "face-up")  # alice +3 (5), bob +2 (2)
    state = turn(state, EN, SA, "face-down")  # bob -1 (1), alice +1 (6)
    state = turn(state, DD, MO, "face-up")  # alice 3rd DD (no move), bob -3 (-2): lead 8
    out = GAME.outcome(state)
    assert out.winners == ["bob"]
    assert "alice caught bob" in out.reason
    assert "alice has 3 Daredevils in play" in out.reason
    assert out.reason.endswith("(tie: the active player wins)")


def test_win_and_opponent_loss_is_no_tie():
    """Alice catches bob while bob gets his 3rd Daredevil: alice wins (no tie)."""
    state = arrange(
        start(first="bob"),
        hands={"alice": [EN, SA, SE, DA], "bob": [DD, SK, CB, SE]},
        play={"alice": [], "bob": [DD, DD]},
        deck=[SE, SE, SE, SE],
        progress={"alice": 3, "bob": 0},
    )
    state = turn(state, DD, SK, "face-down")  # alice +4 (lead 7); bob's 3rd DD
    out = GAME.outcome(state)
    assert out.winners == ["alice"]
    assert out.reason == "alice caught bob; bob has 3 Daredevils in play: alice wins"


def test_both_lose_tie_goes_to_the_active_player():
    """Only reachable with an exhausted deck: alice's whole hand is two
    Daredevils, she plays both and each player gets a 3rd."""
    state = arrange(
        start(first="bob"),
        hands={"alice": [EN, SA, SE, DA], "bob": [DD, DD]},
        play={"alice": [DD, DD], "bob": [DD, DD]},
    )
    state = turn(state, DD, DD, "face-up")
    out = GAME.outcome(state)
    assert out.winners == ["bob"]
    assert out.reason == (
        "bob has 3 Daredevils in play; alice has 3 Daredevils in play "
        "(tie: the active player wins)"
    )


def test_both_win_tie_goes_to_the_active_player():
    """Bob (active) catches alice while alice gets her 3rd Codebreaker."""
    state = arrange(
        start(first="bob"),
        hands={"alice": [EN, SA, SE, DA], "bob": [CB, SK, SE, SE]},
        play={"alice": [CB, CB], "bob": []},
        deck=[SE, SE],
        progress={"alice": 0, "bob": 3},
    )
    state = turn(state, CB, SK, "face-up")  # alice's 3rd CB; bob +4: lead 7
    out = GAME.outcome(state)
    assert out.winners == ["bob"]
    assert out.reason == (
        "bob caught alice; alice has 3 Codebreakers in play (tie: the active player wins)"
    )


# --- End: running out ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "progress, winner, reason",
    [
        ({"alice": 2, "bob": 0}, "alice", "the deck ran out: alice was closer"),
        ({"alice": 0, "bob": 3}, "bob", "the deck ran out: bob was closer"),
        (
            {"alice": -1, "bob": 1},
            "alice",
            "the deck ran out: equal distance (tie: the active player wins)",
        ),
    ],
)
def test_running_out(progress, winner, reason):
    """Deck empty, nothing met, and the opponent holds fewer than 2 cards."""
    state = arrange(
        start(),
        hands={"alice": [SE, CB], "bob": [SE]},
        play={"alice": [SE], "bob": [SE]},
        progress=progress,
    )
    state = turn(state, SE, CB, "face-down")  # Sentinels (2nd: +2) to alice, CB to bob
    assert state.moves == {"alice": 2, "bob": 0}
    out = GAME.outcome(state)
    assert out.winners == [winner] and out.reason == reason


def test_no_running_out_while_the_opponent_can_play():
    state = arrange(
        start(), hands={"alice": [SE, CB], "bob": [SE, EN]}, play={}, progress={}
    )
    state = turn(state, SE, CB, "face-down")
    assert state.outcome is None and GAME.to_act(state) == ["bob"]


def test_no_dead_end_when_the_active_player_cannot_play():
    """Unreachable through play (running out ends the game first), but a
    state whose active seat holds fewer than 2 cards ends at once."""
    state = arrange(
        start(),
        hands={"alice": [SE], "bob": [SE, EN]},
        deck=[SE, SE],
        progress={"alice": 0, "bob": 2},
    )
    assert GAME.to_act(state) == [] and GAME.legal(state, "alice") == []
    state = GAME.advance(state, CH)
    out = GAME.outcome(state)
    assert out.winners == ["bob"] and out.reason == "alice cannot play (fewer than 2 cards): bob was closer"


# --- flow: advance, to_act, reveals ------------------------------------------------------------------


def test_advance_is_a_no_op_while_a_decision_is_awaited():
    state = start()
    assert GAME.advance(state, CH) is state
    state = GAME.apply(state, "alice", GAME.legal(state, "alice")[-1], CH)
    assert GAME.advance(state, CH) is state


def test_resolve_phase_needs_no_decision():
    state = start(scripted([(EN, SA)]))
    state = act(state, "alice", "play Enforcer / Saboteur")
    state = GAME.apply(state, "bob", Recruit("face-up"), CH)
    assert state.phase == "resolve" and GAME.to_act(state) == []
    assert GAME.legal(state, "alice") == [] == GAME.legal(state, "bob")
    assert GAME.advance(state, CH).phase == "play"


def test_advance_needs_the_face_down_card_revealed():
    state = start(scripted([(EN, SA)]))
    state = act(state, "alice", "play Enforcer / Saboteur")
    down = state.zones["centre:down"].items[0]
    state = GAME.apply(state, "bob", Recruit("face-up"), CH)
    pub = public_state(state, hide={down.ref})
    assert state.zones["play:alice"].items == [down] and state.zones["play:alice"].public
    with pytest.raises(NeedsReveal) as err:
        GAME.advance(pub, CH)
    assert err.value.ref == down.ref
    revealed = GAME.advance(overlay(pub, {down.ref: identity(down)}), CH)
    full = GAME.advance(state, CH)
    assert revealed == public_state(full)


def test_no_command_after_the_game_is_over():
    state = start(scripted([(DA, SK), (EN, SA)]))
    state = turn(state, DA, SK, "face-up")
    state = turn(state, EN, SA, "face-up")
    assert state.phase == "over"
    assert GAME.legal(state, "alice") == [] == GAME.legal(state, "bob")
    with pytest.raises(IllegalCommand, match="game is over"):
        GAME.apply(state, "alice", Recruit("face-up"), CH)
    assert GAME.advance(state, CH) is state


def test_apply_never_mutates_its_input():
    state = start()
    before = msgspec.json.encode(state)
    for cmd in GAME.legal(state, "alice"):
        GAME.apply(state, "alice", cmd, CH)
    assert msgspec.json.encode(state) == before


def test_wrong_seat_cannot_play():
    state = start()
    with pytest.raises(IllegalCommand, match="turn to play"):
        GAME.apply(state, "bob", Play("a004", "a005"), CH)
    with pytest.raises(IllegalCommand, match="not a seat"):
        GAME.apply(state, "carol", Play("a004", "a005"), CH)


# --- legal ---------------------------------------------------------------------------------------------


def test_legal_order_and_lowest_refs():
    state = start(deck_of(SA, EN, SA, EN))
    refs = [it.ref for it in state.zones["hand:alice"].items]  # SA, EN, SA, EN
    assert GAME.legal(state, "alice") == [
        Discard(refs[1]),  # Enforcer before Saboteur (table order)
        Discard(refs[0]),
        Play(refs[1], refs[0]),
        Play(refs[0], refs[1]),
    ]


def _random_states(seeds: range):
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.setup(GAME.options({}), SEATS, RandomChance(seed))
        while state.outcome is None:
            yield state
            seat = GAME.to_act(state)[0]
            state = GAME.advance(GAME.apply(state, seat, rng.choice(GAME.legal(state, seat)), CH), CH)


def test_legal_lists_exactly_the_legal_commands():
    """Every listed command applies; every play or discard of hand refs that
    is not listed (up to the lowest-ref choice) is rejected."""
    for state in _random_states(range(40)):
        seat = GAME.to_act(state)[0]
        legal = GAME.legal(state, seat)
        for cmd in legal:
            GAME.apply(state, seat, cmd, CH)
        if state.phase != "play":
            continue
        hand = state.zones[f"hand:{seat}"].items
        name = {it.ref: identity(it) for it in hand}
        plays = {(name[c.face_up], name[c.face_down]) for c in legal if isinstance(c, Play)}
        discards = {name[c.ref] for c in legal if isinstance(c, Discard)}
        for a in hand:
            ok = name[a.ref] in discards
            try:
                GAME.apply(state, seat, Discard(a.ref), CH)
                assert ok
            except IllegalCommand:
                assert not ok
            for b in hand:
                if a.ref == b.ref:
                    continue
                ok = (name[a.ref], name[b.ref]) in plays
                try:
                    GAME.apply(state, seat, Play(a.ref, b.ref), CH)
                    assert ok, (name[a.ref], name[b.ref])
                except IllegalCommand:
                    assert not ok
