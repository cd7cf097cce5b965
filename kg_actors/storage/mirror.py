"""Keeping each graph's mirror folder (`shards/`, see `shards.py`) in step with its graph file, before a commit.

The cost must follow the change, not the graph: the graph file as last mirrored
is copied to `.git/kg-mirror/` (a kernel copy: milliseconds for 10 MB), with the
graph file's inode, size and mtime. A graph file still as recorded is skipped
unread; a changed one is compared with the copy entry by entry (as text when both
are in the server's format, see `graph_text.py`: only changed entries are parsed),
and only the buckets holding a changed entry are read, patched and written. Without the copy
(the first mirror, a migration) every bucket is encoded and those whose bytes
differ are written. A graph file that is not a readable graph (conflict markers from a
hand merge, a torn copy) raises `ValueError` and nothing of it is mirrored.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from . import files, graph_text, shards, user_files

STATE = Path(".git") / "kg-mirror"


def graph_files(root: Path) -> dict[str, str]:
    """{graph key: path relative to the store} of every graph file there is. Only regular files (a symlink to
    one counts): a FIFO, folder, loop or dangling link in a graph's place is left out as a missing file is, so
    its graph keeps its mirror as committed and the commit records the rest (its load names what is wrong)."""
    out = {k: rel for k, rel in (("user", "user.json"), ("maintain", "maintain.json"))
           if user_files.is_regular(root / rel)}
    projects = root / "projects"
    if projects.is_dir():
        for slug in sorted(os.listdir(projects)):
            if user_files.is_regular(projects / slug / "graph.json"):
                out[f"project:{slug}"] = f"projects/{slug}/graph.json"
    return out


def _link(root: Path, key: str) -> Path:
    return root / STATE / (key.replace(":", "_").replace("/", "_") + ".json")


class NotUtf8(ValueError):
    """A graph file that is not UTF-8 (an editor saved it as Windows-1252): a server's load reads it, and its
    next save writes it as UTF-8; no restore needed (it would throw the hand edit away)."""

    def __init__(self, rel: str):
        super().__init__(f"{rel} is not a readable graph (not UTF-8: saved as Windows-1252 or Latin-1?)")
        self.fix = ("A server that loads this graph reads it (as Windows-1252, or bad bytes as U+FFFD; the file as "
                    "it was is kept as .repaired) and saves it as UTF-8: with the server running (kg start), use "
                    "the graph once (a project's: a session in its folder) and commit again; or save the file as "
                    "UTF-8 in your editor")


def load_graph(raw: bytes, rel: str) -> dict[str, Any]:
    _no_markers(raw, rel)
    try:
        value = json.loads(raw)
    except UnicodeDecodeError:
        raise NotUtf8(rel) from None
    except ValueError as exc:
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
    """The next commit mirrors graph `key` whole (only the buckets whose bytes differ are written): its folder
    holds content its last mirrored copy does not (commits pulled by hand), so a patch from that copy would not
    make the folder the graph file."""
    remember_folder(root, key, None)


def recorded_text(root: Path, key: str) -> str | None:
    """The graph file of `key` as last mirrored (None: no record, or one that does not read)."""
    try:
        return _link(root, key).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def remember_folder(root: Path, key: str, data: bytes | None) -> None:
    """Record `data` as what graph `key`'s folder holds while its file may differ (a merge changed the folder
    under a running graph, whose actor saves the file in its own time): the next update mirrors the file's
    difference from it. The stamp goes first and matches no file, so the file is never skipped unread.
    None: the record goes, and the next update compares every bucket."""
    link = _link(root, key)
    stamp = link.with_name(link.name + ".stat")
    if data is None:
        stamp.unlink(missing_ok=True)
        return
    link.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text(json.dumps([-1, -1, -1]))
    files.write_atomic(link, data, keep_prev=False)


def _recorded(link: Path) -> list[int] | None:
    try:
        value = json.loads(link.with_name(link.name + ".stat").read_text())
    except (OSError, ValueError):
        return None
    return value if isinstance(value, list) else None


def update(root: Path, keep: dict[str, dict[str, Any] | graph_text.Indexed] | None = None,
           skip: frozenset[str] = frozenset()) -> list[str]:
    """Mirror every graph file that changed since it was last mirrored; the mirror paths written.

    `keep`, when given, receives the graph files that were read (key -> the parsed graph, or its
    indexed text), so a sync that follows can rebuild a graph file without reading it again."""
    files = graph_files(root)
    changed: list[str] = []
    for key, rel in files.items():
        if key not in skip:  # left out of the commit, its mirror as last committed
            changed += update_one(root, key, rel, keep)
    # A graph whose file is missing keeps its mirror as committed: a file lost (a hand clone, a git of
    # an older kg deleting it) must not become a delete that a sync would carry to every machine.
    # `kg restore --at HEAD GRAPH` writes the file back from it.
    return changed


def mirrored(root: Path, key: str, rel: str) -> bool:
    """The graph file is still as last mirrored (its folder holds it): the next commit skips it unread."""
    recorded = _recorded(_link(root, key)) if (root / shards.folder(key) / shards.META).exists() else None
    return recorded is not None and _stamp(root / rel) == recorded


def update_one(root: Path, key: str, rel: str,
               keep: dict[str, dict[str, Any] | graph_text.Indexed] | None = None) -> list[str]:
    path, link = root / rel, _link(root, key)
    if mirrored(root, key, rel):
        return []
    recorded = _recorded(link) if (root / shards.folder(key) / shards.META).exists() else None
    raw = user_files.read_bytes(path)  # a FIFO in a graph's place is an OSError, never a wait
    _no_markers(raw, rel)
    old_raw = None
    if recorded is not None:
        try:
            old_raw = link.read_bytes()
        except OSError:
            old_raw = None
    found = _changes_text(old_raw, raw, rel, keep, key) if old_raw is not None else None
    if found is None:  # not the server's format (or no old version): parse both
        new = load_graph(raw, rel)
        if keep is not None:
            keep[key] = new
        try:
            old = json.loads(old_raw) if old_raw is not None else None
        except (ValueError, UnicodeDecodeError):
            old = None
        if not isinstance(old, dict):
            written = shards.write_folder(root, key, shards.split(new))
            remember(root, key, rel)
            return written
        found = _changes_json(old, new)
    try:
        written = _apply(root, key, *found)
    except _Torn:  # a bucket file is gone or unreadable (a hand edit): the whole folder again
        written = shards.write_folder(root, key, shards.split(load_graph(raw, rel)))
    remember(root, key, rel)
    return written


class _Torn(Exception):
    pass


def _no_markers(raw: bytes, rel: str) -> None:
    if raw.startswith(b"<<<<<<< ") or any(m in raw for m in (b"\n<<<<<<< ", b"\n=======\n", b"\n>>>>>>> ")):
        raise ValueError(f"{rel} is not a readable graph (conflict markers from a manual merge?)")


# (nodes|edges|versions, key, the node whose bucket holds it, the new value or MISSING, was it there before)
Change = tuple[str, str, str, Any, bool]
MISSING = graph_text.MISSING
_SECTIONS = (("nodes", "nodes"), ("edges", "edges"), ("versions", "_meta.versions"))


def _changes_text(old_raw: bytes, raw: bytes, rel: str,
                  keep: dict[str, dict[str, Any] | graph_text.Indexed] | None = None,
                  key: str = "") -> tuple[list[Change], dict[str, Any] | None] | None:
    """The changed entries found by comparing the two texts entry by entry (only those parsed), or None
    when either is not in the server's format. Pure Python over strings: a server's worker thread
    running it lets the event loop in every few milliseconds, where a 10 MB json.loads would not."""
    try:
        old, new = graph_text.index(old_raw.decode("utf-8")), graph_text.index(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise NotUtf8(rel) from None
    if old is None or new is None:
        return None
    if keep is not None:
        keep[key] = new  # a rebuild after the merge splices into this text without finding it again

    def val(ix: graph_text.Indexed, section: str, k: str) -> Any:
        if k not in ix.sections[section].entries:
            return MISSING
        try:
            return graph_text.value(ix, section, k)
        except ValueError as exc:
            raise ValueError(f"{rel} is not a readable graph ({section} entry {k!r}: {exc})") from None

    out: list[Change] = []
    edges: dict[str, Any] = {}
    for kind, section in _SECTIONS:
        for k in graph_text.changed_keys(old, new, section):
            value, before = val(new, section, k), val(old, section, k)
            if value is not MISSING and value == before:
                continue  # the same entry written another way (its fields in another order)
            if kind == "nodes":
                owner: str | None = k
            elif kind == "edges":
                edges[k] = value if value is not MISSING else val(old, section, k)
                owner = shards._edge_from(k, edges[k])
            else:
                owner = shards._version_owner(k, edges)
            if owner is None:
                return None  # a version entry no bucket owns: rare, the parsed path places it
            out.append((kind, k, owner, value, before is not MISSING))
    meta = None
    if graph_text.skeleton(old) != graph_text.skeleton(new):
        try:
            meta = shards.meta_part(json.loads(graph_text.skeleton(new)))
        except ValueError as exc:
            raise ValueError(f"{rel} is not a readable graph ({exc})") from None
    return out, meta


def _changes_json(old: dict[str, Any], new: dict[str, Any]) -> tuple[list[Change], dict[str, Any] | None]:
    mapping, edges_of = shards._mapping, shards._edges_of
    pairs = (("nodes", mapping(old.get("nodes")), mapping(new.get("nodes"))),
             ("edges", edges_of(old), edges_of(new)),
             ("versions", mapping(mapping(old.get("_meta")).get("versions")),
              mapping(mapping(new.get("_meta")).get("versions"))))
    e_old, e_new = pairs[1][1], pairs[1][2]
    out: list[Change] = []
    for kind, a, b in pairs:
        for k in [k for k, v in b.items() if a.get(k, MISSING) != v] + [k for k in a if k not in b]:
            if kind == "nodes":
                owner: str | None = k
            elif kind == "edges":
                owner = shards._edge_from(k, b.get(k) or a.get(k))
            else:
                owner = shards._version_owner(k, e_new) or shards._version_owner(k, e_old)
            if owner is not None:
                out.append((kind, k, owner, b.get(k, MISSING), k in a))
    meta_new = shards.meta_part(new)
    return out, (meta_new if meta_new != shards.meta_part(old) else None)


def _apply(root: Path, key: str, changes: list[Change], meta: dict[str, Any] | None) -> list[str]:
    """Patch the buckets holding a changed entry (read from the folder) and write those that differ."""
    mapping = shards._mapping
    dirty: dict[str, list[Change]] = {}
    for change in changes:
        dirty.setdefault(shards.bucket(change[2]), []).append(change)
    parts: dict[str, dict[str, Any]] = {}
    base = root / shards.folder(key)
    for part, items in dirty.items():
        try:
            value = shards.parse((base / part).read_bytes(), part)
        except FileNotFoundError:
            if any(existed for *_, existed in items):
                raise _Torn from None  # entries of a bucket the folder lacks: it is not the old version's
            value = {}  # a bucket's first entries
        except (OSError, ValueError):
            raise _Torn from None
        sections = {"nodes": dict(mapping(value.get("nodes"))), "edges": dict(shards._edges_of(value)),
                    "versions": dict(mapping(mapping(value.get("_meta")).get("versions")))}
        for kind, k, _, new, _ in items:
            if new is MISSING:
                sections[kind].pop(k, None)
            else:
                sections[kind][k] = new
        parts[part] = {"nodes": sections["nodes"], "edges": sections["edges"],
                       "_meta": {"versions": sections["versions"]}}
    if meta is not None:
        parts[shards.META] = meta
    return shards.write_folder(root, key, parts, only=set(parts))
