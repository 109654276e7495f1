"""pbem.crypto: keys, identities, signatures, sealed envelopes, commitments.

The cryptographic layer of pbem. It knows nothing of games, turns or rules:
it turns bytes into signed, sealed or committed bytes and back, and raises
`pbem.errors.CryptoError` / `KeyStoreError` / `FormatError` when something
does not check out. The protocol layer decides what those bytes mean; the
key store that keeps a user's keys is the user's home (`pbem.home.store`).

Imports nothing of pbem but the shared top-level modules (`errors`,
`safetext`): it is the bottom layer (tests/system/test_layers.py).

Modules (import them directly; this package imports nothing, so that
``import pbem.crypto`` stays cheap):

* `encoding`  base64url, canonical JSON, strict file decoding, SHA-256,
              the signing domains.
* `limits`    size, depth and number limits checked on raw bytes before parsing.
* `keys`      identities (Ed25519 + X25519), identity and secret key files.
* `sign`      domain-separated signatures.
* `envelope`  the sealed envelope's file format and associated data.
* `seal`      envelopes sealed to several readers, bound to a place in a game.
* `commit`    salted hash commitments and their openings.
* `committed` a seat's own private deck, committed before anyone draws.
* `stream`    deterministic randomness from a seed, for dealers and audits.
* `beacon`    hash-chain beacons: chance no seat can bias, without a third party.
* `poker`     mental poker over edwards25519 (PyNaCl): shuffle layers, decryption.
* `twofaced`  the two-faced deck (Codenames Duet under peer): pairs, re-pairing.
* `shuffle/`  zero-knowledge proofs that a shuffle layer (or a pair layer) is honest.
* `vrf`       a verifiable random function (RFC 9381's ECVRF): a referee's proven dice.

Primitives all come from `cryptography`; nothing here implements one.
"""
