#!/usr/bin/env bash
# How these games were made, under protocol version 6 (every file carries
# its writer's signed time; private decks proven in their owner's join) and
# the Codex rules 4 as released (pbem after commit 1fcfb70): bots play a
# Codex game (Blood against Feral) with the peer dealer (alice's folder
# kept) and an Agent Avenue game under a referee, through the real file
# protocol; the seats' public identities are kept beside each game and the
# private keys thrown away. A newer pbem may write other games: these files
# are kept as they are.
set -euo pipefail
cd "$(dirname "$0")"
rm -rf codex-peer agent-avenue-referee
keys=$(mktemp -d)
pbem demo codex --dealer peer --dir codex-peer --keys "$keys/c" --seed 5 --option p1=blood --option p2=feral
mv codex-peer/alice codex-peer/game && rm -rf codex-peer/bob
mkdir codex-peer/ids && cp "$keys"/c/alice/ids/*.id codex-peer/ids/
pbem demo agent-avenue --dealer referee --dir agent-avenue-referee/game --keys "$keys/a" --seed 5
mkdir agent-avenue-referee/ids && cp "$keys"/a/ids/*.id agent-avenue-referee/ids/
rm -f */game/.pbem.lock
rm -rf "$keys"
