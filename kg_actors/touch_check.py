"""Touches checked against the code when a node is read: a `stat` per touch shown, cached until the next tick.

For a touch found gone, where it went is looked up once per tick: git's
recorded renames in the project's repository (one `git log`, 5 s at most) or
the one same-named file in the project (a walk of at most 50,000 entries that
skips dependency and build folders). All of it runs in a worker thread.
"""

from __future__ import annotations

import os
import subprocess

import attrs
import trio

from .core import anchors
from .core import touch_marks as T
from .core.model import Node

GIT_TIMEOUT = 5.0
WALK_MAX = 50_000
SKIP_DIRS = frozenset({".git", "node_modules", "venv", ".venv", "__pycache__", ".tox", ".mypy_cache",
                       ".pytest_cache", "dist", "build", "target", ".next"})


def _git_renames(root: str) -> dict[str, str]:
    try:
        done = subprocess.run(["git", "-C", root, "log", "--diff-filter=R", "--name-status", "-M", "--format=",
                               "-n", "2000"], capture_output=True, text=True, timeout=GIT_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired):
        return {}
    return T.renames(done.stdout) if done.returncode == 0 else {}


def _files(root: str) -> list[str] | None:
    """Relative paths of the project's files; None when the walk would pass its bound (no guess then)."""
    out: list[str] = []
    count = 0
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
        count += len(dirs) + len(names)
        if count > WALK_MAX:
            return None
        rel = os.path.relpath(folder, root)
        out.extend(n if rel == "." else f"{rel}/{n}" for n in names)
    return out


class TouchCheck:
    """The per-tick caches. Worker threads fill them (a dict write is atomic: a race repeats a stat, no more)."""

    def __init__(self, home: str | None = None):
        self.home = home or os.path.expanduser("~")
        self._exists: dict[str, bool] = {}
        self._gone: dict[tuple[str, str], str | None] = {}  # (root, gone path) -> where it went, when known
        self._moves: dict[str, dict[str, str]] = {}  # project root -> git's renames
        self._files: dict[str, list[str] | None] = {}

    def new_tick(self) -> None:
        self._exists.clear()
        self._gone.clear()
        self._moves.clear()
        self._files.clear()

    def _where(self, root: str, path: str, rel: str) -> str | None:
        if root not in self._moves:
            self._moves[root] = _git_renames(root)
        moved = T.follow(rel, self._moves[root])
        if moved is not None and os.path.exists(os.path.join(root, moved)):
            return moved
        if root not in self._files:
            self._files[root] = _files(root)
        files = self._files[root]
        return T.same_named(os.path.basename(path), files) if files is not None else None

    def _check(self, touches: tuple[str, ...], root: str | None, cached_only: bool = False
               ) -> list[tuple[bool, str | None]] | None:
        """Per touch: (its file is gone, where it went when known). `cached_only`: from this tick's
        caches alone, no file system call (None when a touch is not in them yet)."""
        out: list[tuple[bool, str | None]] = []
        for touch in touches:
            parsed = anchors.parse_touch(touch)
            path = anchors.resolve_touch(parsed, root, self.home) if parsed else None
            if path is None:
                out.append((False, None))
                continue
            if path not in self._exists:
                if cached_only:
                    return None
                self._exists[path] = os.path.exists(path)
            if self._exists[path]:
                out.append((False, None))
                continue
            key = (root or "", path)
            if key not in self._gone:
                if cached_only:
                    return None
                where = None
                if root and os.path.isdir(root) and path.startswith(root.rstrip("/") + "/"):
                    where = self._where(root, path, os.path.relpath(path, root))
                self._gone[key] = where
            out.append((True, self._gone[key]))
        return out

    async def marked(self, node: Node, project_root: str | None) -> Node:
        """The node as a read shows it: each gone touch marked, with where it went when known.
        What this tick already checked is answered on the loop: a worker thread's round trip per
        node read was a third of a read of five ids."""
        if not node.touches:
            return node
        touches = await self.marked_touches(node.touches, project_root)
        return node if touches is node.touches else attrs.evolve(node, touches=touches)

    async def marked_touches(self, touches: tuple[str, ...], project_root: str | None) -> tuple[str, ...]:
        """`touches` with each gone one marked (the same tuple when none is gone)."""
        checked = self._check(touches, project_root, cached_only=True)
        if checked is None:
            checked = await trio.to_thread.run_sync(self._check, touches, project_root)
        assert checked is not None
        if not any(gone for gone, _ in checked):
            return touches
        return tuple(T.mark(t, gone, where) for t, (gone, where) in zip(touches, checked, strict=True))


def where_gone(touches: list[str], root: str) -> dict[str, str]:
    """For an anchor chore (worker thread): gone touch -> where its file went, for those the server can say."""
    checked = TouchCheck()._check(tuple(touches), root)
    assert checked is not None
    return {t: where for t, (gone, where) in zip(touches, checked, strict=True) if gone and where}
