"""Prompt recall's second opinion (core/recall_gate.py): what it reads of a candidate, and what it may change."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kg_actors.core import constants as C
from kg_actors.core import recall, recall_gate, recall_gate_weights
from kg_actors.core.model import Edge, Node
from kg_actors.core.search import Hit

from test_recall import build, filler

P, Q, R = ("project", "p-node"), ("project", "q-node"), ("project", "r-node")


def test_the_weights_are_the_features_in_order_each_with_its_training_range():
    assert len(recall_gate_weights.WEIGHTS) == len(recall_gate_weights.RANGES) == len(recall_gate.FEATURES)
    named = re.findall(r"^    -?[0-9.e-]+,  # (\w+)$", Path(recall_gate_weights.__file__).read_text(), re.M)
    assert tuple(named) == recall_gate.FEATURES
    assert all(lo <= hi for lo, hi in recall_gate_weights.RANGES)


def test_a_value_outside_the_training_range_reads_as_its_edge():
    middle = [(lo + hi) / 2 for lo, hi in recall_gate_weights.RANGES]
    i = recall_gate.FEATURES.index("gist_len")
    lo, hi = recall_gate_weights.RANGES[i]
    at_edge, far = list(middle), list(middle)
    at_edge[i], far[i] = hi, hi * 50
    assert recall_gate.probability(far) == recall_gate.probability(at_edge)
    assert 0.0 < recall_gate.probability(middle) < 1.0


def test_more_score_makes_a_candidate_likelier_all_else_equal():
    # What the fit must have found whatever data it is refitted on: a hit scoring more is likelier wanted.
    base = [(lo + hi) / 2 for lo, hi in recall_gate_weights.RANGES]
    i = recall_gate.FEATURES.index("score")
    lo, hi = recall_gate_weights.RANGES[i]
    low, high = list(base), list(base)
    low[i], high[i] = lo, hi
    assert recall_gate.probability(high) > recall_gate.probability(low)


def test_a_chosen_hit_the_model_is_nearly_sure_is_not_wanted_goes():
    assert recall_gate.standing([P, Q], {P: C.RECALL_GATE_VETO / 2, Q: 0.5}) == [Q]
    assert recall_gate.standing([P, Q], {P: C.RECALL_GATE_VETO, Q: 0.5}) == [P, Q]
    # A hit the model did not rate stands.
    assert recall_gate.standing([P, R], {P: 0.9}) == [P, R]
    assert recall_gate.standing([], {P: 0.9}) == []


def test_the_features_are_read_from_the_ranked_hits():
    nodes = [Node("cache-eviction-policy", "evict the rates cache by key, never flush it all", notes=["incident"]),
             Node("cache-warmup-job", "warm the cache after deploy"), *filler(20)]
    graph, index = build(nodes)
    views = {"project": (graph, index)}
    seen = frozenset({("project", "cache-warmup-job")})
    terms = ["cache", "eviction", "flush"]
    query, ranked = recall.search(terms, views, seen)
    rated = dict(recall_gate.candidates(ranked, views, len(terms), len(query.unigrams), 1.0, True))
    assert ("project", "cache-warmup-job") not in rated  # seen: the session holds it
    values = dict(zip(recall_gate.FEATURES, rated[("project", "cache-eviction-policy")]))
    assert values["rank"] == 0 and values["unseen_rank"] == 0 and values["ratio_best"] == 1.0
    assert values["matched"] == 3 and values["title"] == 1.0 and values["q"] == 1.0
    assert values["gist_len"] == len(nodes[0].gist) and values["notes"] == 1
    assert values["nw"] == 3 and values["ask"] == 1.0 and values["cov"] == 1.0
    assert values["id_share"] > 0 and values["idsum"] > 0


def test_a_vetoed_hit_leaves_silence_and_says_why(monkeypatch: pytest.MonkeyPatch):
    graph, index = build([Node("jwt-refresh-window", "sliding window for JWT refresh tokens"), *filler(29)])
    views = {"project": (graph, index)}
    plain = recall.run(["jwt", "refresh", "window"], views, frozenset())
    assert plain.reason == "injected" and plain.hits[0]["p"] >= C.RECALL_GATE_VETO
    monkeypatch.setattr(C, "RECALL_GATE_VETO", 1.01)  # every hit under it
    vetoed = recall.run(["jwt", "refresh", "window"], views, frozenset())
    assert vetoed.reason == "vetoed" and vetoed.text is None and vetoed.shown == ()


def test_a_vetoed_hit_does_not_come_back_as_the_connector_between_the_others():
    nodes = [Node("auth-token-refresh", "JWT refresh uses a sliding window"),
             Node("middleware-order", "auth middleware runs before the router"),
             Node("token-expiry-clock", "JWT refresh fails when expiry clocks drift"), *filler(20)]
    edges = [Edge("auth-token-refresh", "middleware-order", "runs-in"),
             Edge("middleware-order", "token-expiry-clock", "calls")]
    graph, _ = build(nodes, edges)
    hits = [("project", Hit(n.id, 0.05, 3, 0.9, True)) for n in nodes[:3]]  # all three clear every gate
    refs = [("project", n.id) for n in nodes[:3]]
    terms = ["jwt", "refresh", "middleware"]
    everyone = recall.decide(terms, hits, {"project": graph}, frozenset(), 3, 1.0, [(r, 0.5) for r in refs])
    assert set(everyone.shown) == set(refs)
    rated = [(refs[0], 0.5), (refs[1], C.RECALL_GATE_VETO / 2), (refs[2], 0.5)]
    decision = recall.decide(terms, hits, {"project": graph}, frozenset(), 3, 1.0, rated)
    assert decision.reason == "injected" and set(decision.shown) == {refs[0], refs[2]}
    assert "middleware-order" not in decision.text
    assert [h.get("p") for h in decision.hits[:3]] == [0.5, round(C.RECALL_GATE_VETO / 2, 4), 0.5]


def test_a_candidate_more_alike_the_prompt_is_likelier_all_else_equal():
    base = [(lo + hi) / 2 for lo, hi in recall_gate_weights.RANGES]
    i = recall_gate.FEATURES.index("like")
    unlike, alike = list(base), list(base)
    unlike[i], alike[i] = 0.0, 0.7
    assert recall_gate.probability(alike) > recall_gate.probability(unlike)


def test_likeness_is_read_of_each_candidate_and_its_training_mean_where_none_can_be_told():
    nodes = [Node("cache-eviction-policy", "evict the rates cache by key, never flush it all"),
             Node("cache-warmup-job", "warm the cache after deploy"), *filler(20)]
    graph, index = build(nodes)
    views = {"project": (graph, index)}
    terms = ["cache", "eviction", "flush"]
    query, ranked = recall.search(terms, views, frozenset())
    i = recall_gate.FEATURES.index("like")
    asked: list[tuple[str, str]] = []

    def like(ref: tuple[str, str]) -> float | None:
        asked.append(ref)
        return 0.75 if ref[1] == "cache-eviction-policy" else None

    rated = dict(recall_gate.candidates(ranked, views, len(terms), len(query.unigrams), 1.0, False, like))
    eviction = ("project", "cache-eviction-policy")
    assert rated[eviction][i] == 0.75 and eviction in asked
    assert rated[("project", "cache-warmup-job")][i] == recall_gate_weights.LIKE_UNKNOWN  # None: cannot be told
    unread = dict(recall_gate.candidates(ranked, views, len(terms), len(query.unigrams), 1.0, False))
    assert all(values[i] == recall_gate_weights.LIKE_UNKNOWN for values in unread.values())
    assert -1.0 < recall_gate_weights.LIKE_UNKNOWN < 1.0
