"""What each CLI command does, as library functions that know nothing of click.

Every function either finishes its job or raises a `PbemError` with the
folder untouched: a writing command holds the folder's lock
(`folder.writing`), loads the chain, loads every key it will need and checks
every file it will write in memory (`_Staged`) before the first write; each
write is atomic. A command killed between two writes leaves a shorter valid
chain that rerunning it completes; a stale `state.pbem` or a stray temporary
file is repaired by the next writer (`folder.tidy`). What such a repair did
is appended to `notes` (when given) for the CLI to print: library code never
prints.

Given `Keys`, every function that reads a game first checks the game's
identities against the address book (`pbem.pinning`): strictly before it
writes, with warnings (through `Keys.warn`) when it only reads.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from pbem import games, journal, pinning
from pbem.crypto.keys import SecretIdentity, read_secret_key_file
from pbem.errors import InvalidCommand, InvalidOption, KeyStoreError, PassphraseError, PbemError, ProtocolError
from pbem.fsio import atomic_write, make_folder
from pbem.lock import LOCK
from pbem.games.base import Known, NeedsReveal, SeatSpec, overlay, unknown_to
from pbem.protocol import folder as folder_mod
from pbem.protocol.chain import Chain
from pbem.clock_words import file_words
from pbem.safetext import text_problem
# whose turn it is (`status`, `to_act_lines` are also read as actions.status ... by the CLI and the watchers)
from pbem.turns import check_turn, owed, status, to_act_lines, waiting_words
from pbem.protocol.chance import NeedsChance, PlayChance, Tape

# What only writers and seats need (the dealer, sealing and its AEAD, the
# key-file cipher) is imported inside the functions that use it, so that
# `status`, `log` and an observer's `show` load none of it (issue #12).
if TYPE_CHECKING:
    from pbem.crypto.store import KeyStore
    from pbem.protocol.party import Party

@dataclass
class Keys:
    """Where keys come from: a store and a way to ask for a passphrase
    (given the key's name when `named`, so a prompt can say which).

    `accept_new` records keys a game holds that the address book has never
    seen (``--accept-new``); `old_protocol` lets a seat write its first file
    into a game begun under an older protocol version
    (``--allow-old-protocol``, `check_protocol`); `warn` receives warnings
    (unknown keys in a read-only command, a private key others may read),
    each once.
    """

    store: KeyStore
    passphrase: Callable[..., str]
    named: bool = False
    accept_new: bool = False
    old_protocol: bool = False
    warn: Callable[[str], None] | None = None
    #: how many times a wrong passphrase may be typed again (a person at a
    #: terminal: 3; a script's $PBEM_PASSPHRASE: once)
    tries: int = 1
    _warned: set[str] = field(default_factory=set, repr=False)

    def secret(self, name: str) -> SecretIdentity:
        ask = (lambda: self.passphrase(name)) if self.named else self.passphrase
        for left in range(self.tries - 1, -1, -1):
            try:
                secret = self.store.secret(name, ask)
                break
            except PassphraseError:
                if not left:
                    raise
                if self.warn is not None:
                    self.warn(f"wrong passphrase for {name}; try again ({left} more {'try' if left == 1 else 'tries'})")
        self._warn(self.store.loose_permissions(name))
        return secret

    def pin(self, chain: Chain, where: Path, write: bool) -> None:
        """Check `chain`'s identities against the address book: refused
        when they clash; unknown ones refused (`write`, unless `accept_new`)
        or warned about."""
        found = pinning.check(self.store, chain, where=str(Path(where).absolute()), strict=write,
                              accept_new=self.accept_new and write)
        for new in found:
            self._warn(new.line())

    def _warn(self, line: str | None) -> None:
        if line and self.warn is not None and line not in self._warned:
            self._warned.add(line)
            self.warn(line)


# --- creating a game ------------------------------------------------------------


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
    (`pace`: the clock the players agreed, `pbem.protocol.formats.Pace`;
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
        with _new_folder(folder):
            atomic_write(folder / folder_mod.GENESIS, data, exclusive=True)
            folder_mod.write_state(folder, chain)
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
    staged = _Staged(folder, chain)
    if dealer == "hotseat":
        # the rules' automatic steps before the first turn (Codex's opening
        # hands): the hotseat dealer runs them at once, as after every turn
        while dealer_secret.name in chain.writers():
            answer = dealer_mod.answer(chain, dealer_secret)
            if answer is None:
                break
            staged.add(answer)
    with _new_folder(folder):
        if key_file is not None:
            atomic_write(folder / folder_mod.DEALER_KEY, key_file, mode=0o600)
        atomic_write(folder / folder_mod.GENESIS, data, exclusive=True)
        if staged.files:
            folder_mod.write_files(folder, chain, staged.files)
        folder_mod.write_state(folder, chain)
    return chain


@contextlib.contextmanager
def _new_folder(folder: Path):
    """Make `folder` and hold its lock while it is still empty (two commands
    creating one game at once: the second is told, nothing is mixed)."""
    make_folder(folder)
    with folder_mod.writing(folder):
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


# --- reading a game ---------------------------------------------------------------


def open_game(folder: Path, keys: Keys | None = None, write: bool = False) -> Chain:
    """Load and check the chain in `folder`, and (given `keys`) its identities."""
    chain = folder_mod.load(folder)
    if keys is not None:
        keys.pin(chain, folder, write)
    return chain


def my_name(genesis_file: Path, store: "KeyStore") -> str:
    """The identity to act as in the game `genesis_file` begins (a folder's
    or one received) when ``--as`` is left out: the only one of the user's
    own keys that is a party of the game (a seat, or the referee). None,
    or several: an error that says which to give."""
    from pbem.protocol import codec
    from pbem.protocol.formats import GenesisBody

    if not genesis_file.is_file():
        raise PbemError(f"{genesis_file.parent} holds no game ({genesis_file.name} is missing)",
                        hint="give --as NAME, or the folder of a game")
    genesis = codec.decode_body(codec.read_envelope(folder_mod.read(genesis_file), "genesis"), GenesisBody)
    parties = [s.identity for s in genesis.seats]
    if genesis.dealer is not None and genesis.dealer.mode == "referee":
        parties.append(genesis.dealer.identity)
    mine = [p.name for p in parties if store.has_secret(p.name) and store.public(p.name) == p]
    if len(mine) == 1:
        return mine[0]
    if not mine:
        raise PbemError(f"none of your own identities is a party of this game (its parties: "
                        f"{', '.join(p.name for p in parties)})", hint="give --as NAME (pbem id list shows yours)")
    raise PbemError(f"several of your identities are parties of this game ({', '.join(mine)})",
                    hint="say which with --as NAME")


def hotseat_dealer(folder: Path, chain: Chain) -> SecretIdentity:
    path = folder / folder_mod.DEALER_KEY
    if not path.exists():
        raise KeyStoreError(f"this hotseat game has lost its {folder_mod.DEALER_KEY}")
    secret = read_secret_key_file(folder_mod.read(path), lambda: "")
    if secret.public != chain.genesis.dealer.identity:
        raise KeyStoreError(f"{folder_mod.DEALER_KEY} is not the key of this game's dealer")
    return secret


def verify(
    folder: Path, repair: bool = False, keys: Keys | None = None, notes: list[str] | None = None, full: bool = False
) -> Chain:
    """Check every file: the chain and a hotseat dealer's key (and, given
    `keys`, warn about identities the address book lacks).

    Files this user verified before are only hashed (`pbem.checkpoint`);
    `full` replays every file from genesis instead, and writes the
    checkpoint anew (what to run after settling a fork by hand).

    `state.pbem` is only a cache, so one that is stale (a writer killed
    after its last turn file), missing or damaged is not a failure: it is
    rebuilt from the chain (under the folder's lock) and a note says so;
    stray temporary files are removed the same way. `repair` only makes the
    rebuild mandatory (an error when the folder cannot be written).
    """
    chain = folder_mod.load(folder, full=full, save=True)
    if chain.dealer_mode == "hotseat" and (folder / folder_mod.DEALER_KEY).exists():
        hotseat_dealer(folder, chain)
    if keys is not None:  # after the chain's own checks, before anything is written
        keys.pin(chain, folder, write=False)
    if repair or folder_mod.needs_tidy(folder, chain):
        try:
            with folder_mod.writing(folder):
                chain = folder_mod.load(folder)  # the head as it is under the lock
                done = folder_mod.tidy(folder, chain)
        except PbemError as exc:
            in_the_way = (folder / folder_mod.STATE).exists() and not (folder / folder_mod.STATE).is_file()
            if repair or in_the_way:  # something that is no file where the cache goes: say so
                raise
            done = [f"{folder_mod.STATE} does not match the chain and was left as it is: {exc.message}"]
        _say(notes, done)
    return chain


def _say(notes: list[str] | None, more: list[str]) -> None:
    if notes is not None:
        notes.extend(more)


def party(chain: Chain, name: str, keys: Keys, secret: SecretIdentity | None = None) -> Party:
    """`name`'s view of `chain` (`secret`: its key, when already unlocked)."""
    from pbem.protocol.party import Party

    _check_seat(chain, name, keys)
    return Party(chain, secret or seat_secret(chain, name, keys))


def seat_secret(chain: Chain, name: str, keys: Keys) -> SecretIdentity:
    """The key `name` plays with: its own, or for a seat handed over, its
    newcomer's, under the seat's name (`pbem.protocol.handover`)."""
    holder = chain.holder(name) if name in chain.seats else None
    if holder is None or holder.name == name:
        return keys.secret(name)
    return keys.secret(holder.name).seated_as(name)


def _check_seat(chain: Chain, name: str, keys: Keys) -> None:
    """`--as name` must be a party of the game, and its key the one there."""
    held = {ident.name: seat for seat, (_, ident) in chain.handed.items()}
    if name in held:
        raise KeyStoreError(f"{name} plays seat {held[name]} in this game, handed over to it",
                            hint=f"act as the seat: --as {held[name]}")
    if name == chain.dealer_name and chain.dealer_mode == "hotseat":
        raise KeyStoreError(
            f"{name} is this hotseat game's own dealer: it answers by itself, with the folder's {folder_mod.DEALER_KEY}",
            hint=f"act as one of the seats: {', '.join(chain.seat_order)}",
        )
    if name not in chain.seats and name != chain.dealer_name:
        here = ", ".join(n for n in chain.seat_order if keys.store.has_secret(n))
        raise KeyStoreError(
            f"{name} has no seat in this game (seats: {', '.join(chain.seat_order)})",
            hint=f"your keys here that sit in it: {here}" if here else
            f"none of its seats has a private key in {keys.store.home}",
        )
    if name in chain.handed:
        seq, newcomer = chain.handed[name]
        if not keys.store.has_secret(newcomer.name):
            raise KeyStoreError(f"seat {name} was handed over to {newcomer.name} (seq {seq}), "
                                f"whose key is not in {keys.store.home}",
                                hint=f"{newcomer.name} plays it now, from where {newcomer.name}'s key is")
        return
    if not keys.store.has_secret(name):
        if keys.store.has_public(name):
            raise keys.store.no_secret(name)
        raise KeyStoreError(  # never "pbem id new": a new key would not be the seat's
            f"no private key of {name} in {keys.store.home}: {name}'s key in this game is "
            f"{chain.identity(name).fingerprint()}",
            hint=f"run this where {name}'s key is, or set PBEM_HOME to the store that holds it",
        )


def audit(folder: Path, keys: Keys | None = None):
    """`pbem audit`: the chain's identities checked (read-only), then the audit."""
    from pbem.protocol.audit import audit as run_audit

    open_game(folder, keys)
    return run_audit(folder)


def legal(chain: Chain, me: Party) -> list[str]:
    """`me`'s legal commands now: none while what it owes needs no decision
    (`submit` refuses commands then too)."""
    if me.is_dealer or me.name not in chain.writers() or chain.undo_pending is not None or not chain.dealt:
        return []
    if chain.needs(me.name) != "decision":
        return []
    state = me.state()
    return [chain.game.presentation.format(c, state, me.name) for c in chain.game.legal(state, me.name)]


def view(chain: Chain, me: Party | None) -> Any:
    if chain.public is None:  # a referee or peer game before its set-up: nothing to show yet
        raise PbemError(
            f"{chain.game.info.title} is not set up yet: it waits for {', '.join(chain.writers()) or 'nobody'}",
            hint="the set-up comes once every seat has joined: pbem status DIR says who is next",
        )
    if me is None or me.is_dealer:
        return chain.game.view(chain.public if me is None else me.state(), None)
    return chain.game.view(me.state(), me.name)


def view_json(chain: Chain, me: Party | None) -> Any:
    return msgspec.to_builtins(view(chain, me))


def render(chain: Chain, me: Party | None) -> str:
    return chain.game.presentation.render(view(chain, me))


def svg(chain: Chain, me: Party | None) -> str:
    """The board as `me` (None: an observer) may see it, as SVG text."""
    return chain.game.presentation.svg(view(chain, me))


def page(chain: Chain, me: Party | None, folder_text: str) -> str:
    """The game page of `me` (None: an observer) as HTML text.

    `folder_text` is the folder as the user typed it: the page's
    `pbem submit` lines name it that way.
    """
    from pbem.errors import NoPicture
    from pbem.render.page import Page, render_page

    seen = view(chain, me)
    try:
        picture, board_text = chain.game.presentation.svg(seen), None
    except NoPicture:
        picture, board_text = None, chain.game.presentation.render(seen)
    info = status(chain)
    outcome = chain.outcome()
    result = None
    if outcome is not None:
        winners = " and ".join(outcome.winners) or "nobody"
        result = f"{winners} won: {outcome.reason}"
        if outcome.scores:
            result += " (scores: " + ", ".join(f"{k} {v}" for k, v in outcome.scores.items()) + ")"
    return render_page(
        Page(
            title=chain.game.info.title,
            game_id=chain.game_id,
            seq=chain.seq,
            folder=folder_text,
            viewer=None if me is None or me.is_dealer else me.name,
            svg=picture,
            board_text=board_text,
            # the rules' prompt ("your main phase") only while a decision is what is awaited:
            # while a seat or the dealer owes an automatic file, the page says that instead
            prompt=getattr(seen, "prompt", None) if all(w.needs == "decision" for w in info.to_act) else None,
            to_act=to_act_lines(info),
            pending=info.pending,
            commands=legal(chain, me) if me is not None else [],
            log=log_lines(chain),
            outcome=result,
        )
    )


def log_entries(chain: Chain, since: int = 0) -> dict[str, Any]:
    """The `pbem log --json` object: each file with what it did, in words
    anyone may read (no hidden card named), and the outcome. `since`: only
    the files from that seq on (a watcher that printed the others)."""
    files = []
    if since == 0:
        first = chain.records[0]
        files.append({"seq": 0, "by": first.by, "name": first.name or folder_mod.GENESIS,
                      "what": [f"set up {chain.game.info.title} for {', '.join(chain.seat_order)}"]})
    for rec in chain.records[max(since, 1):]:
        parts = []
        body = rec.body
        if body.join is not None:
            what = "shuffle layer" if body.join.layer.points else "key"  # a late deck's layers come after the set-up
            parts.append(f"joins: beacon anchor and {what}" + (" and its first link" if body.beacon else ""))
        if chain.deck is not None and rec.before is None and chain.version.setup_from_links:
            if rec.after is not None:
                parts.append("sets the game up from every seat's first beacon link")
            elif body.join is None:
                parts.append("opens its first beacon link for the set-up")
        if body.undo is not None:
            parts.append(_undo_words(chain, rec))
        parts += file_words(rec)  # a resignation, a pause, a timeout, a bot's move
        if getattr(body, "handover", None) is not None:
            h = body.handover
            parts.append(f"hands seat {h.seat} over to {h.to.name} ({h.to.fingerprint()}), "
                         f"sealing it {_cards(len(h.refs))} and the seat's secrets")
        if body.contribution is not None:
            parts.append("joins: a contribution to the game seed")
        if body.setup_seed is not None:
            parts.append("deals the game from the seed of the referee and every seat")
        # what the file itself made public may be named (the face-up card)
        state = overlay(rec.before, rec.revealed) if rec.before is not None else None
        for cmd in rec.commands:
            parts.append(chain.game.presentation.describe(cmd, state, None))
        if rec.revealed and not rec.commands:
            parts.append("reveals " + ", ".join(rec.revealed.values()))
        if rec.resumed is not None:
            seat, cmd = rec.resumed
            parts.append(f"draws the chance of {seat}'s {chain.game.presentation.describe(cmd, rec.before, None)}")
        elif body.chance is not None:
            parts.append("draws chance")
        if body.vote is not None:
            parts.append("votes (a sealed ballot)")
        if body.tally:
            parts.append("opens the ballots of " + ", ".join(o.seat for o in body.tally))
        for void in body.void:
            parts.append(f"voids {void.seat}'s ballot: " + ("no vote" if void.opening else "it cannot be opened"))
        if body.commitments and rec.seq and body.setup_seed is None:
            parts.append(f"commits to the order of {_cards(len(body.commitments))} shuffled")
        for d in body.deliveries:
            parts.append(f"deals {_cards(len(d.refs))} to {d.to}")
        hidden_partials = [p for p in body.partials if p.ref not in rec.revealed]
        if hidden_partials:
            parts.append(f"decrypts {_cards(len(hidden_partials))} for other seats")
        for box in body.sealed:
            parts.append(f"seals {_cards(len(box.refs))} to {box.to}")
        if body.layer is not None:
            parts.append("adds its shuffle layer")
        if getattr(body, "reshuffle", None) is not None:
            parts.append(f"adds its layer to {_cards(len(body.reshuffle.points))} reshuffled")
        if body.seed is not None:
            parts.append("publishes its seed")
        if body.secrets is not None:
            parts.append("publishes its secrets")
        files.append({"seq": rec.seq, "by": rec.by, "name": rec.name or folder_mod.turn_name(rec.seq, rec.by),
                      "what": parts})
    outcome = chain.outcome()
    return {
        "game": chain.game.info.name,
        "game_id": chain.game_id,
        "files": files,
        "outcome": None if outcome is None else {"winners": list(outcome.winners), "reason": outcome.reason},
    }


def log_lines(chain: Chain, since: int = 0) -> list[str]:
    """One line per file, as anyone may read it (no hidden card named)."""
    info = log_entries(chain, since)
    lines = [f"{f['seq']:6d}  {f['by']:<10} " + "; ".join(f["what"]) for f in info["files"]]
    if info["outcome"] is not None:
        lines.append(f"        over: {info['outcome']['reason']}")
    return lines


def since_mine(chain: Chain, name: str) -> list[str]:
    """What happened since `name`'s last file, in words anyone may read,
    then whose turn it is."""
    if name not in chain.seats and name != chain.dealer_name:
        raise PbemError(f"{name} is not a party of this game (seats: {', '.join(chain.seat_order)})")
    entries = log_entries(chain)["files"]
    last = max((e["seq"] for e in entries if e["by"] == name), default=None)
    if last is None:
        lines = [f"{name} has written no file yet; the game so far:"]
        after = entries
    else:
        after = [e for e in entries if e["seq"] > last]
        lines = [f"since {name}'s last file (seq {last}): "
                 + (f"{len(after)} file{'s' if len(after) != 1 else ''}" if after else "nothing new")]
    for e in after:
        lines.append(f"  seq {e['seq']}: {e['by']} " + ("; ".join(e["what"]) or "writes a file"))
    lines.append(f"now: {owed(chain, name)[1] if not chain.over else waiting_words(status(chain))}")
    return lines


def _undo_words(chain: Chain, rec) -> str:
    """An undo file in words: the move it is about, as anyone may read it."""
    u = rec.body.undo
    if u.what == "request":
        target = chain.records[u.target]
        describe = chain.game.presentation.describe
        moves = "; ".join(describe(c, overlay(target.before, target.revealed), None) for c in target.commands)
        return f"asks to take back seq {u.target} ({moves})"
    if u.what == "refuse":
        return f"refuses the undo of seq {u.target}: it stands"
    if rec.undone is not None:
        return f"accepts the undo of seq {u.target}: the game returns to before seq {u.target}"
    return f"accepts the undo of seq {u.target}"


def _cards(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


# --- writing ------------------------------------------------------------------------


def parse_commands(chain: Chain, me: Party, texts: list[str]) -> list[Any]:
    """Parse each command against the seat's state as it will be by then."""
    game = chain.game
    state = me.state()
    out = []
    for i, text in enumerate(texts):
        if i and unknown_to(state, me.name, _known_refs(state)):
            raise ProtocolError(
                f"{me.name} must see the card just drawn before the next command ({text!r})",
                hint="submit the rest after the dealer's answer (pbem sync)",
            )
        command = game.presentation.parse(text, state, me.name)
        out.append(command)
        try:
            state = game.apply(state, me.name, command, PlayChance(Tape(None, "")))
        except NeedsReveal:
            pass
        except NeedsChance:
            if i != len(texts) - 1:
                raise ProtocolError(
                    f"{text!r} draws chance: it must be the last command of this file",
                    hint="submit the rest after the answer (pbem sync)",
                ) from None
    return out


def _known_refs(state) -> set[str]:
    return {it.ref for zone in state.zones.values() for it in zone.items if isinstance(it, Known)}


class _Staged:
    """The files a command writes, checked into the chain in memory first
    and written together at the end: a refused command, or a key that cannot
    be read, writes nothing."""

    def __init__(self, folder: Path, chain: Chain, dealer_cards: dict[str, str] | None = None) -> None:
        self.folder, self.chain = folder, chain
        #: every card, when the chain was loaded as the dealer sees it
        #: (`_writer_chain`): each staged file is checked the same way
        self.dealer_cards = dealer_cards
        self.files: list[tuple[Any, bytes]] = []

    def add(self, data: bytes) -> None:
        name = _new_name(self.chain, data)  # errors name the file being written, never "file:"
        self.files.append((self.chain.append(data, name, private_openings=self.dealer_cards), data))

    @property
    def datas(self) -> list[bytes]:
        return [data for _, data in self.files]

    def write(self, notes: list[str] | None) -> list[Path]:
        from pbem.protocol import set_aside

        private = self.dealer_cards is not None  # each file checked as the dealer checks
        _say(notes, set_aside.move_aside(self.folder, self.chain))
        written = folder_mod.write_files(self.folder, self.chain, self.files, private) if self.files else []
        _say(notes, folder_mod.tidy(self.folder, self.chain))
        return written


def submit(folder: Path, name: str, texts: list[str], keys: Keys, notes: list[str] | None = None, *,
           until_reported: bool = False) -> list[Path]:
    """Write `name`'s turn (and, in hotseat, the dealer's answers).

    Rerun after a kill that left the turn written but not the dealer's
    answers (or not the report of success), it writes what is missing and
    says the turn is already in, instead of failing: the same commands as
    `name`'s last file, followed only by files with no decision, are taken
    for that finished turn when answers were still owed or when `name` is
    no longer to act. While `name` is still to act and nothing is owed (a
    turn of several files: Codex, Dark Agent, a recruit before one's own
    play), they are that run repeated only if it never reported what it
    wrote (`pbem.journal`: with `until_reported`, a note is kept until the
    caller calls `reported`, as the CLI and `pbem play` do); else
    they are a new command: played when legal, refused with the rule's
    error (exit 1) when not, with a hint naming the last file that already
    holds them.
    """
    from pbem.protocol.party import Party

    if not texts:
        raise InvalidCommand("give at least one --cmd")
    with folder_mod.writing(folder):
        chain, cards, _ = _writer_chain(folder, name, keys)
        me = party(chain, name, keys)
        dealer = _hotseat_key(folder, chain)
        if _drain(folder, chain, notes):  # keys read first: a missing key writes nothing
            chain, cards, _ = _writer_chain(folder, name, keys)  # the drained files too, as the dealer sees them
            me = Party(chain, me.secret)
        staged = _Staged(folder, chain, cards)
        _auto_dealer(staged, dealer)
        me = Party(chain, me.secret) if staged.files else me
        # answers owed after `name`'s own last file, or `name` not to act:
        # the turn is over, so the same commands are that turn run again;
        # else only if a run of them never reported (killed)
        finished = bool(staged.files) or name not in chain.writers()
        same = _turn_already_in(chain, me, texts)
        killed = same is not None and journal.interrupted(keys.store.home, folder, name, texts)
        done = same if finished or killed else None
        if done is None:
            try:
                me.check_no_undo_pending()
                check_turn(chain, name)  # whose turn it is, before any rule about cards
                check_protocol(chain, name, keys)
                data = me.turn(parse_commands(chain, me, texts))
            except PbemError as exc:
                if same is not None and exc.hint is None:
                    exc.hint = (f"your last file, {same.name or folder_mod.turn_name(same.seq, same.by)}, holds these "
                                "very commands: if that was this command run before, it is in the game")
                raise
            else:
                staged.add(data)
                _auto_dealer(staged, dealer)
        if done is not None:
            _say(notes, [f"{name}'s turn is already in the chain as {done.name or folder_mod.turn_name(done.seq, done.by)}"])
        if until_reported:
            journal.begin(keys.store.home, folder, name, texts)
        return staged.write(notes)


def reported(folder: Path, name: str, keys: Keys) -> None:
    """`name`'s submit in `folder` has told the user what it wrote: the same
    commands again are a new command from now on (`pbem.journal`)."""
    journal.end(keys.store.home, folder, name)


def _turn_already_in(chain: Chain, me: Party, texts: list[str]):
    """`me`'s last file, when its commands are `texts` and only files with no
    decision followed it: the record of a submit that was interrupted."""
    for record in reversed(chain.records[1:]):
        if record.by == me.name:
            break
        if record.commands:
            return None
    else:
        return None
    if len(record.commands) != len(texts) or record.before is None:
        return None
    game = chain.game
    state = overlay(record.before, me.cards)
    try:
        for text, command in zip(texts, record.commands):
            shown = game.presentation
            if shown.format(shown.parse(text, state, me.name), state, me.name) != shown.format(command, state, me.name):
                return None
            try:
                state = game.apply(state, me.name, command, PlayChance(Tape(None, "")))
            except (NeedsReveal, NeedsChance):
                pass
    except PbemError:
        return None
    return record


def sync(folder: Path, name: str, keys: Keys, notes: list[str] | None = None) -> list[Path]:
    """Write every file `name` owes that needs no decision."""
    from pbem.protocol.party import Party

    with folder_mod.writing(folder):
        chain, cards, secret = _writer_chain(folder, name, keys)
        me = party(chain, name, keys, secret)
        if _drain(folder, chain, notes):
            chain, cards, secret = _writer_chain(folder, name, keys)
            me = Party(chain, me.secret)
        if me.is_dealer and cards is None:
            chain = dealer_checked(folder, me)
            me = Party(chain, me.secret)
        dealer = _hotseat_key(folder, chain)
        staged = _Staged(folder, chain, cards)
        _auto_dealer(staged, dealer)
        while True:
            data = me.answer()
            if data is None and me.is_dealer and chain.genesis.pace is not None:
                from pbem.protocol import long_writer  # an absent or late seat (issue #24)

                bots, shown = chain.game.presentation.bots, chain.game.presentation
                bot = bots.get(shown.demo_bot, next(iter(bots.values()))) if bots else None
                data = long_writer.referee_file(chain, me.secret, folder, bot)
            if data is None:
                return staged.write(notes)
            check_protocol(chain, name, keys)
            staged.add(data)


def undo(folder: Path, name: str, what: str, keys: Keys, notes: list[str] | None = None) -> list[Path]:
    """`pbem undo request|accept|refuse`: write `name`'s undo file.

    `request` asks to take back `name`'s last move (refused when a card was
    revealed or dealt since, or in a peer game chance drawn); `accept` and
    `refuse` answer the pending request, each other seat in its turn.
    """
    if what not in ("request", "accept", "refuse"):
        raise InvalidOption(f"unknown undo step {what!r}: request, accept or refuse")
    with folder_mod.writing(folder):
        chain = open_game(folder, keys, write=True)
        me = party(chain, name, keys)
        staged = _Staged(folder, chain)
        check_protocol(chain, name, keys)
        staged.add(me.undo(what))
        return staged.write(notes)


def handover(folder: Path, name: str, to: str, keys: Keys, seat: str | None = None,
             notes: list[str] | None = None) -> list[Path]:
    """`pbem handover`: write the file handing `seat` (`name`'s own, or as
    the referee a vanished seat) over to the identity `to` (a name in the
    address book, or an identity file whose key the book holds already)."""
    with folder_mod.writing(folder):
        chain = open_game(folder, keys, write=True)
        newcomer = accepted_identity(to, keys.store)
        me = party(chain, name, keys)
        staged = _Staged(folder, chain)
        staged.add(me.handover(seat or name, newcomer))
        return staged.write(notes)


def accepted_identity(text: str, store: "KeyStore"):
    """The identity `text` names (a name, or the path of an identity file),
    as the address book holds it: a handover goes only to a key its writer
    accepted (checked with its owner), never to one first seen here."""
    from pbem.crypto.keys import read_identity_file, valid_name

    if valid_name(text) and not Path(text).is_file():
        if not store.has_public(text):
            raise KeyStoreError(f"{text} is not in your address book",
                                hint=f"check {text}'s fingerprint with them, then pbem id import THEIR-ID-FILE")
        return store.public(text)
    try:
        ident = read_identity_file(folder_mod.read(Path(text)))
    except OSError as exc:
        raise PbemError(f"cannot read {text}: {exc.strerror or exc}") from None
    known = store.public(ident.name) if store.has_public(ident.name) else None
    if known != ident:
        raise KeyStoreError(
            f"{ident.name}'s key in {text} ({ident.fingerprint()}) is not one your address book accepted",
            hint=f"check the fingerprint with {ident.name}, then pbem id import {text}")
    return ident


def _writer_chain(folder: Path, name: str, keys: Keys) -> tuple[Chain, dict[str, str] | None, SecretIdentity | None]:
    """The chain of a writing command, loaded and pinned in one pass, and
    the dealer's cards when the dealer's key is at hand (a hotseat game's
    ``dealer.key``, or the referee running `pbem sync` itself).

    The dealer refuses a file whose commands are illegal in a way only the
    hidden cards show (`dealer_checked`); knowing its cards from the
    genesis, the one replay does that check too, and the files the command
    stages are checked the same way (issue #12: one pass per submit).
    Without the key (or with one that cannot be read, which
    `_hotseat_key` reports where it matters) the chain is loaded publicly
    and `dealer_checked` replays it when the dealer must answer.
    """
    from pbem.protocol.party import Party

    found: list[Any] = []  # [cards, the referee's key when it is `name`]

    def dealer_cards(genesis: Chain) -> dict[str, str] | None:
        if genesis.dealer_mode == "hotseat" and (folder / folder_mod.DEALER_KEY).exists():
            try:
                secret = hotseat_dealer(folder, genesis)
            except PbemError:
                return None  # told by `_hotseat_key`, where the key is needed
        elif genesis.dealer_mode == "referee" and name == genesis.dealer_name and keys.store.has_secret(name):
            secret = keys.secret(name)  # asked once: returned for `party`
        else:
            return None
        found[:] = [Party(genesis, secret).cards, secret if secret.name == name else None]
        return found[0]

    chain = folder_mod.load(folder, openings_at_genesis=dealer_cards)
    keys.pin(chain, folder, write=True)
    return chain, *(found or [None, None])


def _hotseat_key(folder: Path, chain: Chain) -> SecretIdentity | None:
    """A hotseat game's dealer key, read before anything is written (a
    damaged key must not stop a command between a turn and its answer)."""
    if chain.dealer_mode != "hotseat" or chain.over:
        return None
    return hotseat_dealer(folder, chain)


def _auto_dealer(staged: _Staged, dealer: SecretIdentity | None) -> None:
    """In a hotseat game the dealer lives in the folder and answers at once."""
    from pbem.protocol import dealer as dealer_mod
    from pbem.protocol.party import Party

    chain = staged.chain
    if dealer is None:
        return
    checked = staged.dealer_cards is not None  # loaded as the dealer sees it: checked already
    while chain.dealer_name in chain.writers():
        if not checked:
            dealer_checked(staged.folder, Party(chain, dealer), staged.datas)
            checked = True
        data = dealer_mod.answer(chain, dealer)
        if data is None:
            break
        staged.add(data)


def dealer_checked(folder: Path, dealer: Party, staged: list[bytes] = ()) -> Chain:
    """Replay the folder (and the files `staged` to follow it) knowing every
    card, as only the dealer can.

    The dealer sees every hand, so it refuses to answer a file whose
    commands are illegal in a way the public state cannot show (two cards of
    one name, one of them face down): the cheat is stopped at once, with the
    cheater's signed file as evidence.
    """
    cards = dealer.cards
    chain = folder_mod.load(folder, private_openings=cards)
    for data in staged:
        chain.append(data, _new_name(chain, data), private_openings=cards)
    return chain


def _new_name(chain: Chain, data: bytes) -> str:
    """The name a file about to follow the head will have in the folder."""
    from pbem.protocol import codec

    try:
        return folder_mod.turn_name(chain.seq + 1, codec.read_envelope(data).by)
    except PbemError:
        return f"the file for seq {chain.seq + 1}"


def join(folder: Path, received: list[Path], name: str, keys: Keys) -> Path | None:
    """Make `name`'s own folder of a game from the files received (the
    genesis, and any files after it), checked as every verifier checks them
    (the set-up rebuilt from the rules, every key against the address book,
    `name`'s key against its seat) before anything is written.

    In a peer game, and in a referee game dealt after its joins when the
    seats before `name` have joined, it also writes `name`'s join file and
    returns its path (the file to send to the others); otherwise it
    returns None (a hotseat game needs no join; a later seat's join file is
    written by its `pbem sync`; a seat that wrote files of the game before
    gets its folder rebuilt from them, and writes nothing)."""
    if not received:
        raise PbemError("give the genesis file you received")
    if folder.exists() and (not folder.is_dir() or any(p.name != LOCK for p in folder.iterdir())):
        raise PbemError(f"{folder} exists and is not an empty folder")
    # a folder made anew (a lost one rebuilt at the same place): what this
    # user verified of the old one binds the new one no more, as after
    # `verify --full` (its own file that never left the lost disk is
    # written again, and with a new signed time it is another file)
    from pbem import checkpoint

    checkpoint.forget(folder)
    genesis = folder_mod.received(received[0])
    chain = Chain(genesis, received[0].name)
    rest = [folder_mod.received(p) for p in received[1:]]
    for data, path in zip(rest, received[1:]):
        chain.append(data, path.name)
    check_protocol(chain, name, keys, received[0].name)
    keys.pin(chain, folder, write=True)
    _check_seat(chain, name, keys)
    secret = seat_secret(chain, name, keys)
    if chain.identity(name) != secret.public:  # both keys, signing and sealing
        raise KeyStoreError(
            f"seat {name} in this game has the key {chain.identity(name).fingerprint()}, "
            f"not your key {name} ({secret.public.fingerprint()})"
        )
    if any(r.by == name for r in chain.records):
        # `name` entered this game before (its join, a move, a peer game's
        # genesis): its folder is being rebuilt from another seat's files,
        # and what was sealed to it is opened again from them when needed
        with _new_folder(folder):
            atomic_write(folder / folder_mod.GENESIS, genesis, exclusive=True)
            if rest:
                folder_mod.add_files(folder, Chain(genesis), rest)
            else:
                folder_mod.write_state(folder, chain)
        return None
    if chain.deck is None:  # a dealer's game
        from pbem.protocol.party import Party

        # a game dealt after its joins takes each seat's contribution, in
        # seat order: written now if it is this seat's turn, else by its
        # `pbem sync` once the seats before it have joined
        mine = Party(chain, secret).answer() if chain.writers() == [name] and not chain.dealt else None
        with _new_folder(folder):
            atomic_write(folder / folder_mod.GENESIS, genesis, exclusive=True)
            if rest or mine:
                written = folder_mod.add_files(folder, Chain(genesis), [*rest, *([mine] if mine else [])])
                return written[-1] if mine else None
            folder_mod.write_state(folder, chain)
        return None
    from pbem.protocol.peer import writer as peer_writer

    mine = peer_writer.join(chain, secret)
    with _new_folder(folder):
        atomic_write(folder / folder_mod.GENESIS, genesis, exclusive=True)
        return folder_mod.add_files(folder, Chain(genesis), [*rest, mine])[-1]


#: what a game begun under an older protocol version lacks, by dealer mode
#: and feature (`pbem.protocol.versions`), oldest feature first: why a seat
#: should not enter one unawares (the first feature its version lacks says it)
_LACKING = (
    ("referee", "contributions", "whose referee chose its seed alone (it could try seeds until the deal suited someone)"),
    ("peer", "unforeseen_chance", "whose writers could foresee the chance of their own files"),
    ("peer", "setup_from_links", "whose creator chose its set-up chance (who starts, the words on the table)"),
    ("referee", "void_ballots", "in which a ballot that cannot be tallied stops the game for good"),
    ("peer", "renewed_beacons", "in which its creator chose the length of the beacon chains (which cannot be renewed), "
                                "and a writer helped by one other seat could foresee its dice"),
)


def check_protocol(chain: Chain, name: str, keys: Keys, what: str | None = None) -> None:
    """Refuse `name`'s first file (a join, a contribution, a first move)
    in a game begun under an older protocol version than this pbem's,
    unless its user allows it knowingly (`Keys.old_protocol`).

    Verifiers still read old games, so that games begun under them keep
    verifying; but a creator could otherwise downgrade a new game to an
    older version's weaker rules (a referee trying seeds until the deal
    suits a friend), and in a shared folder nobody runs `pbem join`, so
    every seat's first file is checked, whichever command writes it. A
    hotseat game lives on one machine: nothing to refuse."""
    from pbem.protocol.formats import PROTOCOL_VERSION

    version, mode = chain.version, chain.dealer_mode
    if version.number >= PROTOCOL_VERSION or mode == "hotseat" or keys.old_protocol or name not in chain.seats:
        return
    if chain.deck is not None and chain.genesis.peer.creator == name:
        return  # its own genesis: it chose the version itself
    if any(r.by == name for r in chain.records[1:]):
        return  # it entered the game already, knowingly or before this pbem
    why = next((words for m, feature, words in _LACKING if m == mode and not getattr(version, feature)),
               "which lacks what the newest has")
    raise ProtocolError(
        f"{f'{what} begins a game' if what else 'this game was begun'} under protocol version {version.number}, {why}: "
        f"this pbem enters only games of version {PROTOCOL_VERSION}",
        hint="ask its creator to make the game again with this pbem, or, accepting what that version lacks, "
             "add --allow-old-protocol",
    )


def apply_file(folder: Path, path: Path) -> Path | None:
    """Add one received file; None when it was already in the chain (or is
    kept pending until its predecessor arrives)."""
    written = apply_files(folder, [path])
    return written[0] if written else None


def receive(folder: Path, paths: list[Path], keys: Keys | None = None, notes: list[str] | None = None):
    """`pbem apply`: add received files (raw, or armored in texts and mails)
    to a game folder, each on its own (`pbem.delivery`): files already in
    the chain are skipped with a note, the rest applied in chain order,
    early ones kept pending, bad ones returned in `.bad` (named, with the
    reason) while the others are still applied."""
    from pbem import delivery

    items = delivery.read_sources(list(paths))
    with folder_mod.writing(folder):
        chain = open_game(folder, keys, write=True)
        handed = chain.handed
        result = delivery.receive(folder, chain, items, notes)
        if keys is not None and (result.chain or chain).handed != handed:
            keys.pin(result.chain or chain, folder, write=True)  # a newcomer, on the word of its handover
        _say(notes, folder_mod.tidy(folder, result.chain or chain))
    return result


def apply_files(folder: Path, paths: list[Path], keys: Keys | None = None, notes: list[str] | None = None) -> list[Path]:
    """`receive`, raising the first bad file's error once the good ones
    are in; returns the files written."""
    result = receive(folder, paths, keys, notes)
    if result.bad:
        raise result.bad[0]
    return result.written


def _drain(folder: Path, chain: Chain, notes: list[str] | None) -> list[Path]:
    """Apply the folder's pending files that now fit, before writing."""
    from pbem import delivery

    return delivery.drain_pending(folder, chain, notes)
