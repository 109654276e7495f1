"""Making a game: the seats and options of `pbem new` read and checked, the
genesis written into a new folder (in hotseat with the dealer's key and its
first answers), and what to send to whom next.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from pbem import games
from pbem.app.opening import Keys
from pbem.app.writing import Staged
from pbem.errors import InvalidOption, PbemError
from pbem.fsio import atomic_write, make_folder
from pbem.gamedir import folder as folder_mod, folder_write
from pbem.gamedir.lock import LOCK
from pbem.games.base import SeatSpec
from pbem.protocol.chain import Chain
from pbem.safetext import text_problem


def parse_seat(text: str) -> SeatSpec:
    name, _, role = text.partition(":")
    name = name.strip()
    if not name:
        raise InvalidOption(f"bad seat {text!r}: expected NAME or NAME:ROLE")
    return SeatSpec(name=name, role=role.strip() or None)


def parse_options(pairs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InvalidOption(f"bad option {pair!r}: expected KEY=VALUE")
        problem = text_problem(pair)
        if problem is not None:
            raise InvalidOption(f"option {key.strip()!r} holds {problem}: options are plain text")
        out[key.strip()] = value.strip()
    return out


def read_option_file(key: str, value: str) -> list[str]:
    """The lines of the file an option names (``--option words=FILE``):
    plain text, where a line may hold tabs but no other control character."""
    try:
        lines = Path(value).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise InvalidOption(f"option {key}: cannot read {value}: {reason}") from None
    for number, line in enumerate(lines, 1):
        problem = text_problem(line, allow="\t")
        if problem is not None:
            raise InvalidOption(f"option {key}: line {number} of {value} holds {problem}: options are plain text")
    return lines


def dealer_for(game_name: str, dealer: str | None, referee: str | None = None) -> str:
    """The dealer mode of a new game: the one asked for, else the game's
    own default (`GameInfo.default_dealer`), which may need a referee named."""
    if dealer is not None:
        return dealer
    game = games.get(game_name)
    mode = game.info.default_dealer
    if mode == "referee" and not referee:
        raise InvalidOption(
            f"{game.info.name} is played with a referee by default: add --referee NAME",
            hint="NAME is the referee's identity in your key store (pbem id new NAME, or one you imported); "
                 "or choose --dealer hotseat (one machine) or --dealer peer --as NAME",
        )
    return mode


def new_game(
    game_name: str,
    folder: Path,
    seats: list[str],
    keys: Keys,
    dealer: str = "hotseat",
    referee: str | None = None,
    seed: int | None = None,
    options: list[str] = (),
    creator: str | None = None,
    pace=None,
    referee_handover: bool = False,
) -> Chain:
    """Write the genesis (and, in hotseat, the dealer's key) into a new folder
    (`pace`: the clock the players agreed, `pbem.protocol.long_parts.Pace`;
    `referee_handover`: the referee may hand a vanished seat over)."""
    game = games.get(game_name)
    raw: dict[str, Any] = dict(parse_options(list(options)))
    for key in game.info.file_options & set(raw):
        raw[key] = read_option_file(key, raw[key])
    scenario = set(raw) & game.info.scenario_options
    if scenario and dealer != "hotseat":
        raise InvalidOption(
            f"option {', '.join(sorted(scenario))} fixes hidden cards: only for hotseat games",
        )
    opts = game.options(raw)
    specs = game.seats(opts, [parse_seat(s) for s in seats])
    from pbem.protocol.dealing import check_dealer

    check_dealer(game, specs, dealer)
    idents = [(spec, keys.store.public(spec.name)) for spec in specs]
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise PbemError(f"{folder} exists and is not an empty folder")
    if dealer == "peer":
        if referee_handover:
            raise InvalidOption("a peer game has no referee to hand a seat over: only the seat itself can")
        if referee or seed is not None:
            raise InvalidOption("a peer game has no referee and no fixed seed")
        if not creator:
            raise InvalidOption("a peer game is created by one of its seats: add --as NAME")
        from pbem.protocol.peer import writer as peer_writer

        data = peer_writer.make_genesis(game, opts, idents, keys.secret(creator), pace=pace)
        chain = Chain(data)
        keys.pin(chain, folder, write=True)
        with new_folder(folder):
            atomic_write(folder / folder_mod.GENESIS, data, exclusive=True)
            folder_write.write_state(folder, chain)
        return chain
    if creator:
        raise InvalidOption("--as is only for --dealer peer (the dealer writes the genesis)")
    from pbem.crypto.keys import secret_key_file
    from pbem.protocol import dealer as dealer_mod
    from pbem.protocol.chance import hotseat_seed

    if dealer == "hotseat":
        if referee:
            raise InvalidOption("--referee is only for --dealer referee")
        dealer_secret = dealer_mod.hotseat_dealer()
        master = hotseat_seed(seed) if seed is not None else os.urandom(32)
    elif dealer == "referee":
        if not referee:
            raise InvalidOption("a referee game needs --referee NAME")
        if seed is not None:
            raise InvalidOption("--seed is only for hotseat games: a referee's seed must stay secret")
        dealer_secret = keys.secret(referee)
        master = os.urandom(32)
    else:
        raise InvalidOption(f"unknown dealer {dealer!r} (hotseat or referee)")
    data = dealer_mod.make_genesis(game, opts, idents, dealer, dealer_secret, master, pace=pace,
                                   referee_handover=referee_handover)
    chain = Chain(data)  # check what we are about to write
    keys.pin(chain, folder, write=True)
    key_file = secret_key_file(dealer_secret, None) if dealer == "hotseat" else None
    staged = Staged(folder, chain)
    if dealer == "hotseat":
        # the rules' automatic steps before the first turn (Codex's opening
        # hands): the hotseat dealer runs them at once, as after every turn
        while dealer_secret.name in chain.writers():
            answer = dealer_mod.answer(chain, dealer_secret)
            if answer is None:
                break
            staged.add(answer)
    with new_folder(folder):
        if key_file is not None:
            atomic_write(folder / folder_mod.DEALER_KEY, key_file, mode=0o600)
        atomic_write(folder / folder_mod.GENESIS, data, exclusive=True)
        if staged.files:
            folder_write.write_files(folder, chain, staged.files)
        folder_write.write_state(folder, chain)
    return chain


@contextlib.contextmanager
def new_folder(folder: Path):
    """Make `folder` and hold its lock while it is still empty (two commands
    creating one game at once: the second is told, nothing is mixed)."""
    make_folder(folder)
    with folder_write.writing(folder):
        if any(p.name != LOCK for p in folder.iterdir()):
            raise PbemError(f"{folder} exists and is not an empty folder")
        yield


def after_new(chain: Chain, folder: Path) -> list[str]:
    """What the writer of a new game sends to whom, and what each player runs."""
    from pbem.transport.shared import shared_by

    genesis = folder / folder_mod.GENESIS
    others = [n for n in chain.seat_order if n != chain.records[0].by]
    if chain.dealer_mode == "hotseat":
        return [f"hotseat: everyone plays in {folder}; next: {', '.join(chain.writers())}"]
    tool = shared_by(folder)
    if tool is not None:  # nothing to send: each party's watcher joins, answers and calls its player
        lines = [f"{tool} shares {folder}: nothing to send. Each player runs pbem watch {folder} --as NAME "
                 f"({', '.join(chain.seat_order)}): it joins, writes what needs no decision, and says when "
                 "a decision is theirs (then pbem play)"]
        if chain.dealer_mode == "referee":
            lines.append(f"{chain.dealer_name} runs pbem referee watch {folder.parent} --as {chain.dealer_name} "
                         "(it answers every game under that folder)")
        return lines + [f"next: {', '.join(chain.writers())}"]
    lines = [f"send {genesis} to {', '.join(others)}; each runs: pbem join THEIR-DIR GENESIS-FILE --as THEIR-NAME"]
    if chain.deck is not None:
        order = chain.deck.join_order
        openers = order[:-1] or order  # the last to join opens its link in its join
        lines.append("each join writes a join file to send to every other player (in turn order); once all have "
                     f"joined, {', '.join(openers)} open{'s' if len(openers) == 1 else ''} a beacon link with "
                     f"pbem sync{', in that order' if len(openers) > 1 else ''} (it sets the game up, so nobody "
                     "could know the set-up before), and play starts")
    elif not chain.dealt:
        lines.append(f"each seat joins in turn ({', '.join(chain.seat_order)}): its join (or, for a later seat, its "
                     f"pbem sync once the earlier joins have arrived) writes a join file with its contribution to the "
                     f"game seed, to send to {chain.dealer_name} and the other seats; once all have joined, "
                     f"{chain.dealer_name} deals with: pbem sync DIR --as {chain.dealer_name}")
        lines.append(f"then they play in their own folders, mailing each file they write to {chain.dealer_name} and "
                     f"the other seats; {chain.dealer_name} answers with: pbem sync DIR --as {chain.dealer_name}")
    else:
        lines.append(f"then they play in their own folders, mailing each file they write to {chain.dealer_name} and "
                     f"the other seats; {chain.dealer_name} answers with: pbem sync DIR --as {chain.dealer_name}")
    lines.append(f"next: {', '.join(chain.writers())}")
    return lines
