"""Agent Avenue notation, log lines, views, rendering, wire format and bots."""

from __future__ import annotations

import random
from collections import Counter

import msgspec
import pytest

from pbem.errors import IllegalCommand, InvalidCommand
from pbem.games.agent_avenue import GAME, cards
from pbem.games.agent_avenue.commands import Discard, Play, Recruit
from pbem.games.agent_avenue.state import State
from pbem.games.base import RandomChance, SeatSpec, project

SEATS = [SeatSpec("alice"), SeatSpec("bob")]
CH = RandomChance(0)
EN, SA, SE, DA, CB, MO = "Enforcer", "Saboteur", "Sentinel", "Double Agent", "Codebreaker", "Mole"


def deck_of(*top: str) -> list[str]:
    wanted = Counter(top)
    rest = [n for n in cards.NAMES for _ in range(cards.COPIES[n] - wanted[n])]
    return list(top) + rest


def start(*top: str) -> State:
    options = GAME.options({"deck": ",".join(deck_of(*top))})
    return GAME.setup(options, SEATS, RandomChance(0))


def seen_by(state: State, seat: str | None) -> State:
    """`state` as `seat` knows it (None: the public)."""
    refs = {
        it.ref
        for z in state.zones.values()
        if z.public or (seat is not None and seat in z.readers)
        for it in z.items
    }
    return project(state, refs)


def random_states(seeds: range):
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.setup(GAME.options({}), SEATS, RandomChance(seed))
        while state.outcome is None:
            yield state
            seat = GAME.to_act(state)[0]
            command = rng.choice(GAME.legal(state, seat))
            state = GAME.advance(GAME.apply(state, seat, command, CH), CH)
        yield state


# --- notation ---------------------------------------------------------------------------


def test_notation_forms():
    state = start(EN, DA, SA, SE)
    hand = [it.ref for it in state.zones["hand:alice"].items]
    assert GAME.presentation.format(Play(hand[0], hand[1]), state, "alice") == "play Enforcer / Double Agent"
    assert GAME.presentation.format(Discard(hand[2]), state, "alice") == "discard Saboteur"
    assert GAME.presentation.format(Recruit("face-up"), state, "bob") == "recruit face-up"
    assert GAME.presentation.format(Recruit("face-down"), state, "bob") == "recruit face-down"


def test_notation_round_trips_for_every_legal_command():
    for state in random_states(range(30)):
        for seat in GAME.to_act(state):
            mine = seen_by(state, seat)
            for command in GAME.legal(mine, seat):
                text = GAME.presentation.format(command, mine, seat)
                assert GAME.presentation.parse(text, mine, seat) == command, text


@pytest.mark.parametrize(
    "text",
    [
        "play Enforcer / Double Agent",
        "  PLAY   enforcer/double agent  ",
        "play ENFORCER /   Double-Agent",
        "Play enforcer / doubleagent",
    ],
)
def test_parse_is_case_and_space_tolerant(text):
    state = start(EN, DA, SA, SE)
    hand = [it.ref for it in state.zones["hand:alice"].items]
    assert GAME.presentation.parse(text, state, "alice") == Play(hand[0], hand[1])


def test_parse_recruit_variants():
    state = start()
    for text in ("recruit face-up", "RECRUIT Face-Up", "recruit  face up"):
        assert GAME.presentation.parse(text, state, "bob") == Recruit("face-up")
    assert GAME.presentation.parse("recruit facedown", state, "bob") == Recruit("face-down")


def test_parse_picks_the_lowest_ref_of_a_name():
    state = start(SA, EN, SA, EN)
    hand = [it.ref for it in state.zones["hand:alice"].items]
    assert GAME.presentation.parse("discard saboteur", state, "alice") == Discard(hand[0])
    assert GAME.presentation.parse("play Saboteur / Enforcer", state, "alice") == Play(hand[0], hand[1])


def test_parse_identical_names_takes_two_cards():
    state = start(SE, SE, SE, SE)
    hand = [it.ref for it in state.zones["hand:alice"].items]
    assert GAME.presentation.parse("play Sentinel / Sentinel", state, "alice") == Play(hand[0], hand[1])
    state = start(SE, EN, SA, DA)
    with pytest.raises(IllegalCommand, match="only one Sentinel"):
        GAME.presentation.parse("play Sentinel / Sentinel", state, "alice")


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty command"),
        ("jump Enforcer", "expected 'discard NAME', 'play FACEUP / FACEDOWN'"),
        ("discard", "discard needs a card name"),
        ("discard Spy", "unknown card name 'Spy'; expected one of: Double Agent, Enforcer"),
        ("play Enforcer", "expected 'play FACEUP / FACEDOWN'"),
        ("play Enforcer / ", "expected 'play FACEUP / FACEDOWN'"),
        ("play Enforcer / Saboteur / Mole", "expected 'play FACEUP / FACEDOWN'"),
        ("play Enforcer / Spy", "unknown card name 'Spy'"),
        ("recruit sideways", "expected 'recruit face-up' or 'recruit face-down'"),
    ],
)
def test_parse_errors(text, message):
    state = start(EN, DA, SA, SE)
    with pytest.raises(InvalidCommand) as err:
        GAME.presentation.parse(text, state, "alice")
    assert message in str(err.value)


def test_parse_name_not_in_hand_is_illegal():
    state = start(EN, DA, SA, SE)
    with pytest.raises(IllegalCommand, match="no Mole in hand"):
        GAME.presentation.parse("discard Mole", state, "alice")
    with pytest.raises(IllegalCommand, match="no Codebreaker in hand"):
        GAME.presentation.parse("play Enforcer / Codebreaker", state, "alice")
    # bob cannot name alice's cards, even from the full state
    with pytest.raises(IllegalCommand, match="no Enforcer in hand"):
        GAME.presentation.parse("discard Enforcer", state, "bob")
    # the public state knows no hand
    with pytest.raises(IllegalCommand):
        GAME.presentation.parse("discard Enforcer", seen_by(state, None), "alice")


# --- wire format ------------------------------------------------------------------------------


def test_commands_have_explicit_wire_tags():
    assert msgspec.json.encode(Play("a001", "a002")) == (
        b'{"t":"aa.play","face_up":"a001","face_down":"a002"}'
    )
    assert msgspec.json.encode(Discard("a003")) == b'{"t":"aa.discard","ref":"a003"}'
    assert msgspec.json.encode(Recruit("face-down")) == b'{"t":"aa.recruit","which":"face-down"}'
    for command in (Play("a001", "a002"), Discard("a003"), Recruit("face-up")):
        assert msgspec.json.decode(msgspec.json.encode(command), type=GAME.info.Command) == command
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(b'{"t":"aa.recruit","which":"sideways"}', type=GAME.info.Command)


def test_state_round_trips_through_json():
    for state in random_states(range(5)):
        back = msgspec.json.decode(msgspec.json.encode(state), type=GAME.info.State)
        assert back == state


# --- log lines ------------------------------------------------------------------------------------


def test_describe_hides_the_face_down_card():
    state = start(EN, SA, SE, DA)
    command = GAME.presentation.parse("play Enforcer / Saboteur", state, "alice")
    after = GAME.apply(state, "alice", command, CH)
    assert GAME.presentation.describe(command, after, "alice") == "play Enforcer / Saboteur"
    assert GAME.presentation.describe(command, after, "bob") == "play Enforcer / (face down)"
    assert GAME.presentation.describe(command, after, None) == "play Enforcer / (face down)"
    assert GAME.presentation.describe(command, seen_by(after, None), None) == "play Enforcer / (face down)"


def test_describe_hides_discards():
    state = start(EN, SA, SE, DA)
    command = GAME.presentation.parse("discard Saboteur", state, "alice")
    after = GAME.apply(state, "alice", command, CH)
    assert GAME.presentation.describe(command, after, "alice") == "discard Saboteur"
    assert GAME.presentation.describe(command, after, "bob") == "discard (face down)"
    assert GAME.presentation.describe(command, after, None) == "discard (face down)"
    assert GAME.presentation.describe(Recruit("face-up"), after, None) == "recruit face-up"


# --- views -----------------------------------------------------------------------------------------


def _plain(value) -> bool:
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return value is None or isinstance(value, (str, int, bool))


def test_views_hide_the_opponents_hand_and_the_face_down_card():
    state = start(EN, SA, SE, DA, CB, CB, MO, DA)
    state = GAME.apply(state, "alice", GAME.presentation.parse("play Enforcer / Saboteur", state, "alice"), CH)
    alice, bob, public = (GAME.view(state, s) for s in ("alice", "bob", None))
    assert alice.seats[0].hand == [SE, DA, DA, DA]  # drew two Double Agents
    assert alice.seats[1].hand is None and alice.seats[1].hand_size == 4
    assert alice.centre_up == EN and alice.centre_down == SA
    assert bob.seats[0].hand is None and bob.seats[1].hand == [CB, CB, MO, DA]
    assert bob.centre_up == EN and bob.centre_down is None and bob.centre_down_played
    assert public.seats[0].hand is None and public.seats[1].hand is None
    assert public.centre_down is None and public.viewer is None
    assert bob.seats[0].discarded is None and alice.seats[0].discarded == []
    assert bob.to_act == ["bob"] and "bob to recruit" in bob.prompt
    for seat, v in (("alice", alice), ("bob", bob), (None, public)):
        encoded = msgspec.json.encode(v)
        assert _plain(msgspec.json.decode(encoded))
        assert encoded == msgspec.json.encode(GAME.view(seen_by(state, seat), seat))
    assert b"Saboteur" not in msgspec.json.encode(bob)


def test_view_shows_the_board():
    state = start(EN, MO, SE, DA, CB, CB, SE, DA)
    state = GAME.apply(state, "alice", GAME.presentation.parse("play Enforcer / Mole", state, "alice"), CH)
    state = GAME.advance(GAME.apply(state, "bob", Recruit("face-up"), CH), CH)
    v = GAME.view(state, None)
    assert [(s.seat, s.home, s.position, s.progress) for s in v.seats] == [
        ("alice", 0, 11, -3),
        ("bob", 7, 8, 1),
    ]
    assert v.seats[0].in_play == [MO] and v.seats[1].in_play == [EN]
    assert v.seats[0].to_catch == 11 and v.seats[1].to_catch == 3
    assert v.last_moves == {"alice": -3, "bob": 1}
    assert v.deck_size == 28 and v.active == "bob" and v.phase == "play" and v.turn == 2
    assert v.outcome is None and v.board_size == 14


def test_view_outcome():
    *_, state = random_states(range(1))
    v = GAME.view(state, "alice")
    assert v.outcome is not None and v.outcome.winners == GAME.outcome(state).winners
    assert v.to_act == [] and v.prompt.startswith("game over")


def test_render():
    state = start(EN, MO, SE, DA, CB, CB, SE, DA)
    state = GAME.apply(state, "alice", GAME.presentation.parse("play Enforcer / Mole", state, "alice"), CH)
    text = GAME.presentation.render(GAME.view(state, "bob"))
    assert " 0   1   2" in text and "13" in text
    assert "hand: Codebreaker, Codebreaker, Sentinel, Double Agent" in text
    assert "alice - active: home 0, on 0" in text and "hand: 4 cards" in text
    assert "centre: face up Enforcer, face down (hidden)" in text
    assert "Mole" not in text
    alice = GAME.presentation.render(GAME.view(state, "alice"))
    assert "face down Mole" in alice
    as_dict = msgspec.json.decode(msgspec.json.encode(GAME.view(state, "bob")))
    assert GAME.presentation.render(as_dict) == text
    for state in random_states(range(3)):
        assert GAME.presentation.render(GAME.view(state, None))


# --- bots ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_bots_choose_legal_commands_without_peeking(bot):
    for state in random_states(range(10)):
        for seat in GAME.to_act(state):
            mine = seen_by(state, seat)
            choice = GAME.presentation.bots[bot](GAME, mine, seat, random.Random(1))
            assert choice in GAME.legal(mine, seat)
            # the same choice whatever hidden cards the state would show
            assert GAME.presentation.bots[bot](GAME, state, seat, random.Random(1)) == choice


def test_greedy_recruit_ignores_the_face_down_identity():
    """Two positions differing only in the face-down card get the same choice."""
    a = start(EN, SA, SE, DA)
    b = start(EN, MO, SE, DA)
    a = GAME.apply(a, "alice", GAME.presentation.parse("play Enforcer / Saboteur", a, "alice"), CH)
    b = GAME.apply(b, "alice", GAME.presentation.parse("play Enforcer / Mole", b, "alice"), CH)
    bot = GAME.presentation.bots["greedy"]
    assert bot(GAME, seen_by(a, "bob"), "bob", random.Random(0)) == bot(
        GAME, seen_by(b, "bob"), "bob", random.Random(0)
    )


def test_greedy_beats_random():
    wins = 0
    for seed in range(60):
        greedy_seat = SEATS[seed % 2].name
        rng = random.Random(seed)
        state = GAME.setup(GAME.options({}), SEATS, RandomChance(seed))
        while state.outcome is None:
            seat = GAME.to_act(state)[0]
            bot = GAME.presentation.bots["greedy" if seat == greedy_seat else "random"]
            command = bot(GAME, seen_by(state, seat), seat, rng)
            state = GAME.advance(GAME.apply(state, seat, command, CH), CH)
        wins += greedy_seat in state.outcome.winners
    assert wins >= 40
