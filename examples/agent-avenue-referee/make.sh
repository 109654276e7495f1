#!/usr/bin/env bash
# How this example was made: two greedy bots play Agent Avenue with a referee
# dealer through the real file protocol (pbem demo), then the seats' public
# identities are kept beside the game and the private keys thrown away.
set -euo pipefail
cd "$(dirname "$0")"
rm -rf game ids
keys=$(mktemp -d)
pbem demo agent-avenue --dealer referee --dir game --keys "$keys/store" 
mkdir ids
cp "$keys"/store/ids/*.id ids/
rm -rf "$keys"
