"""How `agent-avenue-peer-handover` was made, under protocol version 6 as
released (run with pbem of commit 59ce2ba on the path, before version 7's
acceptance): bots play an Agent Avenue peer game, bob hands his seat over to
carol when the game waits for his decision (no acceptance: version 6 takes
the newcomer on bob's word), carol re-keys (her re-keying file still reveals
the old chain's link) and plays the seat to the end; every seat publishes
its secrets. The files and the public identities are kept, the private keys
thrown away. A newer pbem may write other games: these files are kept as
they are.

    PYTHONPATH=/path/to/pbem-59ce2ba python tests/vectors/v6/make-handover.py
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from pbem import games
from pbem.crypto.keys import SecretIdentity, identity_file
from pbem.gamedir import folder as folder_mod
from pbem.protocol import codec
from pbem.protocol.chain import Chain
from pbem.protocol.party import Party
from pbem.protocol.peer import writer as peer_writer

peer_writer.PROTOCOL_VERSION = 6
HERE = Path(__file__).parent / "agent-avenue-peer-handover"


def main() -> None:
    game = games.get("agent-avenue")
    opts = game.options({})
    from pbem.app import creating

    specs = game.seats(opts, [creating.parse_seat(s) for s in ("alice", "bob")])
    keys = {n: SecretIdentity.generate(n) for n in ("alice", "bob", "carol")}
    files = [peer_writer.make_genesis(game, opts, [(s, keys[s.name].public) for s in specs], keys["alice"])]
    chain = Chain(files[0])
    assert chain.version.number == 6
    rng, secrets, handed = random.Random(5), dict(keys), False
    while chain.writers():
        who = chain.writers()[0]
        me = Party(chain, secrets[who])
        if not handed and chain.seq >= 8 and chain.writers() == ["bob"] and chain.needs("bob") == "decision":
            data = me.handover("bob", keys["carol"].public, "carol@example.org")
            secrets["bob"], handed = keys["carol"].seated_as("bob"), True
        elif not chain.deck.all_joined:
            data = peer_writer.join(chain, secrets[who])
        elif chain.needs(who) == "auto":
            data = me.answer()
        else:
            data = me.turn([game.presentation.bots["random"](game, me.state(), who, rng)])
        chain.append(data)
        files.append(data)
    assert handed and chain.over
    shutil.rmtree(HERE, ignore_errors=True)
    (HERE / "game").mkdir(parents=True)
    for k, data in enumerate(files):
        name = folder_mod.GENESIS if k == 0 else folder_mod.turn_name(k, codec.read_envelope(data).by)
        (HERE / "game" / name).write_bytes(data)
    (HERE / "ids").mkdir()
    for n, k in keys.items():
        (HERE / "ids" / f"{n}.id").write_bytes(identity_file(k))
    print(f"{len(files)} files in {HERE}")


if __name__ == "__main__":
    main()
