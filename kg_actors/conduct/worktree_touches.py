"""A touch naming a file of a linked worktree by its absolute path (as an agent working there sees it),
named as the repository's file: relative to the project, as a file of the main checkout is. Reads in the
worktree are named as the main checkout's (storage/work_trees.py), so only then do the two meet, and the
lesson outlives the worktree.

So is a file of the project itself named by its absolute or `~` path (through a symlink in home too), and
a relative one with `./` or `..` steps or a doubled `/` is written plainly: one file, one touch, which recall and the
touch checks meet. A path outside the project, one climbing out of it, and a Windows path (`C:\\...`,
`src\\a.py`: no file of this machine can be told from it) are kept as sent. A project edge's file end
is named the same way (`edge_end`): one file, one edge."""

from __future__ import annotations

import posixpath
import time
from collections.abc import Sequence

from ..core import ids
from ..core.anchors import parse_touch, resolve_touch
from ..storage import home_paths, layout as L
from ..storage import work_trees


def as_in_checkout(touches: Sequence[str], project: str | None) -> list[str]:
    """`touches` with those in a linked worktree of `project` (its folder) made relative; others as sent."""
    if not project:
        return list(touches)
    home = str(L.home())
    out: list[str] = []
    for touch in touches:
        if not isinstance(touch, str):  # a hand edit's odd value: kept as it is
            out.append(touch)
            continue
        path = parse_touch(touch)
        full = resolve_touch(path, None, home) if path and path.startswith(("/", "~/")) else None
        there = (work_trees.in_checkout(full, project, home) or _in_project(full, project, home)) if full else None
        if path and not full and "\\" not in path and ("./" in path or "//" in path or path.endswith("/.") or "/.." in path):
            plain = posixpath.normpath(path) + ("/" if path.endswith("/") else "")
            there = plain if not plain.startswith("..") and plain not in (".", "./") else None
        named = touch.replace(path, there, 1) if there and path else touch
        out.append(named)  # three spellings of one file: the write keeps one, and says so
    return out


def edge_end(end: str, project: str | None) -> str:
    """A project edge's end that names a file of `project`, named as its touches are; a node id, a path
    outside the project and what is no string (refused by the write) as sent."""
    if not isinstance(end, str) or not project or not ids.is_artifact(end):
        return end
    named = as_in_checkout([end], project)[0]
    # A file at the project's top (README.md) keeps its `./`: an end without `/` or `~` is a node id.
    return named if ids.is_artifact(named) else "./" + named


def _in_project(full: str, project: str, home: str) -> str | None:
    """An absolute path of a file in `project`, as its relative path (named as projects are: a symlink in
    home on its way followed, a resolved path named by the link in home to it); None outside it."""
    named = home_paths.named(full, home, time.monotonic())  # by its resolved path too, as the cwd is
    if named == project or not home_paths.inside(named, project):
        return None
    return posixpath.relpath(named, project)
