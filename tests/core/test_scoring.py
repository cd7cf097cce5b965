"""Scoring: percentile ranks, the three signals, the fresh tier, explain."""

import math

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg_actors.core import constants as C
from kg_actors.core.errors import NotFound
from kg_actors.core.model import Edge, GraphData, Node
from kg_actors.core.render import citation_line, line_cost, node_line
from kg_actors.core.scoring import (
    PoolScorer,
    connectedness_parts,
    connectedness_raw,
    explain,
    fresh_ids,
    graph_held,
    percentiles,
    recency_raw,
    score_pool,
    unified_scores,
    usefulness_rank_key,
    usefulness_raw,
)

NOW = 1_800_000_000.0
DAY = C.DAY_SECONDS


def graph_of(*nodes: Node, edges: tuple[tuple[str, str, str], ...] = ()) -> GraphData:
    g = GraphData("project")
    for node in nodes:
        g.set_node(node)
    for src, dst, rel in edges:
        g.set_edge(Edge(src, dst, rel))
    return g


def archived(node_id: str, **kw) -> Node:
    return Node(node_id, kw.pop("gist", "g"), archived=True, **kw)


def orphaned(node_id: str, **kw) -> Node:
    return Node(node_id, kw.pop("gist", "g"), archived=True, orphaned_ts=NOW - DAY, **kw)


# -- percentiles


def test_percentiles_share_the_average_rank_among_ties():
    assert percentiles([1.0, 2.0, 2.0, 3.0]) == [0.0, 0.5, 0.5, 1.0]
    assert percentiles([5.0, 1.0, 5.0]) == [0.75, 0.0, 0.75]


def test_percentiles_of_one_value_or_an_equal_column_are_one_half():
    assert percentiles([7.0]) == [0.5]
    assert percentiles([0.0, 0.0, 0.0, 0.0]) == [0.5] * 4
    assert percentiles([]) == []


@given(st.lists(st.integers(-5, 5), min_size=2, max_size=30))
def test_percentiles_follow_the_order_of_the_values(values):
    pct = percentiles([float(v) for v in values])
    assert all(0.0 <= p <= 1.0 for p in pct)
    for a, pa in zip(values, pct, strict=True):
        for b, pb in zip(values, pct, strict=True):
            assert (a < b) == (pa < pb)
    # The average rank is preserved: percentiles average to one half.
    assert sum(pct) / len(pct) == pytest.approx(0.5)


# -- the three signals


def test_recency_prefers_the_maintenance_kept_time_over_the_write_time():
    g = graph_of(Node("a", "g"))
    g.set_version("node:a", {"v": 3, "ts": NOW, "used_ts": NOW - 10 * DAY})
    assert recency_raw(g, g.nodes["a"]) == NOW - 10 * DAY
    g.set_version("node:a", {"v": 4, "ts": NOW - 5 * DAY})
    assert recency_raw(g, g.nodes["a"]) == NOW - 5 * DAY


def test_recency_is_the_latest_of_write_read_and_credit():
    g = graph_of(Node("a", "g", last_read_ts=NOW - 3 * DAY, useful_ts=(NOW - 9 * DAY, NOW - 2 * DAY)))
    g.set_version("node:a", {"v": 1, "ts": NOW - 4 * DAY})
    assert recency_raw(g, g.nodes["a"]) == NOW - 2 * DAY
    g.set_node(attrs.evolve(g.nodes["a"], last_read_ts=NOW - DAY))
    assert recency_raw(g, g.nodes["a"]) == NOW - DAY
    assert recency_raw(graph_of(Node("b", "g")), Node("b", "g")) == 0.0


def test_usefulness_halves_every_ninety_days_and_a_future_stamp_counts_one():
    half_life = C.USEFUL_HALF_LIFE_DAYS * DAY
    node = Node("a", "g", useful_ts=(NOW, NOW - half_life, NOW - 2 * half_life, NOW + DAY))
    assert usefulness_raw(node, NOW) == pytest.approx(1 + 0.5 + 0.25 + 1)
    assert usefulness_raw(Node("b", "g"), NOW) == 0.0


@given(st.lists(st.lists(st.floats(NOW - 900 * DAY, NOW), max_size=4), min_size=2, max_size=6),
       st.floats(0, 500 * DAY))
def test_usefulness_rank_key_orders_like_usefulness_at_any_later_time(stamp_sets, later):
    nodes = [Node(f"n{i}", "g", useful_ts=tuple(s)) for i, s in enumerate(stamp_sets)]
    keys = [usefulness_rank_key(n, NOW) for n in nodes]
    assert keys == [usefulness_rank_key(n, NOW + later) for n in nodes]  # bit for bit
    raws = [usefulness_raw(n, NOW) for n in nodes]
    for i in range(len(nodes)):
        for j in range(len(nodes)):
            if raws[i] < raws[j] * (1 - 1e-9):
                assert keys[i] < keys[j]


def test_connectedness_weighs_neighbours_by_state_and_direction():
    g = graph_of(
        Node("hub", "g"), Node("act", "g"), archived("arc"), orphaned("orph"),
        edges=(("act", "hub", "uses"), ("arc", "hub", "uses"), ("hub", "act", "see"), ("hub", "orph", "see"),
               ("hub", "src/a.py", "touches"), ("hub", "hub", "self")),
    )
    w_in, w_out, degree = connectedness_parts(g, "hub", graph_held(g))
    assert (w_in, w_out, degree) == (1.0 + 0.2, 1.0, 6)  # orphan, file and self-loop weigh 0
    expected = max(0.66 * 1.2 + 0.33 * 1.0, 0.5 * math.log1p(6))
    assert connectedness_raw(g, "hub", graph_held(g)) == pytest.approx(expected)


def test_nodes_with_the_same_neighbours_by_state_tie_exactly_whatever_order_their_edges_come_in():
    """A sum of 1.0 and 0.2s depends on its order in the last bit (1.0 + 0.2 + 0.2 + 0.2 != 0.2 + 0.2 + 0.2
    + 1.0), and a set of edges is walked in an order string hashing picks per process: the ranks' ties,
    and with them compaction's choices, would differ between two starts on the same store."""
    hubs = [f"hub-{k}-{'x' * k}" for k in range(40)]
    nodes, edges = [], []
    for k, hub in enumerate(hubs):
        nodes += [Node(hub, "g"), Node(f"a{k}", "g"), *(archived(f"r{k}-{j}") for j in range(3))]
        edges += [(f"a{k}", hub, "uses"), *((f"r{k}-{j}", hub, "uses") for j in range(3))]
    g = graph_of(*nodes, edges=tuple(edges))
    held = graph_held(g)
    assert len({connectedness_parts(g, hub, held) for hub in hubs}) == 1
    assert connectedness_parts(g, hubs[0], held)[0] == 1.0 + 3 * 0.2


def test_connectedness_falls_back_to_the_hub_floor_when_neighbours_are_archived():
    spokes = [archived(f"s{i}") for i in range(10)]
    g = graph_of(Node("hub", "g"), *spokes, edges=tuple(("hub", f"s{i}", "has") for i in range(10)))
    weighted = 0.33 * 10 * 0.2
    floor = 0.5 * math.log1p(10)
    assert floor > weighted
    assert connectedness_raw(g, "hub", graph_held(g)) == pytest.approx(floor)


def test_a_node_linked_only_to_files_scores_only_the_floor():
    g = graph_of(Node("a", "g"), edges=(("a", "src/x.py", "touches"),))
    assert connectedness_raw(g, "a", graph_held(g)) == pytest.approx(0.5 * math.log1p(1))


# -- blended score


def test_score_blends_the_percentiles_with_their_weights():
    g = graph_of(
        Node("old", "g", last_read_ts=NOW - 50 * DAY),
        Node("new", "g", last_read_ts=NOW - DAY, useful_ts=(NOW - DAY,)),
        Node("mid", "g", last_read_ts=NOW - 10 * DAY),
        edges=(("old", "mid", "r"),),
    )
    scores = score_pool(g, ["old", "new", "mid"], NOW)
    conn = percentiles([connectedness_raw(g, i, graph_held(g)) for i in ["mid", "new", "old"]])
    use = percentiles([0.0, 1.0, 0.0])
    rec = percentiles([NOW - 10 * DAY, NOW - DAY, NOW - 50 * DAY])
    for k, node_id in enumerate(["mid", "new", "old"]):
        assert scores[node_id] == pytest.approx(0.25 * rec[k] + 0.40 * conn[k] + 0.35 * use[k])
    assert scores["new"] > scores["old"]


def test_pool_scorer_rescores_neighbours_after_a_move():
    g = graph_of(Node("a", "g"), archived("hub"), archived("b"), edges=(("a", "hub", "r"),))
    active, arch = set(g.ids_in_state("active")), set(g.ids_in_state("archived"))
    scorer = PoolScorer(g, ["a", "hub", "b"], NOW, (active, arch))
    before = scorer.scores()["hub"]
    # "a" leaves the active set: hub's only neighbour now weighs 0.2, not 1.0.
    active.discard("a")
    arch.add("a")
    scorer.invalidate("a")
    after = scorer.scores()["hub"]
    assert before > after
    assert after == pytest.approx(score_pool(g, ["a", "hub", "b"], NOW, (active, arch))["hub"])


def test_a_write_changes_a_cached_score():
    g = graph_of(Node("a", "g", last_read_ts=NOW - 9 * DAY), Node("b", "g", last_read_ts=NOW - DAY))
    assert score_pool(g, ["a", "b"], NOW)["a"] < score_pool(g, ["a", "b"], NOW)["b"]
    g.set_node(attrs.evolve(g.nodes["a"], last_read_ts=NOW))  # a new node object
    assert score_pool(g, ["a", "b"], NOW)["a"] > score_pool(g, ["a", "b"], NOW)["b"]
    g.set_version("node:b", {"v": 2, "ts": NOW + DAY})  # a new version entry
    assert score_pool(g, ["a", "b"], NOW)["a"] < score_pool(g, ["a", "b"], NOW)["b"]


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 100), st.lists(st.floats(0, 100), max_size=3)), min_size=1, max_size=8))
def test_scores_lie_in_the_unit_interval(specs):
    g = graph_of(*(Node(f"n{i}", "g", last_read_ts=r, useful_ts=tuple(u)) for i, (r, u) in enumerate(specs)))
    scores = score_pool(g, list(g.nodes), 100.0)
    assert all(0.0 <= s <= 1.0 for s in scores.values())


# -- fresh tier


def _line(node_id: str, gist: str) -> int:
    return line_cost(node_line(node_id, gist))


def test_fresh_tier_takes_the_newest_nodes_that_fit_in_thirty_percent():
    # Each line costs 5 + 2 + 23 = 30; budget 200 -> fresh room 60: two nodes.
    gist = "x" * 23
    g = graph_of(*(Node(f"n{i}", gist, created_ts=float(i)) for i in range(5)))
    assert _line("n0", gist) == 30
    assert fresh_ids(g, 200) == {"n4", "n3"}
    assert fresh_ids(g, 199) == {"n4"}


def test_fresh_tier_stops_at_the_first_node_that_does_not_fit_in_what_is_left():
    # Room 60: "mid" fits alone, not after "new"; "old" would fit after "new", but the walk stops at "mid": no
    # gap filling.
    g = graph_of(Node("new", "x" * 20, created_ts=3.0), Node("mid", "x" * 32, created_ts=2.0),
                 Node("old", "x", created_ts=1.0))
    assert _line("mid", "x" * 32) <= 60 < _line("new", "x" * 20) + _line("mid", "x" * 32)
    assert fresh_ids(g, 200) == {"new"}


def test_a_node_that_alone_costs_more_than_the_fresh_share_is_passed_over():
    # Room 60: "big" could never be protected; stopping at it left the newer and older nodes unprotected.
    g = graph_of(Node("big", "x" * 200, created_ts=4.0), Node("new", "x" * 20, created_ts=3.0),
                 Node("huge", "x" * 900, created_ts=2.5), Node("old", "x", created_ts=1.0),
                 Node("oldest", "x" * 30, created_ts=0.5))
    assert fresh_ids(g, 200) == {"new", "old"}  # then "oldest" does not fit in what is left: the walk stops
    assert fresh_ids(g, 60) == {"old"}  # room 18: every other line alone is over it


def test_a_node_whose_citations_alone_exceed_the_share_is_passed_over_and_pays_for_none():
    g = graph_of(Node("hub", "g", created_ts=3.0), Node("b", "g", created_ts=2.0),
                 *(Node(f"leaf-with-a-long-name-{i}", "g", created_ts=0.0) for i in range(20)),
                 edges=tuple(("hub", f"leaf-with-a-long-name-{i}", "relates-to") for i in range(20)) + (
                     ("hub", "b", "uses"),))
    b_cost = _line("b", "g") + line_cost(citation_line(g.edges[("hub", "b", "uses")], "b"))
    budget = int(b_cost / C.FRESH_BUDGET_RATIO) + 4
    assert fresh_ids(g, budget) == {"b"}  # the hub's twenty citations are over the share; b pays its own


def test_fresh_tier_counts_archived_nodes_skips_orphans_and_ranks_no_time_oldest():
    g = graph_of(archived("arc", created_ts=5.0), orphaned("orph", created_ts=9.0), Node("none", "g"),
                 Node("old", "g", created_ts=1.0))
    assert fresh_ids(g, 10_000) == {"arc", "none", "old"}
    cramped = int((_line("arc", "g") + _line("old", "g")) / C.FRESH_BUDGET_RATIO) + 1
    assert fresh_ids(g, cramped) == {"arc", "old"}


def test_fresh_tier_charges_each_citation_once_and_none_towards_orphans():
    g = graph_of(Node("a", "g", created_ts=3.0), Node("b", "g", created_ts=2.0), orphaned("o", created_ts=0.0),
                 edges=(("a", "b", "uses"), ("a", "o", "uses")))
    a_cost = _line("a", "g") + line_cost(citation_line(g.edges[("a", "b", "uses")], "a"))
    b_cost = _line("b", "g")  # the a->b citation was already paid for by a
    exact = int((a_cost + b_cost) / C.FRESH_BUDGET_RATIO) + 1
    while int(exact * C.FRESH_BUDGET_RATIO) >= a_cost + b_cost:
        exact -= 1
    assert fresh_ids(g, exact + 1) == {"a", "b"}
    assert fresh_ids(g, exact) == {"a"}


# -- explain


def test_explain_reports_every_factor_and_they_add_up_to_the_score():
    g = graph_of(Node("a", "g", last_read_ts=NOW - DAY, useful_ts=(NOW - DAY,)), Node("b", "g"), archived("c"),
                 edges=(("b", "a", "uses"), ("a", "c", "uses")))
    out = explain(g, "a", NOW, budget=10)  # budget 10: nothing fits the fresh tier
    assert out["fresh"] is False and out["state"] == "active" and out["pool_size"] == 3
    parts = out["components"]
    assert set(parts) == {"recency", "connectedness", "usefulness"}
    assert out["score"] == pytest.approx(sum(p["contribution"] for p in parts.values()))
    assert out["score"] == pytest.approx(unified_scores(g, NOW, 10)["a"])
    assert parts["usefulness"]["raw"] == pytest.approx(usefulness_raw(g.nodes["a"], NOW))
    assert parts["connectedness"]["weight"] == C.SCORE_WEIGHT_CONNECTEDNESS
    conn = out["connectedness"]
    assert (conn["weighted_in"], conn["weighted_out"]) == (1.0, 0.2)
    assert conn["neighbours"] == {"active": 1, "archived": 1, "orphaned": 0, "other": 0}
    assert out["recency"]["last_read"] == NOW - DAY and out["endorsements"] == 1


def test_explain_gives_fresh_and_orphaned_nodes_a_preview_score():
    g = graph_of(Node("new", "g", created_ts=NOW), Node("a", "g"), Node("b", "g"), orphaned("o"))
    fresh = explain(g, "new", NOW)
    assert fresh["fresh"] is True and fresh["score"] is None
    assert 0.0 <= fresh["preview_score"] <= 1.0
    orphan = explain(g, "o", NOW)
    assert orphan["score"] is None and orphan["preview_score"] is not None and orphan["state"] == "orphaned"
    with pytest.raises(NotFound):
        explain(g, "missing", NOW)
