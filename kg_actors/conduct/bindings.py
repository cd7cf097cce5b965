"""CwdBindings: which project root a session's cwd binds to, each answer kept a short while.

The one owner of the cwd -> root cache. Every hook asks, and an answer costs a
stat per folder level (which stalls while another thread's fsync holds the
disk), so an answer is kept ROOT_CACHE_SECONDS; a bad cwd is refused every
time. Called from the event loop only, without awaiting: no lock needed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..core import constants as C
from ..storage import layout as L, work_trees


class GraphsOnDisk(Protocol):
    def has_graph_for(self, root: str) -> bool: ...

    def has_project_graph(self, root: str) -> bool: ...


class CwdBindings:
    def __init__(self, graphs: GraphsOnDisk, clock: Callable[[], float]):
        self._graphs = graphs
        self._clock = clock
        self._cached: dict[str, tuple[float, str | None, str]] = {}  # cwd -> (until, its root, its folder)

    def root_for(self, cwd: object) -> str | None:
        """A project root, or None for a user-only session (the home folder itself)."""
        return self.binding(cwd)[0]

    def binding(self, cwd: object) -> tuple[str | None, str]:
        """(project root or None, the cwd's own folder) for a session's cwd.

        The cwd must be an existing folder inside home; the project is work_trees.project_of's
        (its git repository's, a linked worktree's included).
        """
        now = self._clock()
        if isinstance(cwd, str):
            cached = self._cached.get(cwd)
            if cached is not None and now < cached[0]:
                return cached[1], cached[2]
        folder = L.project_folder(cwd, "cwd")
        bound = work_trees.project_of(folder, str(L.home()), lambda f: self._graphs.has_graph_for(f))
        root = None if L.is_home(bound) and not self._graphs.has_project_graph(bound) else bound
        if len(self._cached) >= C.ROOT_CACHE_SIZE:
            self._cached.clear()
        assert isinstance(cwd, str)  # project_folder refused anything else
        self._cached[cwd] = (now + C.ROOT_CACHE_SECONDS, root, folder)
        return root, folder
