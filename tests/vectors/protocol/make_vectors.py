"""Write the protocol vectors once: ``python tests/vectors/protocol/make_vectors.py``.

The output is committed and must stay stable (files from old releases must
keep verifying), so this script refuses to overwrite an existing `base/`.
Each vector is a text file: ``expect: ...`` and ``comment: ...`` header
lines, an optional ``as: NAME`` (check with that party's knowledge), a blank
line, then the exact bytes of one file to append to `base/`.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import msgspec

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from pbem.crypto.encoding import canonical  # noqa: E402
from pbem.crypto.keys import secret_key_file  # noqa: E402
from pbem.home.store import KeyStore  # noqa: E402
from pbem.games.agent_avenue.cards import full_deck  # noqa: E402
from pbem.app import creating, opening, writing  # noqa: E402
from pbem.gamedir import folder as folder_mod  # noqa: E402
from pbem.protocol import codec  # noqa: E402
from pbem.protocol.chain import state_hash  # noqa: E402
from pbem.protocol.formats import TurnBody  # noqa: E402

TOP = ["Enforcer", "Enforcer", "Saboteur", "Sentinel", "Mole", "Sidekick", "Codebreaker", "Daredevil"]


def vector(name: str, expect: str, comment: str, data: bytes, as_: str | None = None) -> None:
    head = f"expect: {expect}\ncomment: {comment}\n" + (f"as: {as_}\n" if as_ else "") + "\n"
    (HERE / f"{name}.txt").write_bytes(head.encode() + data)


def main() -> None:
    base = HERE / "base"
    if base.exists():
        sys.exit("base/ exists: vectors are stable, delete it by hand to regenerate")
    keys_dir = HERE / "keys"
    store = KeyStore(HERE / ".store")
    keys = opening.Keys(store, lambda: "")
    for name in ("alice", "bob"):
        secret = store.create(name, None)
        keys_dir.mkdir(exist_ok=True)
        (keys_dir / f"{name}.key").write_bytes(secret_key_file(secret, None))
    rest = Counter(full_deck())
    rest.subtract(TOP)
    deck = ",".join(TOP + list(rest.elements()))
    creating.new_game("agent-avenue", base, ["alice", "bob"], keys, "hotseat", None, 1, [f"deck={deck}"])
    # seq 1-4: alice plays, the dealer deals, bob recruits, the dealer reveals
    writing.submit(base, "alice", ["play Enforcer / Saboteur"], keys)
    writing.submit(base, "bob", ["recruit face-up"], keys)
    chain = folder_mod.load(base)
    bob = keys.secret("bob")
    me = opening.party(chain, "bob", keys)
    ok = me.turn(writing.parse_commands(chain, me, ["play Mole / Sidekick"]))
    vector("ok", "ok", "bob plays his turn", ok)
    outer = msgspec.json.decode(ok)
    outer["sig"] = ("A" if outer["sig"][0] != "A" else "B") + outer["sig"][1:]
    vector("bad-signature", "bad signature", "bob's turn with one signature character changed", msgspec.json.encode(outer) + b"\n")
    vector("stale", "stale", "alice's first turn sent again", (base / "000001-alice.pbem").read_bytes())
    other = me.turn(writing.parse_commands(chain, me, ["play Codebreaker / Mole"]))
    vector("fork-a", "ok", "one of two turns bob wrote on the same head", ok)
    vector("fork-b", "fork", "bob's other turn on the same head (apply after fork-a.txt)", other)
    # a syntactically valid turn whose command plays a card from alice's hand
    hand_alice = [it.ref for it in chain.public.zones["hand:alice"].items]
    from pbem.games.agent_avenue.commands import Play

    body = TurnBody(game_id=chain.game_id, seq=chain.seq + 1, prev=chain.head, by="bob",
                    commands=[msgspec.Raw(canonical(Play(face_up=hand_alice[0], face_down=hand_alice[1])))],
                    state=state_hash(chain.public))
    vector("illegal-public", "illegal command", "bob plays two cards from alice's hand", codec.encode_signed("turn", body, bob))
    # a delivery to bob cannot be opened with alice's key
    genesis = chain.genesis
    d = next(d for d in genesis.deliveries if d.to == "bob")
    vector("not-for-me", "not for me", "the genesis delivery to bob, opened as alice", msgspec.json.encode(d) + b"\n", as_="alice")
    import shutil

    shutil.rmtree(HERE / ".store")


if __name__ == "__main__":
    main()
