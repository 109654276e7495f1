"""Codenames before the first clue: the options checked and normalised
(`check_options`), the seats and their roles for each variant
(`check_seats`), the scenario `key`, and the drawn grid and key (`setup`).
Apart because only the game's creation reads the options and the roles
as given; Duet's own checks and set-up are in `duet`, called from here.
"""

from __future__ import annotations

from pbem.errors import InvalidOption
from pbem.games.base import Chance, Known, SeatSpec
from pbem.games.codenames import words as wordmod
from pbem.games.codenames.state import (
    ASSASSIN, ASSASSINS, BLUE, BLUE_SPYMASTER, BYSTANDER, BYSTANDERS, COVERED, KEY, OTHER_AGENTS, RED, RED_SPYMASTER,
    REVIEWS, SHARED, SPYMASTER_OF, STARTING_AGENTS, TEAMS, VARIANTS, Member, Options, State, cell_ref, human_team,
    new_zone, other, spymasters,
)

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
