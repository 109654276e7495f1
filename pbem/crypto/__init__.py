"""pbem.crypto: keys, identities, signatures, sealed envelopes, commitments.

The cryptographic layer of pbem. It knows nothing of games, turns or rules:
it turns bytes into signed, sealed or committed bytes and back, and raises
`pbem.errors.CryptoError` / `KeyStoreError` / `FormatError` when something
does not check out. The protocol layer decides what those bytes mean.

Modules (import them directly; this package imports nothing, so that
``import pbem.crypto`` stays cheap):

* `encoding`  base64url, canonical JSON, strict file decoding, SHA-256.
* `keys`      identities (Ed25519 + X25519), identity and secret key files.
* `store`     the key store under ``$PBEM_HOME``: own keys and address book.
* `sign`      domain-separated signatures.
* `seal`      envelopes sealed to several readers, bound to a place in a game.
* `commit`    salted hash commitments and their openings.
* `stream`    deterministic randomness from a seed, for dealers and audits.

Primitives all come from `cryptography`; nothing here implements one.
"""
