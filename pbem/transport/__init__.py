"""Moving files between players: armored text for mail bodies and forum
posts (`armor`), mail out by SMTP (`mail`) and in by IMAP or a local mail
store (`imap`), watching a folder for changes (`watch`), and telling a
folder a sync tool shares (`shared`).

Transports move bytes and never interpret rules; `pbem apply`
(`pbem.app.delivery.receive`) is the one door through which a received file
enters a game folder, and what to send or do with what arrives is the use
cases' (`pbem.app.mailing`, `pbem.app.watching`).

Imports nothing of pbem but the shared top-level modules: the transports
sit low, beside the protocol, so that every use case may carry files
(tests/system/test_layers.py).
"""

#: the most a text or a mail that may hold pbem files is read of (a file
#: given to `pbem apply` or `pbem dearmor`, a fetched mail); the readers
#: are linear, so this bounds their work too
MAX_TEXT_BYTES = 32 << 20
