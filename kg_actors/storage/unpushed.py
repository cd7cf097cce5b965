"""The commits a sync is about to push, checked for secrets: one an older kg recorded (a hand edit committed
at shutdown before commits skipped them) would otherwise reach the remote in the history, even after the
entry was fixed in the graph files.

Only what the push would send is read: each unpushed commit's changed graph files (mirror buckets, or an
older store's graph files), each distinct version once, and in it only the entries changed from the
commit's parent. When one holds a secret, kg's unpushed commits are squashed into one commit of the tree
HEAD holds now (made from the graph files, which the sync has checked hold none), on top of what the
remote already has: the remote never receives the secret. The old commits stay in this machine's reflog
only. A HEAD that still holds it (a graph file gone, its folder kept as committed) is refused instead.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..core.held_secrets import Held, held_in, keep_out
from . import git as G
from . import git_head, git_read, shards
from .held_on_disk import SecretHeld, listed
from .machine_id import machine_id

NO_BLOB = "0" * 40


def _graph_key(rel: str) -> str | None:
    found = shards.split_path(rel)
    if found is not None:
        return found[0] if rel.endswith(".json") else None
    return git_read.legacy_key(rel)


def _changes(root: Path, tip: str, pushed: str | None) -> list[tuple[str, str, str, str]]:
    """(commit, graph key, old blob, new blob) of each graph file each unpushed commit changed."""
    args = ["log", "--raw", "--no-abbrev", "--no-renames", "--format=commit %H", tip]
    out = G.run(root, *args, *(["--not", pushed] if pushed else [])).stdout
    found, commit = [], ""
    for line in out.splitlines():
        if line.startswith("commit "):
            commit = line.split()[1]
        elif line.startswith(":") and "\t" in line:
            fields, rel = line.split("\t", 1)
            old, new = fields.split()[2:4]
            key = _graph_key(rel)
            if key is not None and new != NO_BLOB:
                found.append((commit, key, old, new))
    return found


def _parsed(data: bytes | None) -> dict[str, Any]:
    try:
        value = json.loads(data) if data else {}
    except (ValueError, UnicodeDecodeError):
        return {}
    return value if isinstance(value, dict) else {}


def held_unpushed(root: Path, tip: str, pushed: str | None) -> dict[str, dict[str, list[Held]]]:
    """Commit -> graph key -> the entries it changed into one holding a secret, for every commit of `tip`'s
    history the remote's `pushed` lacks (all of it when the remote has nothing)."""
    changes = _changes(root, tip, pushed)
    data = git_read.blobs(root, sorted({b for c in changes for b in c[2:] if b != NO_BLOB}))
    out: dict[str, dict[str, list[Held]]] = {}
    seen: dict[tuple[str, str], list[Held]] = {}
    for commit, key, old, new in changes:
        if (old, new) not in seen:
            seen[old, new] = keep_out(_parsed(data.get(old)), {}, _parsed(data.get(new)))[1]
        if seen[old, new]:
            out.setdefault(commit, {}).setdefault(key, []).extend(seen[old, new])
    return out


def _said(found: dict[str, dict[str, list[Held]]]) -> str:
    named = [f"commit {c[:12]} ({listed(by_key)})" for c, by_key in list(found.items())[:3]]
    more = f"; and {len(found) - 3} more commit(s)" if len(found) > 3 else ""
    return "; ".join(named) + more


def squash_held(root: Path, pushed: str | None, now: float) -> str | None:
    """When an unpushed commit holds a secret: kg's unpushed commits made one, from HEAD's tree, on the last
    commit the remote has; what was done, to be said. None when none holds one. SecretHeld (nothing changed)
    when HEAD itself still holds it."""
    head = G.head(root)
    if head is None:
        return None
    found = held_unpushed(root, head, pushed)
    if not found:
        return None
    keys = {key for by_key in found.values() for key in by_key}
    still = {key: hs for key in sorted(keys) if (hs := list(held_in(git_read.graph_at(root, head, key) or {})))}
    if still:
        raise SecretHeld(f"NOT SYNCED: commits not yet on the remote hold what looks like a secret ({_said(found)}), "
                         f"and the store's last commit still does: {listed(still)}. Edit each in the editor or with "
                         "kg_put_node / kg_put_edge (send the field without the secret), then sync again; nothing "
                         "was pushed")
    base = G.run(root, "merge-base", head, pushed, check=False).stdout.strip() if pushed else ""
    count = G.run(root, "rev-list", "--count", head, *(["--not", base] if base else [])).stdout.strip()
    message = G.commit_message(now, f"unpushed commits squashed ({count}), one held a secret",
                               machine_id(root, make=True))
    tree = f"{head}^{{tree}}"
    squashed = G.run(root, "commit-tree", tree, *(["-p", base] if base else []), "-m", message, ident=True).stdout
    squashed = squashed.strip()
    G.run(root, "update-ref", "-m", "kg: unpushed commits holding a secret squashed", "HEAD", squashed, head)
    git_head.remember(root, squashed)
    return (f"NOT PUSHED as committed: {_said(found)}: what looks like a secret, recorded before it was fixed. This "
            f"machine's {count} unpushed commit(s) were squashed into {squashed[:12]}, made from the graph files "
            f"as they are now (they hold none); the old commits stay only in this machine's git reflog")
