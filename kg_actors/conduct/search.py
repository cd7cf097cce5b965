"""Search: one query over the session's graphs (user and project), ranked together.

Without a session the search is best effort over every loaded graph. What the
reply shows is marked seen by the session (via "search").
"""

from __future__ import annotations

from ..core import constants as C
from ..core import held_words, search, search_format, search_paths
from ..core.seen import AtLevel
from ..core.withheld_terms import withheld_only
from ..graph_handle import GraphHandle
from .floor import Floor


async def search_text(floor: Floor, sid: str | None, query: str) -> str:
    terms = search.parse_query(query)
    view = await floor.session(sid) if sid else None
    graphs: dict[str, GraphHandle] = dict(await floor.levels_of(view))
    best_effort = view is None
    if best_effort:
        for key in floor.directory.loaded_keys():
            if key.startswith("project:"):
                graphs[key] = await floor.directory.get(key)
    shown_at = floor.clock()  # what the views show is as of after this: a write applied meanwhile is not "seen"
    views = {lvl: await handle.view() for lvl, handle in graphs.items()}
    seen = view.seen if view else frozenset()
    terms = held_words.cut_terms(terms, (v.index for v in views.values() if v.index is not None))
    # From here to the reply text: no await, so the views stay consistent.
    limit = C.SEARCH_TOP_K + C.SEARCH_MORE_K
    per_level, total = {}, 0
    for lvl, gview in views.items():
        assert gview.index is not None  # view() waits for the first index build
        # A node found only by a withheld field's words is no match, in the count as in the list: either
        # would tell a right guess of a secret from a wrong one (core/withheld_terms.py).
        dropped = withheld_only(gview.graph, gview.index, terms.all())
        hits, matched = search.top_hits(gview.index, terms, AtLevel(seen, lvl), limit + len(dropped))
        per_level[lvl] = [h for h in hits if h.node_id not in dropped][:limit]
        total += matched - len(dropped)
    ranked = search.merge_hits(per_level)
    # Each as agents are shown it: a field holding a secret a hand edit left is a marker (core/withheld.py).
    nodes = {(lvl, h.node_id): views[lvl].graph.lineage.mask.node(views[lvl].graph.nodes[h.node_id])
             for lvl, h in ranked[:limit]}
    top = [(lvl, h.node_id) for lvl, h in ranked[: C.SEARCH_TOP_K]]
    connectors, path_edges = search_paths.connection_paths({lvl: v.graph for lvl, v in views.items()}, top)
    for ref in connectors:
        nodes[ref] = views[ref[0]].graph.lineage.mask.node(views[ref[0]].graph.nodes[ref[1]])
    text, shown, cut = search_format.format_search(query, ranked, nodes, connectors, path_edges,
                                                   best_effort=best_effort, total=total)
    if view is not None and shown:
        await floor.sessions.mark_seen(sid=view.sid, refs=list(shown), via="search", at=shown_at, cut=cut)
    return text
