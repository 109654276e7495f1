"""Codenames Duet: the double-sided key, the time bank, bystanders per side,
done, sudden death, views per side, bots, and whole games under the dealers.

PBEM_LONG=1 plays hundreds of seeded games through the conformance harness
(a few dozen otherwise)."""

from __future__ import annotations

import os
from collections import Counter

import msgspec
import pytest
from click.testing import CliRunner

from pbem.cli import cli
from pbem.crypto.keys import SecretIdentity
from pbem.errors import IllegalCommand, InvalidOption, ProtocolError
from pbem.games.base import RandomChance, SeatSpec, project
from pbem.games.codenames import GAME
from pbem.games.codenames.commands import Done, Pass
from pbem.games.codenames.duet import AGENT, ASSASSIN, BYSTANDER, PAIRS, found_cells, visible_words
from pbem.games.conformance import check_game
from pbem.protocol import codec
from pbem.protocol.peer import writer as peer_writer
from pbem.protocol.chain import Chain
from pbem.protocol.formats import GenesisBody

GRID = (
    "horse tiger lemon piano truck apple bridge castle dragon eagle forest glass hammer "
    "island jacket kettle ladder mirror needle orange pencil queen rocket spider tower"
).split()
# cells 0-2 agent/agent, 3 agent/assassin, 4-8 agent/bystander, 9 assassin/agent,
# 10 assassin/assassin, 11 assassin/bystander, 12-16 bystander/agent,
# 17 bystander/assassin, 18-24 bystander/bystander
SIDE_A = "ggg" "g" "ggggg" "x" "x" "x" "nnnnn" "n" "nnnnnnn"
SIDE_B = "ggg" "x" "nnnnn" "g" "x" "n" "ggggg" "x" "nnnnnnn"
KEY = f"{SIDE_A}/{SIDE_B}"
SEATS = [SeatSpec("ann"), SeatSpec("bob")]


def new(**opts):
    options = GAME.options({"variant": "duet", "grid": GRID, "key": KEY, "first": "a", **opts})
    return GAME.setup(options, GAME.seats(options, SEATS), RandomChance(0))


def play(state, seat, text):
    state = GAME.apply(state, seat, GAME.presentation.parse(text, state, seat), RandomChance(0))
    return GAME.advance(state, RandomChance(0))


def words(*cells):
    return " ".join(GRID[c] for c in cells)


# --- the key --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_a_random_key_has_the_standard_overlap(seed):
    options = GAME.options({"variant": "duet"})
    st = GAME.setup(options, GAME.seats(options, SEATS), RandomChance(seed))
    a = [it.card for it in st.zones["key-a"].items]
    b = [it.card for it in st.zones["key-b"].items]
    for side in (a, b):
        assert Counter(side) == {AGENT: 9, ASSASSIN: 3, BYSTANDER: 13}
    assert Counter(zip(a, b)) == PAIRS
    assert sum(1 for x, y in zip(a, b) if AGENT in (x, y)) == 15
    assert st.zones["key-a"].readers == ["ann"] and st.zones["key-b"].readers == ["bob"]
    assert st.timer == 9


@pytest.mark.parametrize(
    "key, message",
    [
        ("g" * 25 + "/" + SIDE_B, "overlap"),
        (SIDE_A, "side a and side b"),
        (SIDE_A + "/" + SIDE_B[:-1], "25 letters"),
        (SIDE_A + "/" + SIDE_B.replace("g", "r"), "unknown letters"),
        (SIDE_A[::-1] + "/" + SIDE_B, "overlap"),
    ],
)
def test_bad_scenario_keys(key, message):
    with pytest.raises(InvalidOption, match=message):
        GAME.options({"variant": "duet", "key": key})


@pytest.mark.parametrize("n, message", [(1, "2-16 seats"), (3, "exactly two")])
def test_duet_is_for_two(n, message):
    options = GAME.options({"variant": "duet"})
    with pytest.raises(InvalidOption, match=message):
        GAME.seats(options, [SeatSpec(f"p{i}") for i in range(n)])
    with pytest.raises(InvalidOption, match="sides a and b"):
        GAME.seats(options, [SeatSpec("x", "a"), SeatSpec("y", "a")])
    assert [s.role for s in GAME.seats(options, [SeatSpec("x", "b"), SeatSpec("y", "side-a")])] == ["b", "a"]


# --- a turn ---------------------------------------------------------------------------


def test_agents_bystanders_and_the_timer():
    st = play(new(), "ann", "clue ocean 2")
    assert GAME.to_act(st) == ["bob"]
    st = play(st, "bob", f"guess {words(0, 1)}")  # two agents of side a: go on
    assert found_cells(st) == [0, 1] and st.phase == "guess"
    st = play(st, "bob", f"guess {words(4, 12, 5)}")  # 4 agent, 12 a bystander for a: the rest is dropped
    assert found_cells(st) == [0, 1, 4] and 5 not in found_cells(st)
    assert st.history[-1].end == "miss" and st.timer == 8
    assert GAME.to_act(st) == ["bob"] and st.team == "b"  # givers alternate
    # the bystander of side a is still in play for side b, where it is an agent
    st = play(st, "bob", "clue ocean 1")
    with pytest.raises(IllegalCommand, match="already found"):
        play(st, "ann", f"guess {GRID[0]}")
    st = play(st, "ann", f"guess {GRID[12]} pass")
    assert 12 in found_cells(st) and st.timer == 7 and st.team == "a"
    st = play(st, "ann", "clue ocean 1")
    with pytest.raises(IllegalCommand, match="already found"):
        play(st, "bob", f"guess {GRID[12]}")


def test_a_known_bystander_cannot_be_guessed_again_for_that_side():
    st = play(play(new(), "ann", "clue ocean 1"), "bob", f"guess {GRID[18]}")  # a bystander of a
    st = play(play(st, "bob", "clue ocean 1"), "ann", f"guess {GRID[0]} pass")
    # still in play for side b, so it restricts clues
    assert GRID[18] in visible_words(st)
    with pytest.raises(IllegalCommand, match="visible codename"):
        play(st, "ann", f"clue {GRID[18]} 1")
    st = play(st, "ann", "clue ocean 1")
    with pytest.raises(IllegalCommand, match="already a bystander for side a"):
        play(st, "bob", f"guess {GRID[18]}")


def test_a_pass_needs_a_guess_first_and_ends_the_turn():
    st = play(new(), "ann", "clue ocean 2")
    with pytest.raises(IllegalCommand, match="at least one"):
        play(st, "bob", "pass")
    st = play(play(st, "bob", f"guess {GRID[0]}"), "bob", "pass")
    assert st.timer == 8 and st.phase == "clue" and st.team == "b"


@pytest.mark.parametrize("cell, side", [(9, "a"), (10, "a"), (11, "a")])
def test_an_assassin_of_the_clue_givers_side_loses(cell, side):
    st = play(play(new(), "ann", "clue ocean 1"), "bob", f"guess {GRID[cell]}")
    out = GAME.outcome(st)
    assert out.winners == [] and "assassin for side a" in out.reason
    assert GAME.to_act(st) == []


def test_the_partners_assassin_is_only_a_bystander_for_the_giver():
    # cell 17 is an assassin of side b, a bystander of side a
    st = play(play(new(), "ann", "clue ocean 1"), "bob", f"guess {GRID[17]}")
    assert GAME.outcome(st) is None and st.history[-1].end == "miss"
    # ... but deadly when b gives the clue
    st = play(play(st, "bob", "clue ocean 1"), "ann", f"guess {GRID[17]}")
    assert "assassin for side b" in GAME.outcome(st).reason


def test_guess_cap_option():
    st = play(new(guess_cap="plus-one"), "ann", "clue ocean 1")
    with pytest.raises(IllegalCommand, match="too many guesses"):
        play(st, "bob", f"guess {words(0, 1, 2)}")
    st = play(st, "bob", f"guess {words(0, 1)}")
    assert st.history[-1].end == "cap" and st.timer == 8
    # open (the default): as many as you find
    st = play(play(new(), "ann", "clue ocean 1"), "bob", f"guess {words(0, 1, 2, 3, 4)}")
    assert found_cells(st) == [0, 1, 2, 3, 4] and st.phase == "guess"


def test_done_and_winning():
    st = play(play(new(), "ann", "clue ocean 9"), "bob", f"guess {words(*range(9))} pass")
    assert len(found_cells(st)) == 9
    st = play(play(st, "bob", "clue ocean 1"), "ann", f"guess {GRID[9]} pass")  # 9: agent of b
    assert GAME.to_act(st) == ["ann"] and Done() in GAME.legal(st, "ann")
    st = play(st, "ann", "done")
    assert st.done == ["a"] and st.team == "b" and st.timer == 7  # done uses no token
    st = play(st, "bob", "clue ocean 5")
    st = play(st, "ann", f"guess {words(12, 13, 14, 15)} pass")
    assert st.team == "b"  # a is done: b gives every clue
    st = play(st, "bob", "clue ocean 1")
    st = play(st, "ann", f"guess {GRID[16]}")
    out = GAME.outcome(st)
    assert out.winners == ["ann", "bob"] and "all 15 agents found" in out.reason
    assert out.scores == {"ann": 6, "bob": 6}  # the winning turn uses no token


def test_done_is_refused_while_agents_are_left():
    st = new()
    assert Done() not in GAME.legal(st, "ann")
    with pytest.raises(IllegalCommand, match="still has 9 agent"):
        GAME.apply(st, "ann", Done(), RandomChance(0))
    # the public state (no key) cannot check it: the writer and the audit do
    public = project(st, set())
    assert GAME.apply(public, "ann", Done(), RandomChance(0)).done == ["a"]


def test_sudden_death():
    st = play(play(new(timer=1), "ann", "clue ocean 1"), "bob", f"guess {GRID[0]} pass")
    assert st.timer == 0 and st.phase == "sudden"
    # the guessers take turns: ann first (she gave the last clue), for side b
    assert GAME.to_act(st) == ["ann"] and st.team == "b"
    with pytest.raises(IllegalCommand, match="cannot end with pass"):
        play(st, "ann", f"guess {GRID[9]} pass")
    st = play(st, "ann", f"guess {GRID[9]}")  # an agent of b
    assert GAME.outcome(st) is None and GAME.to_act(st) == ["bob"] and st.team == "a"
    lost = play(st, "bob", f"guess {GRID[20]}")  # a bystander of a: lost
    assert GAME.outcome(lost).winners == [] and "sudden death" in GAME.outcome(lost).reason
    # a pass gives up on a side; giving up on both loses
    st = play(st, "bob", "pass")
    assert st.done == ["a"] and GAME.to_act(st) == ["ann"]
    st = play(st, "ann", "pass")
    assert "time ran out" in GAME.outcome(st).reason


# --- views ------------------------------------------------------------------------------


def test_each_player_sees_only_their_own_side():
    st = play(play(new(), "ann", "clue ocean 1"), "bob", f"guess {GRID[0]} {GRID[12]}")
    ann, bob, obs = (GAME.view(st, s) for s in ("ann", "bob", None))
    assert [c.mine for c in ann.cells] == [{"g": AGENT, "n": BYSTANDER, "x": ASSASSIN}[ch] for ch in SIDE_A]
    assert [c.mine for c in bob.cells] == [{"g": AGENT, "n": BYSTANDER, "x": ASSASSIN}[ch] for ch in SIDE_B]
    assert all(c.mine is None for c in obs.cells)
    assert obs.cells[0].found and obs.cells[12].bystander == ["a"]
    for text in (GAME.presentation.render(ann), GAME.presentation.render(bob), GAME.presentation.render(obs)):
        assert "[AGENT FOUND]" in text and "horse" in text and "bystander a" in text
    # bob's own partial state (his side only, plus what is public) gives him the same view
    public_refs = {it.ref for z in ("open-a", "open-b") for it in st.zones[z].items}
    bob_state = project(st, public_refs | {it.ref for it in st.zones["key-b"].items})
    assert GAME.view(bob_state, "bob") == bob
    assert "(side a)" in GAME.presentation.render(ann).splitlines()[0]


def test_notation_done_and_klar():
    st = new()
    assert GAME.presentation.parse("done", st, "ann") == Done() == GAME.presentation.parse("Klar", st, "ann")
    assert GAME.presentation.format(Done(), st, "ann") == "done"
    assert GAME.presentation.parse("passa", st, "ann") == Pass()


# --- whole games ----------------------------------------------------------------------------

SEEDS = range(200) if os.environ.get("PBEM_LONG") else range(12)


@pytest.mark.parametrize("raw", [{}, {"language": "sv"}, {"guess_cap": "plus-one", "timer": "11"}])
@pytest.mark.parametrize("bot", ["random", "spymaster"])
def test_conformance(raw, bot):
    options = GAME.options({"variant": "duet", **raw})
    ends = Counter()
    for seed in SEEDS:
        out = check_game(GAME, options, ["ann", "bob"], seed, bot=bot)
        ends[bool(out.winners)] += 1
    assert sum(ends.values()) == len(SEEDS)


@pytest.mark.parametrize("dealer", ["hotseat", "referee", "peer"])
def test_demo_plays_to_the_end_and_verifies(tmp_path, dealer):
    result = CliRunner().invoke(
        cli, ["demo", "codenames", "--option", "variant=duet", "--dealer", dealer, "--seed", "5",
              "--dir", str(tmp_path / "g"), "--keys", str(tmp_path / "k")],
    )
    assert result.exit_code == 0, result.output
    assert "Codenames Duet" in result.output and "result: " in result.output
    assert "pbem verify" in result.output and "pbem audit" in result.output and "FAIL" not in result.output
    if dealer == "peer":  # verify and audit, in each seat's folder
        assert result.output.count(": ok (") == 4


def test_peer_duet_needs_the_two_faced_deck(tmp_path):
    """The linked sides are dealt by a two-faced deck, which is always late
    (after the set-up): a genesis that claims its layers at the joins is refused."""
    secrets = {n: SecretIdentity.generate(n) for n in ("ann", "bob")}
    options = GAME.options({"variant": "duet"})
    specs = GAME.seats(options, SEATS)
    data = peer_writer.make_genesis(GAME, options, [(s, secrets[s.name].public) for s in specs], secrets["ann"])
    body = msgspec.json.decode(codec.read_envelope(data).body, type=GenesisBody)
    assert body.peer.late and not body.peer.deck
    early = msgspec.structs.replace(body, peer=msgspec.structs.replace(body.peer, late=False))
    with pytest.raises(ProtocolError, match="deck must be late"):
        Chain(codec.encode_signed("genesis", early, secrets["ann"]))


def test_demo_refuses_a_bad_option(tmp_path):
    result = CliRunner().invoke(cli, ["demo", "codenames", "--option", "variant=octet"])
    assert result.exit_code == 1 and "unknown variant" in result.output
