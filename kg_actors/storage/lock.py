"""One server per storage directory: an exclusive flock on the directory itself.

Locking the directory (not a file in it) leaves nothing behind in a
git-tracked store; the kernel drops the lock when the process dies, kill -9
included.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


class StorageBusy(Exception):
    pass


def claim(root: Path) -> int:
    root.mkdir(parents=True, exist_ok=True)
    fd = os.open(root, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise StorageBusy(f"another memory server already uses {root}") from None
    return fd


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
