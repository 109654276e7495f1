"""Doctoring signed files the way an adversary would: change the body with
pbem's own library, then sign it again with the writer's real key (so only
the new checks, never the signature, can refuse it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import msgspec

from pbem.crypto.encoding import canonical
from pbem.crypto.keys import read_secret_key_file
from pbem.games.base import overlay
from pbem.protocol import codec, folder
from pbem.protocol.commitments import state_hash
from pbem.protocol.formats import GenesisBody, TurnBody


def hotseat_dealer_key(game: Path):
    """The hotseat dealer's secret key, kept in the folder."""
    return read_secret_key_file((game / folder.DEALER_KEY).read_bytes(), lambda: "")


def resign_genesis(data: bytes, signer, change_initial: Callable[[dict], Any], rehash: bool = True) -> bytes:
    """The genesis with its initial state changed by `change_initial` (which
    edits the decoded JSON in place), its state hash recomputed where the
    state still decodes, signed again by `signer`."""
    from pbem import games

    body = msgspec.json.decode(bytes(codec.read_envelope(data, "genesis").body), type=GenesisBody)
    initial = json.loads(bytes(body.initial))
    change_initial(initial)
    raw = canonical(initial)
    body = msgspec.structs.replace(body, initial=msgspec.Raw(raw))
    if rehash:
        game = games.get(body.game, body.rules_version)
        public = msgspec.json.decode(raw, type=game.info.State)
        body = msgspec.structs.replace(body, state=state_hash(overlay(public, {o.ref: o.card for o in body.reveals})))
    return codec.encode_signed("genesis", body, signer)


def resign_turn(data: bytes, signer, **changes) -> bytes:
    """A turn with some body fields replaced, signed again by `signer`."""
    body = msgspec.json.decode(bytes(codec.read_envelope(data, "turn").body), type=TurnBody)
    return codec.encode_signed("turn", msgspec.structs.replace(body, **changes), signer)
