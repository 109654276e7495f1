"""`pbem demo`: bots play a whole game through the real file protocol.

Nothing is simulated: the demo makes real identities in a throw-away key
store, creates the game folder with `pbem new`'s code, and every move is a
notation string that goes through `submit` (parse, sign, check, write), the
dealer answering as it would for people. It ends by verifying (and, once the
seed is out, auditing) the folder it wrote.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable
from pathlib import Path

from pbem import actions, games
from pbem.crypto.store import KeyStore
from pbem.errors import InvalidOption
from pbem.protocol.audit import audit


def run_demo(
    game_name: str,
    folder: Path | None,
    seed: int | None,
    dealer: str,
    bot: str | None,
    echo: Callable[[str], None],
    max_files: int = 5000,
    keys_dir: Path | None = None,
) -> Path:
    game = games.get(game_name)
    bot = bot or game.demo_bot
    if bot not in game.bots:
        raise InvalidOption(f"{game.name} has no bot {bot!r} (bots: {', '.join(sorted(game.bots))})")
    home = keys_dir or Path(tempfile.mkdtemp(prefix="pbem-demo-keys-"))
    store = KeyStore(home)
    keys = actions.Keys(store=store, passphrase=lambda: "")
    seats = list(game.demo_seats)
    for seat in seats:
        store.create(seat.partition(":")[0], None)
    referee = None
    if dealer == "referee":
        referee = "referee"
        store.create(referee, None)
    if folder is None:
        folder = Path(tempfile.mkdtemp(prefix="pbem-demo-")) / "game"
    rng = random.Random(seed)
    chain = actions.new_game(game.name, folder, seats, keys, dealer, referee, seed if dealer == "hotseat" else None)
    echo(f"{game.title}: {', '.join(chain.seat_order)} ({dealer} dealer), game {chain.game_id[:12]} in {folder}")
    echo(f"keys of the bots: {home}")
    shown = 1
    while len(chain.records) < max_files:
        writers = chain.writers()
        if not writers:
            break
        who = writers[0]
        if who == chain.dealer_name:
            actions.sync(folder, who, keys)
        else:
            me = actions.party(chain, who, keys)
            state = me.state()
            command = game.bots[bot](game, state, who, rng)
            actions.submit(folder, who, [game.format(command, state, who)], keys)
        chain = actions.open_game(folder)
        lines = actions.log_lines(chain)
        for line in lines[shown:len(chain.records)]:
            echo(line)
        shown = len(chain.records)
    echo("")
    echo(actions.render(chain, None))
    outcome = chain.outcome()
    echo(f"result: {outcome.reason if outcome else 'unfinished'}")
    checked = actions.verify(folder)
    echo(f"pbem verify {folder}: ok ({len(checked.records)} files)")
    report = audit(folder)
    if not report.ok:
        for failure in report.failures:
            echo(f"FAIL {failure}")
        raise InvalidOption("the demo's own audit failed")  # pragma: no cover - a bug
    echo(f"pbem audit {folder}: ok ({report.checks} checks)")
    return folder
