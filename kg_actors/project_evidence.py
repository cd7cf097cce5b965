"""The evidence a project folder's decision weighs (same_project.py), read off the event loop.

Whether a folder is a gone folder's project hangs on the files that graph's lessons touch: a stored graph's
are read from its whole file (0.8 s for 25,000 lessons), and each is looked for in the folder. The decision
itself runs on the loop (project_folders.py owns what it binds), which may not wait for that: the first
answer it lacks stops it (`Unweighed`) before it changed anything, the caller weighs that answer in a worker
thread and runs the decision again (GraphDirectory.project_key). A caller that may not await (`inline`)
weighs where asked.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from .storage import same_project

T = TypeVar("T")


class Unweighed(Exception):
    """A decision needs an answer not weighed yet: `weigh()` reads it (files, stats), off the loop."""

    def __init__(self, weigh: Callable[[], None]):
        super().__init__("evidence not weighed yet")
        self.weigh = weigh


class Evidence:
    """What one decision for `root` has weighed: each graph's touched files, and whether `root` holds most."""

    def __init__(self, root: str, files_of: Callable[[str], set[str]], inline: bool = False):
        self.root = root
        self.inline = inline
        self._files_of = files_of  # slug -> the relative files its lessons touch (reads its file)
        self._files: dict[str, set[str]] = {}
        self._same: dict[str, bool] = {}

    def files(self, slug: str) -> set[str]:
        return self._answer(self._files, slug, lambda: self._files_of(slug))

    def same(self, slug: str) -> bool:
        """`root` shows it is the project of graph `slug`: most of the files its lessons touch are in it."""
        return self._answer(self._same, slug, lambda: same_project.shows_same(self._files_of(slug), self.root))

    def _answer(self, table: dict[str, T], slug: str, weigh: Callable[[], T]) -> T:
        if slug not in table:
            if not self.inline:
                raise Unweighed(lambda: table.__setitem__(slug, weigh()))
            table[slug] = weigh()
        return table[slug]


class StoredTouches:
    """A stored graph's touched files, read once per version of its file: every new folder beside a gone
    one weighs the same graph, and its JSON is the costly part."""

    def __init__(self) -> None:
        self._at: dict[Path, tuple[tuple[int, int, int], set[str]]] = {}

    def of(self, graph_file: Path) -> set[str]:
        try:
            st = graph_file.stat()
        except OSError:
            return set()
        version = (st.st_mtime_ns, st.st_size, st.st_ino)
        cached = self._at.get(graph_file)
        if cached is None or cached[0] != version:
            cached = self._at[graph_file] = (version, same_project.stored_touches(graph_file))
        return cached[1]
