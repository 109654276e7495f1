"""A game folder on disk: the chain as files, and one writer at a time.

`folder` reads and checks a folder's chain (continuing from the user's
verified checkpoint, `pbem.home.checkpoint`); `folder_write` writes new
files into it and keeps its `state.pbem` cache;
`safe_read` reads a file found there or handed over (a regular file only,
never more than a pbem file may hold); `lock` is the advisory lock every
writer holds; `set_aside` moves the files the rule of out-of-turn undo
requests sets aside. Atomic writes are
the shared `pbem.fsio` (the user's home writes with them too).

May import `pbem.home`, `pbem.protocol`, `pbem.crypto`, `pbem.games` and
the shared top-level modules; never the transports or the use cases above
it (tests/system/test_layers.py holds the table).
"""
