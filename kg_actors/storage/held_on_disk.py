"""Secrets the store's graph files hold (a hand edit, an older kg's write), read from disk: for the server's
log at a load, `kg doctor`, a sync, which refuses to commit and push them to every machine, and every commit,
which is skipped while a graph file it would record anew holds one (`commit`).

Blocking, and ~0.3 ms of CPU a node (the detector over every field): the server runs a large scan in a
child process (held_scan.py), as it builds a large index, so the interpreter lock stays with the hooks.
In one process a graph file is read once per version (its stat).

    python -m kg_actors.storage.held_on_disk ROOT [FILE]   # the child: JSON of what ROOT (or FILE) holds
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.held_secrets import FOLDER_FIX, PROGRESS_NAME_FIX, Held, held_in, in_folder, tools_for
from . import git as G
from . import mirror, user_files
from .layout import recorded_project_path

if TYPE_CHECKING:
    from .graph_text import Indexed

# Per file, what its version (stat) held. Threads may race on an entry: the loser reads the file again.
_SEEN: dict[Path, tuple[list[int] | None, list[Held]]] = {}
SHOWN_MAX = 8


def held(root: Path, changed: bool = False) -> dict[str, list[Held]]:
    """Graph key -> what each graph file of the store holds that looks like a secret (unreadable ones skipped:
    the load and the commit say what is wrong with them). `changed`: only the files changed since their last
    commit (what a commit would record anew; the cost follows the change, as the commit's own)."""
    out: dict[str, list[Held]] = {}
    for key, rel in mirror.graph_files(root).items():
        if changed and mirror.mirrored(root, key, rel):
            continue
        path = root / rel
        stamp = mirror._stamp(path)
        seen = _SEEN.get(path)
        if seen is not None and seen[0] == stamp and stamp is not None:
            found = seen[1]
        else:
            try:
                graph = json.loads(user_files.read_bytes(path))
            except (OSError, ValueError):
                continue
            folder = in_folder(graph)  # a project folder named by a key: its path is in the file
            found = [*([folder] if folder is not None else []), *held_in(graph)]
            _SEEN[path] = (stamp, found)
        if found:
            out[key] = found
    return out


def held_in_file(path: Path) -> list[Held]:
    """What one graph file holds (an unreadable file: nothing; its load says what is wrong)."""
    try:
        return list(held_in(json.loads(user_files.read_bytes(path))))
    except (OSError, ValueError):
        return []


def listed(found: dict[str, list[Held]]) -> str:
    """Each entry holding one, by graph: `user: node 'x' notes[2] (holds a GitHub token)`; never the secret."""
    items = [f"{key}: {h.said()}" for key, hs in sorted(found.items()) for h in hs]
    more = f"; and {len(items) - SHOWN_MAX} more" if len(items) > SHOWN_MAX else ""
    return "; ".join(items[:SHOWN_MAX]) + more


class SecretHeld(G.GitError):
    """A sync or a commit refused: a graph it would commit (and push) holds a secret."""


def commit(root: Path, now: float, what: str = "auto-save",
           keep: dict[str, dict[str, Any] | Indexed] | None = None) -> str | None:
    """G.commit, skipped (SecretHeld) while a graph file changed since its last commit holds a secret: a commit
    stays in the history after the entry is fixed, and a sync pushes it to every machine. The graph files keep
    it as written (a lesson is never lost); once it is edited out, the next commit goes through."""
    out = folders_held(root)
    found = refusing({key: hs for key, hs in held(root, changed=True).items() if key not in out})
    if found:
        raise SecretHeld(
            f"NOT COMMITTED: the store holds what looks like a secret, which a commit would keep in its history "
            f"and a sync would push to every machine: {listed(found)}. The graph files keep it as written; "
            f"{_fixes(found)}, and the next commit goes through")
    return G.commit(root, now, what, keep, skip=frozenset(out))


def folders_held(root: Path) -> dict[str, Held]:
    """Graph key -> its folder's hold, of each project graph whose recorded folder's path holds a key's shape
    (`~/AKIA…`, the user's name for it): left out of every commit and sync (its file records the path), named,
    while the rest of the store goes on. Read from the path's record alone, of the graph files changed since their
    last commit (one left out never is committed; one that is as committed records nothing new)."""
    out = {}
    for key, rel in mirror.graph_files(root).items():
        if key.startswith("project:") and not mirror.mirrored(root, key, rel):
            found = in_folder({"_meta": {"project_path": recorded_project_path(root / rel)}})
            if found is not None:
                out[key] = found
    return out


def describe_left_out(key: str, found: dict[str, str], synced: bool) -> str:
    """What a commit or sync says of a project it left out (`found`: its folder's hold as JSON): never the key."""
    act, done = ("sync", "synced") if synced else ("commit", "committed")
    return (f"NOT {done.upper()}: {key} (folder {found['shown']}): the folder's name looks like {found['kind']}, and "
            f"its graph records the folder's path, which a {act} would keep in the history"
            f"{' and push to every machine' if synced else ''}; everything else was {done}. To {act} it: {FOLDER_FIX}")


def _fixes(found: dict[str, list[Held]]) -> str:
    """What the user does: edit each entry holding one; rename a project folder whose name holds one."""
    held = [h for hs in found.values() for h in hs]
    said = [] if all(h.what == "project" for h in held) else [
        f"edit each entry in the editor or with {tools_for(held)} (send the field without the secret)"]
    if any(h.what == "progress" and h.shown for h in held):  # no tool reaches a task agents are never shown
        said.append(f"a task whose id holds one: {PROGRESS_NAME_FIX}")
    return "; ".join(said + ([FOLDER_FIX] if any(h.what == "project" for h in held) else []))


def refuse_sync(root: Path) -> None:
    """SecretHeld naming each entry, field and kind when a graph file holds a secret; git is not touched."""
    refusal = sync_refusal(held(root))
    if refusal is not None:
        raise refusal


def refusing(found: dict[str, list[Held]]) -> dict[str, list[Held]]:
    """What of `found` refuses a whole commit or sync: not a project folder named like a key (left out alone)."""
    return {key: hs for key, hs in found.items() if not any(h.what == "project" for h in hs)}


def sync_refusal(found: dict[str, list[Held]]) -> SecretHeld | None:
    """The refusal for what the store holds; None when nothing, or only project folders named like a key (those
    projects are left out of the sync, and the rest goes on: `folders_held`)."""
    found = refusing(found)
    if not found:
        return None
    return SecretHeld(
        f"NOT SYNCED: the store holds what looks like a secret, which a sync would commit and push to every "
        f"machine: {listed(found)}. To fix: {_fixes(found)}; then sync again. Nothing was committed, fetched "
        "or pushed")


def from_json(said: object) -> dict[str, list[Held]]:
    """The child's answer read back (anything malformed: ValueError)."""
    try:
        return {str(key): [Held(**h) for h in items] for key, items in said.items()}  # type: ignore[attr-defined]
    except (AttributeError, TypeError) as exc:
        raise ValueError(f"not what the scan prints: {exc}") from None


# A load's scan (one file) is waited for by the graph's first index, which kg_search waits for: it runs as far
# behind the agents as the index's child does (index_process._NICE), where at 19 a saturated machine held a
# search a minute; a scan of the whole store (a sync's) waits on nothing an agent asked.
LOAD_SCAN_NICE = 5
STORE_SCAN_NICE = 19


def main(argv: list[str]) -> int:
    os.nice(LOAD_SCAN_NICE if len(argv) > 1 else STORE_SCAN_NICE)
    root = Path(argv[0])
    found = {"file": held_in_file(Path(argv[1]))} if len(argv) > 1 else held(root)
    print(json.dumps({key: [h.to_json() for h in items] for key, items in found.items() if items}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
