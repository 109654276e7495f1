"""Writing the files of long games: a resignation, a pause, a timeout, and
the referee's bot moves for an absent seat (`pbem.protocol.long_games`
says what every verifier checks of them; each is checked by appending it
to the chain before anything is written)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import msgspec

from pbem.crypto.encoding import canonical
from pbem.errors import ProtocolError, WrongWriter
from pbem.games.base import Bot, overlay
from pbem.protocol import clock as clock_mod, codec, transition
from pbem.protocol.commitments import state_hash
from pbem.protocol.formats import TurnBody
from pbem.protocol.long_parts import Pause, Resign, Timeout
from pbem.protocol.versions import first

if TYPE_CHECKING:
    from pathlib import Path

    from pbem.games.base import GameState

    from pbem.crypto.keys import SecretIdentity
    from pbem.protocol.chain import Chain


def _signed(chain: Chain, me: SecretIdentity, state: GameState | None = None, **part: Any) -> bytes:
    """`me`'s file of `part`, at the head, signed with the time now; its
    state the head's unless a bot's move changes it."""
    body = TurnBody(game_id=chain.game_id, seq=chain.seq + 1, prev=chain.head, by=me.name,
                    at=clock_mod.stamp(clock_mod.now()), state=state_hash(chain.public if state is None else state), **part)
    return codec.encode_signed("turn", body, me)


def _long_game(chain: Chain, what: str) -> None:
    if not chain.version.long_games:
        raise ProtocolError(f"this game was begun under protocol version {chain.version.number}, which has no {what}",
                            hint=f"games begun from protocol version {first('long_games')} on have it")


def resign(chain: Chain, me: SecretIdentity, note: str = "") -> bytes:
    _long_game(chain, "resignation")
    return _signed(chain, me, resign=Resign(note=note))


def pause(chain: Chain, me: SecretIdentity, start: str, end: str) -> bytes:
    _long_game(chain, "pause")
    now = clock_mod.now()
    begin = clock_mod.parse_when(start, now) if start else now
    return _signed(chain, me, pause=Pause(clock_mod.stamp(begin), clock_mod.stamp(clock_mod.parse_when(end, begin))))


def late_seat(clocks: clock_mod.Clocks, at: int, seat: str | None = None) -> str:
    """The seat whose time is out (the one named, or the first there is)."""
    late = [s for s in clocks.since if clocks.left(s, at) <= 0]
    if seat is not None:
        if seat not in late:
            left = clocks.left(seat, at) if seat in clocks.since else None
            raise ProtocolError(f"{seat}'s time is not out" + (f": {clock_mod.words(left)} left" if left else
                                                                 " (it is not to move)"))
        return seat
    if not late:
        running = ", ".join(f"{s} has {clock_mod.words(clocks.left(s, at))} left" for s in sorted(clocks.since))
        raise ProtocolError(f"nobody's time is out ({running or 'no clock runs'})")
    return sorted(late)[0]


def claim(chain: Chain, me: SecretIdentity, seat: str | None = None) -> bytes:
    """A peer seat's timeout file: its claim that a seat's time is out, or
    its acceptance of the pending claim."""
    _long_game(chain, "clock")
    if chain.mode.name != "peer":
        raise ProtocolError(f"in a {chain.mode.name} game a seat claims no timeout: "
                            + ("the referee keeps the clock" if chain.mode.name == "referee" else
                               "everyone plays at one table"))
    pending = chain.now.claim
    if pending is not None:
        return _signed(chain, me, timeout=Timeout(seat=pending.seat, what="accept"))
    clocks = clock_mod.compute(chain)
    if clocks is None:
        raise ProtocolError("this game has no agreed pace: there is no clock to run out")
    return _signed(chain, me, timeout=Timeout(seat=late_seat(clocks, clock_mod.now(), seat), what="claim"))


def referee_file(chain: Chain, referee: SecretIdentity, folder: Path, bot: Bot | None) -> bytes | None:
    """What the referee writes now for an absent or late seat, as the
    genesis agreed (`Pace.absent`): the move of `bot` (the game's, which
    the app chooses: the protocol knows no bot) for a seat absent already,
    or, for a seat whose time is out by the referee's own clock, the file
    that abandons the game or the bot's first move. None: nothing."""
    due = _due(chain, folder)
    if due is None:
        return None
    seat, since = due
    pace = chain.genesis.pace
    assert pace is not None  # `_due` found a seat: the game has a pace
    if pace.absent == "bot":
        return bot_move(chain, referee, seat, bot, since)
    return _signed(chain, referee, timeout=Timeout(seat=seat, what="abandon", since=since))


def referee_acts(chain: Chain, folder: Path) -> bool:
    """Whether the referee has a file to write for an absent or late seat."""
    return _due(chain, folder) is not None


def _due(chain: Chain, folder: Path) -> tuple[str, str | None] | None:
    """The seat the referee acts for now, and its time of receipt of the
    file that began the seat's turn: an absent seat to move, or one whose
    time is out by the referee's clock (`received`)."""
    pace = chain.genesis.pace
    if pace is None or pace.absent == "none" or chain.outcome() is not None or chain.obligations():
        return None
    writers = chain.writers()
    if len(writers) == 1 and writers[0] in chain.now.absent:
        return writers[0], None
    clocks = clock_mod.compute(chain)
    assert clocks is not None  # the game has a pace
    at = clock_mod.now()
    for seat in sorted(clocks.since, key=chain.seat_order.index):
        if seat not in writers:
            continue
        since = received(folder, chain, clocks.since[seat])
        if at >= clocks.deadline(seat, clock_mod.parse_stamp(since) if since else None):
            return seat, since
    return None


def received(folder: Path, chain: Chain, began: int) -> str | None:
    """The referee's time of receipt of the file that began the late
    seat's turn: when that file arrived in the referee's own folder (its
    modification time), if later than the file's own time and not in the
    future; otherwise none (the file's own time stands)."""
    record = next((r for r in reversed(chain.records[1:])
                   if isinstance(r.body, TurnBody) and r.body.at is not None and clock_mod.parse_stamp(r.body.at) <= began), None)
    if record is None or not record.name:
        return None
    try:
        mtime = int((folder / record.name).stat().st_mtime)
    except OSError:
        return None
    if began < mtime <= clock_mod.now():
        return clock_mod.stamp(mtime)
    return None


def bot_move(chain: Chain, referee: SecretIdentity, seat: str, bot: Bot | None, since: str | None = None,
             rng: random.Random | None = None) -> bytes:
    """The referee's file playing one command for absent `seat` with the
    game's bot, from what `seat` may see (the bot reads no other card)."""
    from pbem.games.refchoice import rechoose_refs
    from pbem.protocol.party import Party

    game = chain.game
    if bot is None:
        raise ProtocolError(f"{game.info.name} has no bot to play for {seat}")
    me = Party(chain, referee)
    if not me.is_dealer:
        raise WrongWriter("only the referee plays for an absent seat")
    cards = me.cards
    known = chain.knows(seat)
    state = overlay(chain.public, {r: c for r, c in cards.items() if r in known})
    rng = rng or random.Random()
    command = bot(game, state, seat, rng)
    commands = rechoose_refs(game, state, seat, [command], rng.randrange)
    effect = transition.run(game, chain.public, seat, commands,
                            source=lambda ref: cards.get(ref) if ref in known else None,
                            writer_knows=lambda st: known)
    return _signed(chain, referee, effect.state, timeout=Timeout(seat=seat, what="bot", since=since),
                   commands=[msgspec.Raw(canonical(c)) for c in commands],
                   reveals=[me.openings[ref] for ref in effect.revealed])
