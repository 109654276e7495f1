"""The names of a game folder's files, with nothing but the standard
library: `pbem status` answered from memory (`status_memo`) lists a
folder's chain files without importing the chain that checks them."""

from __future__ import annotations

import re

STATE = "state.pbem"
DEALER_KEY = "dealer.key"
#: the folder of files that came early, each waiting for the one before it (`pbem.app.delivery`)
PENDING = "pending"
#: a chain file; the optional middle part catches the copies sync tools make
#: when two writers collide ("000005-bob.sync-conflict-....pbem",
#: "000005-bob (conflicted copy).pbem"), so a fork is reported, not missed.
TURN = re.compile(r"^(\d{6})-([a-z0-9][a-z0-9_-]{0,31})(?:[. ][^/]*)?\.pbem$")
#: the name pbem itself gives a chain file
PLAIN = re.compile(r"^\d{6}-[a-z0-9][a-z0-9_-]{0,31}\.pbem$")


def turn_name(seq: int, by: str) -> str:
    return f"{seq:06d}-{by}.pbem"
