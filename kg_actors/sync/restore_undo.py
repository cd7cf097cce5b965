"""The undo of a restore: what the restore changed is put back, and nothing written since is taken away.

`kg restore` names the commit made just before it (`as it was before is commit U`) as its undo. Restored
as a snapshot, U took away every lesson written after the restore, lessons another machine's sync brought
included (and the next sync deleted them there too). So each restore is recorded here, this machine's
alone (`.git/kg-restores.json`): the graph, the commit before it (U) and the commit it restored to (C).
A restore `--at U` of that graph is then its undo: a three-way merge of the graph now (ours) with U
(theirs) against C (the base, what the restore wrote), by the sync's per-node rules. A lesson the
restore took away comes back, one it brought back goes (unless changed since), one written since stays.
Blocking (a file, git): the server runs these in worker threads.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from ..core.merge import merge_graphs
from ..storage import files
from . import common

log = logging.getLogger(__name__)

FILE = Path(".git") / "kg-restores.json"
KEPT = 50  # restores remembered; an older one's undo restores a snapshot, as any restore does


def _records(root: Path) -> list[dict[str, str]]:
    try:
        raw = json.loads((root / FILE).read_bytes())
    except (OSError, ValueError):
        return []  # none yet, or unreadable: a restore to U is then a plain restore
    return [r for r in raw if isinstance(r, dict)] if isinstance(raw, list) else []


def record(root: Path, key: str, before: str | None, restored_to: str) -> None:
    """Graph `key` was restored to `restored_to`; `before` (the commit made just before) undoes it."""
    if before is None or before == restored_to:
        return
    rows = [*_records(root), {"graph": key, "before": before, "restored_to": restored_to}][-KEPT:]
    try:
        files.write_atomic(root / FILE, files.dump_json(rows), keep_prev=False)
    except OSError as exc:  # the restore is done; only its undo would be a plain restore
        log.warning("could not record the restore of %s for its undo: %s", key, exc)


def undone_base(root: Path, key: str, commit: str, exists_now: bool) -> tuple[bool, dict[str, Any] | None]:
    """(whether a restore `--at commit` of `key` undoes a restore recorded here, the graph that restore wrote:
    None when it emptied it)."""
    for row in reversed(_records(root)):
        if row.get("graph") == key and row.get("before") == commit and isinstance(row.get("restored_to"), str):
            return True, common.graph_then(root, row["restored_to"], key, exists_now)
    return False, None


def unapply(base: dict[str, Any] | None, current: dict[str, Any] | None, then: dict[str, Any],
            now: float) -> dict[str, Any]:
    """The graph with a restore that wrote `base` undone toward `then` (the graph before it), keeping every
    change since (`current`)."""
    if current is None:
        return then
    return merge_graphs(common.emptied(current) if base is None else base, current, then, now).merged
