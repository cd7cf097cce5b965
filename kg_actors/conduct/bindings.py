"""CwdBindings: which project root a session's cwd binds to, each answer kept a short while.

The one owner of the cwd -> root cache. Every hook asks, and an answer costs a
stat per folder level (which stalls while another thread's fsync holds the
disk), so an answer is kept ROOT_CACHE_SECONDS; a bad cwd is refused every
time. A session's start looks again (`fresh`): a folder made a linked worktree
since (a worktree's name reused) binds to its repository from its next session.
Called from the event loop only, without awaiting: no lock needed.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from ..core import constants as C
from ..storage import home_paths, layout as L, work_trees


class GraphsOnDisk(Protocol):
    def has_graph_for(self, root: str) -> bool: ...

    def has_project_graph(self, root: str) -> bool: ...


class CwdBindings:
    def __init__(self, graphs: GraphsOnDisk, clock: Callable[[], float], store: Path | None = None):
        self._graphs = graphs
        self._clock = clock
        self._store = os.path.realpath(store) if store is not None else None
        # cwd -> (until, its root, its folder, the linked worktree it is in when its root is the repository's)
        self._cached: dict[str, tuple[float, str | None, str, str | None]] = {}

    def root_for(self, cwd: object, fresh: bool = False) -> str | None:
        """A project root, or None for a user-only session (the home folder itself)."""
        return self.binding(cwd, fresh)[0]

    def worktree(self, cwd: object) -> tuple[str, str] | None:
        """(the linked worktree's root, its repository's folder: the project) for a cwd in one, else None."""
        root, _ = self.binding(cwd)
        assert isinstance(cwd, str)  # binding refused anything else
        top = self._cached[cwd][3] if cwd in self._cached else None
        return (top, root) if top is not None and root is not None else None

    def own_project(self, root: str) -> bool:
        """Whether a cwd's project `root` inside another project is one of its own: a repository nested in
        it or a submodule (its top holds `.git`), or a folder with a graph of its own. A plain folder of a
        project in no repository binds to itself (work_trees.binding_of), yet is that project's folder."""
        return os.path.lexists(os.path.join(root, ".git")) or self._graphs.has_graph_for(root)

    def binding(self, cwd: object, fresh: bool = False) -> tuple[str | None, str]:
        """(project root or None, the cwd's own folder) for a session's cwd.

        The cwd must be an existing folder inside home; the project is work_trees.project_of's
        (its git repository's, a linked worktree's included). `fresh`: not from the cache (a session's start).
        """
        now = self._clock()
        if isinstance(cwd, str) and not fresh:
            cached = self._cached.get(cwd)
            if cached is not None and now < cached[0]:
                return cached[1], cached[2]
        folder = L.project_folder(cwd, "cwd")
        if self.in_store(folder):  # as home itself: no project (after `kg init-git` its git would make one)
            root, worktree = None, None
        else:
            bound, worktree = work_trees.binding_of(folder, str(L.home()), lambda f: self._graphs.has_graph_for(f))
            root = None if L.is_home(bound) and not self._graphs.has_project_graph(bound) else bound
        if len(self._cached) >= C.ROOT_CACHE_SIZE:
            self._cached.clear()
        assert isinstance(cwd, str)  # project_folder refused anything else
        self._cached[cwd] = (now + C.ROOT_CACHE_SECONDS, root, folder, worktree)
        return root, folder

    def in_store(self, folder: str) -> bool:
        """Whether a folder (named as projects are) lies in the store this server serves: a session there looks
        at graph files, and a project of it would be stored inside itself and committed by its git."""
        store, home = self._store, str(L.home())
        if store is None or home_paths.inside(home, store):  # a store that is home (or holds it): no rule
            return False
        return home_paths.inside(folder, store) or home_paths.inside(os.path.realpath(folder), store)
