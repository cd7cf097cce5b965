"""Edges a sync's merge drops with a node the other machine deleted: each set aside beside the end that stays.

Pure. A delete takes the node's edges, one written on the other machine as well (a bare id must name a
node, spec 000). An edge that machine wrote or changed since the machines last synced is news to the user,
so it is not dropped unsaid: its key, its notes and which end went are kept in the remaining end's
`_conflicts`, shown on the next read of that node and in the editor, until any write of the node clears them.
An edge both of whose ends went has nowhere to be set aside; the sync's report still names it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Json = dict[str, Any]

DROPPED_EDGE = "dropped_edge"  # in a version set aside: the key (`from->to:rel`) of an edge the merge dropped
GONE_NODE = "gone_node"  # the edge's end that was deleted
GONE_ON = "gone_on"  # the machine that deleted it ("" when unknown)


def is_dropped(entry: Any) -> bool:
    return isinstance(entry, dict) and DROPPED_EDGE in entry


def drop_edges(edges: Json, base_edges: Json, deleted: set[str], gone_on: Callable[[str], str],
               now: float) -> tuple[Json, list[tuple[str, Json]]]:
    """(the edges kept, [(the id of the node an entry goes beside, the entry)]): the edges naming a node in
    `deleted` go; each one new or changed since `base_edges` is set aside beside its end that stays (the caller
    puts it in that node's `_conflicts`). `gone_on(node_id)`: the machine that deleted that node."""
    kept: Json = {}
    aside: list[tuple[str, Json]] = []
    for key, edge in edges.items():
        ends = {edge.get("from"), edge.get("to")} if isinstance(edge, dict) else set()
        gone = sorted(str(e) for e in ends & deleted)
        if not gone:
            kept[key] = edge
            continue
        if base_edges.get(key) == edge:
            continue  # as both machines last had it: it goes with its node, as a delete here takes it
        entry: Json = {DROPPED_EDGE: key, GONE_NODE: gone[0], GONE_ON: gone_on(gone[0]), "_set_aside_ts": now}
        if edge.get("notes"):
            entry["notes"] = list(edge["notes"])
        aside += [(end, entry) for end in sorted(str(e) for e in ends - deleted)]
    return kept, aside



def without_dropped(extra: dict[str, Any], src: str, dst: str, rel: str) -> dict[str, Any] | None:
    """A node's extra fields less its versions set aside telling that a sync dropped edge `src -> dst : rel` (the
    edge was written again, as the notice says to: its notice is done); None when none told it."""
    others = extra.get("_conflicts")
    if not isinstance(others, list):
        return None
    key = f"{src}->{dst}:{rel}"
    kept = [o for o in others if not (is_dropped(o) and o.get(DROPPED_EDGE) == key)]
    if len(kept) == len(others):
        return None
    rest = {k: v for k, v in extra.items() if k != "_conflicts"}
    return {**rest, "_conflicts": kept} if kept else rest
