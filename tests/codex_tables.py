"""Codex games from a fixed position under every dealer, through the real
writers: a scenario's lines, then commands in the notation, each written
by its seat as `pbem submit` writes it (refs re-chosen, the party's own
knowledge), every owed answer (a delivery, chance, a decryption) written
as `pbem sync` writes it, in one in-memory chain.

A scenario fixes hidden cards, so the chain refuses it outside hotseat
(`GameInfo.scenario_options`); for a test of a rule under the referee or the
peer dealer the option is let through here (`scenarios_everywhere`): the
dealers deal the hands it fixes as they deal any set-up."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import msgspec
import pytest

from pbem import games
from pbem.app import selfplay
from pbem.crypto.keys import SecretIdentity
from pbem.games.codex import GAME
from pbem.protocol.chain import Chain
from pbem.protocol.party import Party
from tests import tamper

MODES = ("hotseat", "referee", "peer")


@contextlib.contextmanager
def scenarios_everywhere() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(GAME, "info", msgspec.structs.replace(GAME.info, scenario_options=frozenset()))
        yield


def play(mode: str, lines: list[str], script: list[tuple[str, str]], seed: int = 1,
         seen: dict[int, dict[str, str]] | None = None, cheat=None) -> tamper.Table:
    """`script`: (seat, command) in order; a command may be a function of
    the seat's state and name, giving the command. `seen`, if given, gets after each
    command (by its index) every party's rendered view: seat -> text, and
    ``public`` for what the chain alone shows (`views`). `cheat(chain, party, text)`,
    if given, writes a scripted command's file itself (None: honestly).
    Stops when the script is done and nothing is owed (`selfplay.play`
    writes the rest)."""
    game = games.get("codex")
    todo = list(script)
    done = 0

    def turn(chain: Chain, me: Party, who: str) -> bytes | None:
        if not todo or todo[0][0] != who:
            return None
        seat, text = todo.pop(0)
        if callable(text):  # a command that depends on what the seat holds
            text = text(me.state(), seat)
        data = cheat(chain, me, text) if cheat is not None else None
        return data if data is not None else me.turn([game.presentation.parse(text, me.state(), seat)])

    def after(chain: Chain, secrets: dict[str, SecretIdentity]) -> None:
        nonlocal done
        if seen is not None and len(script) - len(todo) > done:
            done = len(script) - len(todo)
        if seen is not None and not _owed(chain):
            seen[done - 1] = views(chain, secrets)

    played = selfplay.play("codex", mode, ["alice", "bob"], seed, {"scenario": "\n".join(lines), "first": "bashing"},
                           turn=turn, after=after)
    assert not todo, f"the script stopped at {todo[0]} (waiting for {played.chain.writers()})"
    return tamper.Table("codex", mode, played.files, played.secrets)


def play_everywhere(lines: list[str], script: list[tuple[str, str]]) -> dict[str, tuple[tamper.Table, dict]]:
    """`script` played from `lines` under every dealer: mode -> (the table,
    what every party saw after each command: `play`'s `seen`)."""
    out = {}
    with scenarios_everywhere():
        for mode in MODES:
            seen: dict = {}
            out[mode] = (play(mode, lines, script, seen=seen), seen)
    return out


def choice_by(chain: Chain, seat: str):
    """The first record of `seat`'s own signed `choose` (its answer to a
    question the rules put to it alone)."""
    import msgspec

    return next(r for r in chain.records[1:] if r.by == seat and r.body.commands
                and msgspec.json.decode(r.body.commands[0])["t"] == "cx.choose")


def _owed(chain: Chain) -> bool:
    return any(chain.needs(w) == "auto" for w in chain.writers())


def views(chain: Chain, secrets: dict[str, SecretIdentity]) -> dict:
    """Each party's rendered view (``public``: the chain's own), and the
    views themselves under ``view:NAME``."""
    game = chain.game
    out = {"view:public": game.view(chain.public, None)}
    for seat in ("alice", "bob"):
        out[f"view:{seat}"] = game.view(Party(chain, secrets[seat]).state(), seat)
    for who in ("public", "alice", "bob"):
        out[who] = game.presentation.render(out[f"view:{who}"])
    return out
