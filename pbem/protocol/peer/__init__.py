"""Peer games: dealing with no third party (DESIGN.md section 5, "peer").

The shared deck is a mental-poker deck (`pbem.crypto.poker`), chance comes
from hash-chain beacons (`pbem.crypto.beacon`). The modules, lowest first
(each imports only modules above it in this list, and never the chain: what
they read of it is `pbem.protocol.head.ChainView`):

* `secrets`: a seat's own secrets, sealed to itself; its commitments to the
  cards of its private decks.
* `proofs`: every shuffle layer's proof, made and checked as its file
  arrives (version 5).
* `renewal`: beacon chains that outlast their length (version 4).
* `own_decks`: a seat's private decks as its own proven layer (version 6).
* `reads`: what `refills` and `changes` read of the chain, the deck and a
  file's parts, as Protocols (their classes import those two modules).
* `faces`: the two-faced deck of linked zones (the Codenames Duet key).
* `proven_refills`: from version 7, such cards (and a hand a seat
  reseals) as their owner's proven layer.
* `refills`: cards reshuffled into a seat's private deck, committed by it.
* `changes`: reshuffles and cards that change hands during play.
* `rekey`: a seat handed over: its newcomer's fresh layers and beacon
  chain in place of the old player's (version 6).
* `deck`: `PeerDeck`, the public bookkeeping of the deck and the beacons
  every verifier keeps; the deck as the genesis leaves it (`start_deck`).
* `first_links`: the set-up from every seat's first beacon link (version 3).
* `files`: one file of a peer game, run alike by writers and verifiers
  (`run_file`), with its owed decryptions (`owed`) and its chance.
* `knowledge`: what one seat knows: its secrets with what its files sealed
  to itself since, the partials and openings sealed to it, its cards.
* `writer`: writing a peer game's files: the genesis, a join, a turn.
* `audit`: the end-of-game audit of the layers, the cards and the changes.

How a peer game's files are accepted and what is owed in it is the peer
mode's (`pbem.protocol.modes.peer`). Everything here needs PyNaCl: import
it only for a peer game.
"""
