"""The bounded near-duplicate probe finds exactly the nodes the full scoring puts at or over the floor,
with bit-identical scores, so the hint's node, ties and ratio cannot change."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kg_actors.core import constants as C
from kg_actors.core.dup_probe import probe_steps
from kg_actors.core.hints import near_duplicate
from kg_actors.core.model import GraphData, Node
from kg_actors.core.search import SearchIndex, node_postings, score_terms
from kg_actors.core.steps import run_steps
from kg_actors.core.terms import query_terms

# A few words everyone says and some only a few do, so weights span the floor and the sharpened IDF's range.
WORDS = ["cache"] * 6 + ["retry"] * 3 + ["queue", "token", "ledger", "vacuum", "jitter", "shard", "grpc", "webhook",
                                         "tenant", "cursor", "lease", "quorum", "bloom", "tombstone", "sharding"]
text = st.lists(st.sampled_from(WORDS), min_size=1, max_size=7).map(" ".join)
graphs = st.lists(st.tuples(text, text), min_size=1, max_size=24)


def _graph(gists: list[tuple[str, str]]) -> GraphData:
    graph = GraphData("project")
    for i, (gist, note) in enumerate(gists):
        graph.set_node(Node(f"n{i:02d}-{gist.split()[0]}", gist, (note,)))
    return graph


@settings(max_examples=200, deadline=None)
@given(graphs, text, st.integers(0, 6), st.integers(1, 4), st.floats(0.0, 0.06), st.booleans())
def test_the_bounded_probe_keeps_every_node_at_or_over_the_floor_with_the_same_score(
        gists, probe_text, depth, order_min, floor, indexed):
    graph = _graph(gists)
    new_id = "n00-" + gists[0][0].split()[0] if indexed else "brand-new"  # the excluded node, held or not
    index = SearchIndex.build(graph, order_min=order_min)
    probe = query_terms(f"{new_id} {probe_text}").all()
    full = score_terms(index, probe, exclude=new_id, depth=depth)
    bounded = run_steps(probe_steps(index, probe, new_id, depth, floor, per_step=2))
    over = {nid: s for nid, s in full.items() if s >= floor}
    assert {nid: s for nid, s in bounded.items() if s >= floor} == over  # == on floats: bit for bit
    assert all(full[nid] == s for nid, s in bounded.items())


def _reference(index: SearchIndex, graph: GraphData, new_id: str, gist: str) -> tuple[str, float] | None:
    """The hint as main computed it: every probe term scored down to the scan depth."""
    probe = query_terms(f"{new_id} {gist}").all()
    scores = score_terms(index, probe, exclude=new_id, depth=C.RANK_SCAN_DEPTH)
    if len(graph.nodes) - (new_id in graph.nodes) < C.HINT_MIN_OTHER_NODES or not scores:
        return None
    from kg_actors.core.search import base_idf, sharpened
    own = node_postings(index.nodes[new_id]) if new_id in index.nodes else {}
    n = index.size - (new_id in index.nodes)
    denom = sum((sharpened(base_idf(index.df(t) - (t in own), n)) if index.df(t) - (t in own) > 0 else 1.0)
                / C.SEARCH_RRF_K for t in probe)
    best = max(scores.values())
    best_id = min(i for i, v in scores.items() if v == best)
    ratio = best / denom
    return (best_id, ratio) if best >= C.NEAR_DUPLICATE_MIN_SCORE and ratio >= C.NEAR_DUPLICATE_RATIO else None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(text, text), min_size=10, max_size=30), text, st.integers(0, 40), st.integers(1, 4))
def test_the_hint_is_the_full_scorings_hint(gists, gist, copy, order_min):
    graph = _graph(gists)
    index = SearchIndex.build(graph, order_min=order_min)
    if copy < len(gists):  # a near copy of a node's gist: the hint's own case
        gist = gists[copy][0] + " " + gist.split()[0]
    for new_id in ("brand-new-cache", f"n{copy:02d}-again", next(iter(graph.nodes))):
        assert near_duplicate(index, graph, new_id, gist) == _reference(index, graph, new_id, gist)
