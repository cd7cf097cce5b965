"""A project's graph kept in two folders of the store, merged into the one served when it loads.

kg-memory 0.17 names a project's folder by the project's own name (`projects/my project/`); an earlier
kg, which did not look for that name, made its own beside it (`projects/my-project/`) and served that one
alone, so everything 0.17 had learnt of the project was hidden. At the served graph's load the other
folder is merged in by the sync's merge without common history (entries on one side are kept; a node
both hold differently is the version written last, the other a version set aside, marked as coming from
the other folder), the change is journaled, and only then does the other folder move to `<store>/trash/`.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import trio

from .core.errors import KGError
from .core.merge import label_set_aside, merge_graphs
from .graph_handle import GraphHandle
from .storage import files
from .storage import layout as L

log = logging.getLogger(__name__)


def other_folder(layout: L.Layout, slug: str, root: str) -> str | None:
    """The name of another folder holding this project's graph beside `slug`: 0.17's, recording `root`, or
    one an earlier kg made for it reached through another symlink in home (`~/work/app` beside `~/code/app`,
    both leading to `/data/code/app`), before one folder had one name (home_paths.named)."""
    name = L.reference_slug(root)
    graph_file = layout.project_graph(name) if name is not None and name != slug else None
    if name is not None and graph_file is not None and graph_file.exists() and L.recorded_project_path(graph_file) == root:
        return name
    for twin in L.name_twins(layout, L.base_slug(root)):
        graph_file = layout.project_graph(twin)
        written = L.recorded_as_written(graph_file) if twin != slug else None
        if written is not None and written != root and L.recorded_project_path(graph_file) == root:
            return twin
    return None


def merged_in(ours: dict[str, Any], other_file: Path, folder: str, now: float,
              own: str = "") -> tuple[dict[str, Any], int]:
    """`ours` with the other folder's graph merged in, and how many nodes got a version set aside.
    Raises files.Unreadable when that graph does not read (it is left where it is)."""
    theirs = files.load_json(other_file, read_only=True)
    if not isinstance(theirs, dict):
        raise files.Unreadable(f"{other_file}: not a graph")
    result = merge_graphs(None, ours, theirs, now)
    # the very entries the merged nodes hold in their set-aside lists
    label_set_aside(result.conflicts, ours=f"{own} (this server's folder)", theirs=f"{folder} (kg-memory's folder)")
    return result.merged, len(result.conflicts)


def damaged_folder(layout: L.Layout, slug: str, root: str) -> tuple[Path, str] | None:
    """0.17's folder for `root` beside `slug` when its graph does not read (it cannot say which project it
    is, and so is neither merged in nor served): its graph file and why. Read only, nothing moved."""
    name = L.reference_slug(root)
    if name is None or name == slug or L.served_instead(layout, name) != (root, slug):
        return None
    graph_file = layout.project_graph(name)
    if not graph_file.exists() or L.recorded_project_path(graph_file) is not None:
        return None  # none, or one other_folder weighed (it records a project)
    fault = L.json_fault(graph_file)
    return None if fault is None else (graph_file, fault)


async def merge_other_folder(layout: L.Layout, handle: GraphHandle, slug: str, root: str, now: float) -> None:
    """Merge another folder of this project's graph into the loaded one; a failure leaves it in place (the
    next load tries again) and is logged: the served graph is fine either way."""
    name = await trio.to_thread.run_sync(other_folder, layout, slug, root)
    if name is None:
        damaged = await trio.to_thread.run_sync(damaged_folder, layout, slug, root)
        if damaged is not None:
            log.error("project:%s: kg-memory 0.17's folder of %s, %s, is not loaded and not merged in: %s; what it "
                      "holds is in no graph served. Put a good copy back at %s (the next load merges it in), or move "
                      "the folder aside if it holds nothing wanted",
                      slug, root, damaged[0].parent, damaged[1], damaged[0])
        return
    folder = f"projects/{L.shown_slug(name)}"  # labels what merged nodes set aside: stored, so never a key
    try:
        ours = await handle.dump()
        merged, set_aside = await trio.to_thread.run_sync(merged_in, ours, layout.project_graph(name), folder, now,
                                                         f"projects/{slug}")
        await handle.absorb(base=ours, merged=merged, now=now)  # answered once journaled
        dest = await trio.to_thread.run_sync(L.move_to_trash, layout, name, now)
    except (KGError, files.Unreadable, OSError) as exc:
        log.error("project:%s: the graph of %s kept in %s too could not be merged in (%s); it is left where it "
                  "is and tried again at the next load", slug, root, folder, exc)
        return
    log.warning("project:%s: merged in the graph kept in %s for the same project (%d node(s) held differently in "
                "both: the version written last is used, the other set aside); that folder is now %s",
                slug, folder, set_aside, dest)
