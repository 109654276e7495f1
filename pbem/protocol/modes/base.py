"""What a dealer mode decides about a chain: the two small interfaces.

A game is dealt in one of three modes (DESIGN.md section 5): hotseat and
referee, in which one dealer owns every hidden card and all chance
(`dealt.DealtMode`), and peer, with no third party (`peer.PeerMode`). The
chain tells them apart nowhere: it asks its mode, as age asks a recipient
to wrap or unwrap and never which kind it is.

* `FileRules`, the verifier's side: the head at the genesis, which parts a
  file may carry, how a file is accepted (the new head and its record),
  and what a file that changes nothing else (a ballot) does to the head.
* `Duties`, who owes what: the obligations in the order they are due, what
  each seat can know, who answers drawn chance, whether a party's answers
  go with its decision, and when the game is over.

Everything a mode reads of the chain it reads through `head.ChainView`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from pbem.errors import ProtocolError

if TYPE_CHECKING:
    from pbem.games.base import Game
    from pbem.protocol.formats import GenesisBody, SignedFile, TurnBody
    from pbem.protocol.turn_parts import Obligation
    from pbem.protocol.head import ChainView, Head, Record
    from pbem.protocol.setup import DerivedSetup

#: the parts of a turn body besides its header; which a file may carry
#: depends on the dealer mode, who writes it and when (`FileRules.parts`)
OPTIONAL_PARTS = (
    "commands", "reveals", "deliveries", "commitments", "seed", "join", "partials", "sealed", "beacon", "secrets", "undo",
    "chance", "memo", "vote", "tally", "contribution", "setup_seed", "reshuffle", "layer", "renewal", "void", "resign",
    "pause", "timeout", "handover", "rekey", "chance_proof", "consent",
)


class FileRules(Protocol):
    """How a mode judges files."""

    def start(self, genesis: GenesisBody, game: Game[Any, Any], game_id: str, derived: DerivedSetup) -> Head:
        """The head at the genesis (seq 0), what the mode checks of its
        set-up checked (`pbem.protocol.genesis` checks the rest); or raise."""

    def parts(self, chain: ChainView, body: TurnBody) -> set[str]:
        """The parts (of `OPTIONAL_PARTS`) `body`'s file may carry now."""

    def accept(self, chain: ChainView, outer: SignedFile, body: TurnBody, where: str,
               private_openings: dict[str, str] | None) -> tuple[Head, Record]:
        """A file that is neither an undo nor a ballot nor a void: the head
        after it and its record (`Chain.accepted`); or raise."""

    def cast(self, chain: ChainView, body: TurnBody) -> Head:
        """The head after a file that changes no card (a ballot), but for
        the ballot itself: what the mode takes from it (a beacon link)."""


class Duties(Protocol):
    """Who owes what in a mode."""

    def obligations(self, chain: ChainView) -> list[Obligation]:
        """What is owed now that needs no decision, in the order it is due."""

    def knows(self, chain: ChainView, seat: str) -> set[str]:
        """Refs whose card `seat` can know now."""

    def chance_answerers(self, chain: ChainView) -> list[str]:
        """The seats whose next files the chance another seat's file drew
        still waits for, in the order they answer (none: the dealer owes it)."""

    def answers_with_decision(self, chain: ChainView, party: str, owed: list[Obligation],
                              obligations: list[Obligation]) -> bool:
        """Whether `party`, which owes only `owed` and is to decide, writes
        its answers at the head of its decision (`Chain.needs`)."""

    def over(self, chain: ChainView) -> bool:
        """The game ended and every secret that ends it is out."""


class Mode(FileRules, Duties, Protocol):
    """A dealer mode: how it judges files and who owes what in it."""

    #: "hotseat", "referee" or "peer"
    name: str


def check_parts(body: TurnBody, allowed: set[str], mode: str) -> None:
    """Refuse a file that carries a part it may not carry now."""
    extra = [name for name in OPTIONAL_PARTS if name not in allowed and getattr(body, name) not in (None, [], {})]
    if extra:
        what = "an undo file" if allowed == {"undo"} else "this file"
        raise ProtocolError(f"{what} may not carry {', '.join(extra)} (it is {body.by}'s, in a {mode} game)")


def no_play_while_undo_pends(chain: ChainView) -> None:
    """Normal play waits for the answers to an undo request."""
    pending = chain.undo_pending
    if pending is not None:
        raise ProtocolError(f"{pending.by}'s undo request of seq {pending.target} is pending: "
                            "normal play waits for the answers")

