"""The editor's and the operations' view of whole graphs: which exist, where they live, their debt.

A graph is named by level (user, project, maintain) and, for a project, the
folder its file records; looking never creates a project graph. Listing the
projects reads an unloaded graph's file without starting its actor.
"""

from __future__ import annotations

import os
from typing import Any

import trio

from ..core import debt
from ..core.errors import InvalidInput, NotFound
from ..core.graph_views import counts
from ..core.held_names import masked_names
from ..graph_loading import load_graph
from ..graph_handle import GraphHandle
from ..readings import read_readings
from ..storage import layout as L
from .floor import LEVELS, Floor


async def graph_key(floor: Floor, level: object, project_path: object) -> str:
    """The directory's key of the graph a request names (the graph need not be stored)."""
    if level not in ("user", "project"):
        raise InvalidInput("level", f"'{level}' is not one of user, project")
    if level == "user":
        return "user"
    return await floor.directory.project_key(L.project_root(project_path, "project_path"))


async def graph_of(floor: Floor, level: object, project_path: object) -> tuple[GraphHandle, str | None]:
    """(handle, project root or None) for an existing graph."""
    if level not in LEVELS:
        raise InvalidInput("level", f"'{level}' is not one of {', '.join(LEVELS)}")
    assert isinstance(level, str)
    if level != "project":
        return await floor.graph(level), None
    root = L.project_root(project_path, "project_path")
    key = await floor.directory.project_key(root)
    if not floor.directory.is_stored(key):
        raise NotFound(f"no project graph is stored for {root}")
    return await floor.graph(key), root


def watched_project(value: object) -> str | None:
    """What an editor tab's feed watches: None (the user graph), "maintain", or a project's root as the
    writes name it (`…/alpha/`, `~/alpha` and `…/alpha/../alpha` are `…/alpha`, which is what events carry)."""
    if value is None or value == "":
        return None
    if value == "maintain":
        return "maintain"
    return L.project_root(value, "project_path")


def project_slugs(floor: Floor) -> set[str]:
    """Every project graph on disk or loaded, by its folder's name under projects/."""
    slugs = set(floor.layout.project_slugs())
    slugs.update(k.removeprefix("project:") for k in floor.directory.loaded_keys() if k.startswith("project:"))
    return slugs


async def project_row(floor: Floor, slug: str) -> dict[str, Any]:
    """One project as the editor lists it: its folder, whether that still exists, its counts, when last used."""
    key = f"project:{slug}"
    directory = floor.directory
    path = directory.layout.graph_file(key)
    if key in directory.loaded_keys():
        handle = await directory.get(key)
        snap = (await handle.current()).graph
        recorded, graph_counts = snap.project_path, counts(snap)
    else:
        # Read from disk without starting an actor: listing must not load every graph. Only read: outside
        # the actor, moving a torn file aside hid the fall-back from the graph's own load.
        graph, _ = await trio.to_thread.run_sync(lambda: load_graph(path, "project", None, read_only=True))
        recorded, graph_counts = graph.project_path, counts(graph)
    root, openable = recorded, False
    if recorded:
        try:
            # The resolved root is what change events name, so it is what the page subscribes with.
            root = L.project_root(recorded)
            openable = await directory.project_key(root) == key
        except InvalidInput:
            openable = False
    path_exists = recorded is not None and os.path.isdir(recorded)
    # The page shows `recorded_path` and `shown_path`, a key in a folder's name masked; `project_path` is its
    # key for the graph (what change events name), not shown.
    return {"slug": slug, "project_path": root, "recorded_path": masked_names(recorded) if recorded else recorded,
            "shown_path": masked_names(root) if root else root,
            "path_exists": path_exists, "openable": openable,
            "removable": not path_exists or graph_counts["nodes"] == 0,
            "counts": graph_counts, "last_used": directory.last_written(key)}


async def recent_project(floor: Floor) -> tuple[str | None, str | None]:
    """Where the editor opens: (project root, because) — the most recently active session's project,
    else the project whose graph changed last (among those whose folder still exists)."""
    root = await floor.sessions.recent_project()
    if root and floor.directory.is_stored(await floor.directory.project_key(root)):
        return root, "session"
    root = await trio.to_thread.run_sync(L.newest_project_root, floor.layout)
    return root, "store" if root else None


async def readings(floor: Floor, handle: GraphHandle) -> list[dict[str, Any]]:
    """The tick's readings of one graph (debt score, active render size), oldest first."""
    return await trio.to_thread.run_sync(read_readings, floor.layout.graph_file(handle.key))


async def debts(floor: Floor) -> list[dict[str, Any]]:
    """Every graph's maintenance debt (user and each stored project), largest first."""
    now = floor.clock()
    rows: list[dict[str, Any]] = []
    for key in ["user"] + [f"project:{slug}" for slug in floor.layout.project_slugs()]:
        handle = await floor.graph(key)
        graph = (await handle.current()).graph
        d = await handle.debt(now=now)
        row = {"graph": key, "level": "user" if key == "user" else "project", "debt": debt.debt_dict(d)}
        if graph.project_path:
            row["project_path"] = graph.project_path
        rows.append(row)
    rows.sort(key=lambda r: -r["debt"]["score"])
    return rows


async def raw_read(floor: Floor, sid: str | None, project_path: str | None, reload: bool) -> dict[str, Any]:
    """The user graph and the session's (or the named) project graph as stored, optionally reloaded from disk."""
    keys = ["user"]
    root = None
    if sid:
        root = (await floor.session(sid)).project_path
    if project_path:
        root = L.project_root(project_path, "project_path")
        key = await floor.directory.project_key(root)
        # Loading a graph never stored would store an empty one for any folder named, for good. A graph
        # folder holding only a damaged file set aside (its previous save is loaded instead) is stored.
        if not (floor.directory.is_stored(key) or floor.layout.graph_file(key).parent.is_dir()):
            raise NotFound(f"no project graph is stored for {root}", "project_path")
    if root:
        keys.append(await floor.directory.project_key(root))
    out = {}
    for key in keys:
        handle = await (floor.directory.reload(key) if reload else floor.directory.get(key))
        dump = await handle.dump()
        out["user" if key == "user" else "project"] = {
            "nodes": list(dump["nodes"].values()), "edges": list(dump["edges"].values()),
            "project_path": dump["_meta"].get("project_path"),
        }
    return out
