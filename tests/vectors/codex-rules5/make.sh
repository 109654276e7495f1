#!/usr/bin/env bash
# How these games were made, with pbem at commit 6ecd6cc (it opened Codex rules 5).
#
# dragon/: a hotseat Two-Headed Dragon from scenario.txt (the position of
# ../codex-rules4). carol, the second player of the red team, casts Moment's
# Peace: under rules 5 it guards the team's one base too, so bob's Iron Man
# attacks alice's Older Brother, and carol's tower hits it as it guards
# everything of her team (rules 4: only her own things): this chain
# verifies only under rules 5.
#
# hotseat/: as ../codex-rules3 made its hotseat game: two greedy bots play
# Blood against Feral through the real file protocol (a 1-hero game, which
# rules 4 and 5 play alike).
#
# The seats' private keys are thrown away. Running this again with a newer
# pbem would make games of the newer rules: these files are kept as they are.
set -euo pipefail
cd "$(dirname "$0")"
rm -rf dragon hotseat
keys=$(mktemp -d)
export PBEM_HOME="$keys/home"
for seat in alice bob carol dave; do pbem id new "$seat" --no-passphrase; done
pbem new codex dragon --seat alice:red --seat bob:blue --seat carol:red --seat dave:blue --dealer hotseat \
    --seed 1 --option mode=2v2 --option p3=balance --option scenario=scenario.txt \
    --option p1_starter=neutral --option p2_starter=neutral --option p3_starter=neutral --option p4_starter=neutral
while read -r seat cmd; do pbem submit dragon --as "$seat" --cmd "$cmd"; done <<'STEPS'
carol play moment-s-peace
carol end
bob attack iron-man alice:older-brother
bob end
STEPS
pbem demo codex --dealer hotseat --dir hotseat/game --keys "$keys/h" --seed 8 --option p1=blood --option p2=feral
mkdir hotseat/ids && cp "$keys"/h/ids/*.id hotseat/ids/
rm -f dragon/state.pbem hotseat/game/state.pbem  # caches, rebuilt by whoever reads a game
rm -rf "$keys"
