"""One server per storage directory: an exclusive flock on the directory itself.

Locking the directory (not a file in it) leaves nothing behind in a
git-tracked store; the kernel drops the lock when the process dies, kill -9
included.
"""

from __future__ import annotations

import fcntl
import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)


class StorageBusy(Exception):
    pass


def claim(root: Path) -> int:
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(root, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise StorageBusy(f"another memory server already uses {root}") from None
    keep_private(root)
    return fd


def keep_private(root: Path) -> None:
    """The store's folder, this user's alone: it holds every lesson, the folders of every session and the
    recall log, and with a umask of 022 its files come out readable by all (the folder closed, no other
    account reaches them). A folder this user cannot change (another's, a read-only mount) is left as it is."""
    try:
        mode = os.stat(root).st_mode & 0o777
        if mode & 0o077:
            os.chmod(root, mode & 0o700)
            log.info("the store %s was open to other accounts (%o): now %o", root, mode, mode & 0o700)
    except OSError as exc:
        log.warning("could not close the store %s to other accounts: %s", root, exc)


def holder_present(root: Path) -> bool | None:
    """Whether some process holds the store's lock (what one server per store takes); None if it cannot be
    told (no such folder). A copy of a store (`cp -a`) is another directory: nobody holds it."""
    try:
        fd = os.open(root, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing drops a lock taken for the test
    return False


def release(fd: int) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def held(root: Path, fd: int) -> bool:
    """Whether the directory locked through `fd` is still the one at `root`: a store removed (rm -rf) or
    moved under a running server leaves its lock on a directory no path names, and a second server
    could claim the one made in its place."""
    try:
        now, locked = os.stat(root), os.fstat(fd)
    except OSError:
        return False
    return (now.st_dev, now.st_ino) == (locked.st_dev, locked.st_ino)
