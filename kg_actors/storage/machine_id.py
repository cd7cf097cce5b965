"""This store's own id among the machines that sync it, kept in its git folder (never committed or pushed).

Commits name their machine by host name, and two machines may share one (two VMs named `vm`): a sync's
notice of a node deleted on one machine and kept for an edit on the other then named both sides alike. The
id tells them apart: commits carry it beside the host name, a merge records it when both names are one,
and a read says "this machine" for the id that is this store's.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from . import files

FILE = Path(".git") / "kg-machine-id"
TRAILER = "Machine-Id: "
_KNOWN: dict[str, str] = {}  # root -> id; only ids found (one made later is then read)


def machine_id(root: Path, make: bool = False) -> str:
    """This store's id ("" when it has none yet; `make`: one is made when the store is a git repository)."""
    known = _KNOWN.get(str(root))
    if known:
        return known
    try:
        value = (root / FILE).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        value = ""
    if not value and make and (root / ".git").is_dir():
        value = secrets.token_hex(4)
        files.write_atomic(root / FILE, value.encode(), keep_prev=False)
    if value:
        _KNOWN[str(root)] = value
    return value
