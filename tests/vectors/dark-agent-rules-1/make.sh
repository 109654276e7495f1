#!/usr/bin/env bash
# How game/ was made, with pbem at commit 1be3156 (Dark Agent rules 1):
# a hotseat game whose laid-out area puts an AIM (G2) next to a Support (G3)
# and a Rifle (G1) in line G, where alice holds all three satellites. alice
# takes the Rifle, deploys her level-2 spy to the emptied G1 by Support and
# attacks the AIM; with --seed 1 the dice fail (18 vs 20). Under rules 1 the
# failure wounds her spy (back to her board); rules 2 follow the rulebook
# (only an investigation token), so this chain verifies only under rules 1.
set -euo pipefail
export PBEM_HOME=${PBEM_HOME:-$(mktemp -d)}
pbem id new alice --no-passphrase && pbem id new bob --no-passphrase
AREA="Sentry 16,Sentry 18,Supply,Espionage,Sentry 20,Sentry 16,Sentry 18,Rifle,Espionage,Sentry 20,Sentry 16,Sentry 18,Supply,Media,Sentry 22,Support,Support,Rubber boat,Sentry 22,Sentry 24,Sentry 26,AIM Bunker,AIM Cache,AIM Depot,AIM Embassy,Kara,Supply,Adrenaline,Jet-pack,Explosives,Rifle,AIM Arsenal,Support,Binoculars,Rubber boat"
pbem new da game --seat alice --seat bob --dealer hotseat --seed 1 --option "area=$AREA"
while read -r seat cmd; do pbem submit game --as "$seat" --cmd "$cmd"; done <<'STEPS'
bob deal
bob place A
alice place A
bob place B
alice place F
bob place C
alice place G
alice move F>G A>G
alice spot G1
alice spot G3
alice deploy G1
alice spot G2
alice attack G2 with G1
bob move A>B B>A
bob end
alice vote no
bob vote no
STEPS
