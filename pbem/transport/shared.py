"""Is a game folder shared, kept in step on every player's machine by a sync
tool or a network drive? Then nothing needs to be sent: each player's
`pbem watch` (and the referee's `pbem referee watch`) picks up the files
as they arrive, and what a command tells its user says so instead of
"send ... to ...".

Told from what the tools leave: Syncthing's ``.stfolder`` at the root of a
synced folder, Dropbox's ``.dropbox`` file / ``.dropbox.cache``, the
Nextcloud/ownCloud client's ``.sync_*.db`` / ``._sync_*.db``, Resilio
Sync's ``.sync`` folder, in the folder or any folder above it below the
home folder (whose own ``~/.dropbox`` is a tool's settings); or a folder
on a network file system (NFS, SMB/CIFS, sshfs ...), read from
``/proc/self/mounts`` where there is one. A folder a tool syncs without a
mark (some cloud drives) is taken for one's own, and the "send" line then
says what a mailed game needs, which is harmless.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["shared_by"]

#: (a name that marks the root of a synced folder, the tool) in the order tried
_MARKS = (
    (".stfolder", "Syncthing"),
    (".dropbox.cache", "Dropbox"),
    (".sync", "Resilio Sync"),
)
_NEXTCLOUD = ("._sync_", ".sync_")
#: file system types of network drives
_NETWORK = {"nfs", "nfs4", "cifs", "smb3", "smbfs", "fuse.sshfs", "9p", "afs", "ceph", "glusterfs",
            "fuse.rclone", "davfs", "fuse.davfs2", "fuse.glusterfs", "fuse.cephfs"}
_MOUNTS = Path("/proc/self/mounts")


def shared_by(folder: Path) -> str | None:
    """The sync tool or network drive that shares `folder` ("Syncthing",
    "a network drive" ...), or None when nothing says it is shared."""
    try:
        here = Path(folder).resolve()
    except OSError:
        return None
    home = Path.home()
    for place in (here, *here.parents):
        if place == home or place == place.parent:
            break  # a tool's own settings in the home folder (~/.dropbox) mark nothing
        for name, tool in _MARKS:
            if (place / name).exists():
                return tool
        if (place / ".dropbox").is_file():  # the Dropbox folder's mark (its settings are a folder)
            return "Dropbox"
        try:
            if any(n.startswith(_NEXTCLOUD) and n.endswith(".db") for n in os.listdir(place)):
                return "Nextcloud"
        except OSError:
            continue
    return "a network drive" if _on_network(here) else None


def _on_network(path: Path) -> bool:
    """True if the longest mount point above `path` is a network file system."""
    try:
        lines = _MOUNTS.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return False
    best, kind = "", ""
    for line in lines:
        parts = line.split()
        if len(parts) < 3:
            continue
        point = parts[1].replace("\\040", " ")
        if (str(path) == point or str(path).startswith(point.rstrip("/") + "/")) and len(point) > len(best):
            best, kind = point, parts[2]
    return kind in _NETWORK
