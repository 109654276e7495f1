"""The key store: one's own private keys and an address book of identities.

Layout under the home folder (`default_home`, or ``$PBEM_HOME``)::

    keys/NAME.key   our private key files (0600, folder 0700)
    ids/NAME.id     identity files: our own and everyone we imported
    ids/NAME.email  a mail address set here for NAME (`pbem id email`),
                    which wins over the one NAME's identity file carries
    ids/NAME.seen   where the key of NAME was first seen (`Seen`): made here,
                    imported from a file, or accepted from a game with
                    ``--accept-new`` (then it also holds the key itself: a
                    game carries no self-signed identity file)

Every identity file is checked (self-signature) each time it is read, so a
file edited by hand or damaged on disk is noticed, not trusted. A name maps to
one key pair for good: importing a different key under a known name is
refused (naming both fingerprints), as is a key already known under another
name, so that a file's signer can be found by its key alone. The address
book is what games are checked against (`pbem.home.pinning`), like ssh's
known_hosts.
"""

# (no postponed annotations: msgspec reads these at once)

import os
import stat
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal, TypeVar

from pbem.crypto.encoding import FORMAT, Strict, decode_file, encode_file
from pbem.crypto.keys import (
    Name, PublicIdentity, SecretIdentity, SecretKeyFile, check_name, identity_file, read_identity_card,
    read_identity_file, read_secret_key_file, secret_key_file, valid_email, valid_name,
)
from pbem.errors import FormatError, KeyStoreError, PbemError
from pbem.fsio import atomic_write
from pbem.home.where import default_home

__all__ = ["default_home", "KeyStore", "Seen"]



class Seen(Strict, frozen=True, kw_only=True, omit_defaults=True):
    """Where (and when) a key of the address book was first seen.

    Written once, when the name enters the store, and never replaced: it is
    the answer to "since when do I trust this key, and why?".
    """

    format: Literal["pbem/1"]
    kind: Literal["seen"]
    name: Name
    how: Literal["created", "imported", "accepted"]
    date: str
    """UTC, ``YYYY-MM-DDTHH:MM:SSZ``."""
    fingerprint: str
    source: str | None = None
    """The file it was imported from, or the game folder it was accepted from."""
    game_id: str | None = None
    identity: PublicIdentity | None = None
    """Only for accepted keys: the key itself (a game holds no identity file)."""


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class KeyStore:
    """Private keys and known identities under one home folder."""

    def __init__(self, home: Path | str | None = None) -> None:
        self.home = Path(home) if home is not None else default_home()
        self.keys_dir = self.home / "keys"
        self.ids_dir = self.home / "ids"

    def __repr__(self) -> str:
        return f"KeyStore({str(self.home)!r})"

    # --- paths ---------------------------------------------------------------

    def key_path(self, name: str) -> Path:
        return self.keys_dir / f"{check_name(name)}.key"

    def id_path(self, name: str) -> Path:
        return self.ids_dir / f"{check_name(name)}.id"

    def seen_path(self, name: str) -> Path:
        return self.ids_dir / f"{check_name(name)}.seen"

    def _make_dirs(self) -> None:
        try:
            self.home.mkdir(mode=0o700, parents=True, exist_ok=True)
            self.keys_dir.mkdir(mode=0o700, exist_ok=True)
            os.chmod(self.keys_dir, 0o700)  # mkdir's mode is filtered by the umask
            self.ids_dir.mkdir(mode=0o755, exist_ok=True)
        except OSError as exc:
            raise KeyStoreError(f"cannot create the key store in {self.home}: {exc.strerror}") from None

    @staticmethod
    def _read(path: Path) -> bytes | None:
        try:
            return path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise KeyStoreError(f"cannot read {path}: {exc.strerror}") from None

    @staticmethod
    def _write(path: Path, data: bytes, mode: int) -> None:
        try:
            atomic_write(path, data, mode, exclusive=True)
        except FileExistsError:
            raise KeyStoreError(f"{path} already exists") from None
        except OSError as exc:
            raise KeyStoreError(f"cannot write {path}: {exc.strerror}") from None

    # --- own keys ------------------------------------------------------------

    def has_secret(self, name: str) -> bool:
        """True if the store holds a private key called `name`."""
        return valid_name(name) and self.key_path(name).exists()

    def create(self, name: str, passphrase: str | None, email: str | None = None) -> SecretIdentity:
        """Make a new identity, store its private key and its identity file.

        KeyStoreError if `name` is taken, by our own key or an imported one.
        """
        check_name(name)
        if self.has_secret(name) or self.id_path(name).exists() or self._accepted(name) is not None:
            raise KeyStoreError(
                f"an identity named {name} already exists in {self.home}",
                hint="choose another name (see `pbem id show`)",
            )
        secret = SecretIdentity.generate(name)
        card = identity_file(secret, email)  # a bad address refused before anything is written
        key_file = secret_key_file(secret, passphrase)
        self._make_dirs()
        self._write(self.key_path(name), key_file, 0o600)
        self._write(self.id_path(name), card, 0o644)
        self._record_seen(secret.public, "created")
        return secret

    def secret(self, name: str, passphrase: Callable[[], str]) -> SecretIdentity:
        """Unlock our private key `name`; `passphrase` is called only if needed."""
        path = self.key_path(name)
        data = self._read(path)
        if data is None:
            raise self.no_secret(name)
        try:
            secret = _in_file(path, read_secret_key_file, data, passphrase)
        except FormatError as exc:
            raise FormatError(exc.message, hint=exc.hint or (
                "the private key file is damaged: restore it from a backup (a lost key cannot be rebuilt)"
            )) from None
        if secret.name != name:
            raise KeyStoreError(f"{path} holds the key of {secret.name}, not {name}")
        return secret

    def has_public(self, name: str) -> bool:
        """True if the address book knows `name` (our own key or another's)."""
        return valid_name(name) and self._known(name) is not None

    def no_secret(self, name: str) -> KeyStoreError:
        """The error for "no private key `name` here", with a hint that does
        not send the user to make a key the address book already knows."""
        if self._known(name) is not None:
            return KeyStoreError(
                f"this machine has only {name}'s public identity, not {name}'s private key ({self.home})",
                hint=f"run this where {name}'s key is, or set PBEM_HOME to the store that holds it",
            )
        return KeyStoreError(
            f"no private key named {name} in {self.home}",
            hint=f"create one with `pbem id new {name}`, or set PBEM_HOME to the store that holds it",
        )

    def loose_permissions(self, name: str) -> str | None:
        """A warning if others may read our private key file (POSIX only:
        Windows has no such mode bits)."""
        if os.name != "posix":
            return None
        path = self.key_path(name)
        try:
            mode = stat.S_IMODE(path.stat().st_mode)
        except OSError:
            return None
        if mode & 0o077:
            return f"{path} can be read by other users (mode {mode:04o}); run: chmod 600 {path}"
        return None

    # --- identities ----------------------------------------------------------

    def public(self, name: str) -> PublicIdentity:
        """The identity `name`, ours or imported; KeyStoreError if unknown."""
        path = self.id_path(name)
        data = self._read(path)
        found: PublicIdentity | None
        if data is not None:
            found = _in_file(path, read_identity_file, data)
        else:
            found = self._public_from_key(name) or self._accepted(name)
        if found is None:
            raise self._unknown(name)
        public = found
        if public.name != name:
            raise KeyStoreError(f"{path} holds the identity of {public.name}, not {name}")
        return public

    def _unknown(self, name: str) -> KeyStoreError:
        return KeyStoreError(
            f"unknown identity {name} in {self.home}",
            hint=f"import {name}'s identity file with `pbem id import FILE`",
        )

    def _public_from_key(self, name: str) -> PublicIdentity | None:
        # Our own identity file went missing: the key file keeps the public
        # half in clear, so the identity can be read without a passphrase.
        path = self.key_path(name)
        data = self._read(path)
        if data is None:
            return None
        secret: SecretKeyFile = _in_file(path, decode_file, data, SecretKeyFile, "secret-key")
        return secret.public

    def export(self, name: str, passphrase: Callable[[], str] | None = None) -> bytes:
        """The identity file of `name` (to mail to other players).

        If our own identity file has gone missing and `passphrase` is given,
        it is rebuilt from the private key (signing needs the key).
        """
        path = self.id_path(name)
        data = self._read(path)
        if data is None:
            if not self.has_secret(name):
                if self._accepted(name) is not None:
                    raise KeyStoreError(
                        f"{name}'s key was accepted from a game: there is no identity file of {name} to export",
                        hint=f"ask {name} for their identity file (pbem id export {name})",
                    )
                raise self._unknown(name)
            if passphrase is None:
                raise KeyStoreError(
                    f"the identity file of {name} is missing from {self.ids_dir}",
                    hint="it can be rebuilt from the private key, which needs its passphrase",
                )
            data = identity_file(self.secret(name, passphrase))
            self._make_dirs()
            self._write(path, data, 0o644)
        self.public(name)  # check it before handing it out
        return data

    def import_identity(self, data: bytes, source: str | None = None) -> PublicIdentity:
        """Check an identity file and add it to the address book.

        Importing the same identity again is fine. A different key under a
        known name, or a known key under a new name, is refused. `source`
        (the file's path) is recorded as where the key was first seen.
        """
        public = read_identity_file(data)
        name = public.name
        known = self._check_new(public)
        if known is not None:
            path = self.id_path(name)
            if not path.exists():
                self._make_dirs()
                self._write(path, data, 0o644)
            elif self._read(path) != data:  # the same key, a newer card (a mail address)
                try:
                    atomic_write(path, data, 0o644)
                except OSError as exc:
                    raise KeyStoreError(f"cannot write {path}: {exc.strerror}") from None
            return known
        self._make_dirs()
        self._write(self.id_path(name), data, 0o644)
        self._record_seen(public, "imported", source=source)
        return public

    def accept(self, public: PublicIdentity, source: str, game_id: str) -> None:
        """Record a key first seen in a game (``--accept-new``).

        The same checks as an import: never a second key for a known name,
        never a known key under a second name.
        """
        if self._check_new(public) is None:
            self._make_dirs()
            self._record_seen(public, "accepted", source=source, game_id=game_id, identity=public)

    def _check_new(self, public: PublicIdentity) -> PublicIdentity | None:
        """The known identity equal to `public`, None if its name is new;
        KeyStoreError if the name or the key is known otherwise."""
        name = public.name
        known = self._known(name)
        if known is not None:
            if known == public:
                return known
            raise KeyStoreError(
                f"{name} is already known with fingerprint {known.fingerprint()}; "
                f"this file has another key, fingerprint {public.fingerprint()}",
                hint=f"if {name} really has a new key, remove {self.id_path(name)} (and {name}.seen) first",
            )
        other = self.find_by_key(public.sign)
        if other is not None:
            raise KeyStoreError(
                f"this key ({public.fingerprint()}) is already known as {other.name}, not {name}",
            )
        return None

    def _known(self, name: str) -> PublicIdentity | None:
        if self.id_path(name).exists() or self.has_secret(name) or self._accepted(name) is not None:
            return self.public(name)
        return None

    # --- mail addresses ---------------------------------------------------------

    def email_path(self, name: str) -> Path:
        return self.ids_dir / f"{check_name(name)}.email"

    def email(self, name: str) -> str | None:
        """Where `name` gets mail: the address set here (`set_email`), else
        the one `name`'s identity file carries, else None."""
        local = self._read(self.email_path(name))
        if local is not None:
            text = local.decode("utf-8", errors="replace").strip()
            if not valid_email(text):
                raise KeyStoreError(f"{self.email_path(name)} holds no valid mail address",
                                    hint=f"set it again with `pbem id email {name} ADDRESS`")
            return text
        path = self.id_path(name)
        data = self._read(path)
        if data is None:
            return None
        return _in_file(path, read_identity_card, data).email

    def set_email(self, name: str, email: str, passphrase: Callable[[], str] | None = None) -> None:
        """Record `name`'s mail address. For our own key the identity file
        is signed again with it (so `export` carries it; needs the key); for
        anyone else it is a note of this address book only."""
        if not valid_email(email):
            raise KeyStoreError(f"invalid mail address {email!r}", hint="give a plain address such as bob@example.org")
        if not self.has_public(name):
            raise self._unknown(name)
        self._make_dirs()
        try:
            if self.has_secret(name):
                if passphrase is None:
                    raise KeyStoreError(f"signing {name}'s identity file again needs {name}'s key")
                data = identity_file(self.secret(name, passphrase), email)
                atomic_write(self.id_path(name), data, 0o644)
                self.email_path(name).unlink(missing_ok=True)
            else:
                atomic_write(self.email_path(name), email.encode("utf-8") + b"\n", 0o644)
        except OSError as exc:
            raise KeyStoreError(f"cannot write in {self.ids_dir}: {exc.strerror}") from None

    # --- where keys were first seen ------------------------------------------

    def seen(self, name: str) -> Seen | None:
        """The record of where `name`'s key was first seen, if there is one
        (stores made before these records existed have none)."""
        path = self.seen_path(name)
        data = self._read(path)
        if data is None:
            return None
        seen: Seen = _in_file(path, decode_file, data, Seen, "seen")
        if seen.name != name:
            raise KeyStoreError(f"{path} is the record of {seen.name}, not {name}")
        return seen

    def _accepted(self, name: str) -> PublicIdentity | None:
        seen = self.seen(name) if valid_name(name) else None
        return seen.identity if seen is not None and seen.how == "accepted" else None

    def _record_seen(self, public: PublicIdentity, how: Literal["created", "imported", "accepted"],
                     **where: Any) -> None:
        path = self.seen_path(public.name)
        try:
            old = self.seen(public.name)
        except PbemError:
            old = None  # damaged: replaced below
        if old is not None and old.fingerprint == public.fingerprint():
            return  # first seen is first seen
        # no record, or the record of a key the user removed on purpose
        record = Seen(format=FORMAT, kind="seen", name=public.name, how=how, date=_now(),
                      fingerprint=public.fingerprint(), **where)
        try:
            atomic_write(path, encode_file(record), 0o644)
        except OSError as exc:
            raise KeyStoreError(f"cannot write {path}: {exc.strerror}") from None

    def find_by_key(self, sign_b64: str) -> PublicIdentity | None:
        """The known identity whose Ed25519 key is `sign_b64`, if any."""
        for name, _own in self.names():
            public = self.public(name)
            if public.sign == sign_b64:
                return public
        return None

    def names(self) -> list[tuple[str, bool]]:
        """Every known name, sorted, with True for the ones we hold a private key for."""
        own = set(_stems(self.keys_dir, ".key"))
        accepted = {n for n in _stems(self.ids_dir, ".seen") if self._accepted(n) is not None}
        known = own | set(_stems(self.ids_dir, ".id")) | accepted
        return [(name, name in own) for name in sorted(known)]


_T = TypeVar("_T")


def _stems(folder: Path, suffix: str) -> list[str]:
    try:
        entries = list(folder.iterdir())
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise KeyStoreError(f"cannot list {folder}: {exc.strerror}") from None
    return [p.name[: -len(suffix)] for p in entries if p.name.endswith(suffix) and valid_name(p.name[: -len(suffix)])]


def _in_file(path: Path, fn: Callable[..., _T], *args: Any) -> _T:
    """Call `fn(*args)`, prefixing any FormatError with the file it came from."""
    try:
        return fn(*args)
    except FormatError as exc:
        raise FormatError(f"{path}: {exc.message}", hint=exc.hint) from None
