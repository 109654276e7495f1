"""What each CLI command does, as library functions that know nothing of click.

Every function either finishes its job or raises a `PbemError` with the
folder untouched: files are only written after the new file was checked
against the chain (`folder.add_file`), and each write is atomic.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from pbem import games
from pbem.crypto.keys import SecretIdentity, read_secret_key_file, secret_key_file
from pbem.crypto.store import KeyStore
from pbem.errors import InvalidCommand, InvalidOption, KeyStoreError, PbemError, ProtocolError
from pbem.fsio import atomic_write
from pbem.games.base import Known, NeedsReveal, SeatSpec, overlay, unknown_to
from pbem.protocol import dealer as dealer_mod
from pbem.protocol import folder as folder_mod
from pbem.protocol.chain import Chain
from pbem.protocol.chance import NoChance, hotseat_seed
from pbem.protocol.party import Party

@dataclass
class Keys:
    """Where keys come from: a store and a way to ask for a passphrase
    (given the key's name when `named`, so a prompt can say which)."""

    store: KeyStore
    passphrase: Callable[..., str]
    named: bool = False

    def secret(self, name: str) -> SecretIdentity:
        ask = (lambda: self.passphrase(name)) if self.named else self.passphrase
        return self.store.secret(name, ask)


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
        out[key.strip()] = value.strip()
    return out


def read_option_file(key: str, value: str) -> list[str]:
    """The lines of the file an option names (``--option words=FILE``)."""
    try:
        return Path(value).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise InvalidOption(f"option {key}: cannot read {value}: {reason}") from None


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
) -> Chain:
    """Write the genesis (and, in hotseat, the dealer's key) into a new folder."""
    game = games.get(game_name)
    raw: dict[str, Any] = dict(parse_options(list(options)))
    for key in game.file_options & set(raw):
        raw[key] = read_option_file(key, raw[key])
    scenario = set(raw) & game.scenario_options
    if scenario and dealer != "hotseat":
        raise InvalidOption(
            f"option {', '.join(sorted(scenario))} fixes hidden cards: only for hotseat games",
        )
    opts = game.options(raw)
    specs = game.seats(opts, [parse_seat(s) for s in seats])
    idents = [(spec, keys.store.public(spec.name)) for spec in specs]
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise PbemError(f"{folder} exists and is not an empty folder")
    if dealer == "peer":
        if referee or seed is not None:
            raise InvalidOption("a peer game has no referee and no fixed seed")
        if not creator:
            raise InvalidOption("a peer game is created by one of its seats: add --as NAME")
        from pbem.protocol import peer_writer

        data = peer_writer.make_genesis(game, opts, idents, keys.secret(creator))
        chain = Chain(data)
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write(folder / folder_mod.GENESIS, data, exclusive=True)
        folder_mod.write_state(folder, chain)
        return chain
    if creator:
        raise InvalidOption("--as is only for --dealer peer (the dealer writes the genesis)")
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
    data = dealer_mod.make_genesis(game, opts, idents, dealer, dealer_secret, master)
    chain = Chain(data)  # check what we are about to write
    folder.mkdir(parents=True, exist_ok=True)
    if dealer == "hotseat":
        atomic_write(folder / folder_mod.DEALER_KEY, secret_key_file(dealer_secret, None), mode=0o600)
    atomic_write(folder / folder_mod.GENESIS, data, exclusive=True)
    folder_mod.write_state(folder, chain)
    return chain


# --- reading a game ---------------------------------------------------------------


def open_game(folder: Path) -> Chain:
    return folder_mod.load(folder)


def hotseat_dealer(folder: Path, chain: Chain) -> SecretIdentity:
    path = folder / folder_mod.DEALER_KEY
    if not path.exists():
        raise KeyStoreError(f"this hotseat game has lost its {folder_mod.DEALER_KEY}")
    secret = read_secret_key_file(folder_mod.read(path), lambda: "")
    if secret.public != chain.genesis.dealer.identity:
        raise KeyStoreError(f"{folder_mod.DEALER_KEY} is not the key of this game's dealer")
    return secret


def verify(folder: Path, repair: bool = False) -> Chain:
    """Check every file: the chain, the state cache, a hotseat dealer's key."""
    chain = folder_mod.load(folder)
    if chain.dealer_mode == "hotseat" and (folder / folder_mod.DEALER_KEY).exists():
        hotseat_dealer(folder, chain)
    if repair:
        folder_mod.write_state(folder, chain)
    else:
        folder_mod.check_state_cache(folder, chain)
    return chain


def party(chain: Chain, name: str, keys: Keys) -> Party:
    if name not in chain.seats and name != chain.dealer_name:
        raise KeyStoreError(
            f"{name} has no seat in this game", hint=f"seats: {', '.join(chain.seat_order)}"
        )
    return Party(chain, keys.secret(name))


def status(chain: Chain) -> dict[str, Any]:
    """The `pbem status --json` object."""
    outcome = chain.outcome()
    to_act = [{"seat": s, "needs": chain.needs(s)} for s in chain.writers()]
    owed = chain.obligations()
    if owed and owed[0].what == "join":
        to_act[0]["join"] = True  # answered with `pbem join`, not `pbem sync`
    pending = [_pending_line(o) for o in owed]
    info = {
        "game": chain.game.name,
        "game_id": chain.game_id,
        "seq": chain.seq,
        "dealer": {"mode": chain.dealer_mode, "name": chain.dealer_name},
        "seats": [{"name": s.name, "role": s.role} for s in chain.genesis.seats],
        "to_act": to_act,
        "over": outcome is not None,
        "outcome": None if outcome is None else {"winners": list(outcome.winners), "reason": outcome.reason},
        "pending": pending,
    }
    if chain.deck is not None:
        info["chance_note"] = (
            "peer game: chance comes from every seat's beacon; the writer of a file can "
            "compute the chance inside that file before writing it (it cannot change it)"
        )
    return info


def to_act_lines(info: dict[str, Any]) -> list[str]:
    """Who must write next, in words, from a `status` object."""
    lines = []
    for who in info["to_act"]:
        if who.get("join"):
            what = "must join (pbem join DIR GENESIS --as NAME, then send the file it prints)"
        elif who["needs"] == "decision":
            what = "must decide"
        else:
            what = "owes an automatic answer (pbem sync)"
        lines.append(f"{who['seat']} {what}")
    return lines


def _pending_line(o) -> str:
    """An obligation in words (refs are opaque labels, not cards)."""
    n = len(o.refs)
    cards = f"{n} card{'s' if n != 1 else ''}"
    return {
        "reveal": f"{o.by} must reveal {cards}",
        "deliver": f"{o.by} owes {cards}" + (f" to {o.to}" if o.to else " (decryptions)"),
        "publish-seed": f"{o.by} must publish its seed (the game is over)",
        "join": f"{o.by} must join",
        "publish-secrets": f"{o.by} must publish its secrets (the game is over)",
    }[o.what]


def legal(chain: Chain, me: Party) -> list[str]:
    if me.is_dealer or me.name not in chain.writers():
        return []
    state = me.state()
    return [chain.game.format(c, state, me.name) for c in chain.game.legal(state, me.name)]


def view(chain: Chain, me: Party | None) -> Any:
    if me is None or me.is_dealer:
        return chain.game.view(chain.public if me is None else me.state(), None)
    return chain.game.view(me.state(), me.name)


def view_json(chain: Chain, me: Party | None) -> Any:
    return msgspec.to_builtins(view(chain, me))


def render(chain: Chain, me: Party | None) -> str:
    return chain.game.render(view(chain, me))


def svg(chain: Chain, me: Party | None) -> str:
    """The board as `me` (None: an observer) may see it, as SVG text."""
    return chain.game.svg(view(chain, me))


def page(chain: Chain, me: Party | None, folder_text: str) -> str:
    """The game page of `me` (None: an observer) as HTML text.

    `folder_text` is the folder as the user typed it: the page's
    `pbem submit` lines name it that way.
    """
    from pbem.errors import NoPicture
    from pbem.render.page import Page, render_page

    seen = view(chain, me)
    try:
        picture, board_text = chain.game.svg(seen), None
    except NoPicture:
        picture, board_text = None, chain.game.render(seen)
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
            title=chain.game.title,
            game_id=chain.game_id,
            seq=chain.seq,
            folder=folder_text,
            viewer=None if me is None or me.is_dealer else me.name,
            svg=picture,
            board_text=board_text,
            prompt=getattr(seen, "prompt", None),
            to_act=to_act_lines(info),
            pending=info["pending"],
            commands=legal(chain, me) if me is not None else [],
            log=log_lines(chain),
            outcome=result,
        )
    )


def log_lines(chain: Chain) -> list[str]:
    """One line per file, as anyone may read it (no hidden card named)."""
    first = chain.records[0].by
    lines = [f"{0:6d}  {first:<10} set up {chain.game.title} for {', '.join(chain.seat_order)}"]
    for rec in chain.records[1:]:
        parts = []
        body = rec.body
        if body.join is not None:
            parts.append("joins: beacon anchor and shuffle layer")
        # what the file itself made public may be named (the face-up card)
        state = overlay(rec.before, rec.revealed)
        for cmd in rec.commands:
            parts.append(chain.game.describe(cmd, state, None))
        if rec.revealed and not rec.commands:
            parts.append("reveals " + ", ".join(rec.revealed.values()))
        for d in body.deliveries:
            parts.append(f"deals {_cards(len(d.refs))} to {d.to}")
        hidden_partials = [p for p in body.partials if p.ref not in rec.revealed]
        if hidden_partials:
            parts.append(f"decrypts {_cards(len(hidden_partials))} for other seats")
        for box in body.sealed:
            parts.append(f"seals {_cards(len(box.refs))} to {box.to}")
        if body.seed is not None:
            parts.append("publishes its seed")
        if body.secrets is not None:
            parts.append("publishes its secrets")
        lines.append(f"{rec.seq:6d}  {rec.by:<10} " + "; ".join(parts))
    outcome = chain.outcome()
    if outcome is not None:
        lines.append(f"        over: {outcome.reason}")
    return lines


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
        command = game.parse(text, state, me.name)
        out.append(command)
        try:
            state = game.apply(state, me.name, command, NoChance())
        except NeedsReveal:
            pass
    return out


def _known_refs(state) -> set[str]:
    return {it.ref for zone in state.zones.values() for it in zone.items if isinstance(it, Known)}


def submit(folder: Path, name: str, texts: list[str], keys: Keys) -> list[Path]:
    """Write `name`'s turn (and, in hotseat, the dealer's answers)."""
    if not texts:
        raise InvalidCommand("give at least one --cmd")
    chain = folder_mod.load(folder)
    me = party(chain, name, keys)
    written = _auto_dealer(folder, chain)
    if written:
        me = party(chain, name, keys)
    commands = parse_commands(chain, me, texts)
    data = me.turn(commands)
    written.append(folder_mod.add_file(folder, chain, data))
    written += _auto_dealer(folder, chain)
    return written


def sync(folder: Path, name: str, keys: Keys) -> list[Path]:
    """Write every file `name` owes that needs no decision."""
    chain = folder_mod.load(folder)
    me = party(chain, name, keys)
    if me.is_dealer:
        chain = dealer_checked(folder, me)
        me = Party(chain, me.secret)
    written = _auto_dealer(folder, chain)
    while True:
        data = me.answer()
        if data is None:
            return written
        written.append(folder_mod.add_file(folder, chain, data))


def _auto_dealer(folder: Path, chain: Chain) -> list[Path]:
    """In a hotseat game the dealer lives in the folder and answers at once."""
    if chain.dealer_mode != "hotseat":
        return []
    written = []
    dealer = None
    while chain.dealer_name in chain.writers():
        if dealer is None:
            dealer = hotseat_dealer(folder, chain)
            dealer_checked(folder, Party(chain, dealer))
        data = dealer_mod.answer(chain, dealer)
        if data is None:
            break
        written.append(folder_mod.add_file(folder, chain, data))
    return written


def dealer_checked(folder: Path, dealer: Party) -> Chain:
    """Replay the folder knowing every card, as only the dealer can.

    The dealer sees every hand, so it refuses to answer a file whose
    commands are illegal in a way the public state cannot show (two cards of
    one name, one of them face down): the cheat is stopped at once, with the
    cheater's signed file as evidence.
    """
    return folder_mod.load(folder, private_openings=dealer.cards)


def join(folder: Path, received: list[Path], name: str, keys: Keys) -> Path:
    """Make `name`'s own folder of a peer game from the files received (the
    genesis, and the join files of seats before it) and write its join file."""
    from pbem.protocol import peer_writer

    if not received:
        raise PbemError("give the genesis file you received")
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise PbemError(f"{folder} exists and is not an empty folder")
    genesis = folder_mod.read(received[0])
    chain = Chain(genesis, received[0].name)
    if chain.deck is None:
        raise PbemError("this is not a peer game: nothing to join", hint="pbem apply adds files to a folder")
    rest = [folder_mod.read(p) for p in received[1:]]
    for data, path in zip(rest, received[1:]):
        chain.append(data, path.name)
    secret = keys.secret(name)
    if chain.identity(name).sign != secret.public.sign:
        raise KeyStoreError(f"the key named {name} is not the key that sits in this game")
    mine = peer_writer.join(chain, secret)
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write(folder / folder_mod.GENESIS, genesis, exclusive=True)
    replay = Chain(genesis)
    for data in rest:
        folder_mod.add_file(folder, replay, data)
    return folder_mod.add_file(folder, replay, mine)


def apply_file(folder: Path, path: Path) -> Path:
    return apply_files(folder, [path])[0]


def apply_files(folder: Path, paths: list[Path]) -> list[Path]:
    """Add received files to a game folder, in chain order: all or none."""
    chain = folder_mod.load(folder)
    return folder_mod.incoming_all(folder, chain, [folder_mod.read(p) for p in paths])
