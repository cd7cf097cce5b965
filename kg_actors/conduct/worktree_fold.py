"""A linked worktree's graph of its own, from before worktrees were their repository's project, merged in.

An earlier kg gave each linked worktree a graph (`projects/fix-bug` for `<repo>/.claude/worktrees/fix-bug`):
what its sessions learnt never reached the repository, and once the worktree was removed a stranger of
its name took it over. The first session in that worktree now folds it into the repository's graph, as
kg sync merges two machines' copies (a node both hold differently keeps the version written last, the
other set aside and marked as coming from that folder), and the worktree's folder moves to the store's
trash (restorable by moving it back).
"""

from __future__ import annotations

import logging
from typing import Any

from ..core.errors import InvalidInput, KGError
from ..core.merge import label_set_aside, merge_graphs
from . import worktree_touches
from .floor import Floor

log = logging.getLogger(__name__)


async def fold_worktree_graph(floor: Floor, cwd: object, root: str) -> None:
    """When `cwd` is in a linked worktree of `root`'s repository and that worktree has a graph of its own,
    merge it into `root`'s. A failure leaves it where it is (logged; the next session tries again)."""
    try:
        found = floor.bindings.worktree(cwd)
    except (InvalidInput, ValueError, OSError):
        return
    if found is None or found[1] != root or not floor.directory.has_graph_for(found[0]):
        return
    worktree = found[0]
    key, ours_key = await floor.directory.project_key(worktree), await floor.directory.project_key(root)
    if key == ours_key:
        return
    now = floor.clock()
    slug = key.removeprefix("project:")
    try:
        theirs = await (await floor.graph(key)).dump()
        handle = await floor.graph(ours_key)
        ours = await handle.dump()
        # Its touches of the worktree's files by absolute path name the repository's, as a write's do.
        result = merge_graphs(None, ours, _touches_in_checkout(theirs, root), now)
        label_set_aside(result.conflicts, ours="this repository's own graph",
                        theirs=f"projects/{slug} (the graph kept for linked worktree {worktree})")
        await handle.absorb(base=ours, merged=result.merged, now=now)  # answered once journaled
        dest = await floor.directory.remove_project(slug, now)
    except (KGError, OSError) as exc:
        log.error("%s: the graph of linked worktree %s could not be merged into its repository's %s (%s); it "
                  "stays where it is and is tried again at the next session there", key, worktree, root, exc)
        return
    log.warning("%s: the graph kept for linked worktree %s (%d node(s)) is merged into its repository's, %s (%d "
                "node(s) held differently: the version written last is used, the other set aside); its folder is "
                "now %s", key, worktree, len(theirs.get("nodes") or {}), ours_key, len(result.conflicts), dest)


def _touches_in_checkout(graph: dict[str, Any], root: str) -> dict[str, Any]:
    nodes = graph.get("nodes")
    if not isinstance(nodes, dict):
        return graph
    mapped = {nid: {**n, "touches": worktree_touches.as_in_checkout(n["touches"], root)}
              if isinstance(n, dict) and isinstance(n.get("touches"), list) else n for nid, n in nodes.items()}
    return {**graph, "nodes": mapped}
