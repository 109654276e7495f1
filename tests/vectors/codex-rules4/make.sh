#!/usr/bin/env bash
# How game/ was made, with pbem at commit 367c858 (Codex rules 4): a hotseat
# Two-Headed Dragon from scenario.txt. carol, the second player of the red
# team, casts Moment's Peace; bob attacks the red team's one base with Iron
# Man. Rules 4 let him (the base is alice's, so "anything of yours" missed
# it), and carol's tower does not hit him (it guarded only her own things);
# rules 5 refuse the attack (ruling 2 on Moment's Peace), so this chain
# verifies only under rules 4. Running this again with a newer pbem would
# make a game of the newer rules: these files are kept as they are.
set -euo pipefail
cd "$(dirname "$0")"
rm -rf game
export PBEM_HOME=${PBEM_HOME:-$(mktemp -d)}
for seat in alice bob carol dave; do pbem id new "$seat" --no-passphrase; done
pbem new codex game --seat alice:red --seat bob:blue --seat carol:red --seat dave:blue --dealer hotseat \
    --seed 1 --option mode=2v2 --option p3=balance --option scenario=scenario.txt \
    --option p1_starter=neutral --option p2_starter=neutral --option p3_starter=neutral --option p4_starter=neutral
while read -r seat cmd; do pbem submit game --as "$seat" --cmd "$cmd"; done <<'STEPS'
carol play moment-s-peace
carol end
bob attack iron-man alice:base
bob end
STEPS
rm -f game/state.pbem  # a cache, rebuilt by whoever reads the game
