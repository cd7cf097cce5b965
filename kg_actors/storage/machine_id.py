"""This store's own id among the machines that sync it, kept in its git folder (never committed or pushed).

Commits name their machine by host name, and two machines may share one (two VMs named `vm`): a sync's
notice of a node deleted on one machine and kept for an edit on the other then named both sides alike. The
id tells them apart: commits carry it beside the host name, a merge records it when both names are one,
and a read says "this machine" for the id that is this store's.

Read from its file only, cached by the file's stat: the server and `kg sync` run in other processes, and an id
kept in memory after its file was deleted and remade made commits carry two ids and a read call this machine's
own delete another's. The file records where it was made (the store's path, its git folder's device and inode):
a store copied to make a second machine (`cp -a`) brings the file along, and two machines then had one id. A
copy gets an id of its own at its first read, said once in the log. A file of the id alone (an earlier build)
is taken as this store's, and recorded so.
"""

from __future__ import annotations

import logging
import os
import secrets
from pathlib import Path

from . import files

log = logging.getLogger(__name__)

FILE = Path(".git") / "kg-machine-id"
TRAILER = "Machine-Id: "
_KNOWN: dict[str, tuple[tuple[int, int, int], str]] = {}  # root -> (the file's stat, the id it holds)


def _stat(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns, st.st_size


def _place(root: Path) -> list[str]:
    """Where the store is: its path, and its git folder's device and inode (a copy has others)."""
    try:
        st = os.stat(root / ".git")
    except OSError:
        return [str(root)]
    return [str(root), f"{st.st_dev}:{st.st_ino}"]


def machine_id(root: Path, make: bool = False) -> str:
    """This store's id ("" when it has none yet; `make`: one is made when the store is a git repository)."""
    path = root / FILE
    stamp = _stat(path)
    known = _KNOWN.get(str(root))
    if stamp is not None and known is not None and known[0] == stamp:
        return known[1]
    try:
        lines = path.read_text(encoding="utf-8").splitlines() if stamp is not None else []
    except (OSError, UnicodeDecodeError):
        lines = []
    value = lines[0].strip() if lines else ""
    here = _place(root)
    if value and len(lines) > 1 and [ln.strip() for ln in lines[1:3]] != here and (root / ".git").is_dir():
        log.warning("this store (%s) was copied from another (%s): its machine id %s was that store's, so it gets "
                    "one of its own; syncs now tell the two apart", root, lines[1].strip(), value)
        value = ""
        make = True
    elif value and len(lines) == 1 and (root / ".git").is_dir():
        _write(path, value, here)  # an earlier build's file: recorded as this store's from now on
    if not value and make and (root / ".git").is_dir():
        value = secrets.token_hex(4)
        _write(path, value, here)
    if value:
        stamp = _stat(path)
        if stamp is not None:
            _KNOWN[str(root)] = (stamp, value)
    return value


def _write(path: Path, value: str, here: list[str]) -> None:
    try:
        files.write_atomic(path, "\n".join([value, *here, ""]).encode(), keep_prev=False)
    except OSError:
        pass  # read-only: the id stands as it is, and is read again next time
