"""Codenames Duet: two players, one double-sided key, a shared time bank.

Our reading of the publisher's rules and the decisions we took are in
``DUET.md`` beside this module. In short:

* Seats: exactly two, side ``a`` (the first seat) and side ``b``. Each
  player sees only their own side of the key: zone ``key-a`` is read by
  seat a alone, ``key-b`` by seat b alone (one reader each; the two are
  linked, cell by cell: the peer dealer deals them with its two-faced
  deck, DUET.md). Each side has 9 agents, 3 assassins and 13 bystanders;
  the sides overlap in the standard way (`PAIRS`), 15 distinct agents.
* A turn: the clue giver (phase ``clue``) gives a clue for their own side's
  agents; the partner guesses (phase ``guess``, resolved in phase
  ``resolve``: each guessed cell's item of the giver's side moves to the
  public zone ``open-a`` / ``open-b``). An agent is found and the partner
  may go on (``guess_cap``: ``open`` without limit, or ``plus-one``); a
  bystander ends the turn (the word stays in play for the other side); an
  assassin loses the game for both. The turn ends with a pass or a
  bystander, and uses one timer token. Givers alternate; a side whose
  agents are all found says ``done`` and the partner gives every clue.
* Sudden death (phase ``sudden``) when the time bank is empty: no clues;
  the guesser for a side not done guesses words of that side; anything but
  an agent loses. ``pass`` there gives up on that side; giving up on both
  loses the game.
* Win: all 15 agents found (every seat wins; the score is the timer tokens
  left). Lose: an assassin, a miss in sudden death, giving up.

Refs: ``aNN`` / ``bNN`` for cell NN on side a / b; cards ``agent``,
``bystander``, ``assassin``.
"""

from __future__ import annotations

from pbem.errors import IllegalCommand, InvalidOption
from pbem.games.base import Chance, Known, Outcome, SeatSpec, checked_if_visible, identity
from pbem.games.codenames import words as wordmod
from pbem.games.codenames import clues
from pbem.games.codenames.commands import Clue, Command, Done, Guess, Pass
from pbem.games.codenames.state import (
    CLUE,
    GUESS,
    GUESS_CAPS,
    OVER,
    RESOLVE,
    SUDDEN,
    UNLIMITED,
    Member,
    Options,
    State,
    Turn,
    current_turn,
    guess_cap,
    known_colour,
    new_zone,
    thaw,
)

AGENT = "agent"
BYSTANDER = "bystander"
ASSASSIN = "assassin"
SIDES = ("a", "b")
AGENTS_TO_FIND = 15
DEFAULT_TIMER = 9

#: the standard double-sided key: (side a, side b) -> how many cells
PAIRS = {
    (AGENT, AGENT): 3,
    (AGENT, ASSASSIN): 1,
    (AGENT, BYSTANDER): 5,
    (ASSASSIN, AGENT): 1,
    (ASSASSIN, ASSASSIN): 1,
    (ASSASSIN, BYSTANDER): 1,
    (BYSTANDER, AGENT): 5,
    (BYSTANDER, ASSASSIN): 1,
    (BYSTANDER, BYSTANDER): 7,
}
LETTER = {AGENT: "g", BYSTANDER: "n", ASSASSIN: "x"}
COLOUR = {v: k for k, v in LETTER.items()}


def key_zone(side: str) -> str:
    return f"key-{side}"


def open_zone(side: str) -> str:
    return f"open-{side}"


def other_side(side: str) -> str:
    return "b" if side == "a" else "a"


def cell_ref(side: str, cell: int) -> str:
    return f"{side}{cell:02d}"


def ref_cell(ref: str) -> int:
    return int(ref[1:])


# --- options, seats, set-up -----------------------------------------------------------


def parse_key(text: str) -> list[tuple[str, str]]:
    """The scenario option `key` for Duet: side a and side b, 25 letters
    each (g agent, n bystander, x assassin), parted by ``/``; the pairs must
    be the standard overlap (`PAIRS`)."""
    halves = [h for h in (part.replace(" ", "") for part in text.lower().split("/")) if h]
    if len(halves) != 2:
        raise InvalidOption("key: a Duet key is side a and side b, 25 letters each, parted by '/'")
    for name, half in zip(SIDES, halves):
        bad = sorted(set(half) - set(COLOUR))
        if bad:
            raise InvalidOption(f"key: unknown letters {''.join(bad)!r} on side {name} (g agent, n bystander, x assassin)")
        if len(half) != wordmod.GRID_SIZE:
            raise InvalidOption(f"key: side {name} needs {wordmod.GRID_SIZE} letters, got {len(half)}")
    pairs = [(COLOUR[x], COLOUR[y]) for x, y in zip(*halves)]
    counts = {p: pairs.count(p) for p in PAIRS}
    if counts != PAIRS:
        raise InvalidOption(
            "key: the sides must overlap as on a Duet key card: each side 9 agents, 3 assassins, "
            "13 bystanders; 3 agents shared, 1 agent of each side the other's assassin, 1 shared assassin"
        )
    return pairs


def format_key(pairs: list[tuple[str, str]]) -> str:
    return "".join(LETTER[a] for a, _ in pairs) + "/" + "".join(LETTER[b] for _, b in pairs)


def check_duet_options(options: Options) -> None:
    if options.first not in ("", *SIDES):
        raise InvalidOption(f"in Duet, first must be a, b or empty (chance decides), not {options.first!r}")
    if not 1 <= options.timer <= 25:
        raise InvalidOption(f"timer must be 1-25 timer tokens (9 in the standard game), not {options.timer}")
    if options.guess_cap not in GUESS_CAPS:
        raise InvalidOption(f"guess_cap must be one of {', '.join(GUESS_CAPS)}, not {options.guess_cap!r}")


def check_seats(requested: list[SeatSpec]) -> list[SeatSpec]:
    """Exactly two seats; roles ``a`` and ``b`` (or none: in order)."""
    if len(requested) != 2:
        raise InvalidOption(f"Codenames Duet is for exactly two seats, got {len(requested)}")
    names = [s.name for s in requested]
    if len(set(names)) != 2:
        raise InvalidOption("each seat needs a different name")
    roles = [(s.role or "").strip().lower().removeprefix("side-") for s in requested]
    if roles == ["", ""]:
        roles = list(SIDES)
    if sorted(roles) != list(SIDES):
        raise InvalidOption("in Duet the two seats are sides a and b (roles a, b, or none: in order)")
    return [SeatSpec(s.name, role) for s, role in zip(requested, roles)]


def setup(options: Options, seats: list[SeatSpec], chance: Chance) -> State:
    """Words and the first clue giver from public chance, the key from
    secret chance (a shuffle of the 25 standard pairs)."""
    if options.grid is not None:
        grid = list(options.grid)
    else:
        deck = options.words if options.words is not None else list(wordmod.deck(options.language).words)
        grid = chance.public.shuffle(deck)[: wordmod.GRID_SIZE]
    first = options.first or SIDES[chance.public.below(2)]
    if options.key is not None:
        pairs = parse_key(options.key)
    else:
        pairs = chance.shuffle([pair for pair, n in PAIRS.items() for _ in range(n)])
    roster = [Member(s.name, s.role or "") for s in seats]
    state = State(
        variant="duet",
        language=options.language,
        clue_review="auto",
        hyphen=options.hyphen,
        roster=roster,
        words=grid,
        starting=first,
        team=first,
        timer=options.timer,
        guess_cap=options.guess_cap,
    )
    zones = {}
    for i, side in enumerate(SIDES):
        zone = new_zone([seat_of(state, side)])
        zone.items = [Known(cell_ref(side, c), pair[i]) for c, pair in enumerate(pairs)]
        zones[key_zone(side)] = zone
        zones[open_zone(side)] = new_zone(public=True)
    state.zones = zones
    state.next_ref = 2 * len(pairs)
    return state


# --- reading the state ------------------------------------------------------------------


def seat_of(state: State, side: str) -> str:
    for m in state.roster:
        if m.role == side:
            return m.seat
    raise IllegalCommand(f"no seat plays side {side}")  # pragma: no cover - set-up guarantees both


def side_of(state: State, seat: str | None) -> str | None:
    for m in state.roster:
        if m.seat == seat:
            return m.role
    return None


def opened(state: State, side: str) -> dict[int, str | None]:
    """Cells whose colour on `side` is public: cell -> colour."""
    return {ref_cell(it.ref): known_colour(it) for it in state.zones[open_zone(side)].items}


def found_cells(state: State) -> list[int]:
    """Cells found as agents (on either side), in grid order."""
    cells = set()
    for side in SIDES:
        cells |= {c for c, colour in opened(state, side).items() if colour == AGENT}
    return sorted(cells)


def visible_words(state: State) -> list[str]:
    """Words still in play: not found, and not a known bystander on both
    sides. They restrict clues."""
    found = set(found_cells(state))
    spent = set(opened(state, "a")) & set(opened(state, "b"))
    return [w for i, w in enumerate(state.words) if i not in found and i not in spent]


def guessable(state: State, side: str) -> list[str]:
    """Words the guesser for `side` may point at: not found, and not already
    known on `side` (a bystander there)."""
    found = set(found_cells(state))
    seen = set(opened(state, side))
    return [w for i, w in enumerate(state.words) if i not in found and i not in seen]


def guesser(state: State) -> str:
    """The seat that guesses for the side `state.team` (the partner)."""
    return seat_of(state, other_side(state.team))


def guesses_left(state: State) -> int | None:
    turn = current_turn(state)
    if state.phase == SUDDEN or turn is None or state.guess_cap == "open":
        return None
    cap = guess_cap(turn.number)
    return None if cap is None else max(cap - len(turn.guesses), 0)


# --- who acts, what is legal --------------------------------------------------------------


def to_act(state: State) -> list[str]:
    if state.phase == CLUE:
        return [seat_of(state, state.team)]
    if state.phase in (GUESS, SUDDEN):
        return [guesser(state)]
    return []


def legal(state: State, seat: str, clue_commands) -> list[Command]:
    """`clue_commands(state, visible)` gives the clues to offer (the same
    bounded sample of clean clues as the other variants)."""
    if seat not in to_act(state):
        return []
    if state.phase == CLUE:
        out: list[Command] = []
        if _side_done(state, state.team):
            out.append(Done())
        out += clue_commands(state, visible_words(state))
        return out
    words = guessable(state, state.team)
    out = [Guess((w,)) for w in words]
    turn = current_turn(state)
    if state.phase == SUDDEN or (turn is not None and turn.guesses):
        out.append(Pass())
    return out


def _side_done(state: State, side: str) -> bool:
    """Whether `side`'s agents are all found, as far as `state` knows:
    False when the state does not hold that side of the key."""
    found = set(found_cells(state))
    for it in state.zones[key_zone(side)].items:
        colour = known_colour(it)
        if colour is None:
            return False
        if colour == AGENT and ref_cell(it.ref) not in found:
            return False
    return True


# --- applying commands ----------------------------------------------------------------------


def apply(state: State, seat: str, command: Command) -> State:
    if seat not in to_act(state):
        if state.phase == OVER:
            raise IllegalCommand("the game is over")
        waiting = to_act(state)
        if not waiting:
            raise IllegalCommand("nobody may act now: the guesses are being revealed", hint="pbem sync")
        what = "give a clue" if state.phase == CLUE else "guess"
        raise IllegalCommand(f"{seat} may not act now: waiting for {waiting[0]} to {what}")
    if state.phase == CLUE:
        if isinstance(command, Clue):
            return _clue(state, command)
        if isinstance(command, Done):
            return _done(state)
        raise IllegalCommand("not now: expected a clue ('clue WORD N') or 'done'")
    if isinstance(command, Guess):
        return _guess(state, command)
    if isinstance(command, Pass):
        new = thaw(state)
        if state.phase == SUDDEN:
            new.done.append(new.team)
            _sudden_next(new)
            return new
        turn = current_turn(state)
        if turn is None or not turn.guesses:
            raise IllegalCommand("guess at least one word before you pass")
        _end_turn(new, "pass")
        return new
    raise IllegalCommand("not now: expected 'guess WORD ...' or 'pass'")


def _clue(state: State, command: Clue) -> State:
    number = command.number
    if not (number == UNLIMITED or (isinstance(number, int) and not isinstance(number, bool) and 0 <= number <= 9)):
        raise IllegalCommand(f"a clue's number must be 0-9 or unlimited, not {number!r}")
    word, _ = clues.checker(visible_words(state), state.language, state.hyphen).check(command.word)
    new = thaw(state)
    new.history.append(Turn(team=new.team, word=word, number=number))
    new.phase = GUESS
    return new


def _done(state: State) -> State:
    """The giver's side has no agent left: the partner gives every clue."""
    side = state.team
    found = set(found_cells(state))
    with checked_if_visible():  # the writer and the audit hold the key
        left = [it for it in state.zones[key_zone(side)].items
                if identity(it) == AGENT and ref_cell(it.ref) not in found]
        if left:
            raise IllegalCommand(f"side {side} still has {len(left)} agent(s) to find: give a clue")
    new = thaw(state)
    new.done.append(side)
    new.team = other_side(side)
    return new


def _guess(state: State, command: Guess) -> State:
    guessed = [wordmod.normalise(w) for w in command.words]
    if not guessed:
        raise IllegalCommand("guess at least one word")
    side = state.team
    allowed = guessable(state, side)
    cells: list[int] = []
    for word in guessed:
        if word not in state.words:
            raise IllegalCommand(f"{word!r} is not a codename on the grid")
        cell = state.words.index(word)
        if word not in allowed:
            why = "already found" if cell in found_cells(state) else f"already a bystander for side {side}"
            raise IllegalCommand(f"{word!r} is {why}")
        if cell in cells:
            raise IllegalCommand(f"{word!r} is guessed twice")
        cells.append(cell)
    left = guesses_left(state)
    if left is not None and len(cells) > left:
        raise IllegalCommand(f"too many guesses: {len(cells)} given, {left} left (guess_cap=plus-one)")
    if command.then_pass and state.phase == SUDDEN:
        raise IllegalCommand("in sudden death a guess list cannot end with pass: pass on its own gives up")
    new = thaw(state)
    new.pending = cells
    new.then_pass = command.then_pass
    if state.phase == SUDDEN:  # no clue in sudden death: the guesses get a turn of their own
        new.history.append(Turn(team=side, word="", number=0))
    new.phase = RESOLVE
    return new


# --- resolution -------------------------------------------------------------------------------


def advance(state: State) -> State:
    """Reveal the pending guesses on the giver's side, in order."""
    if state.phase != RESOLVE:
        return state
    new = thaw(state)
    side = new.team
    sudden = new.timer == 0
    turn = new.history[-1]
    pending, new.pending = list(new.pending), []
    for cell in pending:
        item = _take(new, side, cell)
        colour = identity(item)
        new.zones[open_zone(side)].items.append(item)
        turn.guesses.append(new.words[cell])
        if colour == ASSASSIN:
            turn.end = "assassin"
            _finish(new, False, f"{new.words[cell]} is an assassin for side {side}")
            return new
        if colour == BYSTANDER:
            if sudden:
                turn.end = "miss"
                _finish(new, False, f"sudden death: {new.words[cell]} is a bystander for side {side}")
                return new
            _end_turn(new, "miss")
            return new
        if len(found_cells(new)) >= AGENTS_TO_FIND:
            turn.end = "over"
            _finish(new, True, f"all {AGENTS_TO_FIND} agents found")
            return new
        left = guesses_left(new)
        if left == 0:
            _end_turn(new, "cap")
            return new
    if sudden:
        turn.end = "sudden"
        _sudden_next(new)
    elif new.then_pass:
        _end_turn(new, "pass")
    else:
        new.phase = GUESS
    new.then_pass = False
    return new


def _take(state: State, side: str, cell: int):
    zone = state.zones[key_zone(side)]
    ref = cell_ref(side, cell)
    for i, it in enumerate(zone.items):
        if it.ref == ref:
            return zone.items.pop(i)
    raise IllegalCommand(f"cell {cell} of side {side} is already revealed")  # pragma: no cover


def _end_turn(state: State, why: str) -> None:
    """A clue turn ends: one timer token; the next giver; sudden death when
    the time bank is empty."""
    state.history[-1].end = why
    state.pending = []
    state.then_pass = False
    state.timer -= 1
    nxt = other_side(state.team)
    if nxt in state.done:
        nxt = state.team
    state.team = nxt
    if state.timer <= 0:
        state.timer = 0
        state.phase = SUDDEN
        # the guesser for a side not done; the side that did not just give a clue first
        state.team = other_side(state.history[-1].team)
        _sudden_next(state, keep=True)
    else:
        state.phase = CLUE


def _sudden_next(state: State, keep: bool = False) -> None:
    """Sudden death: the next side to guess for (alternating; sides given up
    on are skipped); no side left: the game is lost."""
    left = [s for s in SIDES if s not in state.done]
    if not left:
        _finish(state, False, "the time ran out with agents still to find")
        return
    if not keep:
        nxt = other_side(state.team)
        state.team = nxt if nxt in left else left[0]
    elif state.team not in left:
        state.team = left[0]
    state.phase = SUDDEN


def _finish(state: State, won: bool, reason: str) -> None:
    state.phase = OVER
    state.pending = []
    state.then_pass = False
    seats = [m.seat for m in state.roster]
    score = state.timer if won else 0
    state.outcome = Outcome(
        winners=seats if won else [],
        reason=reason + (f" ({score} timer token(s) left)" if won else ""),
        scores={s: score for s in seats},
    )


__all__ = ["setup", "to_act", "legal", "apply", "advance", "PAIRS", "parse_key", "format_key", "visible_words"]
