"""Why no server of this user can run on a store, before any is asked: KG_HOME a file, or a store folder this
user may not enter or write in (left to root by one `sudo kg ...`). `kg status` then says no server runs
(exit 3) naming why, and doctor's fix for the server is this one: `kg start` alone refuses such a store."""

from __future__ import annotations

import os
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
    what, fix = read_refusals.access_fix(where)
    return f"{what} by this user (Permission denied)", fix
