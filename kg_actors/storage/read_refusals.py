"""Why a file could not be read when the cause is not what it holds: the server may not read it (a
permission), or the disk or share under it failed for now (an I/O error, a network share gone, no memory).

Such a file is not corrupt: its previous save must not be served in its place nor the file moved aside
(the lessons of its last save would be lost when the cause is fixed). Its graph waits until it reads.
A folder, a FIFO or a symlink loop in its place is the file itself being wrong: not here.
"""

from __future__ import annotations

import errno
import os
import pwd
import shlex
import stat
from pathlib import Path

PERMISSION = frozenset({errno.EACCES, errno.EPERM})
# The disk, the share or the machine failing for now; the same read may succeed later.
PASSING = frozenset(getattr(errno, name) for name in (
    "EIO", "ENOMEM", "ENOBUFS", "ENFILE", "EMFILE", "EAGAIN", "EINTR", "EBUSY", "ETIMEDOUT", "ESTALE", "ENOTCONN",
    "ECONNRESET", "ECONNABORTED", "ECONNREFUSED", "EHOSTDOWN", "EHOSTUNREACH", "ENETDOWN", "ENETUNREACH",
    "ENOLINK", "ECOMM", "EREMOTEIO", "ENODEV", "ENOMEDIUM", "EDEADLK", "ENOLCK") if hasattr(errno, name))


def user_of(uid: int) -> str:
    """The account's name, its number where the system has none."""
    try:
        return pwd.getpwuid(uid).pw_name
    except (KeyError, OSError):
        return str(uid)


def closed_folder(path: Path) -> Path:
    """The first folder above `path`, from the top, the server may not enter (its parent when none is found)."""
    effective = os.access in os.supports_effective_ids
    for folder in reversed(path.parents):
        if not os.access(folder, os.X_OK, effective_ids=effective):
            return folder
    return path.parent


def access_fix(path: Path) -> tuple[str, str]:
    """(what is refused, the commands that open it to this process's user) for `path` it may not read: the
    folder above it it may not enter, when that is what refuses; a `chown` beside the `chmod` when another
    account owns it (its owner's chmod changes nothing for this user)."""
    me = user_of(os.geteuid())
    what = f"{path} may not be read"
    try:
        st = os.stat(path)
        owner = st.st_uid
        fix = f"`chmod u+rw{'x' if stat.S_ISDIR(st.st_mode) else ''} {shlex.quote(str(path))}`"  # a folder: entered
    except OSError:  # a folder above it may not be looked into: the file itself is not what is refused
        folder = closed_folder(path)
        what = f"the folder {folder} may not be entered"
        fix = (f"`chmod u+rwx {shlex.quote(str(folder))}` (the folder the server may not enter, so cannot "
               f"reach {path.name} under it)")
        try:
            if (owner := os.stat(folder).st_uid) != os.geteuid():
                fix += f" and `chown {me} {shlex.quote(str(folder))}` (it belongs to {user_of(owner)})"
        except OSError:
            pass
    else:
        if owner != os.geteuid():
            fix += f" and `chown {me} {shlex.quote(str(path))}` (it belongs to {user_of(owner)})"
    return what, fix


def said(path: Path, exc: OSError) -> tuple[str, str] | None:
    """(why, fix) when reading `path` failed for a cause outside the file's content, else None."""
    code = exc.errno
    name = errno.errorcode.get(code or 0, str(code))
    if code in PERMISSION:
        me = user_of(os.geteuid())
        what, fix = access_fix(path)
        why = (f"{what} by the server's user {me}: {exc.strerror or exc} ({name}), a permission, "
               "not damage: it was left where it is and its previous save is not served in its place")
        return why, f"{fix}; the graph then loads whole at its next use"
    if code in PASSING:
        why = (f"{path} could not be read: {exc.strerror or exc} ({name}), an error of the disk or share it is on, "
               "not of what it holds: it was left where it is and its previous save is not served in its place")
        return why, "check the disk or the share it is on (mounted? reachable?); the graph loads whole at its next use"
    return None
