"""Keeping each graph's mirror folder (`shards/`, see `shards.py`) in step with its graph file, before a commit.

The cost must follow the change, not the graph: the graph file as last mirrored
is copied to `.git/kg-mirror/` (a kernel copy: milliseconds for 10 MB), with the
graph file's inode, size and mtime. A graph file still as recorded is skipped
unread; a changed one is compared with the copy entry by entry, and only the
buckets holding a changed entry are read, patched and written. Without the copy
(the first mirror, a migration) every bucket is encoded and those whose bytes
differ are written. A graph file that is not a readable graph (conflict markers from a
hand merge, a torn copy) raises `ValueError` and nothing of it is mirrored.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from . import shards

STATE = Path(".git") / "kg-mirror"
LEGACY = ("user.json", "maintain.json")


def graph_files(root: Path) -> dict[str, str]:
    """{graph key: path relative to the store} of every graph file there is."""
    out = {k: rel for k, rel in (("user", "user.json"), ("maintain", "maintain.json")) if (root / rel).exists()}
    projects = root / "projects"
    if projects.is_dir():
        for slug in sorted(os.listdir(projects)):
            if (projects / slug / "graph.json").exists():
                out[f"project:{slug}"] = f"projects/{slug}/graph.json"
    return out


def _link(root: Path, key: str) -> Path:
    return root / STATE / (key.replace(":", "_").replace("/", "_") + ".json")


def load_graph(raw: bytes, rel: str) -> dict:
    if raw.startswith(b"<<<<<<< ") or any(m in raw for m in (b"\n<<<<<<< ", b"\n=======\n", b"\n>>>>>>> ")):
        raise ValueError(f"{rel} is not a readable graph (conflict markers from a manual merge?)")
    try:
        value = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValueError(f"{rel} is not a readable graph ({exc})") from None
    if not isinstance(value, dict):
        raise ValueError(f"{rel} is not a readable graph (not a JSON object)")
    return value


def _stamp(path: Path) -> list[int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_ino, st.st_size, st.st_mtime_ns]


def remember(root: Path, key: str, rel: str) -> None:
    """Record the graph file as mirrored (its folder now holds exactly what it holds)."""
    link = _link(root, key)
    stamp = link.with_name(link.name + ".stat")
    link.parent.mkdir(parents=True, exist_ok=True)
    staged = link.with_name(link.name + ".tmp")
    try:
        staged.unlink()
    except FileNotFoundError:
        pass
    shutil.copyfile(root / rel, staged)
    os.replace(staged, link)
    stamp.write_text(json.dumps(_stamp(root / rel)))


def forget(root: Path, key: str) -> None:
    link = _link(root, key)
    for path in (link, link.with_name(link.name + ".stat")):
        try:
            path.unlink()
        except FileNotFoundError:
            pass


def _recorded(link: Path) -> list[int] | None:
    try:
        value = json.loads(link.with_name(link.name + ".stat").read_text())
    except (OSError, ValueError):
        return None
    return value if isinstance(value, list) else None


def update(root: Path, keep: dict[str, dict] | None = None) -> list[str]:
    """Mirror every graph file that changed since it was last mirrored; the mirror paths written.

    `keep`, when given, receives the graphs that were read (key -> parsed graph), so a sync that
    follows can rebuild a graph file from them without parsing it again."""
    files = graph_files(root)
    changed: list[str] = []
    for key, rel in files.items():
        changed += update_one(root, key, rel, keep)
    # A graph whose file is gone (a project removed by hand) leaves the mirror too.
    folder = root / shards.ROOT
    if folder.is_dir():
        present = {shards.folder(k) for k in files}
        for sub in ("user", "maintain"):
            if (folder / sub).is_dir() and f"{shards.ROOT}/{sub}" not in present:
                changed += _remove(root, sub)
        if (folder / "projects").is_dir():
            for slug in os.listdir(folder / "projects"):
                if f"{shards.ROOT}/projects/{slug}" not in present:
                    changed += _remove(root, f"project:{slug}")
    return changed


def _remove(root: Path, key: str) -> list[str]:
    shutil.rmtree(root / shards.folder(key), ignore_errors=True)
    forget(root, key)
    return [shards.folder(key)]


def update_one(root: Path, key: str, rel: str, keep: dict[str, dict] | None = None) -> list[str]:
    path, link = root / rel, _link(root, key)
    recorded = _recorded(link) if (root / shards.folder(key) / shards.META).exists() else None
    now = _stamp(path)
    if recorded is not None and now == recorded:
        return []
    new = load_graph(path.read_bytes(), rel)
    if keep is not None:
        keep[key] = new
    old = None
    if recorded is not None and link.exists():
        try:
            old = json.loads(link.read_bytes())
        except (OSError, ValueError, UnicodeDecodeError):
            old = None
    if not isinstance(old, dict):
        written = shards.write_folder(root, key, shards.split(new))
    else:
        written = _incremental(root, key, old, new)
    remember(root, key, rel)
    return written


def _incremental(root: Path, key: str, old: dict, new: dict) -> list[str]:
    """Rewrite only the buckets holding an entry that differs between `old` and `new`."""
    mapping, edges_of, owner = shards._mapping, shards._edges_of, shards._version_owner
    missing = object()
    dirty: dict[str, dict[str, set]] = {}

    def mark(kind: str, k: str, node_id: str) -> None:
        dirty.setdefault(shards.bucket(node_id), {"nodes": set(), "edges": set(), "versions": set()})[kind].add(k)

    pairs = (("nodes", mapping(old.get("nodes")), mapping(new.get("nodes"))),
             ("edges", edges_of(old), edges_of(new)),
             ("versions", mapping(mapping(old.get("_meta")).get("versions")),
              mapping(mapping(new.get("_meta")).get("versions"))))
    e_old, e_new = pairs[1][1], pairs[1][2]
    for kind, a, b in pairs:
        keys = [k for k, v in b.items() if a.get(k, missing) != v] + [k for k in a if k not in b]
        for k in keys:
            if kind == "nodes":
                mark(kind, k, k)
            elif kind == "edges":
                mark(kind, k, shards._edge_from(k, b.get(k) or a.get(k)))
            else:
                node_id = owner(k, e_new) or owner(k, e_old)
                if node_id is not None:
                    mark(kind, k, node_id)
    parts: dict[str, dict] = {}
    base = root / shards.folder(key)
    n_new, v_new = pairs[0][2], pairs[2][2]
    for part, kinds in dirty.items():
        try:
            value = shards.parse((base / part).read_bytes(), part)
        except (OSError, ValueError):
            value = {}
        nodes = dict(mapping(value.get("nodes")))
        edges = dict(edges_of(value))
        versions = dict(mapping(mapping(value.get("_meta")).get("versions")))
        for target, source, names in ((nodes, n_new, kinds["nodes"]), (edges, e_new, kinds["edges"]),
                                      (versions, v_new, kinds["versions"])):
            for k in names:
                if k in source:
                    target[k] = source[k]
                else:
                    target.pop(k, None)
        parts[part] = {"nodes": nodes, "edges": edges, "_meta": {"versions": versions}}
    meta_new = shards.meta_part(new)
    if meta_new != shards.meta_part(old):
        parts[shards.META] = meta_new
    return shards.write_folder(root, key, parts, only=set(parts))
