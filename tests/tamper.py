"""The tamper matrix's machinery: honest finished games kept in memory, every
mutation of every signed file, re-signed by the file's real writer, and a
judge that says who refuses it.

An adversary here is a party of the game with its real key: it takes an
honest file it wrote, changes one thing in the JSON (a leaf's value, a
missing or an extra key, a duplicated or a dropped list element, a value of
the wrong type), signs it again and offers it in the file's place. The
outer envelope (`by`, `sig`, `format`, `kind`) is changed too, without a new
signature or re-signed by another party, and whole envelopes are swapped
between seats, turns and games.

A change to file k changes its hash, so later files no longer chain: file k
is judged against the honest chain up to k-1 (`Chain.append` leaves the
chain as it was when it refuses; when it accepts, the chain is restored from
a copy). A doctored genesis is judged alone.

Verdicts:
  chain   refused by `Chain.append` / `Chain(genesis)`: every verifier refuses it
  reader  accepted by the public chain, refused by the party it concerns
          (a sealed envelope only its reader can open; the dealer's own seed box)
  ACCEPTED by everyone: a finding
  CRASH   an exception that is not a PbemError: a finding
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from pbem.app import selfplay
from pbem.crypto.encoding import FORMAT
from pbem.crypto.keys import SecretIdentity
from pbem.crypto.sign import domain, sign
from pbem.errors import PbemError
from pbem.protocol import genesis as genesis_mod
from pbem.protocol.modes.base import OPTIONAL_PARTS
from pbem.protocol import codec
from pbem.protocol.chain import Chain
from pbem.protocol.formats import SignedFile
from pbem.protocol.party import Party

#: fields that are maps from refs (or zones) to values: their keys are data,
#: so one generalized path stands for all of them
MAP_FIELDS = {"commitments", "private", "private_contents", "revealed"}

#: what a writer may choose freely in its own genesis, by design: a new
#: value is simply another game (a new game_id), not a cheat
FREE_IN_GENESIS = ("created_at",)

#: figures for the end of the test session (conftest prints them)
SUMMARY: list[str] = []


def set_up_field(general: str) -> bool:
    """A genesis field that the rules' set-up determines from the options and
    seats (issue #7 part 1 derives and compares them; until then they are
    trusted): the initial state, the options it was made from, the seats'
    order and roles, the cards of a peer deck."""
    return general.split(".")[0] in ("initial", "options") or general == "seats" or general.startswith(
        ("seats.*.role", "peer.deck.*", "peer.private_contents"))


# --- honest games ----------------------------------------------------------------


@dataclass
class Table:
    """A finished game: its files in chain order and every party's key."""

    game: str
    mode: str
    files: list[bytes]
    secrets: dict[str, SecretIdentity]
    #: a seat handed over mid-game (`play_with_handover`): the seq of its
    #: handover, the seat, and its old player's key (`secrets` holds the
    #: newcomer's, under the seat's name)
    handed: tuple[int, str, SecretIdentity] | None = None

    @property
    def label(self) -> str:
        return f"{self.game}/{self.mode}"

    def signers(self, k: int) -> dict[str, SecretIdentity]:
        """Who signs file k: the seat's old player up to its handover."""
        if self.handed is None or k > self.handed[0]:
            return self.secrets
        return {**self.secrets, self.handed[1]: self.handed[2]}

    def readers(self, k: int) -> dict[str, SecretIdentity]:
        """Who reads the chain up to file k: the newcomer from the handover on."""
        return self.signers(k) if self.handed is not None and k < self.handed[0] else self.secrets


def play(game_name: str, mode: str, seats: list[str], seed: int, options: tuple[str, ...] = (), edit=None) -> Table:
    """Bots play a whole game through the real writers, one in-memory chain
    (`pbem.app.selfplay.play`; `edit` doctors files as they go in)."""
    played = selfplay.play(game_name, mode, seats, seed, options, edit)
    return Table(played.game, played.mode, played.files, played.secrets)


def play_with_handover(game_name: str, mode: str, seats: list[str], seed: int, options: tuple[str, ...] = (),
                       at: int = 8, seat: str = "bob") -> Table:
    """Bots play a whole game through the real writers, as `play`, with
    `seat` handed over to a newcomer, carol, the first time the game waits
    for its decision from file `at` on: by the seat itself in a peer game,
    by the referee (as its genesis lets it) otherwise; carol signs her
    acceptance (protocol version 7) and plays the seat to the end."""
    from pbem import games
    from pbem.app import creating
    from pbem.protocol import acceptance, dealer as dealer_mod, handover
    from pbem.protocol.peer import writer as peer_writer

    game = games.get(game_name)
    names = [s.partition(":")[0] for s in seats]
    secrets = {n: SecretIdentity.generate(n) for n in names}
    opts = game.options(creating.parse_options(list(options)))
    specs = game.seats(opts, [creating.parse_seat(s) for s in seats])
    idents = [(spec, secrets[spec.name].public) for spec in specs]
    rng = random.Random(seed)
    if mode == "peer":
        files = [peer_writer.make_genesis(game, opts, idents, secrets[names[0]])]
    else:
        secrets["rita"] = SecretIdentity.generate("rita")
        files = [dealer_mod.make_genesis(game, opts, idents, mode, secrets["rita"], random.Random(seed).randbytes(32),
                                         referee_handover=True)]
    chain = Chain(files[0])
    carol, handed = SecretIdentity.generate("carol"), None
    for _ in range(selfplay.MAX_FILES):
        writers = chain.writers()
        if not writers:
            return Table(game.info.name, mode, files, secrets, handed)
        who = writers[0]
        me = Party(chain, secrets[who])
        if (handed is None and chain.seq >= at and writers == [seat] and chain.needs(seat) == "decision"
                and handover.may_take(chain, carol.public, seat) is None and _full(chain, seat)):
            by = seat if mode == "peer" else "rita"
            _, consent = acceptance.read(acceptance.make(chain, carol, seat, "carol@example.org"))
            data = Party(chain, secrets[by]).handover(seat, carol.public, "carol@example.org", consent)
            handed = (chain.seq + 1, seat, secrets[seat])
            secrets[seat] = carol.seated_as(seat)
        elif chain.deck is not None and not chain.deck.all_joined:
            data = peer_writer.join(chain, secrets[who])
        elif chain.needs(who) == "auto":
            data = me.answer()
        else:
            data = me.turn([game.presentation.bots[game.presentation.demo_bot](game, me.state(), who, rng)])
        chain.append(data)
        files.append(data)
    raise AssertionError(f"{game_name} under {mode}: the game did not end")


def _full(chain: Chain, seat: str) -> bool:
    """Whether a handover of `seat` now has every part to doctor: cards it
    knows, and in a peer game cards to re-key and a private deck to shuffle
    again (`peer.rekey`)."""
    from pbem.protocol import handover
    from pbem.protocol.peer import rekey

    if chain.deck is None:
        return bool(handover.known_refs(chain, seat))
    assert chain.public is not None
    return bool(rekey.refs(chain.deck, seat)) and bool(rekey.in_decks(chain.deck, chain.public, seat))


def save(table: Table, path: Path) -> Path:
    """A finished table's files in a new folder, named as pbem names them."""
    return selfplay.save(table.files, path)


def resign(table: Table, body) -> bytes:
    """A turn body signed again with its writer's real key."""
    return codec.encode_signed("turn", body, table.secrets[body.by])


replay = selfplay.replay


# --- mutations ------------------------------------------------------------------


@dataclass(frozen=True)
class Mutation:
    """One change at one place of a decoded body."""

    path: tuple  # keys and indices from the body's root
    op: str  # change, delete, add-key, dup, drop, swap, type
    arg: Any = None

    @property
    def general(self) -> str:
        """The path with list indices (and map keys) generalized: the field."""
        out: list[str] = []
        for i, step in enumerate(self.path):
            if isinstance(step, int):
                out.append("*")
            elif i and self.path[i - 1] in MAP_FIELDS:
                out.append("<key>")
            else:
                out.append(str(step))
        return ".".join(out) or "<root>"

    def apply(self, body: Any) -> Any:
        body = copy.deepcopy(body)
        if not self.path:
            return self._on(body, None, None)
        parent = body
        for step in self.path[:-1]:
            parent = parent[step]
        last = self.path[-1]
        new = self._on(parent[last], parent, last)
        if new is _DELETE:
            del parent[last]
        else:
            parent[last] = new
        return body

    def _on(self, node, parent, key):
        op = self.op
        if op == "change" or op == "type":
            return self.arg
        if op == "delete":
            return _DELETE
        if op == "add-key":
            return {**node, self.arg: 1}
        if op == "dup":
            return node + node[:1]
        if op == "drop":
            return node[1:] if self.arg == "first" else node[:-1]
        if op == "swap":
            return [node[1], node[0], *node[2:]]
        raise ValueError(op)


_DELETE = object()


def _changed_str(s: str, siblings: list[str]) -> list[str]:
    """Other strings of the same look: one character changed inside the
    same alphabet (a base64 value stays well formed: its first character
    changes), and another string of the same file (a ref, a name)."""
    out = []
    if s:
        c = s[0]
        swap = {"z": "y", "Z": "Y", "9": "8", "-": "_", "_": "-"}.get(c) or (chr(ord(c) + 1) if c.isalnum() else "a")
        out.append(swap + s[1:])
    else:
        out.append("a")
    other = next((t for t in siblings if t != s and t not in out), None)
    if other is not None:
        out.append(other)
    return out


def _changed_int(n: int) -> list[int]:
    return [n + 1, n - 1 if n > 0 else -1, 2**64]


def _wrong_type(node) -> Any:
    if isinstance(node, dict):
        return []
    if isinstance(node, list):
        return {}
    if isinstance(node, str):
        return 7
    return "7"


def mutations(body: Any) -> Iterator[Mutation]:
    """Every mutation of `body`: for every node, change it (leaves), give it
    the wrong type, delete it (dict members), add a key (objects),
    duplicate, drop and swap elements (lists)."""
    strings = sorted({s for s in _leaves(body) if isinstance(s, str)})

    def walk(node, path):
        if path:
            if isinstance(node, bool):
                yield Mutation(path, "change", not node)
            elif isinstance(node, int):
                for v in _changed_int(node):
                    yield Mutation(path, "change", v)
            elif isinstance(node, str):
                for v in _changed_str(node, strings):
                    yield Mutation(path, "change", v)
            elif node is None:
                yield Mutation(path, "change", 0)
            yield Mutation(path, "type", _wrong_type(node))
            if isinstance(path[-1], str):
                yield Mutation(path, "delete")
        if isinstance(node, dict):
            yield Mutation(path, "add-key", "zz-extra")
            for k, v in node.items():
                yield from walk(v, path + (k,))
        elif isinstance(node, list):
            if node:
                yield Mutation(path, "dup")
                yield Mutation(path, "drop", "first")
                if len(node) > 1:
                    yield Mutation(path, "drop", "last")
                    if node[0] != node[1]:
                        yield Mutation(path, "swap")
            for i, v in enumerate(node):
                yield from walk(v, path + (i,))

    yield from walk(body, ())


def _leaves(node) -> Iterator[Any]:
    if isinstance(node, dict):
        for v in node.values():
            yield from _leaves(v)
    elif isinstance(node, list):
        for v in node:
            yield from _leaves(v)
    else:
        yield node


def sample(muts: list[Mutation], kind: str, seen: set, rng: random.Random, full: bool) -> list[Mutation]:
    """All mutations (long mode), or those whose (kind of file, field, kind
    of change) is new to `seen`: every field of every kind of file is hit."""
    if full:
        return muts
    rng.shuffle(muts)
    out = []
    for m in muts:
        key = (kind, m.general, m.op)
        if key not in seen:
            seen.add(key)
            out.append(m)
    return out


# --- signing --------------------------------------------------------------------


def signed(kind: str, body: bytes, by: str, secret: SecretIdentity) -> bytes:
    """A signed file around exactly `body` (which may be anything)."""
    outer = SignedFile(format=FORMAT, kind=kind, by=by, body=msgspec.Raw(body), sig=sign(secret, domain(kind), body))
    return msgspec.json.encode(outer) + b"\n"


def encode_body(body: Any) -> bytes:
    """The canonical bytes a writer would sign (sorted keys, no spaces)."""
    return msgspec.json.encode(body, order="sorted")


def decode(data: bytes) -> tuple[SignedFile, Any]:
    outer = codec.read_envelope(data)
    return outer, msgspec.json.decode(bytes(outer.body))


# --- judging --------------------------------------------------------------------


class StateOracle:
    """The state hash the verifier computed last: an adversary can run the
    verifier's own code, so a changed set-up gets a matching `state` field."""

    def __init__(self, monkeypatch) -> None:
        self.last: str | None = None
        real = genesis_mod.state_hash

        def spy(state):
            self.last = real(state)
            return self.last

        monkeypatch.setattr(genesis_mod, "state_hash", spy)


@dataclass
class Tally:
    tried: int = 0
    by_chain: int = 0
    by_reader: int = 0
    accepted: list[str] = field(default_factory=list)
    crashed: list[str] = field(default_factory=list)
    read_refused: list[str] = field(default_factory=list)  # what the reader it concerns refused
    kinds: set = field(default_factory=set)
    fields: set = field(default_factory=set)

    def add(self, other: "Tally") -> None:
        self.tried += other.tried
        self.by_chain += other.by_chain
        self.by_reader += other.by_reader
        self.accepted += other.accepted
        self.crashed += other.crashed
        self.read_refused += other.read_refused
        self.kinds |= other.kinds
        self.fields |= other.fields

    def line(self, label: str) -> str:
        return (f"{label}: {self.tried} mutations tried, {self.by_chain} refused by the chain, "
                f"{self.by_reader} by the reader they concern, {len(self.accepted)} accepted, "
                f"{len(self.crashed)} crashes ({len(self.fields)} fields of {len(self.kinds)} file kinds)")


def readers_refuse(chain: Chain, secrets: dict[str, SecretIdentity]) -> str | None:
    """The first party whose own reading of the chain refuses it, with why
    (a dealer of protocol version 4 refuses a ballot by voiding it, naming
    its voter, once the vote is complete: `ballots.voids`)."""
    from pbem.protocol import ballots

    for name, secret in secrets.items():
        try:
            me = Party(chain, secret)
            me.state()
        except PbemError as exc:
            return f"{name}: {exc}"
        if me.is_dealer and chain.version.void_ballots:
            void = ballots.voids(chain, secret)
            if void:
                return f"{name}: voids the ballot of {void[0].seat}"
    return None


def judge_genesis(data: bytes, secrets, tally: Tally, what: str, oracle: StateOracle | None = None) -> str:
    """Verdict on a doctored genesis, judged alone."""
    tally.tried += 1
    try:
        chain = Chain(data)
    except PbemError:
        tally.by_chain += 1
        return "chain"
    except Exception as exc:  # noqa: BLE001 - a crash is what we look for
        tally.crashed.append(f"{what}: {type(exc).__name__}: {exc}")
        return "CRASH"
    try:
        refused = readers_refuse(chain, secrets)
    except Exception as exc:  # noqa: BLE001
        tally.crashed.append(f"{what} (reading): {type(exc).__name__}: {exc}")
        return "CRASH"
    if refused:
        tally.by_reader += 1
        return "reader"
    tally.accepted.append(what)
    return "ACCEPTED"


def judge_turn(chain: Chain, snapshot: Chain, data: bytes, secrets, tally: Tally, what: str) -> tuple[str, Chain]:
    """Verdict on a doctored file appended to `chain`; returns the chain to
    go on with (a copy of `snapshot` when the doctored file got in)."""
    tally.tried += 1
    try:
        chain.append(data)
    except PbemError:
        tally.by_chain += 1
        return "chain", chain
    except Exception as exc:  # noqa: BLE001
        tally.crashed.append(f"{what}: {type(exc).__name__}: {exc}")
        return "CRASH", copy.deepcopy(snapshot)
    try:
        refused = readers_refuse(chain, secrets)
    except Exception as exc:  # noqa: BLE001
        tally.crashed.append(f"{what} (reading): {type(exc).__name__}: {exc}")
        refused = "crash"
    if refused:
        tally.by_reader += 1
        tally.read_refused.append(what)
        verdict = "reader"
    else:
        tally.accepted.append(what)
        verdict = "ACCEPTED"
    return verdict, copy.deepcopy(snapshot)


# --- the matrix -------------------------------------------------------------------


def clone(chain: Chain) -> Chain:
    return copy.deepcopy(chain, {id(chain.game): chain.game})


def file_kind(k: int, outer: SignedFile, body: dict, table: Table) -> str:
    """What kind of file this is: the genesis, or who wrote it and which parts it carries."""
    if k == 0:
        return f"genesis/{table.mode}"
    role = "seat" if outer.by in _seats(table) else "dealer"
    parts = sorted(p for p in body if p in OPTIONAL_PARTS)
    return f"turn/{table.mode}/{role}[{','.join(parts)}]"


def _seats(table: Table) -> set[str]:
    return {s["name"] for s in decode(table.files[0])[1]["seats"]}


def envelopes(node, path=()) -> Iterator[tuple[tuple, dict]]:
    """Every sealed envelope in a decoded body, with its path."""
    if isinstance(node, dict):
        if set(node) == {"stanzas", "payload"}:
            yield path, node
            return
        for k, v in node.items():
            yield from envelopes(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from envelopes(v, path + (i,))


def _put(body, path, value):
    body = copy.deepcopy(body)
    node = body
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return body


@dataclass
class Matrix:
    """Runs every attack on one finished game; `other` is a second game of
    the same kind (the source of envelopes and files from another game)."""

    table: Table
    other: Table
    oracle: StateOracle
    full: bool
    rng: random.Random
    main: Tally = field(default_factory=Tally)
    initial: Tally = field(default_factory=Tally)  # genesis `initial` with a matching state hash
    seen: set = field(default_factory=set)
    refused_examples: dict = field(default_factory=dict)  # file kind -> (k, forged bytes)
    #: the files attacked (None: every one); the others go in honest
    focus: set[int] | None = None

    def run(self) -> None:
        files = self.table.files
        if self.focus is None or 0 in self.focus:
            self._genesis()
        chain = Chain(files[0])
        for k in range(1, len(files)):
            if self.focus is not None and k not in self.focus:
                chain.append(files[k])
                continue
            snapshot = clone(chain)
            for what, data in self._attacks(k):
                verdict, chain = judge_turn(chain, snapshot, data, self.table.readers(k), self.main, what)
                if verdict == "chain":
                    self.refused_examples.setdefault(what.split(" ")[1], (k, data))
                elif verdict == "CRASH":
                    chain = clone(snapshot)
            chain.append(files[k])  # the honest file still fits: nothing was left behind

    # -- the genesis ----------------------------------------------------------

    def _genesis(self) -> None:
        data = self.table.files[0]
        outer, body = decode(data)
        kind = file_kind(0, outer, body, self.table)
        signer = self.table.signers(0)[outer.by]
        self.main.kinds.add(kind)
        self.initial.kinds.add(kind)
        for m in sample(list(mutations(body)), kind, self.seen, self.rng, self.full):
            if m.general in FREE_IN_GENESIS:
                continue
            new = m.apply(body)
            what = f"{self.table.label} {kind} {m.general} {m.op}"
            tally = self.initial if set_up_field(m.general) else self.main
            tally.fields.add((kind, m.general))
            self.oracle.last = None
            forged = signed("genesis", encode_body(new), outer.by, signer)
            verdict = judge_genesis(forged, self.table.readers(0), tally, what)
            if verdict == "chain":
                self.refused_examples.setdefault(kind, (0, forged))
            fixed = self.oracle.last
            if verdict == "chain" and fixed and fixed != body["state"] and isinstance(new, dict) and "state" in new:
                # the adversary runs the verifier's code: give the state its hash
                judge_genesis(signed("genesis", encode_body({**new, "state": fixed}), outer.by, signer),
                              self.table.readers(0), tally, what + " +state")
        for what, forged in self._outer(0, data, outer, body, kind):
            judge_genesis(forged, self.table.readers(0), self.main, what)

    # -- turn k -------------------------------------------------------------------

    def _attacks(self, k: int) -> Iterator[tuple[str, bytes]]:
        data = self.table.files[k]
        outer, body = decode(data)
        kind = file_kind(k, outer, body, self.table)
        self.main.kinds.add(kind)
        signer = self.table.signers(k)[outer.by]
        for m in sample(list(mutations(body)), kind, self.seen, self.rng, self.full):
            self.main.fields.add((kind, m.general))
            yield f"{self.table.label} {kind} #{k} {m.general} {m.op}", signed("turn", encode_body(m.apply(body)), outer.by, signer)
        yield from self._outer(k, data, outer, body, kind)
        yield from self._swaps(k, outer, body, kind, signer)

    def _outer(self, k, data, outer, body, kind) -> Iterator[tuple[str, bytes]]:
        """The envelope outside the signed body, and other signers."""
        if not self.full and (kind, "outer") in self.seen:
            return
        self.seen.add((kind, "outer"))
        what = f"{self.table.label} {kind} #{k}"
        raw = bytes(outer.body)
        keys = self.table.signers(k)
        others = [n for n in keys if n != outer.by]
        for name in others:
            yield f"{what} outer.by={name} (same sig)", _outer_bytes(outer, by=name)
            yield f"{what} re-signed by {name}", signed(outer.kind, raw, name, keys[name])
            if k:
                yield (f"{what} body.by={name}, re-signed by {name}",
                       signed("turn", encode_body({**body, "by": name}), name, keys[name]))
        if self.table.handed is not None and k:  # the seat's other player: the old one after, the newcomer before
            seq, seat, old = self.table.handed
            other = old if k > seq else self.table.secrets[seat]
            if outer.by == seat or k == seq:
                yield f"{what} re-signed by the seat's other player", signed(outer.kind, raw, outer.by, other)
        sig = outer.sig
        yield f"{what} sig changed", _outer_bytes(outer, sig=("B" if sig[0] == "A" else "A") + sig[1:])
        yield f"{what} sig of another file", _outer_bytes(outer, sig=codec.read_envelope(self.table.files[k - 1 if k else 1]).sig)
        yield f"{what} sig deleted", data.replace(b',"sig":"' + sig.encode() + b'"', b"")
        yield f"{what} outer key added", data[:-2] + b',"x":1}\n'
        yield f"{what} outer.format", _outer_bytes(outer, format="pbem/2")
        for kind2 in ("genesis", "turn", "identity", "state", "acceptance"):
            if kind2 != outer.kind:
                yield f"{what} signed as a {kind2}", signed(kind2, raw, outer.by, keys[outer.by])

    def _swaps(self, k, outer, body, kind, signer) -> Iterator[tuple[str, bytes]]:
        """Envelopes from other seats, turns and games; whole files from
        other places and from the other game."""
        what = f"{self.table.label} {kind} #{k}"
        pool = [(j, p, env) for j, f in enumerate(self.table.files) for p, env in envelopes(decode(f)[1])]
        foreign = [(j, p, env) for j, f in enumerate(self.other.files) for p, env in envelopes(decode(f)[1])]
        for path, env in envelopes(body):
            if not self.full and (kind, "swap", _gen(path)) in self.seen:
                continue
            self.seen.add((kind, "swap", _gen(path)))
            choices = {
                "from another seat in this file": [e for j, p, e in pool if j == k and p != path],
                "from another turn": [e for j, p, e in pool if j != k and _gen(p) == _gen(path)] or [e for j, p, e in pool if j != k],
                "from another game": [e for j, p, e in foreign if j == k and _gen(p) == _gen(path)] or [e for _, _, e in foreign],
            }
            for how, envs in choices.items():
                envs = [e for e in envs if e != env]
                if envs:
                    yield f"{what} envelope {_gen(path)} {how}", signed("turn", encode_body(_put(body, path, self.rng.choice(envs))), outer.by, signer)
        if not self.full and (kind, "files") in self.seen:
            return
        self.seen.add((kind, "files"))
        if k < len(self.other.files):
            theirs = self.other.files[k]
            yield f"{what} file of another game", theirs
            t_outer, t_body = decode(theirs)
            if t_outer.by in self.table.secrets:
                yield (f"{what} file of another game re-signed",
                       signed("turn", bytes(t_outer.body), t_outer.by, self.table.signers(k)[t_outer.by]))
        for j in {1, k - 1, k + 1} - {k}:
            if 1 <= j < len(self.table.files):
                yield f"{what} file #{j} in its place", self.table.files[j]
        yield f"{what} genesis in its place", self.table.files[0]


def _gen(path) -> str:
    return Mutation(tuple(path), "swap").general


def _outer_bytes(outer: SignedFile, **changes) -> bytes:
    return msgspec.json.encode(msgspec.structs.replace(outer, **changes)) + b"\n"
