"""Why no server of this user can run on a store, before any is asked: KG_HOME a file, or a store folder this
user may not enter or write in (left to root by one `sudo kg ...`). `kg status` then says no server runs
(exit 3) naming why, and doctor's fix for the server is this one: `kg start` alone refuses such a store."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from . import read_refusals


def why(root: Path) -> tuple[str, str] | None:
    """(what is wrong, its fix) when this user's server cannot hold `root`, else None (a store not made yet
    included: `kg start` makes it)."""
    effective = os.access in os.supports_effective_ids
    try:
        for path in (root, root.parent):
            if path.exists() and not path.is_dir():
                return f"{path} is a file, not a folder", "point KG_HOME at a folder"
        where = root if root.exists() else root.parent
        if not where.is_dir() or os.access(where, os.R_OK | os.W_OK | os.X_OK, effective_ids=effective):
            return None
    except OSError:  # a folder above it may not be entered
        where = root
    if read_only_mount(where):  # no permission would help
        return f"{where} is on a file system mounted read-only", read_only_fix(where)
    what, fix = read_refusals.access_fix(where)
    if os.access(where, os.R_OK | os.X_OK, effective_ids=effective):  # it reads: writing is what it refuses
        what = f"{where} is not writable"
    return f"{what} by this user (Permission denied)", fix


def read_only_fix(where: Path) -> str:
    return f"mount it writable (findmnt -T {shlex.quote(str(where))} names the mount), or set KG_HOME"


def read_only_mount(path: Path) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False
