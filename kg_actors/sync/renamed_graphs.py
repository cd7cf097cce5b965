"""After a merge: a project graph the other machine renamed (its store folder moved by hand, storage/folder_renames.py)
comes in as that graph, not as a second one beside it.

The merge removed the old mirror folder and made the new one. Rebuilt as two changes, the old graph file emptied
and a new file took the other machine's folder path, so sessions here kept the emptied graph and the lessons sat
in one no folder here opened. Instead the old graph's folder goes to the store's trash (kept, restorable), and
the new graph is written with this machine's folder path: sessions in that folder take it (layout.takes_over:
a graph recording the folder is its own), whatever the folder is named here. Blocking but for the server's part.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import attrs

from ..storage import mirror, shards
from ..storage.folder_renames import renamed_by_merge
from ..storage.layout import Layout, move_to_trash, recorded_project_path
from .rebuild import GraphChange

RENAMED_FROM = "renamed_from"  # in a graph's sync summary: the graph it was before the other machine renamed it
FOLDER_HERE = "folder_here"  # and this machine's folder of it


def found(root: Path, changes: dict[str, GraphChange]) -> dict[str, str]:
    """{old key: new key} of the graphs the merge renamed (the old folder gone whole, the new one new here)."""
    gone = [(k, c.base) for k, c in changes.items()
            if c.base is not None and not (root / shards.folder(k) / shards.META).exists()]
    fresh = [(k, c.merged) for k, c in changes.items() if c.base is None]
    return renamed_by_merge(gone, fresh)


def carried(changes: dict[str, GraphChange], old: str, new: str) -> GraphChange:
    """The new graph's change as one from the old graph (what is new in it is said, not every node again)."""
    return attrs.evolve(changes[new], base=changes[old].base)


def folder_here(layout: Layout, old: str) -> str | None:
    """This machine's folder of the old graph (None: none recorded)."""
    path = layout.graph_file(old)
    return recorded_project_path(path) if path.exists() else None


def set_aside(layout: Layout, old: str, now: float) -> None:
    """The old graph's folder to the trash (its lessons are in the new graph now) and its mirror record gone."""
    slug = old.removeprefix("project:")
    if os.path.lexists(layout.projects / slug):
        move_to_trash(layout, slug, now)
    mirror.forget_record(layout.root, old)


def summary(change: GraphChange, old: str, here: str | None, ident: str = "") -> dict[str, Any]:
    return {**change.summary(ident), RENAMED_FROM: old, FOLDER_HERE: here}


def describe(key: str, said: dict[str, Any]) -> str | None:
    """The line a sync prints for a graph the other machine renamed (None: not one)."""
    old = said.get(RENAMED_FROM)
    if not old:
        return None
    here = said.get(FOLDER_HERE)
    new_name, old_name = key.removeprefix("project:"), str(old).removeprefix("project:")
    line = f"  {old}: renamed {key} on another machine (its store folder moved); this machine now keeps it as {key}"
    if here:
        line += f", still this machine's project at {here}"
        if os.path.basename(str(here).rstrip("/")) != new_name:
            line += f" (its folder here keeps the name {os.path.basename(str(here).rstrip('/'))}: sessions there use it all the same)"
    return line + f"; the old folder projects/{old_name} was moved to the store's trash"
