"""A referee's public chance, proven when its file arrives (protocol version 7, issue #25).

A referee game has two kinds of chance. **Secret** chance decides what
nobody but the referee may know: the order of the shuffled decks, the
deal, a reshuffle, which card of a private deck comes off. It stays where
it was, derived from the game seed (the referee's master seed, committed in
the genesis, and every seat's contribution), and the audit replays it once
the seed is published: proving it at once would show the cards. **Public**
chance is what everyone sees at once, through `chance.public` in the rules:
the deal's public set-up (the first player, the Codenames grid, Dark
Agent's powers and neutral satellites) and, during play, whatever a
command draws that everyone sees (Dark Agent's dice, Codex's coin flips and
its cards discarded at random, the test game's rolls). Until version 6 it
came from the game seed too, so a referee that rolled the dice it liked was
caught only by the audit, at the end.

From version 7 every public draw of a referee is the output of a verifiable
random function (`pbem.crypto.vrf`, RFC 9381's ECVRF) under a key the
genesis names (`DealerInfo.chance_key`), written beside its proof
(`TurnBody.chance_proof`): the deal's `setup_seed`, and the `chance` of each
answer that draws some. Every verifier (`apply`, `verify`, `join`, the
watchers) checks the proof when the file arrives and refuses a draw that is
not the key's output for its input, naming the file.

The input binds the game id, every seat's contribution (given after the
key was committed, so the referee could not pick a key to suit them) and
the draw: ``set-up`` for the deal, ``play N`` for the N-th answer that draws
public chance. For one key and one input there is exactly one output, so
the referee has no choice left but to answer or not. The draw's number
stands where the file's seq might: a seat may write a pause out of turn
before the referee answers, which moves the seq, and a referee told of it
by a friend would so get another die; nobody can move the number. For the
same reason the dice are drawn from the output under a label that names no
seq (`pbem.protocol.chance.tape_label`).

The key is derived from the master seed, so the referee needs no other
storage and the audit checks, once the seed is out, that the genesis named
the seed's own key. Hotseat games are unchanged: their dealer is the folder.
What the proof cannot do: stop a referee from telling a friend the dice
before they are drawn (it can compute them as soon as the last seat has
joined), as it can tell the cards.
"""

from __future__ import annotations

from pbem.crypto import vrf
from pbem.crypto.encoding import b64d, b64e, canonical
from pbem.crypto.stream import derive
from pbem.errors import FormatError, ProofError, ProtocolError

_KEY_LABEL = b"referee chance key"
_INPUT_LABEL = "pbem/1 referee chance"
SET_UP = "set-up"


def secret_key(master_seed: bytes) -> bytes:
    """The referee's VRF secret key, derived from its master seed."""
    return derive(master_seed, _KEY_LABEL)


def public_key(master_seed: bytes) -> str:
    """The key the genesis names (base64url), which the audit recomputes."""
    return b64e(vrf.public_key(secret_key(master_seed)))


def play_draw(number: int) -> str:
    """The name of the `number`-th draw of play (from 1)."""
    return f"play {number}"


def alpha(game_id: str, contributions: list[bytes], draw: str) -> bytes:
    """The VRF input: the game, the seats' contributions in seat order, the draw."""
    return canonical([_INPUT_LABEL, game_id, [b64e(c) for c in contributions], draw])


def draw(master_seed: bytes, game_id: str, contributions: list[bytes], name: str) -> tuple[bytes, bytes]:
    """The referee's side: the 32-byte seed of draw `name` and its proof."""
    beta, proof = vrf.evaluate(secret_key(master_seed), alpha(game_id, contributions, name))
    return beta[:32], proof


def check_key(key: str | None) -> None:
    """A genesis's key is a valid point (FormatError otherwise)."""
    if key is None:
        raise FormatError("a referee genesis of this protocol version names the key of its chance (chance_key)")
    try:
        vrf.check_key(b64d(key, vrf.KEY_LEN))
    except FormatError as exc:
        raise FormatError(f"the genesis's chance key: {exc.message}") from None


def check(key: str, game_id: str, contributions: list[bytes], name: str, seed: bytes, proof: str | None,
          what: str) -> None:
    """Every verifier's side: `seed` (the file's `what`) is the output the
    genesis's key proves for draw `name`; ProtocolError otherwise."""
    if proof is None:
        raise ProtocolError(f"the referee's {what} carries no proof (chance_proof): in this game it must")
    try:
        beta = vrf.verify(b64d(key, vrf.KEY_LEN), b64d(proof, vrf.PROOF_LEN), alpha(game_id, contributions, name))
    except (FormatError, ProofError) as exc:
        raise ProtocolError(f"the referee's {what} is not proven: {exc.message} (draw {name!r})") from None
    if beta[:32] != seed:
        raise ProtocolError(f"the referee's {what} is not the output its key proves for draw {name!r}: "
                            "chance of its own choosing")

