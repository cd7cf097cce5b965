"""A graph as git keeps it: many small files (one per id-hash bucket) beside the graph file of record.

Git works in proportion to what a commit changes only when a change touches few
files, and a graph file of 10 MB is one file. So a commit mirrors each graph
file into `shards/<graph>/`: `meta.json` (everything but nodes, edges and their
version entries) and one bucket file per hash prefix of a node id
(`a/3f.json`: 4,096 buckets, so 10,000 nodes make files of two or three nodes),
holding the bucket's nodes, the edges going out of them and their version
entries. A bucket file has the graph file's own shape (`nodes`, `edges`,
`_meta.versions`), so the per-node merge works on it unchanged, and one entry a
line, sorted by key, so the same entries are the same bytes on every machine.

`graph.json` stays the format of record: the mirror is rewritten from it (only
the buckets whose bytes changed), and after a merge the graph file is rebuilt
from the merged buckets. Pure functions over dicts and bytes, and the writing of
a mirror folder.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import files, graph_shape

ROOT = "shards"
META = "meta.json"
# An entry's fields stay in the order the graph file has them (the server writes one order, so both
# machines write the same bytes, and a graph file rebuilt from the mirror reads as the server wrote it).
_ENC = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def folder(key: str) -> str:
    """The mirror folder of graph `key`, relative to the store."""
    if key in ("user", "maintain"):
        return f"{ROOT}/{key}"
    assert key.startswith("project:")
    return f"{ROOT}/projects/{key.removeprefix('project:')}"


def split_path(rel: str) -> tuple[str, str] | None:
    """(graph key, part inside its folder) of a mirror path, or None for any other path."""
    parts = rel.split("/")
    if len(parts) < 3 or parts[0] != ROOT:
        return None
    if parts[1] in ("user", "maintain"):
        key, rest = parts[1], parts[2:]
    elif parts[1] == "projects" and len(parts) >= 4:
        key, rest = f"project:{parts[2]}", parts[3:]
    else:
        return None
    part = "/".join(rest)
    if part == META or (len(rest) == 2 and len(rest[0]) == 1 and rest[1].endswith(".json")):
        return key, part
    return None


def bucket(node_id: str) -> str:
    """The bucket part a node id lives in: the first 3 hex digits of its SHA-1, as `a/3f.json`."""
    h = hashlib.sha1(node_id.encode("utf-8", "surrogatepass")).hexdigest()
    return f"{h[0]}/{h[1:3]}.json"


def _edge_from(key: str, edge: Any) -> str:
    if isinstance(edge, dict) and isinstance(src := edge.get("from"), str):
        return src
    return key.split("->", 1)[0]


def _version_owner(vkey: str, edges: dict[str, Any]) -> str | None:
    """The node id whose bucket holds a version entry, or None (kept in meta.json)."""
    if vkey.startswith("node:"):
        return vkey[5:]
    if vkey.startswith("edge:"):
        ekey = vkey[5:]
        return _edge_from(ekey, edges.get(ekey))
    return None


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _edges_of(graph: dict[str, Any]) -> dict[str, Any]:
    raw = graph.get("edges")
    if isinstance(raw, list):  # an old file's edge list, keyed as the map is
        return {f"{e['from']}->{e['to']}:{e['rel']}": e for e in raw
                if isinstance(e, dict) and {"from", "to", "rel"} <= e.keys()}
    return _mapping(raw)


def split(graph: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The mirror's parts of a graph: {"meta.json": ..., "a/3f.json": bucket graph, ...}."""
    nodes, edges = _mapping(graph.get("nodes")), _edges_of(graph)
    meta = _mapping(graph.get("_meta"))
    versions = _mapping(meta.get("versions"))
    buckets: dict[str, dict[str, Any]] = {}

    def into(node_id: str) -> dict[str, Any]:
        part = bucket(node_id)
        b = buckets.get(part)
        if b is None:
            b = buckets[part] = {"nodes": {}, "edges": {}, "_meta": {"versions": {}}}
        return b

    for node_id, node in nodes.items():
        into(node_id)["nodes"][node_id] = node
    for key, edge in edges.items():
        into(_edge_from(key, edge))["edges"][key] = edge
    rest: dict[str, Any] = {}  # version entries no bucket owns
    for vkey, value in versions.items():
        owner = _version_owner(vkey, edges)
        if owner is None:
            rest[vkey] = value
        else:
            into(owner)["_meta"]["versions"][vkey] = value
    return {META: meta_part(graph, rest), **buckets}


def meta_part(graph: dict[str, Any], rest: dict[str, Any] | None = None) -> dict[str, Any]:
    """meta.json: the graph without what the buckets hold, in the file's key order (placeholders mark
    where nodes, edges and versions go back, and a list placeholder an old file's edge list)."""
    if rest is None:
        edges = _edges_of(graph)
        rest = {k: v for k, v in _mapping(_mapping(graph.get("_meta")).get("versions")).items()
                if _version_owner(k, edges) is None}
    top = dict(graph)
    top["nodes"] = {}
    top["edges"] = [] if isinstance(graph.get("edges"), list) else {}
    meta = {k: (rest if k == "versions" else v) for k, v in _mapping(graph.get("_meta")).items()}
    if rest and "versions" not in meta:
        meta["versions"] = rest
    top["_meta"] = meta
    return top


def encode(part: str, value: dict[str, Any]) -> bytes:
    """A part's bytes: meta.json indented, a bucket one entry a line (sorted by key, compact)."""
    if part == META:
        return files.dump_json(value) + b"\n"
    lines = ["{"]
    sections = []
    for name in ("nodes", "edges"):
        entries = _mapping(value.get(name))
        body = ",\n".join(f"  {_ENC.encode(k)}: {_ENC.encode(entries[k])}" for k in sorted(entries))
        sections.append(f'"{name}": {{\n{body}\n}}' if body else f'"{name}": {{}}')
    versions = _mapping(_mapping(value.get("_meta")).get("versions"))
    body = ",\n".join(f"  {_ENC.encode(k)}: {_ENC.encode(versions[k])}" for k in sorted(versions))
    sections.append(f'"_meta": {{"versions": {{\n{body}\n}}}}' if body else '"_meta": {"versions": {}}')
    lines.append(",\n".join(sections))
    lines.append("}\n")
    return "\n".join(lines).encode("utf-8")


def is_empty_bucket(value: dict[str, Any]) -> bool:
    return not (_mapping(value.get("nodes")) or _edges_of(value)
                or _mapping(_mapping(value.get("_meta")).get("versions")))


def _created(node: Any) -> float:
    ts = node.get("_created_ts") if isinstance(node, dict) else None
    return float(ts) if isinstance(ts, int | float) and not isinstance(ts, bool) else 0.0


def join(parts: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The whole graph from its parts (nodes in creation order: the mirror keeps no file order)."""
    top = dict(parts.get(META) or {"nodes": {}, "edges": {}, "_meta": {"versions": {}}})
    nodes: dict[str, Any] = {}
    edges: dict[str, Any] = {}
    versions: dict[str, Any] = dict(_mapping(_mapping(top.get("_meta")).get("versions")))
    for part, value in parts.items():
        if part == META:
            continue
        nodes.update(_mapping(value.get("nodes")))
        edges.update(_edges_of(value))
        versions.update(_mapping(_mapping(value.get("_meta")).get("versions")))
    top["nodes"] = dict(sorted(nodes.items(), key=lambda kv: (_created(kv[1]), kv[0])))
    as_list = isinstance(top.get("edges"), list)
    top["edges"] = [edges[k] for k in sorted(edges)] if as_list else dict(sorted(edges.items()))
    meta = dict(_mapping(top.get("_meta")))
    meta["versions"] = dict(sorted(versions.items()))
    top["_meta"] = meta
    return top


def _merge_in(current: dict[str, Any], removed: set[str], fresh: dict[str, Any],
              order_key: Callable[[tuple[str, Any]], tuple[float, str] | str]) -> dict[str, Any]:
    """`current` without `removed`, entries of `fresh` replacing theirs in place, new ones after."""
    out = {}
    for k, v in current.items():
        if k in fresh:
            out[k] = fresh[k]
        elif k not in removed:
            out[k] = v
    for k, v in sorted(((k, v) for k, v in fresh.items() if k not in out), key=order_key):
        out[k] = v
    return out


def patch(graph: dict[str, Any], old: dict[str, dict[str, Any]],
          new: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """`graph` with parts `old` replaced by `new` (a part absent from `new` is gone), in the graph's order.

    What rebuilds a graph file after a merge: only the changed parts are read, and entries the
    merge left alone keep their place in the file."""
    def gather(parts: dict[str, dict[str, Any]], name: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for part, value in parts.items():
            if part != META:
                out.update(_edges_of(value) if name == "edges" else
                           _mapping(value.get("nodes")) if name == "nodes" else
                           _mapping(_mapping(value.get("_meta")).get("versions")))
        return out

    nodes = _merge_in(_mapping(graph.get("nodes")), set(gather(old, "nodes")), gather(new, "nodes"),
                      lambda kv: (_created(kv[1]), kv[0]))
    edges = _merge_in(_edges_of(graph), set(gather(old, "edges")), gather(new, "edges"), lambda kv: kv[0])
    top = new.get(META) or graph
    meta = dict(_mapping(top.get("_meta")))
    versions = _merge_in(_mapping(_mapping(graph.get("_meta")).get("versions")), set(gather(old, "versions")),
                         gather(new, "versions"), lambda kv: kv[0])
    if META in new:  # the entries meta.json holds come from it
        versions = {k: v for k, v in versions.items() if _version_owner(k, edges) is not None}
        versions.update(_mapping(meta.get("versions")))
    meta["versions"] = dict(sorted(versions.items()))
    out = dict(top)
    out["nodes"] = nodes
    out["edges"] = list(edges.values()) if isinstance(top.get("edges"), list) else edges
    out["_meta"] = meta
    return out


def parse(raw: bytes, what: str) -> dict[str, Any]:
    """A part's JSON object; ValueError naming `what` (and conflict markers when there are some), or the entry
    and the rule when it is no graph's shape (graph_shape.py: read as holding nothing, it read as deletes)."""
    try:
        value = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        marker = " (it holds conflict markers from a manual merge?)" if b"<<<<<<<" in raw else ""
        raise ValueError(f"{what} is not valid JSON{marker}: {exc}") from None
    if not isinstance(value, dict):
        raise ValueError(f"{what} is not a graph part (a JSON object)")
    graph_shape.check(value, what)
    return value


def read_folder(root: Path, key: str) -> dict[str, dict[str, Any]]:
    """The parts of graph `key`'s mirror in the work tree (ValueError when one is unreadable)."""
    base = root / folder(key)
    out: dict[str, dict[str, Any]] = {}
    if not base.is_dir():
        return out
    for rel in _listing(base):
        out[rel] = parse((base / rel).read_bytes(), f"{folder(key)}/{rel}")
    return out


def _listing(base: Path) -> list[str]:
    out = []
    if (base / META).exists():
        out.append(META)
    for sub in sorted(os.listdir(base)):
        if len(sub) != 1 or not (base / sub).is_dir():
            continue
        out += [f"{sub}/{name}" for name in sorted(os.listdir(base / sub)) if name.endswith(".json")]
    return out


def _write(path: Path, data: bytes) -> None:
    """Whole or not at all (a rename), without fsync: the mirror is rebuilt from the file of record,
    and a part a crash tore differs from what the next commit writes, so it is rewritten then."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def write_if_changed(path: Path, data: bytes) -> bool:
    try:
        if path.read_bytes() == data:
            return False
    except FileNotFoundError:
        pass
    _write(path, data)
    return True


def write_folder(root: Path, key: str, parts: dict[str, dict[str, Any]],
                 only: set[str] | None = None) -> list[str]:
    """Make the mirror folder hold `parts` (those in `only` when given, the whole folder otherwise):
    parts whose bytes differ are rewritten, parts no longer there are removed. The paths changed."""
    base = root / folder(key)
    changed = []
    wanted = {p: encode(p, v) for p, v in parts.items()
              if (only is None or p in only) and (p == META or not is_empty_bucket(v))}
    present = set(_listing(base)) if base.is_dir() else set()
    if only is not None:
        present &= only
    for part, data in wanted.items():
        if write_if_changed(base / part, data):
            changed.append(f"{folder(key)}/{part}")
    for part in present - wanted.keys():
        (base / part).unlink()
        changed.append(f"{folder(key)}/{part}")
    return changed
