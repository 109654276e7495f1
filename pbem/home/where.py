"""Where the user's pbem home is: a module of its own, with nothing but
the standard library, because commands that never touch a key (`pbem
status` answered from memory, the games index) must find the home without
importing the key store and the cryptography behind it."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

_APP = "pbem"


def default_home(environ: Mapping[str, str] | None = None, platform: str | None = None) -> Path:
    """Where keys live: ``$PBEM_HOME``, else the platform's user config folder.

    Linux and other Unix: ``$XDG_CONFIG_HOME/pbem`` (only if absolute, as the
    XDG spec says) or ``~/.config/pbem``; macOS: ``~/Library/Application
    Support/pbem``; Windows: ``%APPDATA%\\pbem``. `environ` and `platform`
    default to the real ones and exist for tests.
    """
    env = os.environ if environ is None else environ
    plat = sys.platform if platform is None else platform
    if env.get("PBEM_HOME"):
        return Path(env["PBEM_HOME"]).expanduser()
    if plat == "win32":
        appdata = env.get("APPDATA")
        base = Path(appdata) if appdata else Path.home() / "AppData" / "Roaming"
    elif plat == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        xdg = env.get("XDG_CONFIG_HOME", "")
        base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".config"
    return base / _APP
