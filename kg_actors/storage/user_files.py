"""Reading files a user or another program controls: only regular files, and their JSON through one strict parser.

A FIFO (or a device) where such a file is expected would block a worker thread
for ever on open or read: the open never waits (O_NONBLOCK) and anything but a
regular file is an OSError, as a missing file is. What is not usable JSON
(strict_json) is a ValueError, as a torn file is.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Any, BinaryIO

from ..core import strict_json


_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISDIR, "a directory"))


def not_regular(mode: int) -> str | None:
    """What a file of this mode is when it is not a regular file ("not a regular file (a FIFO)"), else None."""
    if stat.S_ISREG(mode):
        return None
    kind = next((name for test, name in _KINDS if test(mode)), "not a file")
    return f"not a regular file ({kind})"


def open_regular(path: Path | str) -> BinaryIO:
    """The file opened for reading; OSError when it is missing, unreadable or not a regular file (its
    strerror then says what it is: "not a regular file (a FIFO)")."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):  # as open() says it
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(path))
        why = not_regular(mode)
        if why is not None:
            raise OSError(errno.EINVAL, why, os.fspath(path))
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
