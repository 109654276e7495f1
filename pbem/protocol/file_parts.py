"""The small parts every file kind shares (`pbem.protocol.formats`): the
constrained names, refs and times, the openings that make a hidden card
known, and the genesis's seats and dealer.
"""

# (no postponed annotations: msgspec reads these at once)

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from pbem.crypto.encoding import B64
from pbem.crypto.keys import PublicIdentity
from pbem.crypto.envelope import Envelope


Name = Annotated[str, Meta(pattern="^[a-z0-9][a-z0-9_-]{0,31}$", description="a player's or dealer's name")]
Ref = Annotated[str, Meta(pattern="^[A-Za-z0-9_.:-]{1,40}$", description="an opaque label of a hidden item")]
Seq = Annotated[int, Meta(ge=0, description="position in the chain; the genesis is 0")]
DealerMode = Literal["hotseat", "referee", "peer"]
Seconds = Annotated[int, Meta(ge=0, le=10 * 366 * 86400, description="a duration in seconds")]
Stamp = Annotated[str, Meta(pattern="^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$",
                            description="a UTC time, to the second")]


class Opening(msgspec.Struct, frozen=True):
    """The opening of a commitment: which card a ref is, and the salt."""

    ref: Ref
    card: str
    salt: B64


class Delivery(msgspec.Struct, frozen=True):
    """Openings sealed to one reader: how a seat learns the cards it may see.

    `refs` is public (everyone learns *that* the seat now knows these items);
    the cards are inside the envelope.
    """

    to: Name
    refs: list[Ref]
    envelope: Envelope


class SeatEntry(msgspec.Struct, frozen=True):
    """A seat of the game: the player's identity and optional role."""

    name: Name
    role: str | None
    identity: PublicIdentity


class DealerInfo(msgspec.Struct, frozen=True, omit_defaults=True):
    """Who owns what nobody may see, and its commitment to the master seed.

    `seed_commitment` commits to the master seed that drives every chance
    event and every salt; `seed_box` is that seed sealed to the dealer's own
    key, so the dealer needs no other storage. The seed is published in the
    dealer's last file when the game ends, for `pbem audit`.
    """

    mode: DealerMode
    identity: PublicIdentity
    seed_commitment: B64
    seed_box: Envelope
    #: referee games of version 7: the public key of the verifiable random
    #: function that draws the referee's public chance, derived from the
    #: master seed (`pbem.protocol.referee_chance`); absent otherwise (so
    #: that older genesis files keep their bytes)
    chance_key: B64 | None = None


class SeedOpening(msgspec.Struct, frozen=True):
    """The dealer's master seed and the salt of its commitment."""

    seed: B64
    salt: B64
