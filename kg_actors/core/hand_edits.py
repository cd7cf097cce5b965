"""What a graph file written by hand holds that no server writes, found before its graph is made.

A node key held twice in `nodes` keeps every version: the last entry is the node (what every JSON
reader takes), the earlier ones versions set aside on it as a sync's merge sets aside the version it
did not use (merge.py), read with the node. A value of the wrong type (`"notes": 5`, `"_created_ts":
"soon"`) is read as the field's nearest value or left out, as records.py says, and named here per node,
so the load can say so and keep the file as it was. Pure: the caller reads and says.
"""

from __future__ import annotations

import math
from typing import Any

from .merge import CONFLICTS_FIELD, HELD_TWICE, _merge_conflicts, content
from .records import Node

_NUMBER = (int, float)
_TIMES = ("_created_ts", "_orphaned_ts", "_last_read_ts")
_TIME_LISTS = ("_useful_ts", "_credited_ts", "_gist_ts", "_recurrence_ts")


def _as_node(value: Any) -> dict[str, Any] | None:
    if isinstance(value, dict):
        return value
    return {"gist": value} if isinstance(value, str) and value.strip() else None


def set_aside_twice(raw: dict[str, Any], twice: list[tuple[dict[str, Any], str, list[Any]]], now: float) -> list[str]:
    """Each key the graph's JSON held more than once (JSON readers keep the last), so that nothing earlier is
    lost without a word; `raw` is changed in place. Two `nodes` (or `edges`) blocks, a merge resolved by hand,
    are one: a node in both is the later one, the earlier set aside on it. A node held twice: its earlier
    versions set aside on it. A field twice inside a node: the node with the earlier value is a version set
    aside on it. Any other key (an edge, a `_meta` entry): the last is read, and named. What was done, one
    line each (the caller keeps the file as it was)."""
    said: list[str] = []
    nodes = raw.get("nodes")
    again: list[tuple[dict[str, Any], str, list[Any]]] = []  # node ids held twice across or inside blocks
    for obj, key, earlier in twice:
        if obj is not raw or key not in ("nodes", "edges"):
            continue
        block = raw.get(key)
        blocks = [e for e in earlier if isinstance(e, dict)]
        if not isinstance(block, dict) or len(blocks) < len(earlier):
            said.append(f"'{key}' is held {len(earlier) + 1} times, not each an object: only the last is read")
            if not isinstance(block, dict):
                continue
        both = 0
        for earlier_block in blocks:
            for item, value in earlier_block.items():
                if item not in block:
                    block[item] = value
                elif value != block[item]:
                    both += 1
                    if key == "nodes":
                        again.append((block, item, [value]))
        said.append(f"'{key}' is held {len(earlier) + 1} times: read as one"
                    + (f"; {both} held in more than one, the last is read" if both else ""))
    earlier_blocks = {id(e) for obj, key, earlier in twice if obj is raw and key == "nodes" for e in earlier}
    node_of = {id(v): k for k, v in nodes.items() if isinstance(v, dict)} if isinstance(nodes, dict) else {}
    edges = raw.get("edges")
    for obj, key, earlier in [*twice, *again]:
        if obj is raw and key in ("nodes", "edges"):
            continue
        if obj is nodes or (id(obj) in earlier_blocks and isinstance(nodes, dict)):
            said.extend(_node_twice(nodes, key, earlier, now))
        elif id(obj) in node_of:
            node = obj
            kept = content(node)
            aside = [{**kept, key: e, "_written": node.get("_written"), "_set_aside_ts": now, HELD_TWICE: True}
                     for e in earlier if e != node[key]]
            if aside:
                node[CONFLICTS_FIELD] = _merge_conflicts(node.get(CONFLICTS_FIELD), aside)
            said.append(f"node '{node_of[id(obj)]}' holds '{key}' {len(earlier) + 1} times: the last is read"
                        + (f", the node with each other value set aside on it" if aside else ""))
        elif obj is edges:
            said.append(f"edge '{key}' is held {len(earlier) + 1} times: the last is read")
        elif obj is raw.get("_meta"):
            said.append(f"'_meta.{key}' is held {len(earlier) + 1} times: the last is read")
        else:
            said.append(f"a key '{key}' is held {len(earlier) + 1} times in one object: the last is read")
    return said


def _node_twice(nodes: dict[str, Any], key: str, earlier: list[Any], now: float) -> list[str]:
    node = _as_node(nodes.get(key))
    if node is None:
        return []
    nodes[key] = node
    kept = content(node)
    aside = [{**content(e), "_written": e.get("_written"), "_set_aside_ts": now, HELD_TWICE: True}
             for e in map(_as_node, earlier) if e is not None and content(e) != kept]
    if aside:
        node[CONFLICTS_FIELD] = _merge_conflicts(node.get(CONFLICTS_FIELD), aside)
    return [f"node '{key}' is held {len(earlier) + 1} times: the last is the node"
            + (f", {len(aside)} other version(s) set aside on it" if aside else " (the others hold the same)")]


def _time(value: Any) -> bool:
    return isinstance(value, _NUMBER) and not isinstance(value, bool) and math.isfinite(value)


def _wrong(field: str, value: Any) -> bool:
    if field == "gist":
        return not isinstance(value, str)
    if field in ("notes", "touches"):
        return not (isinstance(value, list) and all(isinstance(v, str) for v in value))
    if field in _TIMES:  # 1e999 reads as infinity: no time, and no JSON
        return value is not None and not _time(value)
    if field in _TIME_LISTS:
        return not (isinstance(value, list) and all(map(_time, value)))
    if field == "_archived":
        return not isinstance(value, bool)
    if field == "_written":
        return value is not None and not isinstance(value, dict)
    return False


def malformed(nodes: Any) -> list[str]:
    """Per node, the fields whose value is not of its kind and what they are read as; a node that is
    not one (a number, a list) and is left out. One line per node."""
    said: list[str] = []
    if not isinstance(nodes, dict):
        return [f"'nodes' holds a JSON {type(nodes).__name__}, not an object of nodes: no node is read"] if nodes \
            else []
    for node_id, raw in nodes.items():
        if _as_node(raw) is None:
            if node_id != "_meta":
                said.append(f"node '{node_id}' holds {_show(raw)}, not a node: left out")
            continue
        if not isinstance(raw, dict):
            continue  # a gist alone: a node of that gist
        if "gist" not in raw:  # served as a lesson of no words: the agent sees `id: ` and nothing after
            said.append(f"node '{node_id}' holds no gist: read with an empty one (write its gist again)")
        if "id" in raw and raw["id"] != node_id:  # a node is its key: the other name is not kept
            said.append(f"node '{node_id}' holds id {_show(raw['id'])}: read under its key '{node_id}' "
                        "(the id field is written as the key)")
        wrong = [f for f, v in raw.items() if _wrong(f, v)]
        if wrong:
            read = Node.from_json(str(node_id), raw).to_json()
            said.append(f"node '{node_id}': " + "; ".join(
                f"{f} held {_show(raw[f])}, read as {_show(read[f]) if f in read else 'nothing (left out)'}"
                for f in wrong))
    return said


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
