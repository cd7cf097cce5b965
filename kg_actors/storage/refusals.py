"""What a refused write tells the agent to do before it retries, by why the store refused it.

One sentence for every cause told a user "retry when the disk has room again" even when the graph's
folder was a file, or the store read-only, where waiting changes nothing.
"""

from __future__ import annotations

import errno
import os
import re
import shlex
from pathlib import Path

from . import refusal_fixes

_ROOM = (errno.ENOSPC, errno.EDQUOT)
_OCCUPIED = (errno.ENOTDIR, errno.EISDIR, errno.EEXIST)
_FORBIDDEN = (errno.EACCES, errno.EPERM)


def retry_advice(exc: BaseException, where: Path) -> str:
    """What must change before a retry of a write to `where` (a file of the store) can succeed."""
    code = exc.errno if isinstance(exc, OSError) else None
    if code in _ROOM:
        return "retry when the disk has room again"
    if code == errno.EROFS:
        return f"the file system holding {where.parent} is read-only: retry once it is writable again"
    if code == errno.EPERM:  # no permission bit refuses it: an attribute, or a sticky folder
        return (f"{where.parent} refuses this write though no permission bit does (an immutable or append-only "
                "file or folder?): kg doctor names the fix, then retry")
    if code in _FORBIDDEN:
        return f"the server may not write in {where.parent}: give it write permission there, then retry"
    if code in _OCCUPIED:
        return (f"something that is not the store's stands in the way of {where}: "
                "move it away (kg doctor names it), then retry")
    return "retry; if it is refused again, run kg doctor"


_ERRNO_SAID = re.compile(r"\[Errno (\d+)\]")


def said_errno(said: str) -> int | None:
    """The errno a failure's text names (`[Errno 13] ...`, or its words: "Permission denied"), else None."""
    if (found := _ERRNO_SAID.search(said)) is not None:
        return int(found.group(1))
    return next((code for code in (*_ROOM, errno.EROFS, *_FORBIDDEN, *_OCCUPIED) if os.strerror(code) in said), None)


def user_fix(said: str, folder: Path, file: Path | None = None) -> str:
    """What the user does about a save of the store refused with `said` in `folder` (of `file`, when known):
    the fix of its cause (a permission is not fixed by freeing space), one that changes what refused."""
    code = said_errno(said)
    where = shlex.quote(str(folder))
    if code in _ROOM:
        return f"free space on the disk holding {folder} (df {where})"
    if code == errno.EROFS:
        return f"the file system holding {folder} is mounted read-only: mount it writable"
    if code == errno.EPERM:
        return refusal_fixes.not_permitted(folder, file)
    if code == errno.EACCES:
        return refusal_fixes.forbidden(folder)
    if code in _OCCUPIED:
        return refusal_fixes.in_the_way(folder, file)
    return f"make {folder} writable, or free space on its disk"
