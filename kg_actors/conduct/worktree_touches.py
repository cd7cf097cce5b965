"""A touch naming a file of a linked worktree by its absolute path (as an agent working there sees it),
named as the repository's file: relative to the project, as a file of the main checkout is. Reads in the
worktree are named as the main checkout's (storage/work_trees.py), so only then do the two meet, and the
lesson outlives the worktree."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.anchors import parse_touch, resolve_touch
from ..storage import layout as L
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
        there = work_trees.in_checkout(full, project, home) if full else None
        out.append(touch.replace(path, there, 1) if there and path else touch)
    return out
