"""Bots play a game through the real protocol, in memory, under every dealer.

The game harness (`pbem.games.conformance`) checks a game's rules while
emulating what the protocol does with hidden information; it cannot tell
whether the game's declarations to the protocol (its private decks, linked
or interchangeable zones, reshuffles ahead, chance taken at once, the
dealers it refuses) are right. A wrong one shows only when the real writers
meet it: a peer join that cannot lay a deck, an answer owed that nobody can
write, an audit that fails. `check_dealers` is that meeting, without a
folder per seat or a process per file: for each dealer mode it has the
game's bots play one seeded game through the real writers (`Party`, the peer
writer, the dealer) into one in-memory `Chain`, replays every file into a
fresh chain as a verifier would, and audits the files in a temporary folder
with the real audit. Run it on a game being written:

    python -m pbem.app.selfplay GAME [--option K=V ...] [--seed N]

Every key is made for the run and thrown away; nothing touches a key store.
"""

from __future__ import annotations

import random
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from pbem import games
from pbem.crypto.keys import SecretIdentity
from pbem.protocol import codec, dealer as dealer_mod
from pbem.gamedir import folder as folder_mod
from pbem.protocol.chain import Chain
from pbem.protocol.party import Party
from pbem.protocol.peer import writer as peer_writer
from pbem.protocol.versions import MODES

#: an upper bound on the files of one bot game (Codex under peer writes a few hundred)
MAX_FILES = 3000


@dataclass
class Played:
    """A finished game: its files in chain order, every party's key, the chain."""

    game: str
    mode: str
    files: list[bytes]
    secrets: dict[str, SecretIdentity]
    chain: Chain


#: the decision file of a seat (`play`'s `turn`): None stops the game there
Turn = Callable[[Chain, Party, str], "bytes | None"]
#: called with the chain and every party's key after each file goes in
After = Callable[[Chain, dict[str, SecretIdentity]], None]


def play(game_name: str, mode: str, seats: list[str], seed: int, options: tuple[str, ...] | dict[str, Any] = (),
         edit: Callable[[Chain, bytes, dict[str, SecretIdentity]], bytes] | None = None,
         on_deal: After | None = None, turn: Turn | None = None, after: After | None = None) -> Played:
    """The game's demo bot plays every seat through the real writers into
    one in-memory chain, each file appended as a verifier appends it; every
    owed answer (a join, a delivery, chance, a decryption) is written as
    `pbem sync` writes it. `seats` as `pbem new --seat` takes them (``NAME``
    or ``NAME:ROLE``); `options` as ``--option`` takes them, or a dict of
    raw values (a scenario's lines).

    `edit(chain, data, secrets)` may doctor each file before it goes in (a
    cheater's file, re-signed with its writer's real key): the game goes on
    from the doctored chain. `on_deal(chain, secrets)` is called once a
    peer game's deal is complete, before its first command. `turn(chain,
    party, seat)`, in place of the bot, writes a seat's decision file (a
    test's script; None: stop there), and `after(chain, secrets)` sees the
    chain after each file."""
    from pbem.app import creating

    game = games.get(game_name)
    names = [s.partition(":")[0] for s in seats]
    secrets = {n: SecretIdentity.generate(n) for n in names}
    opts = game.options(options if isinstance(options, dict) else creating.parse_options(list(options)))
    specs = game.seats(opts, [creating.parse_seat(s) for s in seats])
    idents = [(spec, secrets[spec.name].public) for spec in specs]
    rng = random.Random(seed)
    if mode == "peer":
        data = peer_writer.make_genesis(game, opts, idents, secrets[names[0]])
    else:
        dealer = dealer_mod.hotseat_dealer() if mode == "hotseat" else SecretIdentity.generate("rita")
        secrets[dealer.name] = dealer
        master = random.Random(seed).randbytes(32)
        data = dealer_mod.make_genesis(game, opts, idents, mode, dealer, master)
    files = [data]
    chain = Chain(data)
    for _ in range(MAX_FILES):
        writers = chain.writers()
        if not writers:
            return Played(game.info.name, mode, files, secrets, chain)
        who = writers[0]
        me = Party(chain, secrets[who])
        if chain.deck is not None and not chain.deck.all_joined:
            data = peer_writer.join(chain, secrets[who])
        elif chain.needs(who) == "auto":
            data = me.answer()
        elif turn is not None:
            made = turn(chain, me, who)
            if made is None:
                return Played(game.info.name, mode, files, secrets, chain)
            data = made
        else:
            data = me.turn([game.presentation.bots[game.presentation.demo_bot](game, me.state(), who, rng)])
        if edit is not None:
            data = edit(chain, data, secrets)
        chain.append(data)
        files.append(data)
        if on_deal is not None and chain.deck is not None and chain.deck.complete and chain.public is not None:
            on_deal(chain, secrets)
            on_deal = None
        if after is not None:
            after(chain, secrets)
    raise AssertionError(f"{game.info.name} under {mode}: the game did not end within {MAX_FILES} files")


def save(files: list[bytes], path: Path) -> Path:
    """A game's files in a new folder, named as pbem names them."""
    path.mkdir()
    for k, data in enumerate(files):
        name = folder_mod.GENESIS if k == 0 else folder_mod.turn_name(k, codec.read_envelope(data).by)
        (path / name).write_bytes(data)
    return path


def replay(files: list[bytes]) -> Chain:
    """A fresh chain that has accepted every file, as a verifier builds it."""
    chain = Chain(files[0])
    for data in files[1:]:
        chain.append(data)
    return chain


def check_dealers(game_name: str, options: tuple[str, ...] = (), seats: list[str] | None = None, seed: int = 0,
                  modes: tuple[str, ...] = MODES) -> dict[str, int]:
    """One bot game per dealer mode the game takes, each played to its end,
    replayed by a fresh verifier and audited; a peer game's deal is also
    opened at once and compared with the rules' own set-up
    (`deal_check`: a wrong `Dealing` declaration shows there). AssertionError
    naming the mode and what broke. Returns the number of files each mode's
    game took."""
    from pbem.errors import PbemError
    from pbem.app import creating
    from pbem.app.audit import audit
    from pbem.app.deal_check import check_peer_deal

    game = games.get(game_name)
    opts = game.options(_options(options))
    seats = seats or list(game.presentation.demo_seats(opts))
    sizes: dict[str, int] = {}
    for mode in modes:
        where = f"{game.info.name} under {mode} (seed {seed}{', ' + ' '.join(options) if options else ''})"
        if not _takes(game, opts, seats, mode):
            continue
        specs = game.seats(opts, [creating.parse_seat(s) for s in seats])

        def on_deal(chain: Chain, keys: dict[str, SecretIdentity]) -> None:
            try:
                check_peer_deal(game, opts, specs, chain, keys)
            except AssertionError as exc:
                raise _Refused(f"{where}: {exc}") from None

        try:
            played = play(game.info.name, mode, seats, seed, options, on_deal=on_deal if mode == "peer" else None)
        except _Refused as exc:
            raise AssertionError(str(exc)) from None
        except PbemError as exc:
            raise AssertionError(f"{where}: a writer's file was refused: {exc}") from exc
        except Exception as exc:
            raise AssertionError(f"{where}: the game's code fails ({type(exc).__name__}: {exc})") from exc
        if played.chain.outcome() is None:
            raise AssertionError(f"{where}: nobody owes a file, yet the game has no outcome")
        try:
            again = replay(played.files)
        except PbemError as exc:
            raise AssertionError(f"{where}: a fresh verifier refuses the game: {exc}") from exc
        if again.outcome() != played.chain.outcome():
            raise AssertionError(f"{where}: a fresh verifier reaches another outcome")
        with tempfile.TemporaryDirectory(prefix="pbem-selfplay-") as tmp:
            report = audit(save(played.files, Path(tmp) / "game"))
        if not report.ok:
            raise AssertionError(f"{where}: the audit fails: {'; '.join(report.failures[:3])}")
        sizes[mode] = len(played.files)
    return sizes


class _Refused(Exception):
    """The peer deal broke an invariant of the rules' set-up (`deal_check`)."""


def _options(options: tuple[str, ...]) -> dict[str, str]:
    from pbem.app import creating

    return creating.parse_options(list(options))


def _takes(game: Any, opts: Any, seats: list[str], mode: str) -> bool:
    """Whether the game may be begun under `mode` with these options (a
    game refuses a dealer it cannot be played under, e.g. a solo game under
    peer): such a mode is skipped, as `pbem new` would refuse it."""
    from pbem.app import creating
    from pbem.errors import PbemError
    from pbem.protocol.dealing import check_dealer

    try:
        check_dealer(game, game.seats(opts, [creating.parse_seat(s) for s in seats]), mode)
    except PbemError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m pbem.app.selfplay", description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("--option", action="append", default=[], metavar="K=V")
    parser.add_argument("--seat", action="append", default=None, metavar="NAME[:ROLE]")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dealer", action="append", choices=MODES, default=None)
    args = parser.parse_args(argv)
    sizes = check_dealers(args.game, tuple(args.option), args.seat, args.seed, tuple(args.dealer or MODES))
    for mode, n in sizes.items():
        print(f"{args.game} under {mode}: {n} files, played, replayed and audited")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
