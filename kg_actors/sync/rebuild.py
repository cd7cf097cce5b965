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

import json
from pathlib import Path
from typing import Any

import attrs

from ..core.merge import LOCAL_META
from ..storage import files, graph_text, mirror, shards, user_files
from ..storage import git_read as R
from ..storage.layout import recorded_project_path
from . import common


@attrs.frozen
class GraphChange:
    key: str
    base: dict[str, Any] | None  # the changed parts before (or the whole graph when `whole`); None: no graph before
    merged: dict[str, Any]  # the same parts after (or the whole graph)
    whole: bool
    old_parts: dict[str, dict[str, Any]]
    new_parts: dict[str, dict[str, Any]]

    def summary(self, here: str = "") -> dict[str, Any]:
        """What the merge changed; its conflicts are the ones this merge made (a conflict still unresolved
        from an earlier sync was reported then, and is shown to every reader of its node until resolved).
        `here`: this store's machine id (a machine named by it is "this machine")."""
        return {**common.changes(self.base, self.merged), **common.new_conflicts(self.base, self.merged, here)}


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


def rebuild(root: Path, change: GraphChange, graph: dict[str, Any] | graph_text.Indexed | None = None) -> None:
    """Write graph `change.key`'s file of record from the merged mirror: the changed entries spliced
    into the file's text when it is in the server's format, else the parsed file patched and written
    whole. `graph`: the file as it was before the merge, already parsed or indexed (`mirror.update`)."""
    rel = R.legacy_rel(change.key)
    path = root / rel
    data = None
    # The project's folder on this machine stays this machine's: the other machine's commits record its own.
    local = recorded_project_path(path) if path.exists() else None
    if change.whole or not path.exists():
        full = change.merged if change.whole else shards.join(shards.read_folder(root, change.key))
    else:
        ix = graph if isinstance(graph, graph_text.Indexed) else None
        text = ix.text if ix is not None else user_files.read_bytes(path).decode("utf-8")
        spliced = _splice(ix or graph_text.index(text), change, keep=LOCAL_META if local else ())
        if spliced is not None:
            data = spliced.encode("utf-8")
        else:
            full = shards.patch(graph if isinstance(graph, dict) else json.loads(text), change.old_parts,
                                change.new_parts)
    if data is None and local and isinstance(full.get("_meta"), dict):
        full = {**full, "_meta": {**full["_meta"], "project_path": local}}
    files.write_atomic(path, data if data is not None else files.dump_json(full))
    mirror.remember(root, change.key, rel)


def record_merge(root: Path, change: GraphChange) -> None:
    """For a graph a running actor holds (it absorbs the merge and saves its file itself): the mirror's
    record of the file becomes what the merged folder holds, spliced as `rebuild` splices the file. Left
    as the file before the merge, a node the merge brought and then deleted or renamed here stayed in its
    bucket at the next commit (the change was none against the record). No record to splice into: it
    goes, and the next commit compares every bucket."""
    data = None
    text = None if change.whole else mirror.recorded_text(root, change.key)  # whole: rare, and compared whole
    if text is not None:
        spliced = _splice(graph_text.index(text), change)
        try:
            old = json.loads(text) if spliced is None else None
        except ValueError:
            old = None
        if spliced is not None:
            data = spliced.encode("utf-8")
        elif isinstance(old, dict):
            data = files.dump_json(shards.patch(old, change.old_parts, change.new_parts))
    try:
        mirror.remember_folder(root, change.key, data)
    except OSError:  # a record not written: none is safer than the old one (compared whole next time)
        mirror.remember_folder(root, change.key, None)


def _updates(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    return {k: new.get(k, graph_text.MISSING) for k in old.keys() | new.keys()
            if old.get(k, graph_text.MISSING) != new.get(k, graph_text.MISSING)}


def _splice(ix: graph_text.Indexed | None, change: GraphChange, keep: tuple[str, ...] = ()) -> str | None:
    """The file's text with the change's entries spliced in (`keep`: `_meta` keys left as the file has them)."""
    if ix is None:
        return None
    mapping = shards._mapping
    updates: dict[str, dict[str, Any]] = {}
    for section, pick in (("nodes", lambda v: mapping(v.get("nodes"))), ("edges", shards._edges_of),
                          ("_meta.versions", lambda v: mapping(mapping(v.get("_meta")).get("versions")))):
        old: dict[str, Any] = {}
        new: dict[str, Any] = {}
        for part, value in change.old_parts.items():
            if part != shards.META:
                old.update(pick(value))
        for part, value in change.new_parts.items():
            if part != shards.META:
                new.update(pick(value))
        updates[section] = _updates(old, new)
    if shards.META in change.old_parts or shards.META in change.new_parts:
        old_top = change.old_parts.get(shards.META) or {}
        new_top = change.new_parts.get(shards.META) or {}
        if {k: v for k, v in old_top.items() if k != "_meta"} != {k: v for k, v in new_top.items() if k != "_meta"}:
            return None  # a top-level key changed: rare enough to write the file whole
        old_meta, new_meta = mapping(old_top.get("_meta")), mapping(new_top.get("_meta"))
        if mapping(old_meta.get("versions")) != mapping(new_meta.get("versions")):
            return None
        updates["_meta"] = _updates({k: v for k, v in old_meta.items() if k != "versions" and k not in keep},
                                    {k: v for k, v in new_meta.items() if k != "versions" and k not in keep})
    return graph_text.splice(ix, updates)
