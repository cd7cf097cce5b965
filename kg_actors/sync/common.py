"""What the server and the offline commands share: graph files by key, the store's sync settings,
and a summary of what a change of a graph file changed."""

from __future__ import annotations

import json
import logging
import os
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..core import gone_ids
from ..core.held_secrets import Held, tools_for
from ..core.merge_deletes import machine, only_deletes_new
from ..core.merge_dropped import DROPPED_EDGE, GONE_NODE, GONE_ON, is_dropped
from ..core.model import node_version_key, version_number
from ..storage import files, git_read, held_on_disk, user_files
from ..storage import git as G
from ..storage.layout import Layout

log = logging.getLogger(__name__)

CONFIG_FILE = "config.json"  # machine-local settings (ignored by git): {"sync_remote": "..."}


def rel_path(layout: Layout, key: str) -> str:
    return str(layout.graph_file(key).relative_to(layout.root))


def sync_remote(root: Path) -> str | None:
    """`sync_remote` from the store's config.json (None when unset or unreadable; said in the log)."""
    path = root / CONFIG_FILE
    if not path.exists():
        return None
    try:
        value = user_files.load_json(path).get("sync_remote")
    except (OSError, ValueError, AttributeError) as exc:
        log.warning("%s is unreadable (%s); no sync on the tick", path, exc)
        return None
    return value if isinstance(value, str) and value.strip() else None


def set_sync_remote(root: Path, remote: str) -> None:
    path = root / CONFIG_FILE
    try:
        config = user_files.load_json(path) if path.exists() else {}
    except ValueError:
        config = {}
    if not isinstance(config, dict):
        config = {}
    config["sync_remote"] = remote
    files.write_atomic(path, files.dump_json(config))


def parse_graph(raw: bytes | None) -> dict[str, Any] | None:
    if raw is None:
        return None
    try:
        value = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    return value if isinstance(value, dict) else None


def changes(before: dict[str, Any] | None, after: dict[str, Any] | None) -> dict[str, Any]:
    """Node ids added, removed and changed (content) from `before` to `after`, and edge counts."""
    nb = (before or {}).get("nodes") or {}
    na = (after or {}).get("nodes") or {}

    def content(n: dict[str, Any]) -> tuple[Any, Any, Any]:
        return n.get("gist"), n.get("notes"), n.get("touches")

    eb = (before or {}).get("edges") or {}
    ea = (after or {}).get("edges") or {}
    eb = eb if isinstance(eb, dict) else {}
    ea = ea if isinstance(ea, dict) else {}
    return {
        "added": sorted(set(na) - set(nb)),
        "removed": sorted(set(nb) - set(na)),
        "changed": sorted(i for i in set(na) & set(nb) if content(na[i]) != content(nb[i])),
        "edges_added": len(set(ea) - set(eb)),
        "edges_removed": len(set(eb) - set(ea)),
    }


def new_conflicts(before: dict[str, Any] | None, after: dict[str, Any], here: str = "") -> dict[str, list[str]]:
    """The nodes a merge set versions aside for (an unresolved one from an earlier merge was told then, and
    is shown to every reader of its node until resolved): "conflicts", changed on both machines, and
    "kept", deleted on one machine and kept for a change on the other (core/merge_deletes.py); and "dropped",
    the edges it dropped with a node deleted on the other machine, each set aside beside its end that stayed
    (core/merge_dropped.py), as `key (NODE deleted on MACHINE)`, "this machine" for this store's id `here`."""
    out: dict[str, list[str]] = {"conflicts": [], "kept": [], "dropped": []}
    if before is None:  # a graph new here: the merge took it as it came, and what it holds aside was told there
        return out
    nodes_b = before.get("nodes") or {}
    for node_id, node in sorted(((after or {}).get("nodes") or {}).items()):
        aside = node.get("_conflicts") if isinstance(node, dict) else None
        old = nodes_b.get(node_id)
        held = old.get("_conflicts") if isinstance(old, dict) else None
        added = [e for e in (aside if isinstance(aside, list) else []) if e not in (held or [])]
        for entry in added:
            # Neither end was ever here (a machine joining later takes in a node with its edge set aside long
            # ago): old news of other machines, not this sync's.
            if is_dropped(entry) and (old is not None or entry.get(GONE_NODE) in nodes_b):
                by = f" on {machine(entry[GONE_ON], '', here)}" if entry.get(GONE_ON) else ""
                said = f"{entry[DROPPED_EDGE]} ({entry.get(GONE_NODE)} deleted{by})"
                if said not in out["dropped"]:
                    out["dropped"].append(said)
        rest = [e for e in added if not is_dropped(e)]
        if rest:
            out["kept" if only_deletes_new(held, rest) else "conflicts"].append(node_id)
    return out


def carry_versions(current: dict[str, Any] | None, restored: dict[str, Any], now: float) -> dict[str, Any]:
    """`restored` with each node it brings back or changes one version past both sides: a restore must never
    hand out a version number again (an editor tab that loaded the later v2 saved over the restore's next v2)."""
    summary = changes(current, restored)
    if not summary["added"] and not summary["changed"]:
        return restored
    before = ((current or {}).get("_meta") or {}).get("versions") or {}
    meta = dict(restored.get("_meta") or {})
    versions = dict(meta.get("versions") or {})
    for node_id in summary["added"] + summary["changed"]:
        key = node_version_key(node_id)
        v = max(version_number(before.get(key)), version_number(versions.get(key))) + 1
        versions[key] = {"v": v, "ts": now, "session": None}
    meta["versions"] = versions
    return {**restored, "_meta": meta}


def put_back(key: str, current: dict[str, Any] | None, then: dict[str, Any], now: float) -> dict[str, Any]:
    """What a restore of graph `key` writes: `then` with its versions carried past now's, and for the user graph
    the lessons it takes away noted (core/gone_ids.py): a project's edges to them stay for its undo."""
    restored = carry_versions(current, then, now)
    return gone_ids.carried(current, restored) if key == "user" else restored


def moved_unreadable(root: Path, before: str, after: str, exc: ValueError) -> G.GitError:
    """Commits that moved HEAD outside kg (a hand `git pull`, a commit of a hand merge) and hold a graph part
    that is not a graph: nothing of them can be taken in, and a commit over them would be of what kg cannot read;
    the error names the file and the way back (every lesson is in the graph files, which git does not hold)."""
    return G.GitError(f"commits made outside kg ({before[:12]}..{after[:12]}: a git pull, merge or commit by hand?) "
                      f"hold {exc}; kg takes nothing in from them and will not commit or sync over them. Put the "
                      f"branch back where kg left it: git -C {root} reset --keep {before[:12]} (the graph files, "
                      "which hold every lesson, are not touched); then `kg sync` merges the remote node by node")


def graph_then(root: Path, commit: str, key: str, exists_now: bool) -> dict[str, Any] | None:
    """Graph `key` as `commit` holds it, or None when it holds none and the graph exists now: it had no node yet
    then (a store commits a graph's mirror from its first node on), and is restored empty (`emptied`). GitError
    when the commit holds it unreadable, or neither it nor the store has such a graph."""
    try:
        restored = git_read.graph_at(root, commit, key)
    except ValueError as exc:
        raise G.GitError(f"the {key} graph in commit {commit[:12]} is not a readable graph ({exc}); nothing was "
                         "restored: pick another commit (`git -C STORE log` lists them)") from None
    if restored is not None:
        return restored
    if not exists_now:
        raise G.GitError(f"the {key} graph is not in commit {commit[:12]}, nor in the store now")
    return None


def stored_or_aside(path: Path, read: Callable[[Path], dict[str, Any] | None]
                    ) -> tuple[dict[str, Any] | None, Path | None]:
    """What graph file `path` holds (`read`), and None; or, for a file no load reads (the damage whose fix
    `kg status` names as this restore), None and where it was moved: `<name>.replaced`, kept for a look by hand
    as a save's write-back over damage keeps it (the restore says where; a load's `.unreadable` would go on
    naming a fall-back that did not happen). A restore refused over it sent the user round in a circle (and
    offline ended in a traceback)."""
    try:
        return read(path), None
    except files.Unavailable:
        raise  # a permission or an I/O error: not damage, never moved aside (its fix says what makes it read)
    except files.Unreadable:
        aside = files.unused_name(path.with_name(path.name + ".replaced"))
        os.replace(path, aside)
        return None, aside


def aside_said(aside: Path | None) -> str:
    """The restore's word on an unreadable file it moved aside, or nothing."""
    return "" if aside is None else f"; what was there did not read as a graph and is kept as {aside}"


def emptied(current: dict[str, Any] | None) -> dict[str, Any]:
    """A graph as it was before its first node: no node or edge; its `_meta` (folder, versions) as it is."""
    return {"nodes": {}, "edges": {}, "_meta": dict((current or {}).get("_meta") or {})}


def describe_restore(summary: dict[str, Any], before: str | None, commit: str, uncommitted: str | None,
                     key: str, undoing: bool = False) -> str:
    """What a restore of graph `key` changed, and the command that puts back what was there (committed just
    before), or why it was not committed first (`uncommitted`: a graph file that is not a graph). `undoing`: it
    undid an earlier restore (sync/restore_undo.py)."""
    text = describe(summary)
    if undoing:
        text += " (the undo of the restore that named this commit: what was written since that restore stays)"
    changed = summary.get("added") or summary.get("removed") or summary.get("changed")
    if uncommitted is not None:
        text += f" (what was there was not committed first: {uncommitted.split('; not committing it')[0]})"
    elif changed and before is not None and before != commit:  # the key names the graph from any folder
        undo = f"kg restore --at {before[:12]} {shlex.quote(key)}"
        text += f"; as it was before is commit {before[:12]} (`{undo}` puts it back)"
    return text


def changed_anything(summary: dict[str, Any]) -> bool:
    return any(summary.get(name) for name in ("added", "removed", "changed", "edges_added", "edges_removed"))


def describe(summary: dict[str, Any]) -> str:
    parts = []
    for name in ("added", "removed", "changed"):
        ids = summary.get(name) or []
        if ids:
            shown = ", ".join(ids[:8]) + (f" and {len(ids) - 8} more" if len(ids) > 8 else "")
            parts.append(f"{len(ids)} node(s) {name}: {shown}")
    for name, label in (("edges_added", "edge(s) added"), ("edges_removed", "edge(s) removed")):
        if summary.get(name):
            parts.append(f"{summary[name]} {label}")
    return "; ".join(parts) or "no node or edge changed"


def renamed_by_merge(before: dict[str, Any], after: dict[str, Any], gone: set[str]) -> dict[str, str]:
    """Old id -> new id of the nodes a merge renamed (`before` and `after`: nodes by id; `gone`: the ids it
    took away): a rename keeps the creation stamp, so a gone id whose stamp is on exactly one node new
    after it went there. A stamp shared by two (nodes written in one batch) proves nothing."""
    def stamps(nodes: dict[str, Any], ids: set[str]) -> dict[float, list[str]]:
        out: dict[float, list[str]] = {}
        for node_id in sorted(ids):
            stamp = nodes[node_id].get("_created_ts") if isinstance(nodes[node_id], dict) else None
            if isinstance(stamp, int | float) and not isinstance(stamp, bool):
                out.setdefault(float(stamp), []).append(node_id)
        return out
    olds = stamps(before, gone & before.keys())
    news = stamps(after, after.keys() - before.keys())
    return {ids[0]: news[t][0] for t, ids in olds.items() if len(ids) == 1 and len(news.get(t, [])) == 1}


def left_out(root: Path) -> dict[str, dict[str, str]]:
    """The project graphs every commit and sync leaves out (a folder named like a key), by key, JSON-ready."""
    return {key: found.to_json() for key, found in sorted(held_on_disk.folders_held(root).items())}


def refused_said(root: Path) -> str | None:
    """Why every commit and sync of the store is refused, for `kg status` (None: they are not, or the store is no
    git repository): a graph file changed since its last commit holds what looks like a secret."""
    if not G.is_repo(root):
        return None
    found = held_on_disk.refusing(held_on_disk.held(root, changed=True))
    if not found:
        return None
    return (f"every commit and sync is refused until it is fixed: {held_on_disk.listed(found)} holds what looks like a "
            "secret (kept in the file as written); `kg doctor` says how to fix each")


def withheld_json(withheld: dict[str, Any]) -> dict[str, list[dict[str, str]]]:
    """A merge's versions left out for holding a secret (core/held_secrets.Held by graph key), JSON-ready; an entry
    whose name holds one keyed by that name masked (what `kg sync` prints and /health keeps, agents run both)."""
    return {key: [{**h.to_json(), "key": h.shown} if h.shown else h.to_json() for h in held]
            for key, held in sorted(withheld.items()) if held}


def describe_withheld(key: str, held: list[dict[str, str]]) -> str:
    """What a sync says of the versions it left out: each entry, field and kind of secret, never the secret; and
    for each, what stands in its place (the newest version there without it, else this machine's)."""
    entries = [Held(**h) for h in held]

    def said(h: Held) -> str:
        fields = ", ".join(f"{f} holds {k}" for f, k in h.fields())
        instead = f" (the newest version there without it, of commit {h.earlier[:12]}, is taken)" if h.earlier else ""
        return f"{h.what} '{h.shown or h.key}' {fields}{instead}"  # a name holding one: masked

    named = "; ".join(said(h) for h in entries[:8])
    more = f"; and {len(held) - 8} more" if len(held) > 8 else ""
    rest = ("" if all(h.earlier for h in entries) else
            " Where no version there is without it, this machine's stands (one new there is left out).")
    return (f"{key}: NOT TAKEN from the remote, it holds what looks like a secret (secrets are never stored in "
            f"memory): {named}{more}.{rest} Fix it on the "
            f"machine it came from ({_fixed_there(entries)}), then sync there and here again")


def _fixed_there(entries: list[Held]) -> str:
    """How the other machine takes the secret out: a field is edited; a name (an id, an edge's end or rel) is no
    field a write sends, so its entry is renamed or deleted."""
    named = [h for h in entries if h.shown]
    edited = [h for h in entries if not h.shown]
    said = [f"edit it there in the editor or with {tools_for(edited)}, without the secret"] if edited else []
    if named:
        said.append(f"{'where a name holds it, ' if edited else ''}rename or delete that entry there in the editor "
                    "(or with kg_rename_node / kg_delete_node): no edit of its fields takes a secret out of its name")
    return "; ".join(said)
