"""The file protocol: formats, the checked chain, dealers, parties, audit.

Depends on pbem.crypto and pbem.games.base; knows no particular game. The
modules, roughly from the bottom up:

* `formats`: the file formats (msgspec Structs), the single source of
  `schemas/`; `versions`: the one table of what each protocol version has.
* `codec`: reading and writing signed files (verify the exact bytes, then
  decode); `commitments`: commitments to hidden items, the state hash.
* `chance`: how the rules' chance is realised for each kind of writer;
  `setup`: the set-up every verifier rebuilds from a genesis;
  `transition`: one file's effect on the public state, run alike by
  writers and verifiers.
* `head`: the chain's frozen `Head`, its `Record`s, and `ChainView`, what
  the modules below the chain read of it.
* `genesis`: accepting a genesis; `modes`: one strategy per dealer mode
  (`modes.dealt`: hotseat and referee; `modes.peer`), behind two small
  interfaces (`modes.base`); `ballots`: simultaneous secret choices and the
  files that carry them; `undo`: undo by agreement; `peer`: the peer
  package (mental-poker deck, beacons, the peer writer; PyNaCl).
* `chain`: `Chain`, the records and the head of a game; it checks each
  file's frame and dispatches it to what judges it.
* `dealer`: the dealer's side of the dealt modes (its genesis, its deal,
  its answers); `party`: one party's knowledge and the files it writes;
  `foresight`: who can know which chance when; `audit`: the end-of-game
  audit.
* `forks`: which of two files on one predecessor stands, where a rule says
  (an out-of-turn undo request, resignation, pause or timeout claim);
  `folder`: a game folder on disk, the chain as files; `set_aside`: the
  files those rules set aside there.

No import circle: `chain` imports genesis, the modes, ballots and undo
(and a peer game's mode the peer package), and none of them imports the
chain; `dealer`, `party`, `audit` and `folder` sit above it.
"""
