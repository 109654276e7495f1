"""The file protocol: formats, the checked chain, dealers, parties.

Depends on pbem.crypto and pbem.games.base; knows no particular game. The
modules, roughly from the bottom up:

* `formats`: the file formats (msgspec Structs), the single source of
  `schemas/`, with their parts by family in `file_parts`, `peer_parts`,
  `long_parts` and `turn_parts`; `versions`: the one table of what each protocol version has.
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
  `foresight`: who can know which chance when (the end-of-game audit
  that uses them is a use case: `pbem.app.audit`).
* `forks`: which of two files on one predecessor stands, where a rule says
  (an out-of-turn undo request, resignation, pause or timeout claim).

The game folder that holds a chain as files is the layer above
(`pbem.gamedir`); of it the protocol knows only the genesis file's name
(`GENESIS`, here so that the user's home can tell a game folder without
importing the folder). May import `pbem.crypto`, `pbem.games` and the
shared top-level modules (`errors`, `safetext`, `fsio`); nothing above
(tests/system/test_layers.py).

No import circle: `chain` imports genesis, the modes, ballots and undo
(and a peer game's mode the peer package), and none of them imports the
chain; `dealer` and `party` sit above it.
"""

#: the first file of every game folder (DESIGN.md section 4)
GENESIS = "000000-genesis.pbem"
