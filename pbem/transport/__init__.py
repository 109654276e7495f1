"""Moving files between players: armored text for mail bodies (`armor`);
later, mail servers and folder watchers.

Transports move bytes and never interpret rules; `pbem apply`
(`pbem.delivery.receive`) is the one door through which a received file
enters a game folder.
"""

#: the most a text or a mail that may hold pbem files is read of (a file
#: given to `pbem apply` or `pbem dearmor`, a fetched mail); the readers
#: are linear, so this bounds their work too
MAX_TEXT_BYTES = 32 << 20
