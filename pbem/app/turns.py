"""Whose turn it is, in the same words everywhere.

`status`, `legal`, `sync`, `submit` and the watchers all say what a party
owes from one source, `status` here (itself read from `Chain.writers()` /
`Chain.needs()`), so they can never disagree: a seat that submits out of
turn is told whose turn it is before any rule is asked about its cards.
`overview` is `pbem status --all`. (`pbem log --since-mine` is
`reading.since_mine`, a view of the log.)
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

import msgspec

from pbem.errors import PbemError, WrongWriter
from pbem.protocol.turn_parts import PendingUndo

if TYPE_CHECKING:
    from pbem.protocol.chain import Chain


# --- the status record: what `pbem status --json` prints (schemas/status.json) --------


class Dealer(msgspec.Struct, frozen=True):
    mode: Literal["hotseat", "referee", "peer"]
    name: str


class Seat(msgspec.Struct, frozen=True):
    name: str
    role: str | None


class ToAct(msgspec.Struct, frozen=True, omit_defaults=True):
    """A party that owes the next file: `needs` is ``decision`` (a command)
    or ``auto`` (an automatic answer); `join`: it owes its join; `undo`: it
    must answer a pending undo (`pbem undo accept|refuse`)."""

    seat: str
    needs: Literal["decision", "auto"]
    join: bool = False
    undo: bool = False


class Result(msgspec.Struct, frozen=True):
    winners: list[str]
    reason: str


class Status(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Where a game stands, as every reader of it is told: the CLI, the
    watchers, the page, the mail and `--json` (whose schema is this
    Struct's). `outcome` is null until the game ends; `undo` and `notes`
    appear only when there is one."""

    game: str
    game_id: str
    seq: int
    dealer: Dealer
    seats: list[Seat]
    to_act: list[ToAct]
    dealt: bool
    over: bool
    outcome: Result | None
    #: what is owed, in words (refs are opaque labels, not cards)
    pending: list[str]
    undo: PendingUndo | None = None
    #: each seat's clock in words, in a game with an agreed pace (protocol version 6)
    clock: list[str] = []
    #: harmless oddities of the folder (copies of a file, repaired line endings)
    notes: list[str] = []
    #: what each party may know of chance in this game's dealer mode
    chance: list[str] = []


class Row(msgspec.Struct, frozen=True, kw_only=True):
    """A game of `pbem status --all`."""

    dir: str
    game: str
    game_id: str
    seq: int
    dealer: str
    to_act: list[ToAct]
    over: bool
    outcome: Result | None
    waiting: str


class UnreadableRow(msgspec.Struct, frozen=True, kw_only=True):
    """A folder of `pbem status --all` that cannot be read."""

    dir: str
    error: str


def status(chain: Chain) -> Status:
    """Where the game stands (`pbem status --json`)."""
    outcome = chain.outcome()
    owed = chain.obligations()
    # join: answered with `pbem join` into one's own folder, or with `pbem
    # sync` in a folder everyone shares (joining in place)
    joining = bool(owed) and owed[0].what == "join"
    undo = chain.pending_undo()
    to_act = [ToAct(seat=s, needs=chain.needs(s), join=joining and k == 0, undo=undo is not None)
              for k, s in enumerate(chain.writers())]
    pending = [_pending_line(o, peer=chain.deck is not None) for o in owed]
    for seat, (ballot, _, why) in chain.voided.items():  # the voter, never an honest keeper, is named
        if seat not in chain.ballots:
            pending.append(f"{seat}'s ballot (seq {ballot}) was void: {why}; {seat} votes again")
    if undo is not None:
        accepted = f" (accepted by {', '.join(undo.accepted)})" if undo.accepted else ""
        pending.append(f"undo: {undo.by} asks to take back seq {undo.target}{accepted}; "
                       f"waiting for {', '.join(undo.waiting)}")
    from pbem.app.clock_words import clock_lines
    from pbem.protocol.foresight import chance_knowledge

    return Status(
        game=chain.game.info.name,
        game_id=chain.game_id,
        seq=chain.seq,
        dealer=Dealer(chain.dealer_mode, chain.dealer_name),
        seats=[Seat(s.name, s.role) for s in chain.genesis.seats],
        to_act=to_act,
        dealt=chain.dealt,
        over=outcome is not None,
        outcome=None if outcome is None else Result(list(outcome.winners), outcome.reason),
        pending=pending,
        undo=undo,
        clock=clock_lines(chain),
        notes=list(chain.notes),  # harmless, but said (by `verify` and the watchers)
        chance=chance_knowledge(chain),  # printed once by `pbem info DIR`, not by every status
    )


def to_act_lines(info: Status) -> list[str]:
    """Who must write next, in words, from a `status`."""
    lines = []
    for who in info.to_act:
        if who.undo:
            what = "must accept or refuse an undo (pbem undo accept|refuse DIR --as NAME)"
        elif who.join:
            what = ("must join (in a shared folder: pbem sync DIR --as NAME; in one's own: "
                    "pbem join DIR GENESIS --as NAME, then send the file it prints)")
        elif who.needs == "decision":
            what = "must decide"
        else:
            what = "owes an automatic answer (pbem sync)"
        lines.append(f"{who.seat} {what}")
    return lines


def _pending_line(o, peer: bool = False) -> str:
    """An obligation in words (refs are opaque labels, not cards)."""
    n = len(o.refs)
    cards = f"{n} card{'s' if n != 1 else ''}"
    return {
        "reveal": f"{o.by} must reveal {cards}",
        "deliver": f"{o.by} owes {cards}" + (f" to {o.to}" if o.to else " (decryptions)"),
        "publish-seed": f"{o.by} must publish its seed (the game is over)",
        "join": f"{o.by} must join",
        "publish-secrets": f"{o.by} must publish its secrets (the game is over)",
        "deal": f"{o.by} must deal (every seat has joined)",
        "set-up": f"{o.by} must open its beacon link, which sets the game up (every seat has joined)",
        "layer": f"{o.by} must add its shuffle layer to the deck the set-up dealt",
        "rekey": f"{o.by}'s newcomer must put its fresh layers and beacon chain in place of the old player's",
        "chance": f"{o.by} must draw the chance of {o.to}'s last command" if o.to else f"{o.by} must draw chance",
        "commit": f"{o.by} must commit to the order of {cards} shuffled",
        "tally": f"{o.by} must open its own ballot" if peer else
                 f"{o.by} must open the vote's ballots it keeps, or void those it cannot tally",
        "reshuffle": f"{o.by} must add its layer to {cards} reshuffled",
    }[o.what]


def waiting_words(info: Status) -> str:
    """Who the game waits for and for what, from a `status`."""
    if info.outcome is not None and not info.to_act:
        return f"nobody: the game is over ({info.outcome.reason})"
    return "; ".join(to_act_lines(info)) or "nobody"


def owed(chain, name: str) -> tuple[str, str]:
    """(what `name` owes: "decision", "undo", "join", "auto" or "nothing",
    the sentence that says so)."""
    info = status(chain)
    mine = next((w for w in info.to_act if w.seat == name), None)
    if mine is None:
        return "nothing", f"{name} has nothing to do now: {waiting_words(info)}"
    if mine.undo:
        return "undo", f"{name} must accept or refuse an undo (pbem undo accept|refuse DIR --as {name})"
    if mine.join:
        return "join", waiting_words(info)
    if mine.needs == "auto":
        return "auto", f"{name} owes an automatic answer (pbem sync DIR --as {name})"
    return "decision", f"{name} must decide"


def check_turn(chain, name: str) -> None:
    """Refuse a move by `name` out of turn, saying whose turn it is (never
    a rules error about cards the seat does not hold yet)."""
    what, words = owed(chain, name)
    if what == "nothing":
        raise WrongWriter(f"it is not {name}'s turn: {waiting_words(status(chain))}")
    if what == "auto":
        raise WrongWriter(f"{name} first owes an automatic answer, which needs no command",
                          hint=f"pbem sync DIR --as {name}")


def _remembered(folder: Path) -> Status | None:
    """The `Status` the last full `pbem status` of `folder` printed,
    when nothing it depends on changed since (`pbem.gamedir.status_memo`):
    a player's list of games need not load each one."""
    from pbem.gamedir import status_memo

    data = status_memo.recall_data(folder)
    if data is None:
        return None
    try:
        return msgspec.convert(data, type=Status)
    except msgspec.ValidationError:  # another pbem's Status: computed afresh
        return None


def overview(folders: list[Path]) -> list[Row | UnreadableRow]:
    """`pbem status --all`: one row per game folder, in the order given (a
    folder that cannot be read is a row with its error)."""
    from pbem.gamedir import folder as folder_mod

    rows: list[Row | UnreadableRow] = []
    for folder in folders:
        info = _remembered(folder)
        if info is None:
            try:
                chain = folder_mod.load(folder)
            except PbemError as exc:
                rows.append(UnreadableRow(dir=str(folder), error=exc.message))
                continue
            info = status(chain)
        rows.append(Row(dir=str(folder), game=info.game, game_id=info.game_id, seq=info.seq, dealer=info.dealer.mode,
                        to_act=info.to_act, over=info.over, outcome=info.outcome, waiting=waiting_words(info)))
    return rows
