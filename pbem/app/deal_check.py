"""Is a peer game's deal one the rules' own set-up could have made?

With a dealer (hotseat, referee) every hidden card lies where the rules'
`setup` put it. Under peer nobody holds the cards: the protocol takes the
hidden cards of the set-up, lays them out again by the game's `Dealing`
(private decks committed by their owners, decks drawn by the beacons,
linked zones dealt as pairs, everything else one shared deck shuffled by
every seat) and deals that. A wrong declaration changes *which* deals can
happen, and nothing in play need notice: a Codenames Duet game whose
`dealing` leaves out `linked` plays to its end, but its two faces come from
one deck of 50 cards, so a side gets 11 agents where the rules give 9, and
the cells no longer pair as the key card pairs them; a market deck left out
of `by_beacon` gets the hands' cards mixed in. Privacy is not what breaks
(each face stays with its one reader); the deal's distribution is.

So `check_peer_deal` opens the peer deal (every seat's secrets are at hand
in `pbem.app.selfplay`: the end-of-game audit's decryption is run at the
set-up, as if every seat published now) and compares it with the rules'
set-up, for every game and every declaration alike. The rules' set-up is
random, but some of what it deals is the same at every seed: those
*invariants* (found by dealing it `SAMPLES` times) the peer deal must keep:

* the cards of each hidden zone, and of each two hidden zones together, as
  a multiset (a deck, a seat's deck and hand, a face of the key): broken by
  a deck mixed into the shared one that must not be (`Dealing.private`,
  `Dealing.by_beacon`);
* the pairs of cards at the same index of two hidden zones of one length
  (the two faces of a cell): broken by zones dealt apart that belong
  together (`Dealing.linked`).

What varies with the seed (a hand's cards) is not compared, so a right
deal never fails. The other declarations are checked elsewhere:
`Dealing.interchangeable` by `pbem.games.conformance` (a re-chosen ref must
read the same), `Dealing.reshuffle_ahead` by the play itself (a reshuffle
the peer writers cannot follow is refused, and `check_dealers` says so).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pbem.crypto.keys import SecretIdentity
from pbem.games.base import Game, GameState, Known, RandomChance, SeatSpec, overlay

#: how many seeds of the rules' set-up find its invariants: a signature that
#: varies at all varies within a few seeds, so more only costs time
SAMPLES = 12

Signature = tuple[str, str, str]


def signatures(state: GameState) -> dict[Signature, tuple[Any, ...]]:
    """The multisets a deal is compared by, of a state whose hidden items are known."""
    hidden = sorted(name for name, zone in state.zones.items() if not zone.public)
    cards = {z: [it.card if isinstance(it, Known) else "?" for it in state.zones[z].items] for z in hidden}
    out: dict[Signature, tuple[Any, ...]] = {}
    for i, a in enumerate(hidden):
        for b in hidden[i:]:
            out[("together", a, b)] = tuple(sorted(cards[a] + (cards[b] if b != a else [])))
            if b != a and len(cards[a]) == len(cards[b]) > 1:
                out[("paired", a, b)] = tuple(sorted(zip(cards[a], cards[b])))
    return out


class Samples:
    """What the rules' set-up (and its automatic steps) deals at `SAMPLES` seeds."""

    def __init__(self, game: Game[Any, Any], options: Any, specs: list[SeatSpec]) -> None:
        #: the signatures alike at every seed
        self.invariants: dict[Signature, tuple[Any, ...]] = {}
        #: card -> the hidden zones it was dealt to at some seed
        self.zones_of: dict[str, set[str]] = {}
        for seed in range(SAMPLES):
            state = game.advance(game.setup(options, specs, RandomChance(seed)), RandomChance(seed))
            now = signatures(state)
            self.invariants = now if seed == 0 else {k: v for k, v in self.invariants.items() if now.get(k) == v}
            for name, zone in state.zones.items():
                for it in zone.items if not zone.public else ():
                    if isinstance(it, Known):
                        self.zones_of.setdefault(it.card, set()).add(name)
        # zones that ever hold a card of one name are one class: cards move
        # between them from seed to seed (a deck and the hands dealt from it)
        self.group: dict[str, frozenset[str]] = {}
        for zones in self.zones_of.values():
            merged = frozenset(zones).union(*(self.group.get(z, frozenset()) for z in zones))
            for z in merged:
                self.group[z] = merged
        self.cards_of: dict[frozenset[str], set[str]] = {}
        for card, zones in self.zones_of.items():
            self.cards_of.setdefault(self.group[next(iter(zones))], set()).add(card)


def differences(game: Game[Any, Any], options: Any, specs: list[SeatSpec], dealt: GameState) -> list[str]:
    """What of the rules' invariants the dealt state (hidden items known)
    breaks, one line each, naming the declaration that likely causes it."""
    samples = Samples(game, options, specs)
    expected = samples.invariants
    got = signatures(dealt)
    out = []
    for name, zone in sorted(dealt.zones.items()):
        group = samples.group.get(name)
        strays = sorted({it.card for it in zone.items if isinstance(it, Known) and group is not None
                         and it.card not in samples.cards_of[group]} if not zone.public else ())
        for card in strays[:2]:
            out.append(f"Dealing.private or Dealing.by_beacon: {name} holds {card}, which the rules' set-up deals only "
                       f"to {', '.join(sorted(samples.zones_of.get(card, ()))) or 'no hidden zone'} (a deck mixed "
                       "into the shared deck that must be dealt on its own)")
    broken = [key for key, want in expected.items() if got.get(key) not in (None, want)]
    # zones dealt apart that belong together also mix their cards: say so once
    paired = {z for kind, a, b in broken if kind == "paired" for z in (a, b)}
    for key in sorted(broken, key=lambda k: k[0] != "paired"):
        kind, a, b = key
        want, have = expected[key], got[key]
        if kind == "together" and {a, b} <= paired:
            continue
        if kind == "paired":
            out.insert(0, f"Dealing.linked: the items of {a} and {b} at one index do not pair as the rules' set-up "
                       "always pairs them (zones whose items belong together must be dealt as one)")
            continue
        where = a if a == b else f"{a} and {b} together"
        extra, missing = Counter(have) - Counter(want), Counter(want) - Counter(have)
        out.append(f"Dealing.private or Dealing.by_beacon: {where} hold{'s' if a == b else ''} "
                   f"{_count(extra)} where the rules' set-up always has {_count(missing)} "
                   "(a deck mixed into the shared deck that must be dealt on its own)")
    return out


def _count(cards: Counter[Any]) -> str:
    return ", ".join(f"{n} {card}" for card, n in sorted(cards.items(), key=lambda kv: str(kv[0]))) or "nothing more"


def peer_deal(chain: Any, secrets: dict[str, SecretIdentity]) -> GameState:
    """A peer game's set-up state with every hidden card opened, from every
    seat's own secrets (as the end-of-game audit opens them)."""
    from pbem.protocol.peer import audit as peer_audit, knowledge

    deck = chain.deck.copy()
    for seat in chain.seat_order:
        mine = knowledge.my_secrets(chain, secrets[seat])
        assert mine is not None, f"{seat} has joined"
        deck.secrets[seat] = mine
    cards, _, failures = peer_audit.audit(_WithDeck(chain, deck), lambda seq, by: f"file {seq} by {by}", "genesis")
    if cards is None or failures:
        raise AssertionError(f"the deal cannot be opened with every seat's secrets: {'; '.join(failures[:3])}")
    return overlay(chain.public, cards)


class _WithDeck:
    """The chain as the audit reads it, with a deck whose secrets are in."""

    def __init__(self, chain: Any, deck: Any) -> None:
        self._chain, self.deck = chain, deck

    def __getattr__(self, name: str) -> Any:
        return getattr(self._chain, name)


def check_peer_deal(game: Game[Any, Any], options: Any, specs: list[SeatSpec], chain: Any,
                    secrets: dict[str, SecretIdentity]) -> None:
    """AssertionError naming the declaration, unless the peer game's deal
    keeps every invariant of the rules' set-up."""
    found = differences(game, options, specs, peer_deal(chain, secrets))
    if found:
        raise AssertionError("the peer deal is not one the rules' set-up makes: " + "; ".join(found[:3]))
