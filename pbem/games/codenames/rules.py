"""Codenames rules: seats, set-up, turn flow, guess resolution, the end.

A turn of team T (standard and three-player variants):

1. phase ``clue``: T's spymaster gives a clue (checked by `clues.Checker`:
   an invalid clue is refused; an objectionable one is refused too, unless
   ``clue_review=opponent``, where the judge sees why it is objectionable).
2. phase ``review`` (only with ``clue_review=opponent``): the opposing
   spymaster accepts it, or objects. An objection is the rulebook's penalty
   for an invalid clue: T's turn ends at once and the objector (whose team
   plays next) may cover one of their own agents (phase ``penalty``:
   ``cover WORD`` or ``cover none``).
3. phase ``guess``: T's captain sends an ordered list of guesses (at least
   one over the turn; at most number + 1 in all, no cap for 0/unlimited),
   optionally ending with ``pass``; or ``pass`` alone after a first guess.
4. phase ``resolve`` (`advance`, no decision): the guesses are revealed in
   order. Own agent: covered, go on. Bystander or opposing agent: covered,
   the turn ends, the rest of the list is dropped. Assassin: T loses at once.
   After the list the turn ends if it hit the cap or ended with ``pass``;
   otherwise the captain may send more guesses (phase ``guess`` again), as at
   the table, where the team sees each result before the next guess.

A team wins the moment all its agents are covered, whoever's turn it is.

Coop (2-3 players): one spymaster and one or two operatives of one team
against the ghost team (the other colour). The players' team always starts
(9 agents). After each of the operatives' turns the spymaster covers one
ghost agent of their choice (phase ``ghost``). The players lose on the
assassin or when every ghost agent is covered, and win by finding all of
theirs; the score is the number of ghost agents still uncovered.

Three players (competitive): a red and a blue spymaster share one operative
(role ``shared``) who guesses for whichever team's turn it is. Only the
spymasters compete: the winners are the winning spymaster alone.
"""

from __future__ import annotations

import functools

from pbem.errors import IllegalCommand, InvalidOption
from pbem.games.base import Chance, Known, Outcome, SeatSpec, identity
from pbem.games.codenames import words as wordmod
from pbem.games.codenames import clues
from pbem.games.codenames.commands import Clue, Command, Cover, Guess, Pass, Review
from pbem.games.codenames.state import (
    ASSASSIN,
    ASSASSINS,
    BLUE,
    BLUE_SPYMASTER,
    BYSTANDER,
    BYSTANDERS,
    CLUE,
    COVERED,
    GHOST,
    GUESS,
    KEY,
    OTHER_AGENTS,
    OVER,
    PENALTY,
    RED,
    RED_SPYMASTER,
    RESOLVE,
    REVIEW,
    REVIEWS,
    SHARED,
    SPYMASTER_OF,
    STARTING_AGENTS,
    TEAMS,
    UNLIMITED,
    VARIANTS,
    Member,
    Options,
    State,
    Turn,
    agents_total,
    captain,
    cell_of_word,
    cell_ref,
    covered_cells,
    covered_count,
    current_turn,
    guess_cap,
    human_team,
    key_items,
    known_colour,
    new_zone,
    other,
    ref_cell,
    spymaster,
    spymasters,
    thaw,
    uncovered_words,
)

# --- options and seats ---------------------------------------------------------------

ROLE_ALIASES = {
    "red-spymaster": RED_SPYMASTER, "red-spy": RED_SPYMASTER, "redspymaster": RED_SPYMASTER,
    "blue-spymaster": BLUE_SPYMASTER, "blue-spy": BLUE_SPYMASTER, "bluespymaster": BLUE_SPYMASTER,
    "red": RED, "red-operative": RED,
    "blue": BLUE, "blue-operative": BLUE,
    "shared": SHARED, "shared-operative": SHARED,
}
ROLE_HELP = "roles: red-spymaster, blue-spymaster, red, blue (operatives), shared (variant three)"


def check_options(options: Options) -> Options:
    """Validate `options`; return them with the user's words normalised."""
    if options.variant not in VARIANTS:
        raise InvalidOption(f"unknown variant {options.variant!r} for codenames (variants: {', '.join(VARIANTS)})")
    if options.language not in wordmod.LANGUAGES:
        raise InvalidOption(
            f"unknown language {options.language!r} for codenames (languages: {', '.join(wordmod.LANGUAGES)})"
        )
    if options.clue_review not in REVIEWS:
        raise InvalidOption(f"clue_review must be one of {', '.join(REVIEWS)}, not {options.clue_review!r}")
    if options.variant in ("coop", "duet") and options.clue_review != "auto":
        raise InvalidOption(f"clue_review=opponent needs an opposing spymaster: not in the {options.variant} variant")
    duet = options.variant == "duet"
    if not duet and (options.timer != 9 or options.guess_cap != "open"):
        raise InvalidOption("options timer and guess_cap are for --option variant=duet")
    if duet:
        from pbem.games.codenames import duet as duet_rules

        duet_rules.check_duet_options(options)
    elif options.first not in ("", RED, BLUE):
        raise InvalidOption(f"first must be red, blue or empty (chance decides), not {options.first!r}")
    words = None if options.words is None else wordmod.user_words(options.words)
    grid = None
    if options.grid is not None:
        grid = wordmod.user_words(options.grid, what="grid")
        if len(grid) != wordmod.GRID_SIZE:
            raise InvalidOption(f"grid: exactly {wordmod.GRID_SIZE} words, got {len(grid)}")
    if duet:
        key_text = None if options.key is None else duet_rules.format_key(duet_rules.parse_key(options.key))
    else:
        key = None if options.key is None else parse_key(options.key)
        if key is not None:
            starting = starting_of_key(key)
            if options.first not in ("", starting):
                raise InvalidOption(f"first={options.first} contradicts the key, which has 9 {starting} agents")
        key_text = None if key is None else "".join(LETTER_OF[c] for c in key)
    return Options(
        variant=options.variant,
        language=options.language,
        words=words,
        clue_review=options.clue_review,
        hyphen=options.hyphen,
        first=options.first,
        grid=grid,
        key=key_text,
        timer=options.timer,
        guess_cap=options.guess_cap,
    )


COLOUR_OF = {"r": RED, "b": BLUE, "n": BYSTANDER, "x": ASSASSIN}
LETTER_OF = {v: k for k, v in COLOUR_OF.items()}


def parse_key(text: str) -> list[str]:
    """The scenario option `key` as 25 colours (see `Options`)."""
    letters = [ch for ch in text.lower() if not ch.isspace() and ch != "/"]
    bad = sorted({ch for ch in letters if ch not in COLOUR_OF})
    if bad:
        raise InvalidOption(f"key: unknown letters {''.join(bad)!r} (r red, b blue, n bystander, x assassin)")
    if len(letters) != wordmod.GRID_SIZE:
        raise InvalidOption(f"key: exactly {wordmod.GRID_SIZE} letters, got {len(letters)}")
    colours = [COLOUR_OF[ch] for ch in letters]
    starting_of_key(colours)
    return colours


def starting_of_key(colours: list[str]) -> str:
    """The team with 9 agents on a key; `InvalidOption` if the counts are wrong."""
    counts = {c: colours.count(c) for c in (RED, BLUE, BYSTANDER, ASSASSIN)}
    for team in TEAMS:
        if (counts[team], counts[other(team)], counts[BYSTANDER], counts[ASSASSIN]) == (
            STARTING_AGENTS, OTHER_AGENTS, BYSTANDERS, ASSASSINS
        ):
            return team
    raise InvalidOption(
        "key: needs 9 agents of the starting team, 8 of the other, 7 bystanders and 1 assassin "
        f"(got {counts[RED]} red, {counts[BLUE]} blue, {counts[BYSTANDER]} n, {counts[ASSASSIN]} x)"
    )


def _auto_roles(variant: str, n: int) -> list[str]:
    """Roles for seats given without any: in the order listed."""
    if variant == "coop":
        return [RED_SPYMASTER] + [RED] * (n - 1)
    if variant == "three":
        return [RED_SPYMASTER, BLUE_SPYMASTER, SHARED][:n]
    return [RED_SPYMASTER, BLUE_SPYMASTER] + [RED if i % 2 == 0 else BLUE for i in range(n - 2)]


def check_seats(options: Options, requested: list[SeatSpec]) -> list[SeatSpec]:
    """Check the seats and their roles for the variant; return them with
    canonical roles (in the order given: the first operative listed for a
    team is its captain). Seats given without any role get roles in order
    (standard: red spymaster, blue spymaster, then red and blue operatives
    alternately; coop: spymaster then operatives; three: red spymaster, blue
    spymaster, shared operative)."""
    names = [s.name for s in requested]
    if len(set(names)) != len(names):
        raise InvalidOption("each seat needs a different name")
    variant = options.variant
    if variant == "duet":
        from pbem.games.codenames import duet as duet_rules

        return duet_rules.check_seats(requested)
    if all(s.role is None for s in requested):
        roles = _auto_roles(variant, len(requested))
    elif any(s.role is None for s in requested):
        missing = ", ".join(s.name for s in requested if s.role is None)
        raise InvalidOption(
            f"give every seat a role, or none at all (no role: {missing})",
            hint="e.g. --seat ann:red-spymaster --seat bob:red --seat cat:blue-spymaster --seat dan:blue",
        )
    else:
        roles = []
        for s in requested:
            role = ROLE_ALIASES.get((s.role or "").strip().lower())
            if role is None:
                raise InvalidOption(f"unknown role {s.role!r} for seat {s.name} ({ROLE_HELP})")
            roles.append(role)
    count = {r: roles.count(r) for r in (RED_SPYMASTER, BLUE_SPYMASTER, RED, BLUE, SHARED)}
    n = len(requested)
    if variant == "standard":
        if n < 4:
            raise InvalidOption(
                f"standard codenames needs 4 or more players, got {n}",
                hint="for 2-3 players use --option variant=coop, or variant=three for 3",
            )
        if count[SHARED]:
            raise InvalidOption("role shared is only for --option variant=three")
        for team in TEAMS:
            if count[SPYMASTER_OF[team]] != 1:
                raise InvalidOption(f"the {team} team needs exactly one {team}-spymaster, got {count[SPYMASTER_OF[team]]}")
            if count[team] < 1:
                raise InvalidOption(f"the {team} team needs at least one operative (role {team})")
    elif variant == "coop":
        if not 2 <= n <= 3:
            raise InvalidOption(f"coop codenames is for 2-3 players, got {n}")
        spies = [r for r in roles if r in (RED_SPYMASTER, BLUE_SPYMASTER)]
        if len(spies) != 1:
            raise InvalidOption(f"coop codenames needs exactly one spymaster, got {len(spies)}")
        team = spies[0].split("-")[0]
        if count[SHARED] or count[other(team)] or count[team] != n - 1:
            raise InvalidOption(f"in coop every other seat is an operative of the spymaster's team ({team})")
        if options.first not in ("", team):
            raise InvalidOption(f"in coop the players' team ({team}) always starts; first={options.first} is not allowed")
        if options.key is not None and starting_of_key(parse_key(options.key)) != team:
            raise InvalidOption(f"key: in coop the players' team ({team}) has the 9 agents")
    elif variant == "three":
        if n != 3 or count[RED_SPYMASTER] != 1 or count[BLUE_SPYMASTER] != 1 or count[SHARED] != 1:
            raise InvalidOption(
                "variant three needs exactly 3 seats: red-spymaster, blue-spymaster and shared (the operative)"
            )
    return [SeatSpec(s.name, role) for s, role in zip(requested, roles)]


# --- set-up ------------------------------------------------------------------------


def setup(options: Options, seats: list[SeatSpec], chance: Chance) -> State:
    """Draw the 25 words, the starting team and the key from chance.

    The words and the starting team are public chance (everyone sees them,
    and every verifier replays them); the key is secret chance.

    Chance is consumed in this order: the word deck shuffle (unless `grid`
    fixes the words), then the starting team (unless fixed by `first`, the
    coop variant or `key`), then the key shuffle (unless `key` fixes it).
    Key refs are positional (``k00`` .. ``k24``).
    """
    options = check_options(options)
    seats = check_seats(options, seats)
    if options.variant == "duet":
        from pbem.games.codenames import duet as duet_rules

        return duet_rules.setup(options, seats, chance)
    roster = [Member(s.name, s.role or "") for s in seats]
    if options.grid is not None:
        grid = list(options.grid)
    else:
        deck = options.words if options.words is not None else list(wordmod.deck(options.language).words)
        grid = chance.public.shuffle(deck)[: wordmod.GRID_SIZE]
    state = State(
        variant=options.variant,
        language=options.language,
        clue_review=options.clue_review,
        hyphen=options.hyphen,
        roster=roster,
        words=list(grid),
        starting=RED,
        team=RED,
    )
    fixed = None if options.key is None else parse_key(options.key)
    if fixed is not None:
        starting = starting_of_key(fixed)
        if options.variant == "coop" and starting != human_team(state):
            raise InvalidOption(f"key: in coop the players' team ({human_team(state)}) has the 9 agents")
    elif options.variant == "coop":
        starting = human_team(state)
    elif options.first:
        starting = options.first
    else:
        starting = TEAMS[chance.public.below(2)]
    if fixed is None:
        fixed = chance.shuffle(
            [starting] * STARTING_AGENTS + [other(starting)] * OTHER_AGENTS
            + [BYSTANDER] * BYSTANDERS + [ASSASSIN] * ASSASSINS
        )
    key = new_zone(spymasters(state))
    key.items = [Known(cell_ref(i), colour) for i, colour in enumerate(fixed)]
    state.zones = {KEY: key, COVERED: new_zone(public=True)}
    state.next_ref = len(key.items)
    state.starting = starting
    state.team = starting
    return state


# --- who acts, what is legal ----------------------------------------------------------


def to_act(state: State) -> list[str]:
    if state.phase == CLUE:
        seat = spymaster(state, state.team)
    elif state.phase == REVIEW:
        seat = spymaster(state, other(state.team))
    elif state.phase == PENALTY:
        seat = spymaster(state, state.team)  # the objector, whose team plays next
    elif state.phase == GUESS:
        seat = captain(state, state.team)
    elif state.phase == GHOST:
        seat = spymaster(state, state.team)
    else:  # resolve (waits for reveals) or over
        return []
    return [seat] if seat else []


def guesses_left(state: State) -> int | None:
    """Guesses the team may still make this turn (None: no cap)."""
    turn = current_turn(state)
    if turn is None:
        return None
    cap = guess_cap(turn.number)
    return None if cap is None else max(cap - len(turn.guesses), 0)


CLUE_SAMPLE = 5  # clue words offered by `legal` (each with number 1)


def clue_vocabulary(language: str) -> list[str]:
    """Words the engine may offer as clues: the deck's category names, then
    the deck's words."""
    return list(_vocabulary(language))


@functools.cache
def _vocabulary(language: str) -> tuple[str, ...]:
    deck = wordmod.deck(language)
    return (*deck.categories, *deck.words)


@functools.cache
def _category_index(language: str) -> tuple[tuple[str, ...], dict[str, tuple[int, ...]]]:
    """The deck's category names, and for each deck word the indices of the
    categories listing it (once per listing)."""
    categories = wordmod.deck(language).categories
    where: dict[str, list[int]] = {}
    for i, members in enumerate(categories.values()):
        for w in members:
            where.setdefault(w, []).append(i)
    return tuple(categories), {w: tuple(ix) for w, ix in where.items()}


def legal_clue_words(state: State, limit: int = CLUE_SAMPLE, visible: list[str] | None = None) -> list[str]:
    """Up to `limit` clue words that pass the checks, starting at a place in
    the vocabulary that moves with each turn (deterministic). Digits-only
    words close the list if the vocabulary runs dry (a user's codenames are
    letters only, so they always pass): a bot can always give a clue.
    `visible`: the words that restrict clues (default: the uncovered ones)."""
    checker = clues.checker(uncovered_words(state) if visible is None else visible, state.language, state.hyphen)
    vocab = _vocabulary(state.language)
    start = (7 * len(state.history)) % len(vocab)
    out: list[str] = []
    for i in range(len(vocab)):
        word = vocab[(start + i) % len(vocab)]
        if checker.clean(word):
            out.append(word)
            if len(out) >= limit:
                return out
    n = 10
    while len(out) < limit:
        if checker.clean(str(n)):
            out.append(str(n))
        n += 1
    return out


def category_clues(state: State, visible_words: list[str] | None = None) -> list[Clue]:
    """Clues naming a category of the deck (the ``#:`` lines of the word
    file) that passes the checks, numbered 1..k where k is the number of its
    words still visible on the grid (k at most 9). They depend on the grid
    only, so every seat computes the same list; the spymaster bot picks among
    them with the key. `visible_words`: as in `legal_clue_words`."""
    shown = uncovered_words(state) if visible_words is None else visible_words
    checker = clues.checker(shown, state.language, state.hyphen)
    names, listed = _category_index(state.language)
    counts = [0] * len(names)
    for w in set(shown):
        for i in listed.get(w, ()):
            counts[i] += 1
    out: list[Clue] = []
    for name, k in zip(names, counts):
        if k and checker.clean(name):
            out += _numbered(name, min(k, 9))
    return out


@functools.lru_cache(maxsize=1 << 10)
def _numbered(word: str, k: int) -> tuple[Clue, ...]:
    """``clue WORD 1`` .. ``clue WORD k`` (frozen values, made once)."""
    return tuple(Clue(word, n) for n in range(1, k + 1))


def clue_commands(state: State, visible: list[str] | None = None) -> list[Command]:
    """The clues `legal` offers: five words with number 1, the first of
    them with 2, 0 and unlimited, then the category clues. `visible`: the
    words that restrict clues (default: the uncovered ones)."""
    shown = uncovered_words(state) if visible is None else visible
    sample = legal_clue_words(state, visible=shown)
    offered: list[Clue] = [Clue(w, 1) for w in sample]
    offered += [Clue(sample[0], 2), Clue(sample[0], 0), Clue(sample[0], UNLIMITED)]
    offered += category_clues(state, shown)
    return list(dict.fromkeys(offered))


def legal(state: State, seat: str) -> list[Command]:
    """The seat's legal commands in a deterministic order.

    Clues are a bounded sample, each passing the checks: five words with
    number 1, the first of them with 2, 0 and unlimited, then the category
    clues (`category_clues`). Guesses are listed one word each (a captain may
    send longer lists). Covers need the key, so they are listed from the
    state as `seat` knows it."""
    if seat not in to_act(state):
        return []
    if state.phase == CLUE:
        return clue_commands(state)
    if state.phase == REVIEW:
        return [Review("accept"), Review("object")]
    if state.phase == GUESS:
        out: list[Command] = [Guess((w,)) for w in uncovered_words(state)]
        turn = current_turn(state)
        if turn is not None and turn.guesses:
            out.append(Pass())
        return out
    if state.phase in (PENALTY, GHOST):
        wanted = state.team if state.phase == PENALTY else other(state.team)
        done = covered_cells(state)
        covers: list[Command] = [
            Cover(state.words[ref_cell(it.ref)])
            for it in key_items(state)
            if ref_cell(it.ref) not in done and known_colour(it) == wanted
        ]
        if state.phase == PENALTY:
            covers.append(Cover(None))
        return covers
    return []


# --- applying commands ------------------------------------------------------------------


def _not_your_turn(state: State, seat: str) -> IllegalCommand:
    waiting = to_act(state)
    if state.phase == OVER:
        return IllegalCommand("the game is over")
    if not waiting:
        return IllegalCommand("nobody may act now: the guesses are being revealed", hint="pbem sync")
    who = waiting[0]
    what = {
        CLUE: f"the {state.team} spymaster ({who}) to give a clue",
        REVIEW: f"the {other(state.team)} spymaster ({who}) to accept or object to the clue",
        PENALTY: f"the {state.team} spymaster ({who}) to cover one of their agents or none",
        GUESS: f"the {state.team} captain ({who}) to guess",
        GHOST: f"the spymaster ({who}) to cover a ghost agent",
    }[state.phase]
    return IllegalCommand(f"{seat} may not act now: waiting for {what}")


def _wrong_command(state: State, command: Command) -> IllegalCommand:
    expected = {
        CLUE: "a clue ('clue WORD N')",
        REVIEW: "'accept' or 'object'",
        PENALTY: "'cover WORD' (one of your own agents) or 'cover none'",
        GUESS: "'guess WORD ...' or 'pass'",
        GHOST: "'cover WORD' (an agent of the ghost team)",
    }[state.phase]
    return IllegalCommand(f"not now: expected {expected}")


def apply(state: State, seat: str, command: Command) -> State:
    if seat not in to_act(state):
        raise _not_your_turn(state, seat)
    phase = state.phase
    if phase == CLUE and isinstance(command, Clue):
        return _clue(state, command)
    if phase == REVIEW and isinstance(command, Review):
        return _review(state, command)
    if phase == GUESS and isinstance(command, Guess):
        return _guess(state, command)
    if phase == GUESS and isinstance(command, Pass):
        turn = current_turn(state)
        if turn is None or not turn.guesses:
            raise IllegalCommand("a team must make at least one guess before it passes")
        new = thaw(state)
        _end_turn(new, "pass")
        return new
    if phase in (PENALTY, GHOST) and isinstance(command, Cover):
        return _cover(state, command)
    raise _wrong_command(state, command)


def _clue(state: State, command: Clue) -> State:
    number = command.number
    if not (number == UNLIMITED or (isinstance(number, int) and not isinstance(number, bool) and 0 <= number <= 9)):
        raise IllegalCommand(f"a clue's number must be 0-9 or unlimited, not {number!r}")
    review = state.clue_review == "opponent"
    word, verdict = clues.checker(uncovered_words(state), state.language, state.hyphen).check(
        command.word, allow_objectionable=review
    )
    new = thaw(state)
    new.history.append(
        Turn(
            team=new.team, word=word, number=number, status="pending" if review else "accepted",
            concern=verdict.reason if verdict else None,
        )
    )
    new.phase = REVIEW if review else GUESS
    return new


def _review(state: State, command: Review) -> State:
    new = thaw(state)
    turn = new.history[-1]
    if command.verdict == "accept":
        turn.status = "accepted"
        new.phase = GUESS
        return new
    turn.status = "objected"
    turn.end = "objected"
    new.team = other(new.team)
    new.phase = PENALTY
    return new


def _guess(state: State, command: Guess) -> State:
    guessed = [wordmod.normalise(w) for w in command.words]
    if not guessed:
        raise IllegalCommand("guess at least one word")
    done = covered_cells(state)
    cells: list[int] = []
    for word in guessed:
        cell = cell_of_word(state, word)
        if cell is None:
            raise IllegalCommand(f"{word!r} is not a codename on the grid")
        if cell in done:
            raise IllegalCommand(f"{word!r} is already covered")
        if cell in cells:
            raise IllegalCommand(f"{word!r} is guessed twice")
        cells.append(cell)
    left = guesses_left(state)
    if left is not None and len(cells) > left:
        turn = current_turn(state)
        made = len(turn.guesses) if turn else 0
        raise IllegalCommand(
            f"too many guesses: {len(cells)} given, {left} left "
            f"(the clue allows {guess_cap(turn.number) if turn else 0}, {made} made)"
        )
    new = thaw(state)
    new.pending = cells
    new.then_pass = command.then_pass
    new.phase = RESOLVE
    return new


def _cover(state: State, command: Cover) -> State:
    penalty = state.phase == PENALTY
    wanted = state.team if penalty else other(state.team)
    if command.word is None:
        if not penalty:
            raise IllegalCommand("the ghost team must have one agent covered: 'cover WORD'")
        new = thaw(state)
        new.phase = CLUE
        return new
    word = wordmod.normalise(command.word)
    cell = cell_of_word(state, word)
    if cell is None:
        raise IllegalCommand(f"{word!r} is not a codename on the grid")
    if cell in covered_cells(state):
        raise IllegalCommand(f"{word!r} is already covered")
    item = _key_item(state, cell)
    colour = identity(item)  # the writer (a spymaster) reveals it if needed
    if colour != wanted:
        whose = "one of your own agents" if penalty else f"an agent of the ghost team ({wanted})"
        raise IllegalCommand(f"{word!r} is not {whose}")
    new = thaw(state)
    _move_to_covered(new, cell, item)
    # the cover belongs to the turn just ended (coop) or the objected one
    new.history[-1].cover = word
    if penalty:
        if not _check_wins(new, covered_by=None):
            new.phase = CLUE
        return new
    if covered_count(new, wanted) >= agents_total(new, wanted):
        _finish(new, None, f"the ghost team ({wanted}) has all its agents covered")
    else:
        new.phase = CLUE
    return new


# --- resolution (no decision) -------------------------------------------------------------


def advance(state: State) -> State:
    """Resolve the pending guesses in order; each needs its cell's colour
    (`NeedsReveal` until the protocol reveals that cell)."""
    if state.phase != RESOLVE:
        return state
    new = thaw(state)
    team = new.team
    turn = new.history[-1]
    pending = list(new.pending)
    new.pending = []
    for cell in pending:
        item = _key_item(new, cell)
        colour = identity(item)
        _move_to_covered(new, cell, item)
        turn.guesses.append(new.words[cell])
        if colour == ASSASSIN:
            turn.end = "assassin"
            if new.variant == "coop":
                _finish(new, None, f"{team} found the assassin ({new.words[cell]})")
            else:
                _finish(new, other(team), f"{team} found the assassin ({new.words[cell]})")
            return new
        if _check_wins(new, covered_by=team):
            turn.end = "over"
            return new
        if colour != team:
            _end_turn(new, "miss")
            return new
        left = guesses_left(new)
        if left == 0:
            _end_turn(new, "cap")
            return new
    if new.then_pass:
        _end_turn(new, "pass")
    else:
        new.phase = GUESS
    new.then_pass = False
    return new


def _key_item(state: State, cell: int):
    ref = cell_ref(cell)
    for it in key_items(state):
        if it.ref == ref:
            return it
    raise IllegalCommand(f"cell {cell} is not on the key")  # covered: callers check first


def _move_to_covered(state: State, cell: int, item) -> None:
    key = state.zones[KEY]
    key.items = [it for it in key.items if it.ref != item.ref]
    state.zones[COVERED].items.append(item)


def _check_wins(state: State, covered_by: str | None) -> bool:
    """End the game if a team has all its agents covered; True if it ended.
    `covered_by` is the team whose guess made the last cover (None: a
    spymaster's cover)."""
    for team in TEAMS:
        if covered_count(state, team) >= agents_total(state, team):
            if state.variant == "coop":
                if team == human_team(state):
                    _finish(state, team, f"{team} found all its agents")
                else:
                    _finish(state, None, f"the ghost team ({team}) has all its agents covered")
            elif covered_by is not None and covered_by != team:
                _finish(state, team, f"{covered_by} uncovered the last {team} agent: {team} wins")
            else:
                _finish(state, team, f"{team} found all its agents")
            return True
    return False


def _end_turn(state: State, why: str) -> None:
    state.history[-1].end = why
    state.pending = []
    state.then_pass = False
    if state.variant == "coop":
        state.phase = GHOST
    else:
        state.team = other(state.team)
        state.phase = CLUE


def _finish(state: State, winner: str | None, reason: str) -> None:
    state.phase = OVER
    state.pending = []
    state.then_pass = False
    seats = [m.seat for m in state.roster]
    if state.variant == "coop":
        ghost = other(human_team(state))
        score = agents_total(state, ghost) - covered_count(state, ghost) if winner else 0
        state.outcome = Outcome(
            winners=seats if winner else [],
            reason=reason + (f" (score {score})" if winner else ""),
            scores={s: score for s in seats},
        )
        return
    if winner is None:
        state.outcome = Outcome(winners=[], reason=reason)
        return
    if state.variant == "three":
        winners = [m.seat for m in state.roster if m.role == SPYMASTER_OF[winner]]
    else:
        winners = [m.seat for m in state.roster if m.role in (winner, SPYMASTER_OF[winner])]
    state.outcome = Outcome(winners=winners, reason=reason)


def outcome(state: State) -> Outcome | None:
    return state.outcome
