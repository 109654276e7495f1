"""Golden transcripts: every committed game replays to the same public
facts, step by step (see tests/transcripts.py for the format)."""

from __future__ import annotations

import pytest

from transcripts import HERE, load, play_commands

TRANSCRIPTS = sorted(HERE.glob("*.txt"))


def test_there_are_transcripts_for_each_game():
    assert {p.name.split("-")[0] for p in TRANSCRIPTS} >= {"agent", "codenames"}


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.stem)
def test_transcript_replays_step_by_step(path):
    game, seats, options, seed, commands, expected = load(path)
    assert commands and len(commands) == len(expected)
    state, lines = play_commands(game, options, seats, seed, commands)
    for i, (got, want) in enumerate(zip(lines, expected)):
        assert got == want, f"{path.name}: step {i + 1} ({commands[i][0]}: {commands[i][1]}) differs"
    assert game.outcome(state) is not None
