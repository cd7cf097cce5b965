"""The commit kg last made or took in (`.git/kg-mirror/head`), to notice a HEAD moved outside kg.

The store is a plain git repository, so a user may run `git pull` in it. The graph
files (what the server holds) then lag behind HEAD, and a commit mirrored from them
would write the pulled content back out: another machine's acknowledged write
reverted, no conflict listed. Each kg commit, and each merge once its graphs took it
in, records HEAD here; a HEAD that differs was moved by someone else.
"""

from __future__ import annotations

import os
from pathlib import Path

FILE = Path(".git") / "kg-mirror" / "head"


def recorded(root: Path) -> str | None:
    """The commit recorded, or None (a store an older kg committed, or none made yet: nothing to compare)."""
    try:
        value = (root / FILE).read_text().strip()
    except (OSError, UnicodeDecodeError):
        return None
    return value or None


def remember(root: Path, sha: str | None) -> None:
    if sha is None:
        return
    path = root / FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    staged = path.with_name("head.tmp")
    staged.write_text(sha + "\n")
    os.replace(staged, path)
