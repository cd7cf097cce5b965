"""The best few of a query by a bounded walk (core/search_top.py) are the full walk's, bit for bit."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kg_actors.core import search, search_top
from kg_actors.core.model import Node
from kg_actors.core.search import SearchIndex, base_idf, score_terms, sharpened
from kg_actors.core.terms import query_terms

WORDS = ["redis", "cache", "queue", "deploy", "token", "retry", "index", "shard", "lease", "timer", "batch", "proxy"]


def _index(rng: random.Random, size: int, order_min: int) -> SearchIndex:
    """Nodes saying a few words each, common ones far more often (ties in counts are frequent)."""
    index = SearchIndex(order_min)
    weights = [1.0 / (k + 1) for k in range(len(WORDS))]
    for k in range(size):
        words = rng.choices(WORDS, weights, k=rng.randint(1, 6))
        notes = tuple(" ".join(rng.choices(WORDS, weights, k=rng.randint(0, 4))) for _ in range(rng.randint(0, 2)))
        index.update_node(Node(f"node-{k:04d}", " ".join(words), notes=notes))
    return index


def _live(index: SearchIndex, terms: tuple[str, ...]) -> search_top.Live:
    n = index.size
    return [(t, sharpened(base_idf(df, n)), df) for t in terms if (df := index.df(t)) > 0]


def _best(scores: dict[str, float], limit: int) -> list[tuple[str, float]]:
    ranked = sorted(scores.items(), key=lambda p: (-p[1], p[0]))
    floor = ranked[min(limit, len(ranked)) - 1][1]
    return [p for p in ranked if p[1] >= floor]


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 10**6), st.integers(40, 400), st.integers(1, 20), st.integers(1, 16), st.integers(1, 5))
def test_the_bounded_walk_keeps_the_full_walks_best_and_their_ties(seed, size, limit, start, words):
    rng = random.Random(seed)
    index = _index(rng, size, order_min=rng.choice([2, 8, 64]))
    terms = query_terms(" ".join(rng.sample(WORDS, words))).all()
    full = score_terms(index, terms)
    found = search_top.best_scores(index, _live(index, terms), limit, start_depth=start)
    if found is None:
        return  # the caller walks every holder
    scores, matching = found
    assert matching == len(full)
    assert _best(scores, limit) == _best(full, limit)  # the same nodes, ties and floats
    assert all(full[nid] == score for nid, score in scores.items())


def test_top_hits_reads_the_same_either_way_on_a_large_index():
    rng = random.Random(7)
    index = _index(rng, 3000, order_min=64)
    for words in (["redis"], ["redis", "cache"], ["queue", "deploy", "token"], ["shard", "lease", "proxy", "redis"]):
        terms = query_terms(" ".join(words))
        live = _live(index, terms.all())
        assert search_top.best_scores(index, live, 15) is not None  # the bounded walk answers these
        hits, matching = search.top_hits(index, terms, limit=15)
        full = score_terms(index, terms.all())
        assert matching == len(full)
        want = sorted(full, key=lambda nid: (-full[nid], nid))[:15]
        assert [h.node_id for h in hits] == want
        assert [h.score for h in hits] == [full[nid] for nid in want]


def test_few_holders_or_no_limit_walk_everything():
    index = _index(random.Random(3), 30, order_min=64)
    terms = query_terms("redis cache").all()
    assert search_top.best_scores(index, _live(index, terms), 15) is None
    assert search_top.best_scores(index, _live(index, terms), 0, start_depth=1) is None
