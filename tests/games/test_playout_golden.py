"""Golden playouts: seeded bot games end in the same state, byte for byte.

Each case of the playout benchmark (`benchmarks/bench_playouts.py`: every
Agent Avenue mode, every Codenames variant, Dark Agent for 1-6 seats) is
played from fixed seeds by the random bot and by the game's other bot,
and the SHA-256 of the final state's canonical encoding must be the one
recorded in tests/vectors/playouts.json, recorded on the rules before
they were made faster (issue #26). A change that makes the rules faster
must not change what they do: any difference in a shuffle, a draw, a legal
list's order, a bot's choice or a field of the state shows here.

Codex is measured there but not recorded here: its rules 2 still grow card
by card (a spec's cards written later change what its seats may tech), and
its own conformance tests hold it.

A deliberate rules change bumps the game's `rules_version` and records the
hashes again: ``PYTHONPATH=tests python tests/games/test_playout_golden.py --write``.
``PBEM_LONG=1`` plays every recorded seed; the default run the first few.
"""

from __future__ import annotations

import json
import os
import sys

import pytest
from paths import ROOT

sys.path.insert(0, str(ROOT))  # `benchmarks` beside `tests`, however pytest was started

from benchmarks.bench_playouts import CASES, digest, playout, prepared  # noqa: E402

GOLDEN = ROOT / "tests" / "vectors" / "playouts.json"
LONG = os.environ.get("PBEM_LONG") == "1"
#: the game's second bot, played beside `random`
OTHER_BOT = {"agent-avenue": "greedy", "codenames": "spymaster", "dark-agent": "greedy"}
#: seeds recorded per (game, bot); the default run plays the first `QUICK`
RECORDED = {"random": 20, "other": 8}
QUICK = {("agent-avenue", "random"): 10, ("agent-avenue", "other"): 4, ("codenames", "random"): 6,
         ("codenames", "other"): 3, ("dark-agent", "random"): 3, ("dark-agent", "other"): 2}


def _key(case, bot: str) -> str:
    return f"{case.title} / {bot}"


def _runs():
    for case in CASES:
        if case.game not in OTHER_BOT:
            continue
        for kind in ("random", "other"):
            bot = "random" if kind == "random" else OTHER_BOT[case.game]
            yield case, bot, kind


def _golden() -> dict[str, list[str]]:
    return json.loads(GOLDEN.read_text())


@pytest.mark.parametrize(("case", "bot", "kind"), list(_runs()), ids=lambda v: getattr(v, "title", v))
def test_playouts_end_in_the_recorded_states(case, bot, kind):
    hashes = _golden()[_key(case, bot)]
    assert len(hashes) == RECORDED[kind]
    game, options, specs = prepared(case)
    n = len(hashes) if LONG else QUICK[(case.game, kind)]
    for seed, want in enumerate(hashes[:n]):
        state, _ = playout(game, options, specs, seed, bot)
        assert digest(state) == want, f"{case.title}, {bot} bot, seed {seed}: the final state changed"


def test_every_case_is_recorded():
    assert set(_golden()) == {_key(case, bot) for case, bot, _ in _runs()}


def write() -> None:
    """Record every case's hashes (only after a deliberate rules change)."""
    out = {}
    for case, bot, kind in _runs():
        game, options, specs = prepared(case)
        out[_key(case, bot)] = [digest(playout(game, options, specs, seed, bot)[0])
                                for seed in range(RECORDED[kind])]
        print(_key(case, bot), file=sys.stderr)
    GOLDEN.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: PYTHONPATH=tests python tests/games/test_playout_golden.py --write")
    write()
