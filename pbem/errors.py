"""The one error tree of pbem.

Library code raises these and never prints or exits; the CLI is the single
bridge that turns a `PbemError` into ``pbem: error: ...`` (plus an optional
``pbem: hint: ...``) and exit code 1. Every class names a failure *class*, so
tests and callers can tell "the file is garbled" from "the signature is wrong"
from "the command parses but is not legal here".

This module imports nothing from pbem, so every layer (games included) may
use it.
"""

from __future__ import annotations


class PbemError(Exception):
    """Base of every error pbem raises on purpose.

    `hint` is an optional second line telling the user what to do next.
    """

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:  # keep str() one line, whatever the message
        return self.message


# --- files ---------------------------------------------------------------


class FormatError(PbemError):
    """A file is garbled, truncated, of the wrong kind or of an unknown version."""


class FolderBusy(PbemError):
    """Another pbem command holds the game folder's write lock: retry."""


# --- crypto --------------------------------------------------------------


class CryptoError(PbemError):
    """Base of errors from pbem.crypto."""


class SignatureError(CryptoError):
    """A signature does not verify against the key that should have made it."""


class SealError(CryptoError):
    """A sealed envelope cannot be opened: damaged, moved, or not for us."""


class NotForMe(SealError):
    """No key we hold is a recipient of this envelope (age's 'no identity matched')."""


class CommitmentError(CryptoError):
    """An opening does not match its commitment."""


class ProofError(CryptoError):
    """A zero-knowledge proof (a Chaum-Pedersen proof of a decryption) does not verify."""


class ShuffleProofError(ProofError):
    """A shuffle layer's proof (`pbem.crypto.shuffle`) is malformed or does not
    verify: the layer is not the permutation of its input times one scalar."""


class KeyStoreError(PbemError):
    """A key or identity is missing from the store, or cannot be unlocked."""


class PassphraseError(KeyStoreError):
    """The passphrase is missing or wrong."""


class IdentityMismatch(KeyStoreError):
    """A game names a known identity with another key, or holds a known key
    under another name: an impostor until its owner says otherwise."""


class UnknownIdentity(KeyStoreError):
    """A game holds a key the address book has never seen (and the command
    would act on it): import it, or accept it with ``--accept-new``."""


# --- protocol ------------------------------------------------------------


class ProtocolError(PbemError):
    """A file is well formed and signed but does not fit the chain."""


class WrongGame(ProtocolError):
    """A file belongs to another game."""


class StaleTurn(ProtocolError):
    """A file applies to a state that is no longer the head (old or replayed)."""


class ForkError(ProtocolError):
    """Two different valid files claim the same place in the chain."""

    def __init__(self, message: str, signers: tuple[str, str], hint: str | None = None):
        super().__init__(message, hint)
        self.signers = signers


class WrongWriter(ProtocolError):
    """A file is signed by a party that may not write at this point."""


class AuditError(ProtocolError):
    """The end-of-game audit found a failed check."""


# --- rules ---------------------------------------------------------------


class RulesError(PbemError):
    """Base of errors raised by a game's rules."""


class InvalidCommand(RulesError):
    """A command's text does not parse (python-chess's InvalidMoveError)."""


class IllegalCommand(RulesError):
    """A command parses but is not legal in this position (IllegalMoveError)."""


class InvalidOption(RulesError):
    """An unknown game option, or a value the game does not accept."""


class UnknownGame(RulesError):
    """No game of that name or alias is registered."""


class NoPicture(RulesError):
    """The game has no picture (SVG) of its views yet."""
