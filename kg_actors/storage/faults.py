"""A test-only door for storage faults: a disk that turns full or read-only under a running server.

Tests run as root, so a read-only directory does not refuse root's writes, and a size-limited
mount needs privileges a test does not have. When `KG_TEST_STORAGE_FAULT` names a file and that
file exists, every journal append and every atomic file write raises the OSError its first word
names (ENOSPC when it is empty): the fault starts and ends with the file. Unset, it costs one
environment lookup per write.
"""

from __future__ import annotations

import errno
import os

ENV = "KG_TEST_STORAGE_FAULT"


def check(path: object) -> None:
    """Raise the injected OSError for a write to `path`, if a fault is switched on."""
    flag = os.environ.get(ENV)
    if not flag:
        return
    try:
        with open(flag, encoding="utf-8") as f:
            words = f.read().split()
    except OSError:
        return
    code = getattr(errno, words[0], errno.ENOSPC) if words else errno.ENOSPC
    raise OSError(code, os.strerror(code), str(path))
