"""`kg doctor`'s read of the store's graph files and journals, with the server up or down.

The server names the graphs it has loaded that are in trouble (/health); the others (every one, with
the server down) are read here as the next load would read them, changing nothing: a graph file that
does not read, a journal line that does not, a journal the next start would set aside. Copies of files
a load read other than as written (`.repaired`) are named too, as a warning.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shlex
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import Protocol

from ..storage import files, held_on_disk, kept_aside, removed_edges
from ..storage import layout as L


class Says(Protocol):
    def ok(self, what: str, said: str) -> None: ...

    def warn(self, what: str, said: str, fix: str) -> None: ...

    def bad(self, what: str, said: str, fix: str) -> None: ...


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """The readers log what they find for the server's log; here it is said as doctor lines instead."""
    logging.disable(logging.CRITICAL)
    try:
        yield
    finally:
        logging.disable(logging.NOTSET)


def _fix(what: str, key: str, path: Path) -> str:
    graph = key.removeprefix("project:")
    if what == "file" and (loop := kept_aside.loop_fix(path)):
        return loop
    if what == "file":
        return (f"put a good copy back at {path} (`kg restore --at DATE {shlex.quote(graph)}` when the store's git history "
                f"holds it), or {move_aside(path)} to start the graph empty")
    if what == "journal_unreadable":
        return f"move {path.name}.journal aside (or give the server's user access to it), then start the server"
    if what == "journal_damaged":
        return (f"look at {path.name}.journal and write again what the lines named held (the server keeps a copy "
                "of the journal as .damaged when it starts)")
    return (f"before the server starts, put back the {path.name} those changes were made on (`kg restore --at DATE "
            f"{shlex.quote(graph)}`); else they are kept in the .dropped file for a look by hand")


def move_aside(path: Path) -> str:
    """"move ... aside (`mv ...`)" for a graph file that does not read: it, and its previous save when that is
    there and does not read either (a load falls back to it: moving the file alone left the graph as it was;
    one that reads is what the next start serves, and is kept)."""
    there = [p for p in (path, files.prev_of(path)) if os.path.lexists(p) and (p == path or not _reads(p))] or [path]
    command = " && ".join(f"mv {shlex.quote(str(p))} {shlex.quote(str(p) + '.aside')}" for p in there)
    return f"move {' and '.join(p.name for p in there)} aside (`{command}`)"


def _reads(path: Path) -> bool:
    try:
        files.parse(path)
    except (files.Unreadable, OSError):
        return False
    return True


def check_store(r: Says, root: Path, loaded: Collection[str]) -> None:
    """Read every stored graph the server has not loaded (`loaded`: its keys; none with the server down)."""
    from ..graph_loading import SERVED_EMPTY, look_on_disk  # the graph model: only when there is a store to read

    if not root.is_dir():
        return
    layout = L.Layout(root)
    projects = root / "projects"
    if projects.exists() and not projects.is_dir():
        r.bad("store", f"{projects} is a file, not a folder: no project graph can be stored or read",
              "move it aside (the server makes the folder again)")
    keys = [k for k in ("user", "maintain") if _stored(layout.graph_file(k))]
    keys += [f"project:{slug}" for slug in layout.project_slugs()]
    read = troubled = 0
    with _quiet():
        for key in keys:
            if key in loaded:
                continue  # loaded: the server said how its load went (graphs_in_trouble)
            path = layout.graph_file(key)
            try:
                found = look_on_disk(path, "project" if key.startswith("project:") else key)
            except Exception as exc:  # noqa: BLE001 - a bug in reading one graph: said, and the others read
                found = [("file", f"{path} could not be read: {exc!r}")]
            twin = L.served_instead(layout, key.removeprefix("project:")) if found and key.startswith("project:") else None
            for what, why in found:
                if twin is not None and what == "file":  # kg-memory 0.17's folder of a project served from ours
                    why = L.json_fault(path) or why.removesuffix(SERVED_EMPTY)
                    r.bad(f"graph {key}", _twin_said(why, path, *twin), _twin_fix(path, *twin))
                    continue
                if what == "file_values":  # read, the value left out: the node and the rest are kept
                    r.warn(f"graph {key}", why, "nothing to do: the next load leaves it out, saying so in the server's "
                           "log, and keeps the file as it was beside it (.repaired)")
                    continue
                if what == "file_unavailable":
                    why, fix = why.split("\0", 1)
                    r.bad(f"graph {key}", why, fix)
                    continue
                r.bad(f"graph {key}", why, _fix(what, key, path))
            read += 1
            troubled += any(what != "file_values" for what, _ in found)
    if read and not troubled:
        r.ok("stored graphs", f"{read} graph(s) not loaded by the server read, with their journals")
    for kept in kept_aside.in_store(root):
        key = _key_of(root, kept)
        if loop := kept_aside.loop_said(kept):  # it leads nowhere: nothing to merge nor look at
            r.warn(f"graph {key}", f"{loop}, set aside at a load", f"remove {shlex.quote(str(kept))}")
            continue
        if (lacking := _reads_as_graph(kept)) is not None:
            # Set aside as corrupt by an older kg while it was only refused (a permission): it holds a whole save.
            graph = layout.graph_file(key)
            r.warn(f"graph {key}", f"{kept} reads as a graph: it was set aside at a load that could not read it "
                   f"(refused, not damaged?), and {len(lacking - _node_ids(graph))} of its node(s) are not in "
                   f"{graph}", f"`kg stop`, then `kg merge-driver {os.devnull} {shlex.quote(str(graph))} "
                   f"{shlex.quote(str(kept))}` (merges it in node by node, the later write of each kept), then "
                   f"remove {shlex.quote(str(kept))} and `kg start`")
            continue
        if key in loaded:
            continue  # the server names it (graphs_in_trouble)
        r.warn(f"graph {key}", f"{kept} holds answered changes (or a file) set aside at a load, not served by the graph",
               "look at it, write again what is wanted (kg_put_node), then remove it")
    for key, held in sorted(held_on_disk.held(root).items()):  # a hand edit's, or an older kg's: the file stays
        for h in held:
            how = ("the folder's own name, recorded in its graph's file" if h.what == "project"
                   else "stored by hand or by an older kg")
            r.warn(f"graph {key}", f"{h.said()}: what looks like a secret, {how}; it is kept in the file as written, "
                   f"{h.agents_see()}, and no commit records it nor kg sync pushes it", h.fix())
    for kept in sorted(root.glob("sessions.json*.unreadable*")):  # what each session was shown: no lesson
        r.warn("sessions", f"{kept} did not read and was set aside at a start, which {_sessions_start(kept.name)}; "
               "sessions are this machine's alone, never committed",
               f"nothing to restore: look at it if you like, then remove it (`rm {shlex.quote(str(kept))}`)")
    for copy in _repaired(root):
        if (edges := removed_edges.kept_said(copy)) is not None:
            r.warn("store", edges, "put each edge's missing end back (kg_put_node), then the edge (kg_put_edge, "
                   "with its notes); or remove the copy if they are not wanted")
            continue
        odd = _values_left_out(copy)
        r.warn("store", f"{copy} is the file as it was before a load read it other than as written (a hand edit: "
               "a key held twice, a value of the wrong type, bytes that are not UTF-8; the server's log names each)"
               + (f"; its values read otherwise: {'; '.join(odd[:5])}" + (f" (and {len(odd) - 5} more)"
                                                                         if len(odd) > 5 else "") if odd else ""),
               "compare it with the graph file, write again what is missing, then remove the copy")


def _values_left_out(copy: Path) -> list[str]:
    """What a load read otherwise of the copy's node values (a wrong type, a NaN or an Infinity), one line each:
    what doctor can name of it without the server's log. Nothing when it does not read."""
    from ..core import hand_edits, not_finite

    try:
        raw = files.parse(copy)
    except files.Unreadable:
        return []
    if not isinstance(raw, dict):
        return []
    return not_finite.left_out(raw) + hand_edits.malformed(raw.get("nodes"))


def _twin_said(why: str, path: Path, root: str, slug: str) -> str:
    return (f"{why.rstrip('.')}. It is kg-memory 0.17's folder of {root}, whose graph is served from projects/{slug}: "
            f"it is not loaded and not merged in (what it holds is in no graph served)")


def _twin_fix(path: Path, root: str, slug: str) -> str:
    return (f"put a good copy back at {path} (from a backup, or the store's git history): the next load of {root} "
            f"merges it into projects/{slug}; or move {path.parent} aside if it holds nothing wanted")


def _node_ids(path: Path) -> set[str]:
    """The ids of a graph file's nodes (none when it does not read)."""
    try:
        raw = files.parse(path)
    except files.Unreadable:
        return set()
    nodes = raw.get("nodes") if isinstance(raw, dict) else None
    return set(nodes) if isinstance(nodes, dict) else set()


def _reads_as_graph(kept: Path) -> set[str] | None:
    """The node ids of a file set aside as unreadable, when it reads as a graph now; else None."""
    if ".json.unreadable" not in kept.name:  # a journal's copy, not a graph file
        return None
    try:
        raw = files.parse(kept)
    except files.Unreadable:
        return None
    nodes = raw.get("nodes") if isinstance(raw, dict) else None
    return set(nodes) if isinstance(nodes, dict) else None


def _stored(path: Path) -> bool:
    return path.is_symlink() or any(p.exists() for p in (path, path.with_name(path.name + ".journal"),
                                                          path.with_suffix(".prev")))


def _repaired(root: Path) -> list[Path]:
    found = [*root.glob("*.repaired"), *root.glob("*.repaired.*"), *root.glob("projects/*/*.repaired"),
             *root.glob("projects/*/*.repaired.*")]
    return sorted(p for p in found if p.is_file())


def _key_of(root: Path, kept: Path) -> str:
    if kept.parent == root:
        return "user" if kept.name.startswith("user.json") else "maintain"
    return f"project:{kept.parent.name}"


def _sessions_start(name: str) -> str:
    """What the start that set a sessions file aside began with, told by the name it was kept under."""
    if name.startswith("sessions.json.journal."):
        return "went on from sessions.json alone (what the journal held since that save is forgotten)"
    if kept_aside.SESSIONS_STARTED_EMPTY in name:
        return "began with no sessions (each started afresh at its next hook)"
    return ("took the sessions from sessions.prev, the save before it (each kept; what one was shown after "
            "that save is forgotten)")
