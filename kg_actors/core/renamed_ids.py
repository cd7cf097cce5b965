"""Where a user graph's renamed ids went, kept beside it: a user rename rewires each project's edges after
it, and a project not yet rewired when the server stopped finds at its next load where its edges go."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .model import GraphData


RENAMED_KEY = "renamed_ids"  # a user graph's _meta: old id -> new id of its latest renames
RENAMED_KEPT = 1_000


def remember_rename(graph: GraphData, old_id: str, new_id: str) -> None:
    """Keep `old_id -> new_id` beside the graph (in the same change, so in the same journal record): a
    user rename rewires every project in turn after it, and a project not yet rewired when the server
    stopped must still find where its edges go at its next load (renamed_target), not lose them."""
    renamed = dict(graph.extra_meta.get(RENAMED_KEY) or {})
    renamed.pop(new_id, None)  # the id is a node again: nothing redirects from it
    renamed.pop(old_id, None)
    renamed[old_id] = new_id  # newest last: the oldest go first
    for stale in list(renamed)[: max(0, len(renamed) - RENAMED_KEPT)]:
        del renamed[stale]
    graph.extra_meta[RENAMED_KEY] = renamed
    graph.meta_changed = True


def renamed_target(renamed: Mapping[str, object], end: str, exists: Callable[[str], bool]) -> str | None:
    """Where a renamed id went, following later renames of the new id; None when it did not end at a node."""
    seen = {end}
    while isinstance(target := renamed.get(end), str) and target not in seen:
        if exists(target):
            return target
        seen.add(target)
        end = target
    return None
