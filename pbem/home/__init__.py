"""The user's own home (``$PBEM_HOME``): what one person keeps across games.

Nothing here is shared with the other players, and nothing here is a game
folder: the key store and address book (`store`), the agent that keeps
unlocked keys for a while (`agent`), the settings (`config`), the check of a
game's keys against the address book (`pinning`), the verified checkpoint
of each folder and what a look verified after it (`checkpoint`,
`checkpoint_seen`; their MAC-sealed storage in `checkpoint_seal`, the
records' lazy pickling in `checkpoint_pickle`), the list of game folders seen (`games_index`) and the
note of a submit under way (`journal`).

May import `pbem.crypto`, `pbem.protocol`, `pbem.games` and the shared
top-level modules (`errors`, `fsio`, `safetext`); never the game folder
(`pbem.gamedir`), the transports or the use cases above it
(tests/system/test_layers.py holds the table).
"""
