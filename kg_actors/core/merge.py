"""Three-way merge of a graph file: base, ours and theirs in, one merged graph and its conflicts out.

Pure (no I/O, no clock: `now` is passed in). It works on the stored JSON shape
(`nodes` by id, `edges` by `from->to:rel`, `_meta` with versions and
progress), entry by entry, so a change made on one side only always merges
cleanly. Rules where both sides changed the same entry:

- a node's content (gist, notes, touches, unknown fields) changed differently on
  both sides: the version written last (by its `_written` stamp) wins, and the
  other is kept in the node's `_conflicts` list until someone resolves it;
- read stamps take the max, score stamps (useful, credited, gist, recurrence)
  the union, the archive state the more alive of the two: these never conflict;
- a delete against an edit keeps the edit (for nodes, edges and progress); a node kept so (its content
  changed, or renamed, there) holds a version set aside saying so (core/merge_deletes.py). Against a node
  only read, scored, moved between tiers or wired to there (its content as the base had it), the delete
  stands and takes its edges: using or linking a lesson is no vote to keep it;
- edges keep the later version's fields; their notes merge three-way (core/merge_notes.py), as a write
  replaces them: a note removed on either side goes, one added on either side stays, the later
  side's order first (an edge both sides created with no common history keeps both sides' notes);
- progress keeps the later record (`last_ts`) and the union of both trails;
- a node renamed on one side and kept under its old id on the other (edited, read,
  wired) is one node under the new id, merged as if the rename came first.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import attrs

from . import constants as C
from .merge_deletes import UNNAMED, Machines, delete_entry
from .merge_dropped import DROPPED_EDGE, drop_edges
from .merge_notes import merge_notes
from .merge_renames import double_renames, renames_against_deletes, renames_between

Json = dict[str, Any]  # one entry of the stored JSON shape (a node, an edge, a version, a whole file)

CONFLICTS_FIELD = "_conflicts"
RENAMED_TO = "renamed_to"  # in a version set aside: the id the other machine renamed the node to
FROM_FOLDER = "from_folder"  # in a version set aside: the other graph folder of the project it was held in
HELD_TWICE = "held_twice"  # in a version set aside: an earlier entry of the node's key in its own file
CONFLICTS_MAX = 5  # per node; the oldest unresolved versions go first
FILE_AND_JOURNAL = "file_and_journal"  # in a version set aside: a hand edit of its file and its journal both changed it

_MAX_FIELDS = ("_last_read_ts",)
_UNION_FIELDS = ("_useful_ts", "_credited_ts", "_gist_ts", "_recurrence_ts")
_STATE_FIELDS = ("_archived", "_orphaned_ts")
_MIN_FIELDS = ("_created_ts",)
# Everything else of a node is content: what a write sets, and what can conflict.
_NOT_CONTENT = frozenset((*_MAX_FIELDS, *_UNION_FIELDS, *_STATE_FIELDS, *_MIN_FIELDS, "_written", CONFLICTS_FIELD))

_MISSING = object()
# `_meta` keys that bind a graph to this machine (its project's folder here): ours stand, whatever the other side
# recorded; another machine's folder path here bound this machine's sessions to a new, empty graph.
LOCAL_META = ("project_path",)


@attrs.frozen
class Conflict:
    """A node changed on both sides: `kept` is the version that won, `other` the one set aside."""

    node_id: str
    kept_side: str  # "ours" | "theirs"
    kept: Json
    other: Json


def label_set_aside(conflicts: tuple[Conflict, ...], ours: str, theirs: str) -> None:
    """Mark each version set aside with the graph folder it came from: the losing side's label."""
    for conflict in conflicts:
        conflict.other[FROM_FOLDER] = theirs if conflict.kept_side == "ours" else ours


@attrs.frozen
class MergeResult:
    merged: Json
    conflicts: tuple[Conflict, ...]


# Lists a node holds only when not empty (records.Node.to_json): `"notes": []` (kg-memory 0.17 writes it) is no
# note, and a copy written here without it is the same content, not an edit that keeps it against a delete.
_DROPPED_EMPTY = frozenset(("notes", "touches"))


def content(node: Json) -> Json:
    return {k: v for k, v in node.items() if k not in _NOT_CONTENT and not (k in _DROPPED_EMPTY and v == [])}


STAMPS = frozenset((*_MAX_FIELDS, *_UNION_FIELDS, *_STATE_FIELDS, *_MIN_FIELDS))  # neither content nor its date


def written_ts(node: Json) -> float:
    """When this version was written where it was written (`origin_ts` survives a local re-stamp)."""
    written = node.get("_written")
    if isinstance(written, dict):
        for name in ("origin_ts", "ts"):
            value = written.get(name)
            if isinstance(value, int | float) and not isinstance(value, bool):
                return float(value)
    created = node.get("_created_ts")
    return float(created) if isinstance(created, int | float) and not isinstance(created, bool) else 0.0


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _later(a: Json, b: Json, ts_a: float, ts_b: float) -> bool:
    """Is `a` the later of the two? A tie goes to the larger text, so both machines choose alike."""
    if ts_a != ts_b:
        return ts_a > ts_b
    return _key(a) >= _key(b)


def _three_way(base: Any, ours: Any, theirs: Any) -> tuple[bool, Any]:
    """(decided, value) for an entry changed on at most one side; `_MISSING` means absent."""
    if ours == theirs:
        return True, ours
    if ours == base:
        return True, theirs
    if theirs == base:
        return True, ours
    return False, None


def _union(a: Any, b: Any) -> list[float]:
    values = {float(v) for v in (a or []) + (b or []) if isinstance(v, int | float) and not isinstance(v, bool)}
    return sorted(values)


def _merge_stamps(base: Json, ours: Json, theirs: Json, into: Json) -> None:
    for name in _MAX_FIELDS:
        values = [n[name] for n in (ours, theirs) if isinstance(n.get(name), int | float)]
        if values:
            into[name] = max(values)
    for name in _MIN_FIELDS:
        values = [n[name] for n in (ours, theirs) if isinstance(n.get(name), int | float)]
        if values:
            into[name] = min(values)
    for name in _UNION_FIELDS:
        if isinstance(ours.get(name), list) or isinstance(theirs.get(name), list):
            merged = _union(ours.get(name), theirs.get(name))
            if name == "_gist_ts":
                merged = merged[-C.GIST_TS_MAX:]
            into[name] = merged
    # The archive state: one side's change wins; both changed: the more alive of the two.
    state = [{k: n[k] for k in _STATE_FIELDS if k in n} for n in (base, ours, theirs)]
    decided, value = _three_way(*state)
    if not decided:
        value = min(state[1:], key=lambda s: (bool(s.get("_orphaned_ts")), bool(s.get("_archived"))))
    for name in _STATE_FIELDS:
        into.pop(name, None)
    into.update(value)


def set_aside(node: Json, entry: Json) -> Json:
    """`node` with `entry` among its versions set aside."""
    return {**node, CONFLICTS_FIELD: _merge_conflicts(node.get(CONFLICTS_FIELD), [entry])}


def kept_conflicts(*lists: Any) -> list[Json]:
    """The versions set aside of several lists, once each, the newest CONFLICTS_MAX."""
    return _merge_conflicts(*lists)


def _merge_conflicts(*lists: Any) -> list[Json]:
    seen: dict[str, Json] = {}
    for items in lists:
        for item in items or []:
            if isinstance(item, dict):
                seen.setdefault(_key(item), item)
    return list(seen.values())[-CONFLICTS_MAX:]


def merge_node(node_id: str, base: Json | None, ours: Json | None, theirs: Json | None,
               now: float, machines: Machines = UNNAMED) -> tuple[Json | None, Conflict | None]:
    """One node's merge: (merged node or None for deleted, the conflict if both changed it, or one side
    deleted it and the other changed its content). `machines`: (ours' machine, theirs'), for what is told."""
    settled, value = _settled(base, ours, theirs)
    if settled:
        return value, None
    if ours is None or theirs is None:
        if value is None or base is None:
            return value, None  # not reached: the three-way rule settles an entry the base lacks
        if content(value) == content(base):
            return None, None  # deleted on one side, only read or scored on the other: the delete stands
        return kept_against_delete(node_id, value, "ours" if ours is None else "theirs", machines, now)
    base_d = base or {}
    c_base, c_ours, c_theirs = content(base_d) if base else None, content(ours), content(theirs)
    conflict = None
    if c_ours == c_theirs or c_theirs == c_base:
        winner, side = ours, "ours"
    elif c_ours == c_base:
        winner, side = theirs, "theirs"
    else:
        ours_later = _later(ours, theirs, written_ts(ours), written_ts(theirs))
        winner, loser, side = (ours, theirs, "ours") if ours_later else (theirs, ours, "theirs")
        other = {**content(loser), "_written": loser.get("_written"), "_set_aside_ts": now}
        conflict = Conflict(node_id, side, content(winner), other)
    if c_ours == c_theirs and not conflict:
        # Same content on both sides: keep the newer write stamp.
        if not _later(ours, theirs, written_ts(ours), written_ts(theirs)):
            winner = theirs
    merged = dict(winner)
    _merge_stamps(base_d, ours, theirs, merged)
    conflicts = _merge_conflicts(ours.get(CONFLICTS_FIELD), theirs.get(CONFLICTS_FIELD),
                                 [conflict.other] if conflict else [])
    # A conflict resolved on one side (the field dropped by a write) stays resolved.
    resolved = {_key(i) for i in (base_d.get(CONFLICTS_FIELD) or [])} - (
        {_key(i) for i in (ours.get(CONFLICTS_FIELD) or [])} & {_key(i) for i in (theirs.get(CONFLICTS_FIELD) or [])})
    conflicts = [i for i in conflicts if _key(i) not in resolved]
    merged.pop(CONFLICTS_FIELD, None)
    if conflicts:
        merged[CONFLICTS_FIELD] = conflicts
    return merged, conflict


def kept_against_delete(node_id: str, node: Json, deleted_by: str, machines: Machines, now: float,
                        deleted_as: str | None = None) -> tuple[Json, Conflict]:
    """A node side `deleted_by` deleted and the other changed: kept, with the delete set aside beside it."""
    entry = delete_entry(deleted_by, machines, now, deleted_as)
    kept = {**node, CONFLICTS_FIELD: _merge_conflicts(node.get(CONFLICTS_FIELD), [entry])}
    return kept, Conflict(node_id, "theirs" if deleted_by == "ours" else "ours", content(kept), entry)


def _settled(base: Json | None, ours: Json | None, theirs: Json | None) -> tuple[bool, Json | None]:
    """The three-way rule's answer for one entry: (True, the entry) when it decides; else (False, a
    side's entry), which stands when the other side has none and is merged by the caller otherwise."""
    decided, value = _three_way(_MISSING if base is None else base, _MISSING if ours is None else ours,
                                _MISSING if theirs is None else theirs)
    if decided:
        return True, None if value is _MISSING else value
    return False, ours if ours is not None else theirs


def _stamp(entry: Json, key: str) -> float:
    value = entry.get(key)
    return float(value) if isinstance(value, int | float) else 0.0


def _merge_edge(base: Json | None, ours: Json | None, theirs: Json | None,
                ts_ours: float, ts_theirs: float) -> Json | None:
    settled, value = _settled(base, ours, theirs)
    if settled or ours is None or theirs is None:
        return value
    later, earlier = (ours, theirs) if _later(ours, theirs, ts_ours, ts_theirs) else (theirs, ours)
    merged = dict(later)
    merged.pop("notes", None)
    if notes := merge_notes((base or {}).get("notes"), later.get("notes"), earlier.get("notes")):
        merged["notes"] = notes
    return merged


def _merge_progress(base: Json | None, ours: Json | None, theirs: Json | None) -> Json | None:
    settled, value = _settled(base, ours, theirs)
    if settled or ours is None or theirs is None:
        return value

    later = ours if _later(ours, theirs, _stamp(ours, "last_ts"), _stamp(theirs, "last_ts")) else theirs
    merged = dict(later)
    trail: dict[str, Json] = {}
    for item in (ours.get("_trail") or []) + (theirs.get("_trail") or []):
        if isinstance(item, dict):
            trail.setdefault(_key(item), item)
    merged["_trail"] = sorted(trail.values(), key=lambda i: (i.get("_ts") or 0, _key(i)))[-C.PROGRESS_TRAIL_MAX:]
    return merged


def _merge_version(base: Json | None, ours: Json | None, theirs: Json | None) -> Json | None:
    settled, value = _settled(base, ours, theirs)
    if settled or ours is None or theirs is None:
        return value

    later = dict(ours if _later(ours, theirs, _stamp(ours, "ts"), _stamp(theirs, "ts")) else theirs)
    later["v"] = max(int(ours.get("v") or 0), int(theirs.get("v") or 0)) + 1
    return later


def _mapping(raw: Any) -> Json:
    return raw if isinstance(raw, dict) else {}


def _edges(raw: Any) -> Json:
    edges = raw.get("edges") if isinstance(raw, dict) else None
    if isinstance(edges, list):  # an old file's edge list: key it as the map is keyed
        return {f"{e['from']}->{e['to']}:{e['rel']}": e for e in edges
                if isinstance(e, dict) and {"from", "to", "rel"} <= e.keys()}
    return _mapping(edges)


def _merge_map(keys: set[str], base: Json, ours: Json, theirs: Json,
               merge_one: Callable[[str, Any, Any, Any], Json | None]) -> Json:
    out = {}
    for key in keys:
        value = merge_one(key, base.get(key), ours.get(key), theirs.get(key))
        if value is not None:
            out[key] = value
    return out


def _changed_keys(base: Json, ours: Json, theirs: Json) -> tuple[set[str], set[str]]:
    """(keys to take from ours unchanged, keys that need a merge). The common case is O(n) identity checks."""
    both = set()
    for side in (ours, theirs):
        for key, value in side.items():
            if base.get(key, _MISSING) != value:
                both.add(key)
    for key in base:
        if key not in ours or key not in theirs:
            both.add(key)
    return set(ours) - both, both


def merge_graphs(base: Json | None, ours: Json, theirs: Json, now: float, machines: Machines = UNNAMED) -> MergeResult:
    """Merge two versions of one graph file against their common ancestor (None: no common history).
    `machines`: the names of the machines that wrote ours and theirs, for what a delete set aside says."""
    base = base if isinstance(base, dict) else {}
    meta_b, meta_o, meta_t = (_mapping(g.get("_meta")) for g in (base, ours, theirs))
    nodes_b, nodes_o, nodes_t = (_mapping(g.get("nodes")) for g in (base, ours, theirs))
    conflicts: list[Conflict] = []

    same, todo = _changed_keys(nodes_b, nodes_o, nodes_t)
    renames = renames_between(todo, nodes_b, nodes_o, nodes_t)
    doubles = double_renames(todo, nodes_b, nodes_o, nodes_t)
    nodes = {k: nodes_o[k] for k in same}
    folded = renames.keys() | {new for new, _ in renames.values()} | doubles.keys() | {
        new for pair in doubles.values() for new in pair}
    for node_id in todo - folded:
        merged, conflict = merge_node(node_id, nodes_b.get(node_id), nodes_o.get(node_id), nodes_t.get(node_id),
                                      now, machines)
        if merged is not None:
            nodes[node_id] = merged
        if conflict is not None:
            conflicts.append(conflict)
    for new_id, (old_id, side) in renames_against_deletes(todo, nodes_b, nodes_o, nodes_t).items():
        deleted_by = "theirs" if side == "ours" else "ours"
        nodes[new_id], conflict = kept_against_delete(new_id, nodes[new_id], deleted_by, machines, now, old_id)
        conflicts.append(conflict)
    for old_id, (new_id, side) in renames.items():
        nodes[new_id], conflict = fold_rename(old_id, new_id, side, nodes_b, nodes_o, nodes_t, now)
        if conflict is not None:
            conflicts.append(conflict)
    vers_b, vers_o, vers_t = (_mapping(m.get("versions")) for m in (meta_b, meta_o, meta_t))
    renamed = {old: new for old, (new, _) in renames.items()}
    for old_id, pair in doubles.items():
        at = (version_ts(vers_o, "node:" + pair[0]), version_ts(vers_t, "node:" + pair[1]))
        keep, drop, nodes[keep], conflict = fold_double_rename(old_id, pair, nodes_b, nodes_o, nodes_t, now, at)
        conflicts.append(conflict)
        renamed.update({old_id: keep, drop: keep})
    nodes = _in_order(nodes, nodes_o, nodes_t)

    edges_b, edges_o, edges_t = _edges(base), _edges(ours), _edges(theirs)
    same, todo = _changed_keys(edges_b, edges_o, edges_t)
    edges = {k: edges_o[k] for k in same}
    edges.update(_merge_map(todo, edges_b, edges_o, edges_t, lambda k, b, o, t: _merge_edge(
        b, o, t, version_ts(vers_o, "edge:" + k), version_ts(vers_t, "edge:" + k))))
    moved_edges = follow_renames(edges, renamed)
    # An edge whose end node the merge deleted goes too, one written on the other side as well: wiring a
    # lesson is no vote to keep it (a bare id must name a node; files stay).
    # One the other side wrote is set aside beside its end that stays, told as a conflict is (core/merge_dropped.py).
    deleted = (nodes_o.keys() | nodes_t.keys()) - nodes.keys()
    edges = _in_order(edges, edges_o, edges_t)
    if deleted:
        every, (edges, aside) = edges, drop_edges(edges, edges_b, deleted,
                                                  lambda i: machines[1] if i in nodes_o else machines[0], now)
        for node_id, entry in aside:
            if isinstance(nodes.get(node_id), dict):
                nodes[node_id] = set_aside(nodes[node_id], entry)
            else:  # its end is in another part of the graph (a bucket): the merge of the parts sets it aside
                edges[entry[DROPPED_EDGE]] = every[entry[DROPPED_EDGE]]

    same, todo = _changed_keys(vers_b, vers_o, vers_t)
    versions = {k: vers_o[k] for k in same}
    versions.update(_merge_map(todo, vers_b, vers_o, vers_t, lambda k, b, o, t: _merge_version(b, o, t)))
    for gone in [*("node:" + old for old in renamed), *("edge:" + k for k in moved_edges)]:
        versions.pop(gone, None)  # the entry is under the new id now
    for node_id, node in nodes.items():
        # A node kept against a delete keeps its version entry.
        vkey = "node:" + node_id
        if vkey not in versions and (vkey in vers_o or vkey in vers_t):
            versions[vkey] = vers_o.get(vkey) or vers_t.get(vkey)

    prog_b, prog_o, prog_t = (_mapping(m.get("progress")) for m in (meta_b, meta_o, meta_t))
    progress = _merge_map(set(prog_b) | set(prog_o) | set(prog_t), prog_b, prog_o, prog_t,
                          lambda k, b, o, t: _merge_progress(b, o, t))

    meta: Json = {}
    for key in _ordered_union(meta_o, meta_t, meta_b):
        if key in ("versions", "progress"):
            continue
        decided, value = _three_way(meta_b.get(key, _MISSING), meta_o.get(key, _MISSING), meta_t.get(key, _MISSING))
        if not decided or (key in LOCAL_META and key in meta_o):
            value = meta_o.get(key, meta_t.get(key, _MISSING))  # our own settings (project_path, ...) stand
        if value is not _MISSING:
            meta[key] = value
    meta["versions"] = dict(sorted(versions.items()))
    if progress:
        meta["progress"] = dict(sorted(progress.items()))

    graph: Json = {}
    for key in _ordered_union(ours, theirs, base):
        if key == "nodes":
            graph["nodes"] = nodes
        elif key == "edges":
            graph["edges"] = edges
        elif key == "_meta":
            graph["_meta"] = meta
        else:
            decided, value = _three_way(base.get(key, _MISSING), ours.get(key, _MISSING), theirs.get(key, _MISSING))
            value = value if decided else ours.get(key, _MISSING)
            if value is not _MISSING:
                graph[key] = value
    graph.setdefault("nodes", nodes)
    graph.setdefault("edges", edges)
    graph.setdefault("_meta", meta)
    return MergeResult(graph, tuple(sorted(conflicts, key=lambda c: c.node_id)))


def version_ts(versions: Json, key: str) -> float:
    """When the version entry `key` was written (0 when there is none)."""
    entry = versions.get(key)
    value = entry.get("ts") if isinstance(entry, dict) else None
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def fold_double_rename(old_id: str, ids: tuple[str, str], base: Json, ours: Json, theirs: Json,
                       now: float, renamed_at: tuple[float, float]) -> tuple[str, str, Json, Conflict]:
    """(the id kept, the id set aside, the node, the conflict) for a node both sides renamed: one node under
    the later rename's id (`renamed_at`: each side's version stamp of its new id; a rename need not write
    the node), its content merged as one node's; the other id is a version set aside, so a reader learns
    what the other machine called it."""
    o, t = ours[ids[0]], theirs[ids[1]]
    ours_later = _later({"id": ids[0]}, {"id": ids[1]}, *renamed_at)
    keep, drop, dropped = (ids[0], ids[1], t) if ours_later else (ids[1], ids[0], o)
    merged, _ = merge_node(keep, {**base[old_id], "id": keep}, {**o, "id": keep}, {**t, "id": keep}, now)
    node = dict(merged or (o if ours_later else t))
    other = {**content(dropped), "_written": dropped.get("_written"), "_set_aside_ts": now, RENAMED_TO: drop}
    node[CONFLICTS_FIELD] = _merge_conflicts(node.get(CONFLICTS_FIELD), [other])  # kept to CONFLICTS_MAX
    return keep, drop, node, Conflict(keep, "ours" if ours_later else "theirs", content(node), other)


def fold_rename(old_id: str, new_id: str, side: str, base: Json, ours: Json, theirs: Json,
                now: float) -> tuple[Json, Conflict | None]:
    """The node a rename against the old id's other life comes to (the maps are nodes by id): one node
    under the new id, merged as if the rename had come first, so an edit made under the old id lands on
    it and a content change on both sides conflicts as any does."""
    renamed, kept = (ours, theirs) if side == "ours" else (theirs, ours)
    base_node, other = ({**n, "id": new_id} for n in (base[old_id], kept[old_id]))
    ours_node, theirs_node = (renamed[new_id], other) if side == "ours" else (other, renamed[new_id])
    merged, conflict = merge_node(new_id, base_node, ours_node, theirs_node, now)
    return merged or renamed[new_id], conflict


def follow_renames(edges: Json, renamed: dict[str, str]) -> list[str]:
    """Point the ends of edges still naming a renamed id at its new id (in place), as the rename did on
    its own side; an edge that lands on one already there adds its notes to it. Returns the keys moved."""
    moved = [k for k, e in edges.items() if e.get("from") in renamed or e.get("to") in renamed]
    for key in moved:
        edge = edges.pop(key)
        src, dst = renamed.get(edge.get("from"), edge.get("from")), renamed.get(edge.get("to"), edge.get("to"))
        new_key = f"{src}->{dst}:{edge.get('rel')}"
        there = edges.get(new_key)
        if there is None:
            edges[new_key] = {**edge, "from": src, "to": dst}
        else:
            notes = list(there.get("notes") or [])
            notes += [n for n in (edge.get("notes") or []) if n not in notes]
            edges[new_key] = {**there, **({"notes": notes} if notes else {})}
    return moved


def _in_order(merged: Json, first: Json, second: Json) -> Json:
    """`merged` in our order, then theirs' new entries in their order: diffs stay small."""
    out = {k: merged[k] for k in first if k in merged}
    if len(out) < len(merged):
        for k in second:
            if k in merged and k not in out:
                out[k] = merged[k]
        for k in merged:
            if k not in out:
                out[k] = merged[k]
    return out


def _ordered_union(*dicts: Json) -> list[str]:
    out: dict[str, None] = {}
    for d in dicts:
        for k in d:
            out.setdefault(k, None)
    return list(out)
