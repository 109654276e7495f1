"""Lucky Draw: a small game that uses every chance mechanism of issue #14.

Not shipped: the protocol's tests play it under every dealer mode through
the real CLI (``PBEM_GAMES=lucky=tests.chancegame:GAME``). Each mechanism
the later games need appears once, in the simplest form that still needs it:

- a die rolled in the middle of a turn, on which the turn goes on or ends
  (`roll`: public chance after a decision);
- a draw from a hidden deck in the middle of a turn (`draw`), and when the
  deck is empty the public discard pile reshuffled into a new hidden deck
  (secret chance during play);
- every third round, a simultaneous secret vote on stopping the game;
- with the option `steal=1`, `steal N`: take the card at position N of the
  next seat's hand (a card that moves from one hidden hand to another);
- with the option `private=1`, each seat's own private deck (`Game.private_decks`)
  of three cards (7, 8, 9): `fetch` draws one (`draw_private`); played, they
  go to the seat's own face-up pile, which is reshuffled into its private
  deck at the end of its turn once that deck is empty;
- with `omen=1`, a roll of 6 also turns the deck's top card face up onto
  the discard pile: a card every seat must decrypt, in the middle of the
  roller's turn;
- with `private=1` and `gift=1`, `gift`: the next seat draws a card of its
  own private deck, and if that deck is empty its own face-up pile is
  shuffled into it first (which then happens only so): a reshuffle and a
  draw from it inside another seat's command, which in a peer game the
  drawing seat's answer runs (as a Codex attack that makes the defender
  draw).

Rules: 2-3 players, a deck of twelve cards numbered 1-6 (two of each), two
in each hand. On your turn take up to three actions: `roll` (1-2: your turn
ends; 3-6: score it), `draw` (the top card to your hand), or end the turn
with `play CARD` (score its number, the card goes face up to the discard)
or `pass`. After every third round everyone votes `vote stop` or
`vote go` at once; if everyone says stop the game ends. It also ends after
`rounds` rounds or when someone reaches `target`. Highest score wins.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec

from pbem.games.base import (
    NO_DEALING,
    Chance,
    Dealing,
    Game,
    GameInfo,
    GameState,
    IllegalCommand,
    InvalidCommand,
    InvalidOption,
    Known,
    Outcome,
    Presentation,
    SeatSpec,
    Zone,
    copy_struct,
    draw_private,
    identity,
    roll,
    shuffle_zone,
)

ACTIONS_PER_TURN = 3


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    rounds: int = 9
    target: int = 30
    private: int = 0
    steal: int = 0
    gift: int = 0
    omen: int = 0


class State(GameState, kw_only=True):
    seats: list[str]
    turn: int = 0
    scores: dict[str, int] = {}
    actions: int = 0
    last_roll: int | None = None
    round: int = 0
    voting: bool = False
    voted: list[str] = []
    stops: int = 0
    over: bool = False
    reshuffles: int = 0
    rounds: int = 9
    target: int = 30
    private: bool = False
    steal: bool = False
    gift: bool = False
    omen: bool = False


class Roll(msgspec.Struct, frozen=True, tag="lucky.roll"):
    pass


class Draw(msgspec.Struct, frozen=True, tag="lucky.draw"):
    pass


class Play(msgspec.Struct, frozen=True, tag="lucky.play"):
    ref: str


class Pass(msgspec.Struct, frozen=True, tag="lucky.pass"):
    pass


class Vote(msgspec.Struct, frozen=True, tag="lucky.vote"):
    stop: bool


class Steal(msgspec.Struct, frozen=True, tag="lucky.steal"):
    index: int  # a position in the next seat's hand (a position, not a card)


class Fetch(msgspec.Struct, frozen=True, tag="lucky.fetch"):
    pass


class Gift(msgspec.Struct, frozen=True, tag="lucky.gift"):
    pass


Command = Roll | Draw | Play | Pass | Vote | Steal | Fetch | Gift


class View(msgspec.Struct, frozen=True):
    seat: str | None
    scores: dict[str, int]
    hand: list[str]
    hands: dict[str, int]
    discard: list[str]
    deck: int
    to_act: list[str]
    last_roll: int | None
    round: int
    voting: bool
    over: bool


def _hand(seat: str) -> str:
    return f"hand:{seat}"


def _own(seat: str) -> str:
    return f"own:{seat}"


def _used(seat: str) -> str:
    return f"used:{seat}"


def _next(s: State, seat: str) -> str:
    return s.seats[(s.seats.index(seat) + 1) % len(s.seats)]


class LuckyDraw(Game[State, Command]):
    """A game written as a subclass: its rules functions are methods, its
    presentation is built from methods too (`render`, `format`, `parse`)."""

    info = GameInfo(name="lucky", title="Lucky Draw (test game)", rules_version="1", min_seats=2, max_seats=3,
                    Options=Options, State=State, Command=Command)

    def __init__(self) -> None:
        super().__init__(presentation=Presentation(
            render=self.render, format=self.format, parse=self.parse, describe=self.describe,
            bots=lambda: {"random": random_bot, "drawer": drawer_bot, "thief": thief_bot, "giver": giver_bot},
            summary="Roll, draw, play a card or pass; vote every third round.",
        ))

    def seats(self, options: Any, requested: list[SeatSpec]) -> list[SeatSpec]:
        if not self.info.min_seats <= len(requested) <= self.info.max_seats:
            raise InvalidOption("Lucky Draw needs 2 or 3 seats")
        return [SeatSpec(s.name) for s in requested]

    def setup(self, options: Options, seats: list[SeatSpec], chance: Chance) -> State:
        names = [s.name for s in seats]
        cards = chance.shuffle([str(v) for v in range(1, 7) for _ in range(2)])
        items = [Known(f"c{i:02d}", card) for i, card in enumerate(cards)]
        zones = {"deck": Zone(items=items[2 * len(names):]), "discard": Zone(public=True)}
        for i, seat in enumerate(names):
            zones[_hand(seat)] = Zone(items=items[2 * i:2 * i + 2], readers=[seat])
        n = len(items)
        if options.private:
            for seat in names:
                zones[_own(seat)] = Zone(items=[Known(f"c{n + j:02d}", str(7 + j)) for j in range(3)])
                zones[_used(seat)] = Zone(public=True)
                n += 3
        return State(
            zones=zones, next_ref=n, seats=names, turn=chance.public.below(len(names)),
            scores={s: 0 for s in names}, rounds=options.rounds, target=options.target, private=bool(options.private),
            steal=bool(options.steal), gift=bool(options.gift),
            omen=bool(options.omen),
        )

    def dealing(self, state: State) -> Dealing:
        return Dealing(private={_own(s): s for s in state.seats}) if state.private else NO_DEALING

    # -- play ---------------------------------------------------------------

    def simultaneous(self, state: State) -> list[str]:
        return [s for s in state.seats if s not in state.voted] if state.voting and not state.over else []

    def to_act(self, state: State) -> list[str]:
        if state.over:
            return []
        if state.voting:
            return self.simultaneous(state)
        return [state.seats[state.turn]]

    def legal(self, state: State, seat: str) -> list[Command]:
        if seat not in self.to_act(state):
            return []
        if state.voting:
            return [Vote(stop=False), Vote(stop=True)]
        out: list[Command] = [Roll()]
        if state.zones["deck"].items or state.zones["discard"].items:
            out.append(Draw())
        if state.private and state.zones[_own(seat)].items:
            out.append(Fetch())
        if state.steal:
            out += [Steal(i) for i in range(len(state.zones[_hand(_next(state, seat))].items))]
        if state.private and state.gift and (state.zones[_own(_next(state, seat))].items or state.zones[_used(_next(state, seat))].items):
            out.append(Gift())
        out += [Play(it.ref) for it in state.zones[_hand(seat)].items]
        out.append(Pass())
        return out

    def apply(self, state: State, seat: str, command: Command, chance: Chance) -> State:
        if seat not in self.to_act(state):
            raise IllegalCommand(f"it is not {seat}'s turn")
        s = copy_struct(state)
        if isinstance(command, Vote):
            if not s.voting:
                raise IllegalCommand("there is no vote now")
            s.voted.append(seat)
            s.stops += command.stop
            if len(s.voted) == len(s.seats):
                s.over = s.stops == len(s.seats)
                s.voting, s.voted, s.stops = False, [], 0
            return s
        if s.voting:
            raise IllegalCommand("everyone votes now: vote stop or vote go")
        if isinstance(command, Roll):
            (value,) = roll(chance.public, 1, 6)
            s.last_roll = value
            if value <= 2:
                return _end_turn(s, chance)
            s.scores[seat] += value
            if value == 6 and s.omen and s.zones["deck"].items:  # the top card, face up for everyone
                s.zones["discard"].items.append(s.zones["deck"].items.pop(0))
            return _after_action(s, chance)
        if isinstance(command, Draw):
            deck = s.zones["deck"]
            if not deck.items:
                if not s.zones["discard"].items:
                    raise IllegalCommand("the deck and the discard pile are empty")
                deck.items, s.zones["discard"].items = s.zones["discard"].items, []
                shuffle_zone(s, "deck", chance)
                s.reshuffles += 1
                deck = s.zones["deck"]
            s.zones[_hand(seat)].items.append(deck.items.pop(0))
            return _after_action(s, chance)
        if isinstance(command, Steal):
            victim = s.zones[_hand(_next(s, seat))].items
            if not s.steal:
                raise IllegalCommand("stealing is off in this game (option steal=1)")
            if not 0 <= command.index < len(victim):
                raise IllegalCommand(f"{_next(s, seat)}'s hand has no card at position {command.index + 1}")
            s.zones[_hand(seat)].items.append(victim.pop(command.index))
            return _after_action(s, chance)
        if isinstance(command, Fetch):
            if not s.private or not s.zones[_own(seat)].items:
                raise IllegalCommand(f"{seat}'s own deck is empty")
            s.zones[_hand(seat)].items.append(draw_private(s, _own(seat), chance))
            return _after_action(s, chance)
        if isinstance(command, Gift):
            other = _next(s, seat)
            own = s.zones[_own(other)]
            if not (s.private and s.gift):
                raise IllegalCommand("gifts are off in this game (options private=1 gift=1)")
            if not own.items:
                if not s.zones[_used(other)].items:
                    raise IllegalCommand(f"{other}'s own deck and face-up pile are empty")
                own.items, s.zones[_used(other)].items = s.zones[_used(other)].items, []
                shuffle_zone(s, _own(other), chance, prefix="g")
                s.reshuffles += 1
            s.zones[_hand(other)].items.append(draw_private(s, _own(other), chance))
            return _after_action(s, chance)
        if isinstance(command, Play):
            hand = s.zones[_hand(seat)].items
            found = [i for i, it in enumerate(hand) if it.ref == command.ref]
            if not found:
                raise IllegalCommand(f"{command.ref} is not in {seat}'s hand")
            item = hand.pop(found[0])
            value = int(identity(item))
            s.scores[seat] += value
            s.zones[_used(seat) if value >= 7 else "discard"].items.append(item)
            return _end_turn(s, chance)
        if isinstance(command, Pass):
            return _end_turn(s, chance)
        raise IllegalCommand(f"not a Lucky Draw command: {command!r}")

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        best = max(state.scores.values())
        return Outcome(winners=[s for s in state.seats if state.scores[s] == best], reason="game over",
                       scores=dict(state.scores))

    # -- seeing ---------------------------------------------------------------

    def view(self, state: State, seat: str | None) -> View:
        hand = state.zones[_hand(seat)].items if seat in state.seats else []
        return View(
            seat=seat, scores=dict(state.scores),
            hand=[it.card if isinstance(it, Known) else "?" for it in hand],
            hands={s: len(state.zones[_hand(s)].items) for s in state.seats},
            discard=[identity(it) for it in state.zones["discard"].items],
            deck=len(state.zones["deck"].items), to_act=self.to_act(state), last_roll=state.last_roll,
            round=state.round, voting=state.voting, over=state.over,
        )

    def render(self, v: View) -> str:
        lines = [f"Lucky Draw, round {v.round}" + (" (vote)" if v.voting else "")]
        lines.append("scores: " + ", ".join(f"{s} {n}" for s, n in v.scores.items()))
        lines.append(f"deck {v.deck}; discard {' '.join(v.discard) or '-'}; last roll {v.last_roll or '-'}")
        if v.seat in v.scores:
            lines.append(f"your hand: {' '.join(v.hand) or '-'}")
        lines.append("to act: " + (", ".join(v.to_act) or "nobody"))
        return "\n".join(lines)

    # -- notation ---------------------------------------------------------------

    def format(self, command: Command, state: State, seat: str) -> str:
        if isinstance(command, Play):
            return f"play {command.ref}"
        if isinstance(command, Vote):
            return "vote stop" if command.stop else "vote go"
        if isinstance(command, Steal):
            return f"steal {command.index + 1}"
        return {Roll: "roll", Draw: "draw", Pass: "pass", Fetch: "fetch", Gift: "gift"}[type(command)]

    def parse(self, text: str, state: State, seat: str) -> Command:
        words = text.split()
        if words == ["roll"]:
            return Roll()
        if words == ["draw"]:
            return Draw()
        if words == ["pass"]:
            return Pass()
        if words == ["fetch"]:
            return Fetch()
        if words == ["gift"]:
            return Gift()
        if len(words) == 2 and words[0] == "steal" and words[1].isdigit():
            return Steal(int(words[1]) - 1)
        if len(words) == 2 and words[0] == "vote" and words[1] in ("stop", "go"):
            return Vote(stop=words[1] == "stop")
        if len(words) == 2 and words[0] == "play":
            for it in state.zones[_hand(seat)].items:
                if words[1] in (it.ref, getattr(it, "card", None)):
                    return Play(it.ref)
            raise InvalidCommand(f"no {words[1]} in {seat}'s hand")
        raise InvalidCommand(f"not a Lucky Draw command: {text!r} (roll, draw, fetch, steal N, play CARD, pass, vote stop|go)")

    def describe(self, command: Command, state: State, seat: str | None) -> str:
        if isinstance(command, Vote):
            return "votes"
        return self.format(command, state, seat or "")


def _after_action(s: State, chance: Chance) -> State:
    s.actions += 1
    return _end_turn(s, chance) if s.actions >= ACTIONS_PER_TURN else _check_end(s)


def _end_turn(s: State, chance: Chance) -> State:
    seat = s.seats[s.turn]
    if s.private and not s.gift and not s.zones[_own(seat)].items and s.zones[_used(seat)].items:
        # the seat's face-up pile becomes its private deck again
        s.zones[_own(seat)].items, s.zones[_used(seat)].items = s.zones[_used(seat)].items, []
        shuffle_zone(s, _own(seat), chance, prefix="q")
        s.reshuffles += 1
    s.actions = 0
    s.turn = (s.turn + 1) % len(s.seats)
    if s.turn == 0:
        s.round += 1
        s.voting = s.round % 3 == 0
        s.over = s.round >= s.rounds
    return _check_end(s)


def _check_end(s: State) -> State:
    if max(s.scores.values()) >= s.target:
        s.over = True
    if s.over:
        s.voting = False
    return s


def random_bot(game: Game, state: State, seat: str, rng: random.Random) -> Command:
    return rng.choice(game.legal(state, seat))


GAME = LuckyDraw()


def drawer_bot(game: Game, state: State, seat: str, rng: random.Random) -> Command:
    """Draws, rolls, then plays a card, every turn: the deck runs out and
    the discard pile is reshuffled into a new one. It votes to go on, so
    the game lasts long enough for that whatever the dealer's seed."""
    legal = game.legal(state, seat)
    if state.voting:
        return Vote(stop=False)
    if state.actions == 0 and any(isinstance(c, Draw) for c in legal):
        return Draw()
    if state.actions <= 1:
        return Roll()
    plays = [c for c in legal if isinstance(c, Play)]
    return rng.choice(plays) if plays else Pass()


def thief_bot(game: Game, state: State, seat: str, rng: random.Random) -> Command:
    """Draws (or fetches from its own deck), steals from the next seat,
    then plays a card: cards change hands, and both kinds of deck are
    reshuffled. It always votes to go on."""
    legal = game.legal(state, seat)
    if state.voting:
        return Vote(stop=False)
    if state.actions == 0:
        if any(isinstance(c, Fetch) for c in legal) and rng.random() < 0.5:
            return Fetch()
        if any(isinstance(c, Draw) for c in legal):
            return Draw()
    if state.actions <= 1:
        steals = [c for c in legal if isinstance(c, Steal)]
        return rng.choice(steals) if steals else Roll()
    if Fetch() in legal and len(state.zones[_own(seat)].items) == 1:
        return Fetch()  # its file pauses: the refill at the end of the turn comes in the next seat's file
    plays = [c for c in legal if isinstance(c, Play)]
    return rng.choice(plays) if plays else Pass()


def giver_bot(game: Game, state: State, seat: str, rng: random.Random) -> Command:
    """The thief, except that it fetches until its own deck is empty and
    gives the next seat a card whenever that seat's own deck is empty: its
    face-up pile is reshuffled into it inside the giver's command."""
    legal = game.legal(state, seat)
    other = _next(state, seat)
    if Gift() in legal and not state.zones[_own(other)].items and len(state.zones[_used(other)].items) > 1 \
            and state.actions < 2:
        return Gift()
    if Fetch() in legal and state.actions < 2:
        return Fetch()
    if state.actions >= 2:  # its own cards first, so that its face-up pile fills
        own = [c for c in legal if isinstance(c, Play) and int(_card(state, c.ref) or 0) >= 7]
        if own:
            return own[0]
    return thief_bot(game, state, seat, rng)


def _card(state: State, ref: str) -> str | None:
    for zone in state.zones.values():
        for it in zone.items:
            if it.ref == ref:
                return it.card if isinstance(it, Known) else None
    return None
