"""The most connected nodes, kept per change: always an exact prefix of the whole order; and the hub hint
found through them is the one the namers' degrees give."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg_actors.core import hints
from kg_actors.core.model import Edge, GraphData, Node
from kg_actors.core.search import SearchIndex
from kg_actors.core.top_degrees import TopDegrees

IDS = [f"n{i}" for i in range(9)]
ENDS = [*IDS, "src/a.py", "user-node"]

ops = st.one_of(
    st.tuples(st.just("node"), st.sampled_from(IDS)),
    st.tuples(st.just("drop"), st.sampled_from(IDS)),  # the node and its edges, as a delete does
    st.tuples(st.just("edge"), st.sampled_from(ENDS), st.sampled_from(ENDS), st.sampled_from(["r", "uses"])),
    st.tuples(st.just("unedge"), st.integers(0, 40)),
)


def whole_order(g: GraphData) -> list[str]:
    return [i for _, i in sorted((-g.degree(i), i) for i in g.nodes if g.degree(i))]


def apply(g: GraphData, op: tuple) -> None:
    if op[0] == "node":
        g.set_node(Node(op[1], "g"))
    elif op[0] == "drop" and op[1] in g.nodes:
        for key in [e.key for e in g.incident(op[1])]:
            g.del_edge(key)
        g.del_node(op[1])
    elif op[0] == "edge":
        g.set_edge(Edge(op[1], op[2], op[3]))
    elif op[0] == "unedge" and g.edges:
        g.del_edge(sorted(g.edges)[op[1] % len(g.edges)])
    g.commit()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ops, max_size=60), st.integers(2, 6))
def test_the_list_kept_per_change_is_always_an_exact_prefix_of_the_whole_order(sequence, top):
    g = GraphData("project")
    kept = TopDegrees.build(g, top)
    for op in sequence:
        apply(g, op)
        record = g.take_changes() or {}
        kept = kept.update(g, record.get("n", {}), [tuple(k) for k, _ in record.get("e", [])], top)
        order, listed = whole_order(g), kept.ids()
        assert listed == order[: len(listed)]
        assert len(listed) <= top
        if kept.complete:
            assert listed == order
        else:
            assert len(listed) >= top // 2


def test_the_hub_hint_through_the_list_is_the_one_the_namers_degrees_give():
    rng = random.Random(4)
    # Sixty words, six to a gist: each is in about a tenth of the titles, where a hub hint's term is.
    words = [f"{a}{b}" for a in ("redis", "cache", "queue", "retry", "deploy", "billing")
             for b in ("alpha", "bravo", "delta", "gamma", "kappa", "omega", "sigma", "theta", "zeta", "lambda")]
    g = GraphData("project")
    for i in range(400):
        g.set_node(Node(f"{rng.choice(words)}-{rng.choice(words)}-{i}", " ".join(rng.choices(words, k=6))))
    ids = sorted(g.nodes)
    for _ in range(900):  # a few hubs with most of the edges, as real graphs have
        hub = ids[int(rng.paretovariate(1.2)) % len(ids)]
        g.set_edge(Edge(rng.choice(ids), hub, "relates-to"))
    g.commit()
    g.take_changes()
    index = SearchIndex.build(g)
    top = TopDegrees.build(g, 8)
    asked = found = 0
    for k in range(300):
        new_id, gist = f"new-node-{k}", " ".join(rng.choices(words, k=rng.randint(3, 12)))
        expected = hints.hub_mention(index, g, new_id, gist)
        assert hints.hub_mention(index, g, new_id, gist, top) == expected
        asked += 1
        found += expected is not None
    assert found > asked // 2  # the hint was there to find, most of the time
