"""Reading files a user or another program controls: only regular files, and their JSON through one strict parser.

A FIFO (or a device) where such a file is expected would block a worker thread
for ever on open or read: the open never waits (O_NONBLOCK) and anything but a
regular file is an OSError, as a missing file is. What is not usable JSON
(strict_json) is a ValueError, as a torn file is.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any, BinaryIO

from ..core import strict_json


def open_regular(path: Path | str) -> BinaryIO:
    """The file opened for reading; OSError when it is missing, unreadable or not a regular file."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{os.fspath(path)}: not a regular file")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def read_bytes(path: Path | str) -> bytes:
    """The whole file; OSError when it is missing, unreadable or not a regular file."""
    with open_regular(path) as f:
        return f.read()


def read_tail(path: Path | str, limit: int) -> tuple[bytes, bool]:
    """At most the file's last `limit` bytes, and whether that cut its start."""
    with open_regular(path) as f:
        size = f.seek(0, os.SEEK_END)
        start = max(0, size - limit)
        f.seek(start)
        return f.read(limit), start > 0


def load_json(path: Path | str) -> Any:
    """The file's JSON: OSError as read_bytes, ValueError when it is not usable JSON (strict_json)."""
    return strict_json.loads(read_bytes(path))


def is_regular(path: Path | str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False
