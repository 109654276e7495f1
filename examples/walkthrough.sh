#!/usr/bin/env bash
# A first game by hand, in a throw-away folder: two players on one machine
# (hotseat), the commands a script or a person would type. Run it and read
# along; every line it runs is printed first.
set -euo pipefail
work=$(mktemp -d)
export PBEM_HOME="$work/keys"
export PBEM_PASSPHRASE="correct horse battery staple"   # or omit it and type it when asked
run() { echo "\$ $*"; "$@"; echo; }

run pbem id new alice
run pbem id new bob
run pbem new agent-avenue "$work/game" --seat alice --seat bob --seed 42
run pbem status "$work/game"
run pbem show "$work/game" --as alice
run pbem legal "$work/game" --as alice
first=$(pbem legal "$work/game" --as alice --json | python3 -c 'import json,sys; print([c for c in json.load(sys.stdin) if c.startswith("play")][0])')
run pbem submit "$work/game" --as alice --cmd "$first"
run pbem status "$work/game" --json
run pbem submit "$work/game" --as bob --cmd "recruit face-down"
run pbem log "$work/game"
run pbem verify "$work/game"
echo "the game is in $work/game; carry on with: PBEM_HOME=$PBEM_HOME pbem play $work/game --as bob"
