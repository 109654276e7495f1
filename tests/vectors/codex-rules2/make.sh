#!/usr/bin/env bash
# How these games were made, with the Codex rules 2 as released (pbem at
# commit d5a3e8b, before rules 3 completed Red and Green): two greedy bots
# play Bashing against Finesse through the real file protocol, one game
# with the hotseat dealer and one peer game (alice's folder kept); the
# seats' public identities are kept beside each game and the private keys
# thrown away. Running this again with a newer pbem would make games of
# the newer rules: these files are kept as they are.
set -euo pipefail
cd "$(dirname "$0")"
rm -rf hotseat peer
keys=$(mktemp -d)
pbem demo codex --dealer hotseat --dir hotseat/game --keys "$keys/h" --seed 8
mkdir hotseat/ids && cp "$keys"/h/ids/*.id hotseat/ids/
pbem demo codex --dealer peer --dir peer --keys "$keys/p" --seed 8
mv peer/alice peer/game && rm -rf peer/bob
mkdir peer/ids && cp "$keys"/p/alice/ids/*.id peer/ids/
rm -rf "$keys"
