"""After a merge: what it changed in each graph, read from the changed mirror parts only, and the graph
files of record rebuilt from them.

A sync's merge changes a graph's mirror folder (`shards/`); the server and every
tool load the graph file. Each changed graph comes back as a `GraphChange`: the
changed parts before and after (so a summary, the actor's absorb and the file's
rebuild cost what changed, not the graph), or the whole graph when the commit
before the merge held none of its parts (a graph new here, or one still kept as
a single file). Blocking: the server runs these in worker threads.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from ..storage import files, mirror, shards
from ..storage import git_read as R
from . import common


@attrs.frozen
class GraphChange:
    key: str
    base: dict | None  # the changed parts before (or the whole graph when `whole`); None: no graph before
    merged: dict  # the same parts after (or the whole graph)
    whole: bool
    old_parts: dict[str, dict]
    new_parts: dict[str, dict]

    def summary(self) -> dict:
        conflicts = sorted(i for i, n in (self.merged.get("nodes") or {}).items()
                           if isinstance(n, dict) and n.get("_conflicts"))
        return {**common.changes(self.base, self.merged), "conflicts": conflicts}


def changes(root: Path, before: str | None, changed: tuple[str, ...]) -> dict[str, GraphChange]:
    """The graphs a merge from `before` to the work tree changed, by key."""
    touched: dict[str, list[str]] = {}
    for rel in changed:
        found = shards.split_path(rel)
        if found:
            touched.setdefault(found[0], []).append(found[1])
    out = {}
    for rel in changed:  # a graph file git itself brought (the remote still keeps it as one file)
        key = R.legacy_key(rel)
        if key and key not in touched and (root / rel).exists():
            merged = files.load_json(root / rel)
            if isinstance(merged, dict):
                out[key] = GraphChange(key, R.graph_at(root, before, key) if before else None, merged, True, {}, {})
    if not touched:
        return out
    before_layout = R.layouts(root, before)
    for key, parts in sorted(touched.items()):
        folder = root / shards.folder(key)
        if before_layout.get(key) == "shards":
            old = R.parts_at(root, before, key, parts)  # type: ignore[arg-type]
            new = {p: shards.parse((folder / p).read_bytes(), f"{shards.folder(key)}/{p}")
                   for p in parts if (folder / p).exists()}
            out[key] = GraphChange(key, shards.join(old), shards.join(new), False, old, new)
        else:
            base = R.graph_at(root, before, key) if before else None
            out[key] = GraphChange(key, base, shards.join(shards.read_folder(root, key)), True, {}, {})
    return out


def rebuild(root: Path, change: GraphChange, graph: dict | None = None) -> None:
    """Write graph `change.key`'s file of record from the merged mirror. `graph`: the file as it was
    before the merge, already parsed (it is read when not given)."""
    rel = R.legacy_rel(change.key)
    path = root / rel
    if change.whole or not path.exists():
        full = shards.join(shards.read_folder(root, change.key)) if not change.whole else change.merged
    else:
        if graph is None:
            graph = files.load_json(path) or {}
        full = shards.patch(graph, change.old_parts, change.new_parts)
    files.write_atomic(path, files.dump_json(full))
    mirror.remember(root, change.key, rel)
