"""`$PBEM_HOME/config.toml`: the user's settings for mail, the agent and the referee.

Read with the standard library (`tomllib`); pbem never writes it. Every
key is checked, so a misspelt key is an error that names it, not a setting
silently ignored. The keys (docs/config.md has them with examples)::

    [mail]      from            the From address (default: the identity's own)
    [smtp]      host port security user password_env keyring cafile timeout
    [imap]      host port security user password_env keyring cafile timeout folder
    [inbox]     maildir | mbox  a local mail store to fetch from instead of IMAP
    [agent]     timeout         how long `pbem agent` keeps a key ("15m", "1h", "90s")
    [referee]   tree            where `pbem referee mail` finds its games
    [as.NAME]   the same tables again, for identity NAME only (they win)

A password is never read from this file (a ``password`` key is refused):
it comes from the environment variable `password_env` names, the system
keyring (``keyring = true``, through the optional `keyring` library), or a
prompt (`pbem.app.mailing.password`).
"""

from __future__ import annotations

import ipaddress
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.errors import PbemError

CONFIG = "config.toml"


class ConfigError(PbemError):
    """config.toml cannot be read, or holds a key or value pbem does not know."""


_SERVER_KEYS = {"host", "port", "security", "user", "password_env", "keyring", "cafile", "timeout"}
_TABLES: dict[str, set[str]] = {
    "mail": {"from", "copy_to_self"},
    "smtp": _SERVER_KEYS,
    "imap": _SERVER_KEYS | {"folder"},
    "inbox": {"maildir", "mbox"},
    "agent": {"timeout"},
    "referee": {"tree"},
}
_DEFAULT_PORTS = {("smtp", "starttls"): 587, ("smtp", "tls"): 465, ("smtp", "plain"): 25,
                  ("imap", "tls"): 993, ("imap", "starttls"): 143, ("imap", "plain"): 143}


@dataclass(frozen=True)
class Server:
    """How to reach one mail server."""

    kind: str  # "smtp" or "imap"
    host: str
    port: int
    security: str  # "tls", "starttls" or "plain" (loopback only)
    user: str | None
    password_env: str
    keyring: bool
    cafile: Path | None
    timeout: float
    folder: str = "INBOX"

    @property
    def where(self) -> str:
        return f"{self.kind} {self.user + '@' if self.user else ''}{self.host}:{self.port}"


def read(home: Path) -> dict[str, Any]:
    """The parsed config of `home` ({} when there is none), every key checked."""
    import tomllib

    path = Path(home) / CONFIG
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from None
    _check(data, path, "")
    for name, tables in data.get("as", {}).items():
        if not isinstance(tables, dict):
            raise ConfigError(f"{path}: [as.{name}] must be a table")
        _check(tables, path, f"as.{name}.")
    return data


def _check(data: dict[str, Any], path: Path, prefix: str) -> None:
    for table, value in data.items():
        if prefix == "" and table == "as":
            continue
        if table not in _TABLES:
            raise ConfigError(f"{path}: unknown table [{prefix}{table}]",
                              hint=f"the tables are {', '.join('[' + t + ']' for t in _TABLES)} and [as.NAME]")
        if not isinstance(value, dict):
            raise ConfigError(f"{path}: {prefix}{table} must be a table ([{prefix}{table}])")
        for key in value:
            if key == "password":
                raise ConfigError(
                    f"{path}: [{prefix}{table}] holds a password: pbem never reads passwords from its config",
                    hint="remove it; use password_env = \"VARIABLE\", keyring = true, or type it when asked",
                )
            if key not in _TABLES[table]:
                raise ConfigError(f"{path}: unknown key {key!r} in [{prefix}{table}]",
                                  hint=f"the keys of [{table}] are {', '.join(sorted(_TABLES[table]))}")


def table(config: dict[str, Any], name: str, who: str | None) -> dict[str, Any]:
    """Table `name`, with the identity's own ``[as.WHO.name]`` laid over it."""
    out = dict(config.get(name, {}))
    if who:
        out.update(config.get("as", {}).get(who, {}).get(name, {}))
    return out


def server(config: dict[str, Any], kind: str, who: str | None, path: Path) -> Server | None:
    """The `kind` ("smtp" or "imap") server the config names, None if none."""
    t = table(config, kind, who)
    if not t:
        return None
    where = f"{path}: [{kind}]"
    host = t.get("host")
    if not isinstance(host, str) or not host:
        raise ConfigError(f"{where} needs host = \"...\"")
    security = t.get("security", "starttls" if kind == "smtp" else "tls")
    allowed = ("tls", "starttls", "plain")
    if security not in allowed:
        raise ConfigError(f"{where}: security must be one of {', '.join(allowed)}, not {security!r}")
    if security == "plain" and not _loopback(host):
        raise ConfigError(
            f"{where}: security = \"plain\" sends the password and the files in clear: only for a server on "
            f"this machine (127.0.0.1, ::1, localhost), not {host}",
            hint="use security = \"tls\" or \"starttls\"",
        )
    port = t.get("port", _DEFAULT_PORTS[(kind, security)])
    if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
        raise ConfigError(f"{where}: port must be a number from 1 to 65535")
    user = t.get("user")
    if user is not None and (not isinstance(user, str) or not user):
        raise ConfigError(f"{where}: user must be text")
    env = t.get("password_env", f"PBEM_{kind.upper()}_PASSWORD")
    if not isinstance(env, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", env):
        raise ConfigError(f"{where}: password_env must name an environment variable")
    keyring = t.get("keyring", False)
    if not isinstance(keyring, bool):
        raise ConfigError(f"{where}: keyring must be true or false")
    cafile = t.get("cafile")
    if cafile is not None:
        if not isinstance(cafile, str):
            raise ConfigError(f"{where}: cafile must be a path")
        cafile = Path(cafile).expanduser()
    timeout = t.get("timeout", 30)
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or timeout <= 0:
        raise ConfigError(f"{where}: timeout must be a number of seconds")
    folder = t.get("folder", "INBOX")
    if not isinstance(folder, str) or not folder:
        raise ConfigError(f"{where}: folder must be a mailbox name")
    return Server(kind, host, port, security, user, env, keyring, cafile, float(timeout), folder)


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def path_value(config: dict[str, Any], name: str, key: str, who: str | None) -> Path | None:
    value = table(config, name, who).get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        raise ConfigError(f"[{name}] {key} must be a path")
    return Path(os.path.expanduser(value))


def duration(text: str | int | float, what: str = "timeout") -> float:
    """Seconds from ``90``, ``"90s"``, ``"15m"``, ``"2h"``."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        seconds = float(text)
    else:
        m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smh]?)\s*", str(text))
        if m is None:
            raise ConfigError(f"bad {what} {text!r}: give seconds, or a number with s, m or h (15m)")
        seconds = float(m.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600}[m.group(2)]
    if seconds <= 0:
        raise ConfigError(f"bad {what} {text!r}: it must be more than nothing")
    return seconds
