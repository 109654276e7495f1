"""Moving files between players (folder watch, armored e-mail text): later work.

Transports move bytes and never interpret rules; `pbem apply` is the one
door through which a received file enters a game folder.
"""
