"""Writing to a game: a turn (`submit`), what needs no decision (`sync`),
undo and handover files, and the hotseat dealer's answers.

Every function either finishes its job or raises a `PbemError` with the
folder untouched: a writing command holds the folder's lock
(`folder_write.writing`), loads the chain, loads every key it will need and checks
every file it will write in memory (`Staged`) before the first write; each
write is atomic. A command killed between two writes leaves a shorter valid
chain that rerunning it completes; a stale `state.pbem` or a stray temporary
file is repaired by the next writer (`folder_write.tidy`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.app.opening import Keys, add_notes, check_protocol, hotseat_dealer, open_game, party
from pbem.app.turns import check_turn
from pbem.crypto.keys import SecretIdentity
from pbem.errors import InvalidCommand, InvalidOption, PbemError, ProtocolError
from pbem.gamedir import folder as folder_mod, folder_write
from pbem.games.base import Known, NeedsReveal, overlay, unknown_to
from pbem.home import journal
from pbem.protocol.chain import Chain
from pbem.protocol.chance import NeedsChance, PlayChance, Tape

# What only writers and seats need (the dealer, sealing and its AEAD, the
# key-file cipher) is imported inside the functions that use it, so that
# `status`, `log` and an observer's `show` load none of it (issue #12).
if TYPE_CHECKING:
    from pbem.protocol.party import Party


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


class Staged:
    """The files a command writes, checked into the chain in memory first
    and written together at the end: a refused command, or a key that cannot
    be read, writes nothing."""

    def __init__(self, folder: Path, chain: Chain, dealer_cards: dict[str, str] | None = None) -> None:
        self.folder, self.chain = folder, chain
        #: every card, when the chain was loaded as the dealer sees it
        #: (`writer_chain`): each staged file is checked the same way
        self.dealer_cards = dealer_cards
        self.files: list[tuple[Any, bytes]] = []

    def add(self, data: bytes) -> None:
        name = _new_name(self.chain, data)  # errors name the file being written, never "file:"
        self.files.append((self.chain.append(data, name, private_openings=self.dealer_cards), data))

    @property
    def datas(self) -> list[bytes]:
        return [data for _, data in self.files]

    def write(self, notes: list[str] | None) -> list[Path]:
        from pbem.gamedir import set_aside

        private = self.dealer_cards is not None  # each file checked as the dealer checks
        add_notes(notes, set_aside.move_aside(self.folder, self.chain))
        written = folder_write.write_files(self.folder, self.chain, self.files, private) if self.files else []
        add_notes(notes, folder_write.tidy(self.folder, self.chain))
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
    wrote (`pbem.home.journal`: with `until_reported`, a note is kept until the
    caller calls `reported`, as the CLI and `pbem play` do); else
    they are a new command: played when legal, refused with the rule's
    error (exit 1) when not, with a hint naming the last file that already
    holds them.
    """
    from pbem.protocol.party import Party

    if not texts:
        raise InvalidCommand("give at least one --cmd")
    with folder_write.writing(folder):
        chain, cards, _ = writer_chain(folder, name, keys)
        me = party(chain, name, keys)
        dealer = hotseat_key(folder, chain)
        if _drain(folder, chain, notes):  # keys read first: a missing key writes nothing
            chain, cards, _ = writer_chain(folder, name, keys)  # the drained files too, as the dealer sees them
            me = Party(chain, me.secret)
        staged = Staged(folder, chain, cards)
        auto_dealer(staged, dealer)
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
                auto_dealer(staged, dealer)
        if done is not None:
            add_notes(notes, [f"{name}'s turn is already in the chain as {done.name or folder_mod.turn_name(done.seq, done.by)}"])
        if until_reported:
            journal.begin(keys.store.home, folder, name, texts)
        return staged.write(notes)


def reported(folder: Path, name: str, keys: Keys) -> None:
    """`name`'s submit in `folder` has told the user what it wrote: the same
    commands again are a new command from now on (`pbem.home.journal`)."""
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

    with folder_write.writing(folder):
        chain, cards, secret = writer_chain(folder, name, keys)
        me = party(chain, name, keys, secret)
        if _drain(folder, chain, notes):
            chain, cards, secret = writer_chain(folder, name, keys)
            me = Party(chain, me.secret)
        if me.is_dealer and cards is None:
            chain = dealer_checked(folder, me)
            me = Party(chain, me.secret)
        dealer = hotseat_key(folder, chain)
        staged = Staged(folder, chain, cards)
        auto_dealer(staged, dealer)
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
    with folder_write.writing(folder):
        chain = open_game(folder, keys, write=True)
        me = party(chain, name, keys)
        staged = Staged(folder, chain)
        check_protocol(chain, name, keys)
        staged.add(me.undo(what))
        return staged.write(notes)


def handover(folder: Path, name: str, to: str, keys: Keys, seat: str | None = None,
             notes: list[str] | None = None) -> list[Path]:
    """`pbem handover`: write the file handing `seat` (`name`'s own, or as
    the referee a vanished seat) over to the newcomer `to` names: its
    signed acceptance (`pbem handover accept`; a version-7 game needs it),
    or a name in the address book or an identity file whose key the book
    holds already (`handing.newcomer`)."""
    from pbem.app import handing

    with folder_write.writing(folder):
        chain = open_game(folder, keys, write=True)
        me = party(chain, name, keys)
        newcomer = handing.newcomer(chain, to, seat or name, name, keys)
        staged = Staged(folder, chain)
        staged.add(me.handover(seat or name, *newcomer))
        return staged.write(notes)


def writer_chain(folder: Path, name: str, keys: Keys) -> tuple[Chain, dict[str, str] | None, SecretIdentity | None]:
    """The chain of a writing command, loaded and pinned in one pass, and
    the dealer's cards when the dealer's key is at hand (a hotseat game's
    ``dealer.key``, or the referee running `pbem sync` itself).

    The dealer refuses a file whose commands are illegal in a way only the
    hidden cards show (`dealer_checked`); knowing its cards from the
    genesis, the one replay does that check too, and the files the command
    stages are checked the same way (issue #12: one pass per submit).
    Without the key (or with one that cannot be read, which
    `hotseat_key` reports where it matters) the chain is loaded publicly
    and `dealer_checked` replays it when the dealer must answer.
    """
    from pbem.home import opened
    from pbem.protocol.party import Party

    opened.install()  # the dealer's memos and a seat's deliveries, opened once (`pbem.home.opened`)
    found: list[Any] = []  # [cards, the referee's key when it is `name`]

    def dealer_cards(genesis: Chain) -> dict[str, str] | None:
        if genesis.dealer_mode == "hotseat" and (folder / folder_mod.DEALER_KEY).exists():
            try:
                secret = hotseat_dealer(folder, genesis)
            except PbemError:
                return None  # told by `hotseat_key`, where the key is needed
        elif genesis.dealer_mode == "referee" and name == genesis.dealer_name and keys.store.has_secret(name):
            secret = keys.secret(name)  # asked once: returned for `party`
        else:
            return None
        found[:] = [Party(genesis, secret).cards, secret if secret.name == name else None]
        return found[0]

    chain = folder_mod.load(folder, openings_at_genesis=dealer_cards)
    keys.pin(chain, folder, write=True)
    return chain, *(found or [None, None])


def hotseat_key(folder: Path, chain: Chain) -> SecretIdentity | None:
    """A hotseat game's dealer key, read before anything is written (a
    damaged key must not stop a command between a turn and its answer)."""
    if chain.dealer_mode != "hotseat" or chain.over:
        return None
    return hotseat_dealer(folder, chain)


def auto_dealer(staged: Staged, dealer: SecretIdentity | None) -> None:
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


def _drain(folder: Path, chain: Chain, notes: list[str] | None) -> list[Path]:
    """Apply the folder's pending files that now fit, before writing."""
    from pbem.gamedir.names import PENDING

    if not (folder / PENDING).is_dir():
        return []  # nothing waits (the usual case): the delivery module is not even imported
    from pbem.app import delivery

    return delivery.drain_pending(folder, chain, notes)
