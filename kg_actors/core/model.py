"""The graph model: the mutable map an actor owns, of frozen nodes and edges (records.py).

The on-disk shape is the reference format (`nodes` map, `edges` keyed
`from->to:rel`, `_meta` with versions, progress, project_path), so a store
written by kg-memory loads without loss: unknown fields ride along in `extra`.

`GraphData` records which entries each change touched; the owner turns that
into a journal record (`take_changes`) so a write costs its own size, not the
graph's. `gen` moves on every change; caches key on it. Readers outside the owner get
`snapshot()`: a frozen version (core/snapshot.py) made from the last one by
copying only what changed since (the `_pending` record the change methods keep).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from itertools import repeat
from typing import Any

from .ids import is_artifact
from .journal_replay import BEFORE, before_mark
from .records import Edge as Edge, EdgeKey as EdgeKey, Node as Node, edge_storage_key as edge_storage_key
from .snapshot import GraphReader as GraphReader, GraphSnapshot as GraphSnapshot, Lineage, Pending, full_snapshot


def node_version_key(node_id: str) -> str:
    return f"node:{node_id}"


def node_version(graph: GraphReader, node_id: str) -> int:
    """The node's content version (`_meta.versions["node:<id>"].v`; 0 for a node never versioned)."""
    return version_number(graph.versions.get(node_version_key(node_id)))


def version_number(entry: object) -> int:
    """A versions entry's `v`; 0 for an entry of another shape (hand-edited: `5`, `{"v": "x"}`)."""
    if not isinstance(entry, dict):
        return 0
    try:
        return int(entry.get("v", 0))
    except (TypeError, ValueError):
        return 0


def edge_version_key(key: EdgeKey) -> str:
    return f"edge:{edge_storage_key(key)}"


class GraphData:
    """One graph's mutable state. Owned by exactly one GraphActor."""

    def __init__(self, kind: str, project_path: str | None = None):
        self.kind = kind  # "user" | "project" | "maintain"
        self.project_path = project_path
        self.nodes: dict[str, Node] = {}
        self.edges: dict[EdgeKey, Edge] = {}
        self.versions: dict[str, dict[str, Any]] = {}
        self.progress: dict[str, dict[str, Any]] = {}
        self.extra_meta: dict[str, Any] = {}
        # Top-level keys of the file beside nodes, edges and _meta (a hand edit's, another writer's): kept as read.
        self.extra_top: dict[str, Any] = {}
        self._incident: dict[str, set[EdgeKey]] = {}
        # Ids by node state, kept by set_node/del_node, so compaction never scans
        # a 10,000-node graph to find the few hundred nodes a level renders.
        self._by_state: dict[str, set[str]] = {"active": set(), "archived": set(), "orphaned": set()}
        # Per endpoint, the incident edges whose other end is no orphaned node:
        # the only ones a level can show, so a hub's edges to thousands of
        # orphans cost compaction nothing.
        self._unorphaned: dict[str, set[EdgeKey]] = {}
        self.gen = 0
        self._changed: dict[str, set[Any]] = {"n": set(), "e": set(), "v": set(), "p": set()}
        self.meta_changed = False
        # Prior values of what the current message touched, for `rollback`.
        self._undo: dict[tuple[str, Any], Any] = {}
        # Each touched node as it was at the last record: its record names its content's checksum (journal_replay.py).
        self._before: dict[str, Node | None] = {}
        self.lineage = Lineage()  # shared by every snapshot of this graph
        self._snap: GraphSnapshot | None = None
        self._pending = Pending()  # what changed since `_snap`
        self.dropped_on_load: tuple[str, ...] = ()  # edges its file held that name no from, to and rel

    # -- snapshots
    def move_to(self, project_path: str) -> bool:
        """The project's folder is now `project_path` (saved with the next save); False: it already was."""
        if self.project_path == project_path:
            return False
        self.project_path, self.meta_changed = project_path, True
        self.gen += 1
        return True

    def snapshot(self) -> GraphSnapshot:
        """The graph as it stands, frozen: O(what changed since the last call) (the first is O(graph))."""
        snap = self._snap
        if snap is None:
            snap = full_snapshot(self)
            self._pending = Pending()
        elif snap.gen != self.gen or snap.project_path != self.project_path or snap.extra_meta != self.extra_meta:
            snap = self._pending.apply(snap, self)
        self._snap = snap
        return snap

    def incident_sets(self) -> dict[str, set[EdgeKey]]:
        """Per endpoint, its edges' keys (live: for snapshots only)."""
        return self._incident

    def unorphaned_sets(self) -> dict[str, set[EdgeKey]]:
        """Per endpoint, its edges' keys whose other end is no orphan (live: for snapshots only)."""
        return self._unorphaned

    # -- reading
    def incident(self, endpoint: str) -> Iterator[Edge]:
        for key in self._incident.get(endpoint, ()):
            yield self.edges[key]

    def degree(self, endpoint: str) -> int:
        return len(self._incident.get(endpoint, ()))

    def degrees(self, endpoints: list[str]) -> list[int]:
        """`degree` of each, in one pass (C's: a hub hint weighs hundreds of namers per write)."""
        return list(map(len, map(self._incident.get, endpoints, repeat(()))))

    def active_nodes(self) -> Iterator[Node]:
        return (n for n in self.nodes.values() if n.active)

    def ids_in_state(self, state: str) -> AbstractSet[str]:
        """Ids of the nodes in `state` ("active", "archived", "orphaned").

        A live view: do not change it, and copy it before changing nodes while
        iterating over it.
        """
        return self._by_state[state]

    def unorphaned_incident(self, endpoint: str) -> AbstractSet[EdgeKey]:
        """Keys of the edges at `endpoint` whose other end is not an orphaned node (a live view)."""
        return self._unorphaned.get(endpoint, frozenset())

    def _is_orphan(self, endpoint: str) -> bool:
        node = self.nodes.get(endpoint)
        return node is not None and node.orphaned_ts is not None

    def _reindex_unorphaned(self, node_id: str, orphaned: bool) -> None:
        """`node_id` was orphaned or came back: its edges leave or join its neighbours' unorphaned keys."""
        pending, unorphaned = self._pending.unorphaned, self._unorphaned
        for key in self._incident.get(node_id, ()):
            end = key[0] if key[1] == node_id else key[1]  # the other end (a self-loop's: itself)
            pending.add(end)
            if orphaned:
                keys = unorphaned.get(end)
                if keys is not None:
                    keys.discard(key)
                    if not keys:
                        del unorphaned[end]
            else:
                unorphaned.setdefault(end, set()).add(key)

    # -- changing (each records what it touched)
    def set_node(self, node: Node) -> None:
        old = self.nodes.get(node.id)
        self._remember("n", node.id, old)
        if old is not None:
            self._by_state[old.state].discard(node.id)
        self.nodes[node.id] = node
        self._by_state[node.state].add(node.id)
        if (old is not None and old.orphaned) != node.orphaned:
            self._reindex_unorphaned(node.id, node.orphaned)
        self._touch("n", node.id, moved=old is None)

    def del_node(self, node_id: str) -> Node | None:
        self._remember("n", node_id, self.nodes.get(node_id))
        node = self.nodes.pop(node_id, None)
        if node is not None:
            self._by_state[node.state].discard(node_id)
            if node.orphaned:  # a missing end counts as not orphaned
                self._reindex_unorphaned(node_id, False)
            self._touch("n", node_id, dropped=True, moved=True)
        return node

    def set_edge(self, edge: Edge) -> None:
        key = edge.key
        old = self.edges.get(key)
        self._remember("e", key, old)
        self.edges[key] = edge
        self._incident.setdefault(key[0], set()).add(key)
        self._incident.setdefault(key[1], set()).add(key)
        self._pending.incident.update(key[:2])
        self._pending.unorphaned.update(key[:2])
        for end, other in ((key[0], key[1]), (key[1], key[0])):
            if not self._is_orphan(other):
                self._unorphaned.setdefault(end, set()).add(key)
        self._touch("e", key, moved=old is None)

    def del_edge(self, key: EdgeKey) -> Edge | None:
        self._remember("e", key, self.edges.get(key))
        edge = self.edges.pop(key, None)
        if edge is None:
            return None
        self._pending.incident.update(key[:2])
        self._pending.unorphaned.update(key[:2])
        for end in (key[0], key[1]):
            keys = self._incident.get(end)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del self._incident[end]
            keys = self._unorphaned.get(end)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del self._unorphaned[end]
        self._touch("e", key, dropped=True, moved=True)
        return edge

    def set_version(self, vkey: str, value: dict[str, Any] | None) -> None:
        old = self.versions.get(vkey)
        self._remember("v", vkey, old)
        if value is None:
            self.versions.pop(vkey, None)
        else:
            self.versions[vkey] = value
        self._touch("v", vkey, dropped=value is None, moved=old is None or value is None)

    def set_progress(self, task_id: str, value: dict[str, Any]) -> None:
        old = self.progress.get(task_id)
        self._remember("p", task_id, old)
        self.progress[task_id] = value
        self._touch("p", task_id, moved=old is None)

    def del_progress(self, task_id: str) -> None:
        if task_id in self.progress:
            self._remember("p", task_id, self.progress[task_id])
            del self.progress[task_id]
            self._touch("p", task_id, dropped=True, moved=True)

    def _remember(self, kind: str, key: Any, prior: Any) -> None:
        self._undo.setdefault((kind, key), prior)
        if kind == "n":
            self._before.setdefault(key, prior)

    def commit(self) -> None:
        """The current message's changes stand."""
        self._undo.clear()

    def rollback(self) -> None:
        """Put back everything the current message touched (a bug must not leave half a change)."""
        undo, self._undo = self._undo, {}
        for (kind, key), prior in undo.items():
            if kind == "n":
                self.del_node(key) if prior is None else self.set_node(prior)
            elif kind == "e":
                self.del_edge(key) if prior is None else self.set_edge(prior)
            elif kind == "v":
                self.set_version(key, prior)
            elif prior is None:
                self.del_progress(key)
            else:
                self.set_progress(key, prior)
        self._undo.clear()

    def _touch(self, kind: str, key: Any, dropped: bool = False, moved: bool = False) -> None:
        """`moved`: the key was added or removed, so where it stands in the map's order changed."""
        self._changed[kind].add(key)
        self._pending.touch(kind, key, dropped, moved)
        self.gen += 1

    # -- journal
    def forget_changes(self) -> None:
        """What was loaded is on disk already: no record of it, nothing to roll back (a whole graph's
        record would cost its every node's JSON, at start)."""
        self._changed = {"n": set(), "e": set(), "v": set(), "p": set()}
        self._before = {}
        self.meta_changed = False
        self._undo.clear()

    def has_changes(self) -> bool:
        return any(self._changed.values()) or self.meta_changed

    def take_changes(self) -> dict[str, Any] | None:
        """The entries changed since the last call, as a replayable record."""
        if not self.has_changes():
            return None
        ch = self._changed
        record = {
            "n": {i: (self.nodes[i].to_json() if i in self.nodes else None) for i in ch["n"]},
            "e": [[list(k), self.edges[k].to_json() if k in self.edges else None] for k in ch["e"]],
            "v": {k: self.versions.get(k) for k in ch["v"]},
            "p": {k: self.progress.get(k) for k in ch["p"]},
        }
        if ch["n"]:
            record[BEFORE] = {i: before_mark(self._before.get(i), self.nodes.get(i)) for i in ch["n"]}
        if self.meta_changed:
            record["m"] = {"project_path": self.project_path, "extra": self.extra_meta}
        self._changed = {"n": set(), "e": set(), "v": set(), "p": set()}
        self._before = {}
        self.meta_changed = False
        return record

    def take_load_changes(self) -> dict[str, Any] | None:
        """What a load changed, as `take_changes` would have it but its meta part alone: settling's
        moves are not journaled (the next fold saves them), and making their record would cost each
        moved node's JSON (~8,000 of them, ~15 ms, at a reference store's first start)."""
        if not self.has_changes():
            return None
        record = {"m": {"project_path": self.project_path, "extra": self.extra_meta}} if self.meta_changed else {}
        self._changed = {"n": set(), "e": set(), "v": set(), "p": set()}
        self._before = {}
        self.meta_changed = False
        return record

    def apply_record(self, record: dict[str, Any]) -> None:
        for node_id, raw in record.get("n", {}).items():
            if raw is None:
                self.del_node(node_id)
            else:
                self.set_node(Node.from_json(node_id, raw))
        for key, raw in record.get("e", []):
            if raw is None:
                self.del_edge(tuple(key))
            else:
                self.set_edge(Edge.from_json(raw))
        for vkey, value in record.get("v", {}).items():
            self.set_version(vkey, value)
        for task_id, value in record.get("p", {}).items():
            if value is None:
                self.del_progress(task_id)
            else:
                self.set_progress(task_id, value)
        if "m" in record:
            self.project_path = record["m"].get("project_path")
            self.extra_meta = dict(record["m"].get("extra") or {})

    # -- the file of record
    @classmethod
    def from_json(cls, raw: dict[str, Any], kind: str) -> GraphData:
        meta: dict[str, Any] = raw["_meta"] if isinstance(raw.get("_meta"), dict) else {}
        # A field of the wrong type is left out, not the whole file: every node in it can still be read.
        path = meta.get("project_path")
        graph = cls(kind, path if isinstance(path, str) else None)
        edges = raw.get("edges") or {}
        raw_edges = edges.items() if isinstance(edges, dict) else ((None, e) for e in edges)
        whole = [(k, e, _with_key_parts(e, k)) for k, e in raw_edges if isinstance(e, dict)]
        graph.dropped_on_load = tuple(str(k if k is not None else e) for k, e, read in whole if read is None)
        graph._load_bulk(
            (Node.from_json(str(node_id), node if isinstance(node, dict) else {"gist": node})
             for node_id, node in (raw.get("nodes") or {}).items()
             # "_meta" among the nodes: an older kg-memory file's leftover (no id starts with "_"), not a node
             if node_id != "_meta" and (isinstance(node, dict) or isinstance(node, str) and node.strip())),
            (Edge.from_json(read) for _, _, read in whole if read is not None))
        graph.versions = dict(v) if isinstance(v := meta.get("versions"), dict) else {}
        graph.progress = dict(p) if isinstance(p := meta.get("progress"), dict) else {}
        graph.extra_meta = {k: v for k, v in meta.items() if k not in {"versions", "progress", "project_path"}}
        graph.extra_top = {k: v for k, v in raw.items() if k not in ("nodes", "edges", "_meta")}
        graph.forget_changes()
        return graph

    def _load_bulk(self, nodes: Iterable[Node], edges: Iterable[Edge]) -> None:
        """Fill an empty graph: what `set_node` for each node, then `set_edge` for each edge, leave
        (the same maps, sets filled in the same order, the same `gen`), without recording changes:
        a freshly made graph has no snapshot yet, so its first one is whole anyway."""
        by_state, incident, unorphaned, nodes_map, edges_map = (
            self._by_state, self._incident, self._unorphaned, self.nodes, self.edges)
        moves = 0
        for node in nodes:
            old = nodes_map.get(node.id)
            if old is not None:
                by_state[old.state].discard(node.id)
            nodes_map[node.id] = node
            by_state[node.state].add(node.id)
            moves += 1
        orphans = by_state["orphaned"]  # no edge yet: set_node's unorphaned reindex had nothing to do
        for edge in edges:
            key = edge.key
            src, dst = key[0], key[1]
            edges_map[key] = edge
            incident.setdefault(src, set()).add(key)
            incident.setdefault(dst, set()).add(key)
            if dst not in orphans:
                unorphaned.setdefault(src, set()).add(key)
            if src not in orphans:
                unorphaned.setdefault(dst, set()).add(key)
            moves += 1
        self.gen += moves

    def snapshot_json(self) -> dict[str, Any]:
        """A consistent copy to serialise off the actor: nodes and edges are frozen."""
        meta: dict[str, Any] = dict(self.extra_meta)
        meta["versions"] = dict(self.versions)
        if self.progress:
            meta["progress"] = dict(self.progress)
        if self.project_path:
            meta["project_path"] = self.project_path
        meta.setdefault("namespace", {"kind": "project" if self.project_path else "user", "owner": None})
        # _meta last, as both servers write it (storage/layout.py reads it alone from the file's end).
        return {"nodes": dict(self.nodes), "edges": dict(self.edges), **self.extra_top, "_meta": meta}


def _with_key_parts(raw: dict[str, Any], key: object) -> dict[str, Any] | None:
    """An edge as stored, its from, to or rel read from its key ("from->to:rel") when a hand edit left one
    out; None when neither holds all three (the loader names what it drops)."""
    if {"from", "to", "rel"} <= raw.keys():
        return raw
    if not isinstance(key, str) or "->" not in key or ":" not in key.rsplit("->", 1)[1]:
        return None
    src, rest = key.split("->", 1)
    dst, rel = rest.rsplit(":", 1)
    if not (src and dst and rel):
        return None
    return {"from": src, "to": dst, "rel": rel, **raw}


def snapshot_to_json(snapshot: dict[str, Any]) -> dict[str, Any]:
    """Finish `snapshot_json` (may run in a worker thread)."""
    return {
        "nodes": {i: n.to_json() for i, n in snapshot["nodes"].items()},
        "edges": {edge_storage_key(k): e.to_json() for k, e in snapshot["edges"].items()},
        **{k: v for k, v in snapshot.items() if k not in ("nodes", "edges", "_meta")},
        "_meta": snapshot["_meta"],
    }


def dangling_edges(graph: GraphData, outside_ids: Iterable[str] | None = None) -> list[EdgeKey]:
    """Edges whose bare-id endpoint names no node here (nor, for a project, a user node)."""
    outside = set(outside_ids or ())
    nodes = graph.nodes

    def gone(end: str) -> bool:  # the set lookups first: nearly every end is a node, and is_artifact costs more
        return end not in nodes and end not in outside and not is_artifact(end)

    return [key for key in graph.edges if gone(key[0]) or gone(key[1])]
