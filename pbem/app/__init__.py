"""What a user does with pbem, as library functions that know nothing of click.

The use cases the command line (`pbem.cli`), the watchers and the local
page share: make a game, open it as one party, read it, write a turn,
receive the others' files, deliver by mail or by watching a folder, the
long-game commands, rebuilding a lost folder, the demo, interactive play,
the audit, and the bots' self-play through the real protocol (with its
check of a peer deal against the rules' own set-up). The command
line parses options, calls one function here and prints what it returns
(lines of text, plain data for `--json`, the files written and the notes
made on the way), so that a script, the page or a test can do the same
without a terminal.

May import every layer below: `pbem.gamedir`, `pbem.home`, `pbem.transport`,
`pbem.render`, `pbem.protocol`, `pbem.crypto`, `pbem.games` and the shared
top-level modules; only the command line and the entry points sit above
(tests/system/test_layers.py holds the table).
"""
