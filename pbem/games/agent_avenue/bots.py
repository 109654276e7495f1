"""Agent Avenue bots: ``random`` and ``greedy``.

Bots get the seat's own partial state. They only read items in zones the
seat may see (public ones or ones listing the seat as a reader), so they
behave the same on the full state and never peek at hidden cards.

``greedy`` looks one ply ahead with a small heuristic (net-progress lead,
Codebreakers, the risk of a third Daredevil). As the opponent recruiting, it
knows only the face-up card: the face-down one is averaged over the cards it
has not seen. As the active seat, it expects the opponent to take the card
that is worse for it half of the time, and to choose as a greedy recruiter
would (knowing only the face-up card) the other half. It discards (while it
may) when its best play looks poor, dropping the card it will miss least.
In advanced mode its moves count the ongoing black-market cards and the
End step their extra wins; it takes the supply card it likes best (a fixed
taste, raised when a card would win or stop a loss soon) and answers each
instant with the choice whose position it judges best.

Team variant: the bots judge for the seat's side (its meeple and agents)
from what the seat sees; its teammate's hand is as unknown as the deck. In
a pair, the face-up player picks the card whose play looks best on average
over what the teammate might add face down; the face-down player, who sees
the face-up card, picks the best partner for it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from pbem.games.agent_avenue import cards
from pbem.games.agent_avenue.commands import Discard, Pass, Play, PlayOne, Recruit, Take
from pbem.games.agent_avenue.resolve import end_step
from pbem.games.agent_avenue.state import (
    AGAIN,
    MARKET,
    ongoing,
    CENTRE_UP,
    FACE_DOWN,
    FACE_UP,
    RECRUIT,
    State,
    find,
    hand,
    known_name,
    members,
    other,
    play_area,
    ref_key,
    side_of,
)

WIN_SCORE = 1000.0
DISCARD_BELOW = -15.0  # discard while the best play scores below this


def random_bot(game: Any, state: State, seat: str, rng: random.Random) -> Any:
    """A uniformly random legal command."""
    return rng.choice(game.legal(state, seat))


# --- what the seat sees --------------------------------------------------------


def _seen_name(state: State, seat: str, ref: str) -> str | None:
    found = find(state, ref)
    if found is None or not state.zones[found[0]].may_see(seat):
        return None
    return known_name(found[1])


def _counts(state: State, who: str, seat: str) -> Counter[str]:
    zone = state.zones[play_area(who)]
    if not zone.may_see(seat):
        return Counter()
    return Counter(n for it in zone.items if (n := known_name(it)) is not None)


def _ongoing(state: State, who: str) -> set[str]:
    zone = state.zones.get(ongoing(who))
    if zone is None:
        return set()
    return {n for it in zone.items if (n := known_name(it)) is not None}


def _unseen(state: State, seat: str) -> Counter[str]:
    """Cards the seat has not seen, by name (the deck, the opponent's hand ...)."""
    seen = Counter(
        n
        for zone in state.zones.values()
        if zone.may_see(seat)
        for it in zone.items
        if (n := known_name(it)) is not None
    )
    return Counter({n: c for n in cards.NAMES if (c := cards.COPIES[n] - seen[n]) > 0})


# --- the black market (advanced mode) --------------------------------------------

#: how much greedy likes a black-market card before looking at the position
MARKET_TASTE = {
    cards.MASTERPLAN: 6.0, cards.SECURITY: 5.0, cards.WATCHTOWER: 5.0, cards.SUPERCOMPUTER: 5.0,
    cards.DISTRACTION: 5.0, cards.TWIN: 4.0, cards.GETAWAY: 3.0, cards.LEADER: 2.0,
    cards.TRUCK: 3.0, cards.SMOKE: 2.0, cards.MIND: 6.0, cards.SPYCATION: 2.0,
    cards.OUTPOST: 3.0, cards.SECRET: 4.0, cards.TROUBLE: 4.0,
}


def _market_choice(game: Any, state: State, seat: str, legal: list[Any]) -> Any:
    """Greedy's black-market decisions, from what `seat` sees."""
    judge = _Judge(state, seat)
    me, opp = judge.me, judge.opp
    m = state.market
    task = getattr(m, "task", "")

    def after(mine_counts: Counter[str], theirs: Counter[str], gain: int = 0) -> float:
        counts = {me: mine_counts, opp: theirs}
        progress = dict(judge.progress)
        progress[me] += gain
        return judge.judge(counts, progress)

    def recruit_value(name: str) -> float:
        counts = judge.counts[me].copy()
        counts[name] += 1
        return after(counts, judge.counts[opp], cards.move_steps(name, counts[name], judge.ongoing[me]))

    def value(cmd: Any) -> float:
        if isinstance(cmd, Pass):
            if task == AGAIN:
                return after(judge.counts[me], judge.counts[opp])
            return 0.0
        if isinstance(cmd, Take):
            name = _seen_name(state, seat, cmd.ref) or ""
            taste = MARKET_TASTE.get(name, 0.0)
            if name == cards.LEADER and judge.counts[me][cards.DAREDEVIL] >= 2:
                taste += 10.0
            if name == cards.MIND and judge.counts[opp][cards.CODEBREAKER] >= 2:
                taste += 10.0
            return taste
        name = _seen_name(state, seat, cmd.ref) or ""
        if task == cards.MIND:
            theirs = judge.counts[opp].copy()
            theirs[name] -= 1
            return after(judge.counts[me], +theirs)
        if task == cards.SPYCATION:
            mine = judge.counts[me].copy()
            mine[name] -= 1
            return max(after(+mine, judge.counts[opp]), recruit_value(name) - 1.0)
        return recruit_value(name)

    return max(legal, key=value)


class _Judge:
    """Scores "side `me` recruits X while the opponent recruits Y" for `me`,
    from what seat `viewer` sees (`me` is the viewer's side by default)."""

    def __init__(self, state: State, viewer: str, me: str | None = None) -> None:
        me = side_of(state, viewer) if me is None else me
        self.me = me
        self.opp = other(state, me)
        self.active = state.active
        self.progress = dict(state.progress)
        self.counts = {me: _counts(state, me, viewer), self.opp: _counts(state, self.opp, viewer)}
        self.ongoing = {s: _ongoing(state, s) for s in (me, self.opp)}
        self.position = dict(state.position)
        self.home = dict(state.home)
        self.cache: dict[tuple[str, str], float] = {}

    def score(self, mine: str, theirs: str) -> float:
        key = (mine, theirs)
        if key not in self.cache:
            self.cache[key] = self._score(mine, theirs)
        return self.cache[key]

    def _score(self, mine: str, theirs: str) -> float:
        me, opp = self.me, self.opp
        counts = {me: self.counts[me].copy(), opp: self.counts[opp].copy()}
        counts[me][mine] += 1
        counts[opp][theirs] += 1
        progress = {
            me: self.progress[me] + cards.move_steps(mine, counts[me][mine], self.ongoing[me]),
            opp: self.progress[opp] + cards.move_steps(theirs, counts[opp][theirs], self.ongoing[opp]),
        }
        return self.judge(counts, progress)

    def judge(self, counts: dict[str, Counter[str]], progress: dict[str, int]) -> float:
        """The heuristic value for `me` of agents `counts` and `progress`."""
        me, opp = self.me, self.opp
        position = {
            s: (self.home[s] + progress[s]) % cards.BOARD_SIZE for s in (me, opp)
        }
        result = end_step(
            active=self.active,
            opponent=opp if self.active == me else me,
            progress=progress,
            counts=counts,
            deck_empty=False,
            opponent_hand=cards.HAND_SIZE,
            ongoing=self.ongoing,
            position=position,
            home=self.home,
        )
        if result is not None:
            return WIN_SCORE if me in result.winners else -WIN_SCORE
        lead = progress[me] - progress[opp]
        cb_me, cb_opp = counts[me][cards.CODEBREAKER], counts[opp][cards.CODEBREAKER]
        dd_me, dd_opp = counts[me][cards.DAREDEVIL], counts[opp][cards.DAREDEVIL]
        if cards.LEADER in self.ongoing[me]:
            dd_me = -dd_me  # Daredevils now lead to a win
        if cards.LEADER in self.ongoing[opp]:
            dd_opp = -dd_opp
        return (
            10.0 * lead
            + 6.0 * (cb_me - cb_opp)
            + 15.0 * ((cb_me >= 2) - (cb_opp >= 2))
            - 15.0 * (dd_me >= 2)
            + 15.0 * (dd_opp >= 2)
        )


def _average(weights: Counter[str], value: Callable[[str], float]) -> float:
    total = sum(weights.values())
    if not total:
        return 0.0
    return sum(c * value(n) for n, c in weights.items()) / total


# --- decisions -------------------------------------------------------------------


def _recruit_values(judge: _Judge, up: str, unknown: Counter[str]) -> tuple[float, float]:
    """For the recruiter: (take the face-up card, take the face-down card)."""
    take_up = _average(unknown, lambda x: judge.score(up, x))
    take_down = _average(unknown, lambda x: judge.score(x, up))
    return take_up, take_down


def _choose_recruit(state: State, seat: str) -> Recruit:
    up_items = state.zones[CENTRE_UP].items
    up = known_name(up_items[0]) if up_items else None
    if up is None:
        return Recruit(FACE_UP)
    judge = _Judge(state, seat)
    take_up, take_down = _recruit_values(judge, up, _unseen(state, seat))
    return Recruit(FACE_DOWN if take_down > take_up else FACE_UP)


class _Planner:
    """Values of plays for the active seat (shared work cached)."""

    def __init__(self, state: State, seat: str) -> None:
        self.judge = _Judge(state, seat)
        self.their = _Judge(state, seat, self.judge.opp)
        self.unseen = _unseen(state, seat)
        self.memo: dict[tuple[str, tuple[tuple[str, int], ...]], bool] = {}

    def value(self, up: str, down: str, held: Counter[str]) -> float:
        """Value of playing `up` face up and `down` face down from `held`."""
        they_take_up = self.judge.score(down, up)  # the opponent recruits the face-up card
        they_take_down = self.judge.score(up, down)
        worst = min(they_take_up, they_take_down)
        # the opponent knows only the face-up card: the face-down one could be
        # anything it has not seen (our other cards included)
        key = (up, tuple(sorted(held.items())))
        if key not in self.memo:
            guess = self.unseen + held
            guess[up] -= 1
            take_up, take_down = _recruit_values(self.their, up, +guess)
            self.memo[key] = take_down > take_up
        predicted = they_take_down if self.memo[key] else they_take_up
        return 0.5 * worst + 0.5 * predicted

    def best(self, plays: list[Play], held: dict[str, str]) -> tuple[float, Play | None]:
        """The best of `plays` from `held` (ref -> name)."""
        counts = Counter(held.values())
        best, best_play = -float("inf"), None
        for play in plays:
            value = self.value(held[play.face_up], held[play.face_down], counts)
            if value > best:
                best, best_play = value, play
        return best, best_play


def _pairs(names: dict[str, str]) -> list[Play]:
    """Plays from a hand given as ref -> name (lowest ref per name)."""
    by_name: dict[str, str] = {}
    for ref in sorted(names, key=ref_key):
        by_name.setdefault(names[ref], ref)
    if len(by_name) == 1:
        refs = sorted(names, key=ref_key)
        return [Play(refs[0], refs[1])] if len(refs) >= 2 else []
    return [Play(u, d) for nu, u in by_name.items() for nd, d in by_name.items() if nu != nd]


def greedy_bot(game: Any, state: State, seat: str, rng: random.Random) -> Any:
    """One-ply heuristic play using only what `seat` sees."""
    legal = game.legal(state, seat)
    if state.phase == RECRUIT:
        return _choose_recruit(state, seat)
    if state.phase == MARKET:
        return _market_choice(game, state, seat, legal)
    held = {
        it.ref: n
        for it in state.zones[hand(seat)].items
        if (n := _seen_name(state, seat, it.ref)) is not None
    }
    planner = _Planner(state, seat)
    if len(members(state, state.active)) > 1:
        return _team_play(state, legal, held, planner)
    plays = [c for c in legal if isinstance(c, Play)]
    best, best_play = planner.best(plays, held)
    discards = [c for c in legal if isinstance(c, Discard)]
    if discards and best < DISCARD_BELOW:
        # drop the card whose loss hurts the best play least
        options = []
        for cmd in discards:
            rest = {r: n for r, n in held.items() if r != cmd.ref}
            value, _ = planner.best(_pairs(rest), rest)
            options.append((value, cmd))
        return max(options, key=lambda pair: pair[0])[1]
    return best_play if best_play is not None else rng.choice(legal)


def _team_play(state: State, legal: list[Any], held: dict[str, str], planner: _Planner) -> Any:
    """A player of a pair: one card face up (its partner unknown), or face
    down next to the teammate's face-up card; discard while the best looks poor."""
    up_items = state.zones[CENTRE_UP].items
    up = known_name(up_items[0]) if up_items else None

    def best(cards_held: dict[str, str]) -> tuple[float, Any]:
        counts = Counter(cards_held.values())
        by_name: dict[str, str] = {}
        for ref in sorted(cards_held, key=ref_key):
            by_name.setdefault(cards_held[ref], ref)
        if up is not None:
            names = [n for n in by_name if n != up] or [n for n in by_name]
            scored = [(planner.value(up, n, counts), n) for n in names]
        else:  # the teammate's card: any card this seat has not seen
            guess = planner.unseen
            scored = [
                (_average(Counter({x: c for x, c in guess.items() if x != n}),
                          lambda x: planner.value(n, x, counts)), n)
                for n in by_name
            ]
        if not scored:
            return -float("inf"), None
        value, name = max(scored, key=lambda pair: pair[0])
        return value, PlayOne(by_name[name])

    value, play = best(held)
    discards = [c for c in legal if isinstance(c, Discard)]
    if discards and value < DISCARD_BELOW:
        options = [(best({r: n for r, n in held.items() if r != cmd.ref})[0], cmd) for cmd in discards]
        return max(options, key=lambda pair: pair[0])[1]
    return play if play in legal else next(c for c in legal if isinstance(c, PlayOne))


BOTS = {"random": random_bot, "greedy": greedy_bot}
