"""At start, the project last used is loaded before anyone asks for it.

A session's first call is almost always `kg_read(cwd)` for the project it was last
opened on; loading that graph (seconds at 10,000 nodes) only once the call names
it puts the whole load behind the call. So the server starts the load itself, from
what the store remembers: the project of the session active last, else the project
graph written last. A call that arrives meanwhile waits for the same load
(`GraphDirectory.get`), and a guess that was wrong costs one graph's memory, the
same as any project the server has loaded once.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Mapping

import trio

from . import heap
from .directory import GraphDirectory
from .session_records import Session
from .storage import layout as L
from .storage.journal import journal_path

log = logging.getLogger(__name__)

WARM_PROJECTS = 1  # a second guess is rarely right and costs a graph's memory and a start's CPU


def pick_recent(used: Iterable[tuple[float, str]], written: Iterable[tuple[float, str]],
                limit: int = WARM_PROJECTS) -> list[str]:
    """The project roots to load first: by sessions' last activity, then by graphs' last write.

    `used` and `written` are (when, project root) pairs; a root is named once.
    """
    out: list[str] = []
    for ranked in (used, written):
        for _, root in sorted(ranked, reverse=True):
            if len(out) >= limit:
                return out
            if root not in out:
                out.append(root)
    return out


def session_roots(sessions: Mapping[str, Session]) -> list[tuple[float, str]]:
    return [(s.last_activity, s.project_path) for s in sessions.values() if s.project_path]


def written_roots(layout: L.Layout) -> list[tuple[float, str]]:
    """(last write, recorded folder) of every stored project graph (worker thread: it stats and reads files)."""
    out = []
    try:
        folders = list(layout.projects.iterdir())
    except OSError:
        return []
    for folder in folders:
        graph = folder / "graph.json"
        times = [p.stat().st_mtime for p in (graph, journal_path(graph)) if p.exists()]
        root = L.recorded_project_path(graph) if graph.exists() else None
        if times and root:
            out.append((max(times), root))
    return out


def recent_roots(layout: L.Layout, used: list[tuple[float, str]], limit: int = WARM_PROJECTS) -> list[str]:
    """The folders to load at start (worker thread); only folders that still exist."""
    used = [(when, root) for when, root in used if os.path.isdir(root)]
    written = written_roots(layout) if len({r for _, r in used}) < limit else []
    return pick_recent(used, [(when, root) for when, root in written if os.path.isdir(root)], limit)


async def warm(directory: GraphDirectory, used: list[tuple[float, str]]) -> None:
    """Load the projects last used, one after another (a task in the actors' nursery).

    `used`: session_roots of the sessions as loaded, taken on the loop (the registry owns them after).
    """
    try:
        roots = await trio.to_thread.run_sync(recent_roots, directory.layout, used)
        for root in roots:
            if directory.closing:  # the server stops before it served (its port was taken): nothing to warm
                return
            await directory.get(await directory.project_key(root))
            log.info("loaded %s at start (the project last used)", root)
    except Exception:  # a guess that fails costs nothing: the call that names the project loads it
        if directory.closing:
            return
        log.exception("loading the project last used at start failed; the first call that names it will")
    finally:
        heap.resume_collector()  # paused since `kg serve` began: the imports and this load are in
