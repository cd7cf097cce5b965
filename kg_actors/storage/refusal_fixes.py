"""The command that lifts a refusal of the store's writes, for the causes where the plain one changes nothing:
a folder another account owns (its owner's `chmod u+w` is already there: `chown`), an immutable or append-only
file (EPERM in a writable folder: `chattr`), something that is not the store's where it keeps a folder or file
(moved away, named). Run by `kg status`, `kg doctor` and `kg stop`, as the server's user (the server answers no
other account)."""

from __future__ import annotations

import os
import shlex
import stat
from pathlib import Path

from .read_refusals import user_of


def forbidden(folder: Path) -> str:
    """EACCES writing in `folder`."""
    where = shlex.quote(str(folder))
    me = os.geteuid()
    try:
        owner = os.stat(folder).st_uid
    except OSError:
        owner = me
    if owner != me:  # its owner has u+w already: only the folder given to this user lets the server write
        return (f"give {folder} to the server's user: `chown {user_of(me)} {where}`, as root (it belongs to "
                f"{user_of(owner)}, so a chmod by its owner changes nothing for {user_of(me)})")
    return f"give the server's user write permission in {folder} (`chmod u+w {where}`, as its owner)"


def not_permitted(folder: Path, file: Path | None) -> str:
    """EPERM: no permission bit refuses it (a chmod changes nothing). A file in a sticky folder (/tmp's kind)
    that another account owns, or an immutable or append-only attribute on the file or its folder."""
    target = file if file is not None else folder
    me = os.geteuid()
    try:
        sticky = bool(os.stat(folder).st_mode & stat.S_ISVTX)
        owner = os.stat(target).st_uid
    except OSError:
        sticky, owner = False, me
    if sticky and owner != me and target != folder:
        return (f"{folder} is sticky and {target.name} belongs to {user_of(owner)}: give it to the server's user "
                f"(`chown {user_of(me)} {shlex.quote(str(target))}`, as root)")
    paths = " ".join(shlex.quote(str(p)) for p in dict.fromkeys((target, folder)))
    return (f"{target} or its folder is marked immutable or append-only (no permission bit refuses it, so chmod "
            f"changes nothing; `lsattr -d {paths}` shows an i or an a): `chattr -i -a {paths}`, as root")


def _obstacle(folder: Path, file: Path | None) -> Path | None:
    """The first path from the top that stands where the store keeps a folder but is none (a file, a link
    to nothing), else the file itself when a folder stands in its place."""
    for path in [*reversed(folder.parents), folder]:
        if os.path.lexists(path) and not path.is_dir():
            return path
    if file is not None and file.is_dir() and not file.is_symlink():
        return file
    return None


def in_the_way(folder: Path, file: Path | None) -> str:
    """ENOTDIR, EISDIR, EEXIST: something that is not the store's is where it writes."""
    found = _obstacle(folder, file)
    if found is None:
        return f"move away what stands in {folder} where the store writes (`kg logs` names the file)"
    what = "a folder where the store keeps a file" if found == file else (
        "a file where the store keeps a folder" if not found.is_symlink() else "a link where the store keeps a folder")
    q = shlex.quote(str(found))
    return f"{found} is {what}: move it away (`mv {q} {q}.aside`), then retry; the store makes what it needs"
