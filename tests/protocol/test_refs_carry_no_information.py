"""Refs carry no information (issue 7, part 4).

The attack: when a seat holds two cards of one name and always plays the
lowest ref, an observer who sees a played card's name and ref learns that
the older cards still in that hand have other names. The fix
(`pbem.games.refchoice`, applied by `Party.turn`) re-chooses each ref
uniformly among the writer's copies of that card in that zone.

The statistical test plays many seeded bot games with the rules alone and
makes, from the public record only (the hand's refs, the command's refs and
the names that become public when the two played agents are recruited), the
observer's deductions "the hidden card s still in that hand is not an X",
for every s older (lower ref) than the played X. Scored against the truth:

* exact test: if the played copy is uniform among the k copies of X in the
  hand, the number of false deductions (copies of X below the played one)
  has mean (k - 1) / 2 given everything before, whatever the hand's order.
  So S = sum(false - (k - 1) / 2) is a martingale with increments in
  [-(k-1)/2, (k-1)/2] and Azuma-Hoeffding bounds |S| by
  sqrt(2 ln(2/delta) sum c^2) with probability 1 - delta (delta = 1e-6).
  Two-sided, so a rule that always took the highest ref fails too.
* the same deductions' accuracy against the base rate (the share of the
  other hidden cards of that hand that are not an X), within 4 standard
  errors clustered by play.

Both hold with the fix and both fail for the old lowest-ref rule, on the
same seeds. Seeds are fixed (bots and ref choices), so nothing can flake.
"""

from __future__ import annotations

import functools
import json
import math
import random
from collections import Counter
from dataclasses import dataclass

import pytest

from pbem.app import creating, opening, writing
from pbem.home.store import KeyStore
from pbem.games.agent_avenue import GAME, cards
from pbem.games.agent_avenue.commands import Discard, Play, Recruit
from pbem.games.agent_avenue.state import hand, ref_key
from pbem.games.base import Hidden, Known, RandomChance, SeatSpec, project
from pbem.games.codenames import GAME as CODENAMES
from pbem.games.refchoice import interchangeable_zones, rechoose_refs
from pbem.gamedir import folder, folder_write

SEATS = [SeatSpec("alice"), SeatSpec("bob")]
DELTA = 1e-6


# --- the observer ------------------------------------------------------------------


@dataclass
class Seen:
    """One played card as the public record shows it, with the truth."""

    hand: list[str]  # the refs left hidden in the hand (public)
    ref: str  # the played card's ref (public: it is in the command)
    name: str  # its name, public once recruited
    truth: dict[str, str]  # ref -> card for the hand (not the observer's)


def _public(full, seen: set[str]):
    """The public state: what lies or has lain in a public zone is known."""
    seen |= {it.ref for z in full.zones.values() if z.public for it in z.items}
    return project(full, seen)


def play_games(bot: str, seeds: range, fix: bool) -> list[Seen]:
    """Seeded games; with `fix`, each command goes through `rechoose_refs`
    as `Party.turn` does (with a seeded generator instead of the OS's)."""
    plays: list[Seen] = []
    for seed in seeds:
        chance = RandomChance(seed)
        bot_rng, ref_rng = random.Random(f"{seed}:bot"), random.Random(f"{seed}:refs")
        full = GAME.setup(GAME.options({}), SEATS, chance)
        seen: set[str] = set()
        pending = None
        while GAME.outcome(full) is None:
            seat = GAME.to_act(full)[0]
            command = GAME.presentation.bots[bot](GAME, full, seat, bot_rng)
            if fix:
                command = rechoose_refs(GAME, full, seat, [command], ref_rng.randrange)[0]
            pub = _public(full, seen)
            if isinstance(command, Play):
                refs = [it.ref for it in pub.zones[hand(seat)].items]
                assert all(isinstance(it, Hidden) for it in pub.zones[hand(seat)].items)
                truth = {it.ref: it.card for it in full.zones[hand(seat)].items}
                pending = (refs, command, truth)
            full = GAME.advance(GAME.apply(full, seat, command, chance), chance)
            if isinstance(command, Recruit) and pending is not None:
                refs, played, truth = pending
                names = {it.ref: it.card for z in _public(full, seen).zones.values() if z.public
                         for it in z.items if isinstance(it, Known)}
                up, down = names[played.face_up], names[played.face_down]
                if up != down:  # a hand of one name: nothing to deduce
                    left = [r for r in refs if r not in (played.face_up, played.face_down)]
                    plays.append(Seen(left, played.face_up, up, truth))
                    plays.append(Seen(left, played.face_down, down, truth))
                pending = None
    return plays


@dataclass
class Score:
    deductions: int
    true: int
    base: float  # share of the other hidden cards of those hands not named X
    tolerance: float  # 4 clustered standard errors of accuracy - base
    excess: float  # S: false deductions minus their expectation under a uniform choice
    bound: float  # the Azuma-Hoeffding bound on |S|

    @property
    def accuracy(self) -> float:
        return self.true / self.deductions


def score(plays: list[Seen]) -> Score:
    n = t = other = other_true = 0
    excess = c2 = 0.0
    clusters = []
    for p in plays:
        others = p.hand
        if not others:  # the last cards of the game: nothing left to deduce about
            continue
        older = [s for s in others if ref_key(s) < ref_key(p.ref)]
        good = sum(p.truth[s] != p.name for s in older)
        k = sum(card == p.name for card in p.truth.values())
        base_here = sum(p.truth[s] != p.name for s in others) / len(others)
        n, t = n + len(older), t + good
        other, other_true = other + len(others), other_true + sum(p.truth[s] != p.name for s in others)
        excess += (len(older) - good) - (k - 1) / 2
        c2 += ((k - 1) / 2) ** 2
        clusters.append(good - base_here * len(older))
    base = other_true / other
    se = math.sqrt(sum(d * d for d in clusters)) / n
    bound = math.sqrt(2 * math.log(2 / DELTA) * c2)
    return Score(n, t, base, 4 * se, excess, bound)


GAMES = {"random": range(300), "greedy": range(100)}


@functools.cache
def scored(bot: str, fix: bool) -> Score:
    return score(play_games(bot, GAMES[bot], fix))


@pytest.mark.parametrize("bot", sorted(GAMES))
def test_observer_deductions_are_no_better_than_chance(bot):
    s = scored(bot, True)
    assert s.deductions > 500
    assert abs(s.excess) <= s.bound, (s.excess, s.bound)
    assert s.accuracy <= s.base + s.tolerance, (s.accuracy, s.base, s.tolerance)


@pytest.mark.parametrize("bot", sorted(GAMES))
def test_the_lowest_ref_rule_would_leak(bot):
    """The same games without re-choosing: every deduction is true, far
    beyond both bounds (so the test above can fail)."""
    s = scored(bot, False)
    assert s.accuracy == 1.0
    assert s.excess < -2 * s.bound, (s.excess, s.bound)
    assert s.accuracy > s.base + 3 * s.tolerance


# --- the mechanism -------------------------------------------------------------------


def _deck(first_hand: list[str]) -> list[str]:
    rest = Counter(cards.full_deck()) - Counter(first_hand)
    return first_hand + sorted(rest.elements())


CB, DD = cards.CODEBREAKER, cards.DAREDEVIL


def _state(first_hand: list[str]):
    return GAME.setup(GAME.options({"deck": ",".join(_deck(first_hand))}), SEATS, RandomChance(0))


def _refs(state, name):
    return [it.ref for it in state.zones[hand("alice")].items if it.card == name]


def test_a_ref_is_rechosen_uniformly_among_the_copies():
    other = next(n for n in cards.NAMES if n != CB)
    state = _state([CB, other, CB, CB])
    copies = _refs(state, CB)
    rng = random.Random(1)
    counts = Counter(rechoose_refs(GAME, state, "alice", [Discard(copies[0])], rng.randrange)[0].ref for _ in range(3000))
    assert set(counts) == set(copies)
    assert all(abs(c - 1000) < 5 * math.sqrt(3000 * (1 / 3) * (2 / 3)) for c in counts.values()), counts
    # a card with no copy keeps its ref; so does a command with no card
    lone = _refs(state, other)[0]
    assert rechoose_refs(GAME, state, "alice", [Play(lone, copies[1])], rng.randrange)[0].face_up == lone
    assert rechoose_refs(GAME, state, "alice", [Recruit("face-up")], rng.randrange) == [Recruit("face-up")]


def test_two_copies_in_one_command_stay_two_cards():
    state = _state([CB, CB, CB, CB])  # a hand of one name: play two of them
    copies = _refs(state, CB)
    rng = random.Random(2)
    pairs = Counter()
    for _ in range(1200):
        (p,) = rechoose_refs(GAME, state, "alice", [Play(copies[0], copies[1])], rng.randrange)
        assert p.face_up != p.face_down and {p.face_up, p.face_down} <= set(copies)
        pairs[p.face_up, p.face_down] += 1
    assert len(pairs) == 12  # every ordered pair of the four copies


def test_later_commands_of_a_turn_follow_the_earlier_choices():
    state = _state([CB, CB, CB, DD])
    copies = _refs(state, CB)
    rng = random.Random(3)
    seen = set()
    for _ in range(200):
        a, b = rechoose_refs(GAME, state, "alice", [Discard(copies[0]), Discard(copies[1])], rng.randrange)
        assert a.ref != b.ref and {a.ref, b.ref} <= set(copies)
        seen.add((a.ref, b.ref))
    assert len(seen) == 6


def test_refs_are_not_rechosen_where_they_mean_places_or_are_not_the_writers():
    state = _state([CB, CB, DD, DD])
    bobs = [it.ref for it in state.zones[hand("bob")].items]
    rng = random.Random(4)
    # bob's cards are not alice's to re-choose (and alice does not know them)
    odd = Play(bobs[0], bobs[1])
    assert rechoose_refs(GAME, state, "alice", [odd], rng.randrange) == [odd]
    cn = CODENAMES.setup(CODENAMES.options({}), CODENAMES.seats(CODENAMES.options({}), [
        SeatSpec("a", "red-spymaster"), SeatSpec("b", "red"), SeatSpec("c", "blue-spymaster"), SeatSpec("d", "blue"),
    ]), RandomChance(0))
    assert interchangeable_zones(CODENAMES, cn, "a") == set()


# --- through the protocol ----------------------------------------------------------------


def test_the_writer_rechooses_and_every_verifier_accepts_any_copy(tmp_path):
    """`Party.turn` (so `pbem submit`, `pbem play` and the demo) writes either
    copy with the OS's randomness, and the folder verifies either way."""
    keys = opening.Keys(KeyStore(tmp_path / "home"), lambda: "")
    for n in ("alice", "bob"):
        keys.store.create(n, None)
    other = next(n for n in cards.NAMES if n not in (CB, DD))
    g = tmp_path / "g"
    creating.new_game("aa", g, ["alice", "bob"], keys, options=[f"deck={','.join(_deck([CB, other, DD, CB]))}"])
    chain = folder.load(g)
    me = opening.party(chain, "alice", keys)
    copies = sorted(_refs(me.state(), CB), key=ref_key)
    written = {}
    for _ in range(40):  # both copies appear unless 40 fair coins all agree
        data = me.turn([Discard(copies[0])])
        written.setdefault(json.loads(data)["body"]["commands"][0]["ref"], data)
    assert set(written) == set(copies)
    folder_write.add_file(g, chain, written[copies[1]])  # not the lowest: accepted
    assert opening.verify(g).seq == 1
    writing.submit(g, "alice", ["play Codebreaker / Daredevil"], keys)  # the dealer deals first
    assert opening.verify(g).records[-1].by in ("alice", "dealer")
