#!/usr/bin/env bash
# How these games were made, under protocol version 5 (every shuffle layer
# carries its proof): bots play an Agent Avenue game (the joins' layers) and
# a Codenames Duet game (the two-faced deck's three pair layers) through the
# real file protocol with the peer dealer (alice's folder kept); the seats'
# public identities are kept beside each game and the private keys thrown
# away. A newer pbem may write other games: these files are kept as they are.
set -euo pipefail
cd "$(dirname "$0")"
rm -rf agent-avenue duet
keys=$(mktemp -d)
pbem demo agent-avenue --dealer peer --dir agent-avenue --keys "$keys/a" --seed 5
mv agent-avenue/alice agent-avenue/game && rm -rf agent-avenue/bob
mkdir agent-avenue/ids && cp "$keys"/a/alice/ids/*.id agent-avenue/ids/
pbem demo codenames --dealer peer --option variant=duet --option timer=1 --dir duet --keys "$keys/d" --seed 5
mv duet/alice duet/game && rm -rf duet/bob
mkdir duet/ids && cp "$keys"/d/alice/ids/*.id duet/ids/
rm -f */game/.pbem.lock
rm -rf "$keys"
