"""Golden game transcripts (python-chess's perft files, for us): a fixed
deal, the commands in notation, and what everyone could see after each one.

`record()` plays a game with a bot and writes a transcript;
`replay()` plays the transcript's commands through the Game API and returns
what it sees, for the test to compare line by line. A rules change that
alters any step shows up as a diff of a text file.

Format: header lines ``key: value`` (game, seats, options as JSON, seed),
a blank line, then per command: ``SEAT: NOTATION`` and an indented ``=``
line with the public summary after it (and after the automatic steps).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import msgspec

from pbem import games
from pbem.games.base import RandomChance, SeatSpec

HERE = Path(__file__).parent / "vectors" / "transcripts"


def summary(game, state) -> str:
    """The public facts of a state, one line (what an observer sees)."""
    view = msgspec.to_builtins(game.view(state, None))
    keep = {k: view[k] for k in ("phase", "active", "outcome", "turn", "team", "starting") if k in view}
    if "seats" in view:
        keep["seats"] = [
            {k: s[k] for k in ("seat", "position", "progress", "in_play", "hand_size", "discards_used") if k in s}
            for s in view["seats"]
        ]
    if "cells" in view:
        keep["covered"] = [[c["word"], c["colour"]] for c in view["cells"] if c["covered"]]
    return json.dumps(keep, sort_keys=True, ensure_ascii=False)


def _settle(game, state, chance):
    return game.advance(state, chance)  # the full state: nothing to reveal


def play_commands(game, options, seats, seed, commands):
    chance = RandomChance(seed)
    state = game.setup(options, seats, chance)
    lines = []
    for seat, text in commands:
        command = game.presentation.parse(text, state, seat)
        state = _settle(game, game.apply(state, seat, command, chance), chance)
        lines.append(summary(game, state))
    return state, lines


def record(name: str, game_name: str, seats: list[str], raw_options: dict, seed: int, bot: str) -> Path:
    game = games.get(game_name)
    options = game.options(raw_options)
    specs = game.seats(options, [SeatSpec(*s.split(":")) if ":" in s else SeatSpec(s) for s in seats])
    chance = RandomChance(seed)
    state = game.setup(options, specs, chance)
    rng = random.Random(seed)
    out = [f"game: {game.info.name}", f"seats: {' '.join(seats)}", f"options: {json.dumps(raw_options, ensure_ascii=False)}", f"seed: {seed}", ""]
    for _ in range(1000):
        if game.outcome(state) is not None:
            break
        seat = game.to_act(state)[0]
        command = game.presentation.bots[bot](game, state, seat, rng)
        text = game.presentation.format(command, state, seat)
        state = _settle(game, game.apply(state, seat, command, chance), chance)
        out += [f"{seat}: {text}", f"  = {summary(game, state)}"]
    path = HERE / f"{name}.txt"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def load(path: Path):
    head, _, rest = path.read_text(encoding="utf-8").partition("\n\n")
    fields = dict(line.split(": ", 1) for line in head.splitlines())
    commands, expected = [], []
    for line in rest.splitlines():
        if line.startswith("  = "):
            expected.append(line[4:])
        elif line:
            seat, text = line.split(": ", 1)
            commands.append((seat, text))
    game = games.get(fields["game"])
    options = game.options(json.loads(fields["options"]))
    seats = [SeatSpec(*s.split(":")) if ":" in s else SeatSpec(s) for s in fields["seats"].split()]
    return game, game.seats(options, seats), options, int(fields["seed"]), commands, expected


if __name__ == "__main__":  # regenerate on purpose only: python tests/transcripts.py
    from pbem.games.agent_avenue.cards import full_deck

    top = ["Enforcer", "Double Agent", "Codebreaker", "Sentinel", "Daredevil", "Saboteur", "Mole", "Sidekick"]
    rest = full_deck()
    for card in top:
        rest.remove(card)
    deck = top + rest[::-1]
    print(record("agent-avenue-greedy", "agent-avenue", ["alice", "bob"], {"deck": ",".join(deck)}, 1, "greedy"))
    print(record("agent-avenue-random", "agent-avenue", ["alice", "bob"], {"deck": ",".join(deck), "first": "bob"}, 2, "random"))
    print(record("codenames-standard", "codenames", ["ann:red-spymaster", "bo:red", "cy:blue-spymaster", "di:blue"], {}, 3, "spymaster"))
    print(record("codenames-sv-coop", "codenames", ["ann:red-spymaster", "bo:red"], {"language": "sv", "variant": "coop"}, 4, "spymaster"))
