"""Moving files between players: armored text for mail bodies (`armor`);
later, mail servers and folder watchers.

Transports move bytes and never interpret rules; `pbem apply`
(`pbem.delivery.receive`) is the one door through which a received file
enters a game folder.
"""
