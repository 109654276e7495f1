#!/usr/bin/env bash
# How these games were made, with the Codex rules 3 as released (pbem at
# commit 5ad0f7c: Red and Green complete, specs picked per seat): two greedy
# bots play Blood against Feral through the real file protocol, one game with
# the hotseat dealer and one peer game (alice's folder kept); the seats'
# public identities are kept beside each game and the private keys thrown
# away. Running this again with a newer pbem would make games of the newer
# rules: these files are kept as they are.
set -euo pipefail
cd "$(dirname "$0")"
rm -rf hotseat peer
keys=$(mktemp -d)
pbem demo codex --dealer hotseat --dir hotseat/game --keys "$keys/h" --seed 8 --option p1=blood --option p2=feral
mkdir hotseat/ids && cp "$keys"/h/ids/*.id hotseat/ids/
pbem demo codex --dealer peer --dir peer --keys "$keys/p" --seed 8 --option p1=blood --option p2=feral
mv peer/alice peer/game && rm -rf peer/bob
mkdir peer/ids && cp "$keys"/p/alice/ids/*.id peer/ids/
rm -rf "$keys"
