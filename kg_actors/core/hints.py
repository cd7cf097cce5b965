"""Write-time hints for a new node: a near-duplicate to fold into, or a hub to link.

Both probe the new id and gist through the search pipeline, scoring the graph
as if the new node were not in it yet (the owner may index it before or after
asking). Each returns None when there is nothing worth a line; the write goes
through either way.
"""

from __future__ import annotations

from collections.abc import Generator
from itertools import compress

from . import constants as C
from . import dup_probe
from .model import GraphReader, Node
from .plain_text import one_line
from .search import SearchIndex, in_title
from .steps import run_steps
from .terms import analyse, is_stopword, query_terms, surface_forms
from .top_degrees import TopDegrees


def _others(graph: GraphReader, new_id: str) -> int:
    return len(graph.nodes) - (new_id in graph.nodes)


def near_duplicate(index: SearchIndex, graph: GraphReader, new_id: str, new_gist: str) -> tuple[str, float] | None:
    """The existing node scoring at least half of what the new node would score against itself."""
    found: tuple[str, float] | None = run_steps(near_duplicate_steps(index, graph, new_id, new_gist))
    return found


def near_duplicate_steps(index: SearchIndex, graph: GraphReader, new_id: str, new_gist: str,
                         per_step: int = C.HINT_TERMS_PER_STEP) -> Generator[None, None, tuple[str, float] | None]:
    """near_duplicate, yielding after every `per_step` probe terms: a long gist's probe scans
    thousands of postings, and its owner must not hold the loop for all of them at once."""
    if _others(graph, new_id) < C.HINT_MIN_OTHER_NODES:
        return None
    probe = query_terms(f"{new_id} {new_gist}").all()
    weighted = dup_probe.weights(index, probe, new_id)  # the terms others hold, each weighed once
    held = {term: weight for _, term, weight in weighted}
    # The best the new node could score: rank 0 on every probe term; a term
    # only it holds would have IDF 1 once it is written.
    self_denom = 0.0
    for term in probe:
        self_denom += held.get(term, 1.0) / C.SEARCH_RRF_K
    if self_denom <= 0:
        return None
    # Only a node scoring this much can be the hint: the probe follows no other (dup_probe.py).
    floor = max(C.NEAR_DUPLICATE_MIN_SCORE, C.NEAR_DUPLICATE_RATIO * self_denom)
    scores = yield from dup_probe.probe_steps(index, probe, new_id, C.RANK_SCAN_DEPTH, floor, per_step, weighted)
    if not scores:
        return None
    best = max(scores.values())
    best_id = min(i for i, v in scores.items() if v == best)  # ties: the first id
    ratio = best / self_denom
    if best >= C.NEAR_DUPLICATE_MIN_SCORE and ratio >= C.NEAR_DUPLICATE_RATIO:
        return best_id, ratio
    return None


def hub_mention(index: SearchIndex, graph: GraphReader, new_id: str, new_gist: str,
                top: TopDegrees | None = None) -> tuple[str, str] | None:
    """An entity the gist names that a hub node's id names and many others mention.

    Returns the word as the gist wrote it (not its stem) and the hub's id. `top`: the graph's most
    connected nodes (core/top_degrees.py), where its owner keeps them: looked at before the namers.
    """
    others = _others(graph, new_id)
    if others < C.HINT_MIN_OTHER_NODES:
        return None
    low = max(C.HUB_MIN_HOLDERS, C.HUB_MIN_HOLDER_SHARE * others)
    high = others * C.HUB_MAX_HOLDER_SHARE
    slug = {t for part in analyse(new_id) for t in part}  # the new node's own subject
    forms = surface_forms(new_gist)
    candidates: list[tuple[int, str]] = []  # (-holders, term): the most-mentioned term with a hub wins
    for term in forms:
        if (
            len(term) < C.HUB_MIN_STEM_CHARS or is_stopword(term) or term in slug
            or not any(c.isalpha() for c in term)
        ):
            continue
        # The count is kept by the index, so a term out of range costs one look-up.
        title = index.postings.get(term, {})
        holders = index.title_holders(term) - (new_id in index.nodes and in_title(title.get(new_id, 0)))
        if low <= holders <= high:
            candidates.append((-holders, term))
    for _, term in sorted(candidates):
        hub = top.first(lambda node_id: index.names(term, node_id), new_id, graph) if top is not None else None
        if hub is None:
            hub = _best_connected(index.hub_candidates(term), graph, new_id)
        if hub is not None:
            return forms[term], hub
    return None


def _best_connected(namers: list[str], graph: GraphReader, new_id: str) -> str | None:
    """The namer with the most edges (ties: the first id), the new node aside: the one worth an edge.

    Only the ids that name the term are looked at, never the term's thousands of holders; still
    hundreds at 10,000 nodes, so their degrees are read, and the most connected picked, in C's loops."""
    nodes = graph.nodes
    degrees = graph.degrees(namers)
    if degrees:
        most = max(degrees)
        tied = [i for i in compress(namers, map(most.__eq__, degrees)) if i != new_id and i in nodes]
        if tied:
            return min(tied)
    # The most connected was the new node itself (or not in the graph): the others, one by one.
    rest = [i for i in namers if i != new_id and i in nodes]
    if not rest:
        return None
    degrees = graph.degrees(rest)
    most = max(degrees)
    return min(compress(rest, map(most.__eq__, degrees)))


def near_duplicate_hint(node: Node) -> str:
    return (
        f"Similar existing node: '{node.id}' — \"{one_line(node.gist[:C.HINT_GIST_CLIP])}\". Same concept? "
        "Fold this into that node (kg_read it, then kg_put_node with the merged content) "
        "instead of adding a near-duplicate."
    )


def hub_mention_hint(term: str, node: Node) -> str:
    return (
        f"Graph already names '{term}': '{node.id}' — \"{one_line(node.gist[:C.HINT_GIST_CLIP])}\". "
        "Link to it (kg_put_edge) rather than re-describe it; keep this gist to what is NEW here."
    )
