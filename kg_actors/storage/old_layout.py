"""A remote a kg-memory 0.17 machine still pulls from: its graph files must stay where it reads them.

kg-memory 0.17 keeps its store in git as the graph files themselves (`user.json`,
`projects/<slug>/graph.json`) and exchanges it by `git pull` / `git push`; this kg keeps
the mirror (`shards/`) and stops tracking those files. A push of ours to a branch that
still holds them takes them out of it, and the 0.17 machine's next pull deletes them from
its store: it serves an empty memory from then on, told nothing. Such a push is refused
(the merge here stands), naming the risk and the way out: every machine upgraded, one
`kg sync --all-upgraded` moves the remote to this kg's layout.
"""

from __future__ import annotations

from pathlib import Path

from . import git as G
from . import git_read as R


def graph_files(root: Path, rev: str) -> tuple[str, ...]:
    """The graph files of record (0.17's layout, or an older kg's) commit `rev` holds."""
    names = R.names(root, rev, *R.LEGACY_FILES, "projects")
    return tuple(sorted(n for n in names if R.legacy_key(n) is not None))


def refusal(root: Path, url: str, branch: str, held: tuple[str, ...]) -> str | None:
    """Why our HEAD must not be pushed to `branch`, which holds the graph files `held`: those of them HEAD no
    longer holds would leave the branch. None when none would (or it held none)."""
    if not held:
        return None
    gone = sorted(set(held) - set(graph_files(root, "HEAD")))
    if not gone:
        return None
    listed = ", ".join(gone[:4]) + (f" and {len(gone) - 4} more" if len(gone) > 4 else "")
    return (f"{G.shown(url)} branch {branch} still holds the graph files of kg-memory 0.17 (or of an "
            f"older kg), {listed}; a machine running kg-memory 0.17 that pulls it after this push would have them "
            "deleted and serve an empty memory. Upgrade every machine that shares this remote to this kg (its memory "
            "is kept and merged at its first `kg sync`); then `kg sync --all-upgraded`, once, on any of them pushes, "
            "and the remote holds this kg's layout from then on")
