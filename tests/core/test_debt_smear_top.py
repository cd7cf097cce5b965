"""smeared_terms picks hubs only for terms frequent enough to reach the top: the same answer as picking
one for every term named (the definition, kept here as the oracle), on random graphs with ties."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg_actors.core import constants as C
from kg_actors.core.debt import Smear, _display, _slug_terms, _term_state, smeared_terms
from kg_actors.core.model import Edge, GraphData, Node

WORDS = ["billing", "invoice", "store", "storage", "queue", "render", "parser", "cache", "session", "token"]


def every_term(graph: GraphData, slug: str | None = None) -> list[Smear]:
    """smeared_terms as first written: a hub for every candidate term, then the top few."""
    total = len(graph.nodes)
    low = max(C.HUB_MIN_HOLDERS, C.HUB_MIN_HOLDER_SHARE * total)
    high = C.HUB_MAX_HOLDER_SHARE * total
    if high < low:
        return []
    state = _term_state(graph)
    related = _slug_terms(slug)
    candidates = {t for t, count in state.df.items() if low <= count <= high and t not in related}
    namers: dict[str, list[str]] = {}
    for node_id, (_, names) in state.terms.items():
        for term in candidates.intersection(names):
            namers.setdefault(term, []).append(node_id)
    found = []
    for term, hubs in namers.items():
        hub = min(hubs, key=lambda i: (-graph.degree(i), not graph.nodes[i].active, i))
        found.append(Smear(_display(hub, term), state.df[term], hub))
    found.sort(key=lambda s: (-s.count, s.term))
    return found[:C.DEBT_SMEARED_TOP]


@st.composite
def graphs(draw) -> GraphData:
    g = GraphData("project", "/tmp/proj")
    count = draw(st.integers(24, 70))
    for i in range(count):
        gist = " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=4))) + f" note{i}"
        if draw(st.booleans()):  # a node whose id names a word: a possible hub
            node_id = f"{draw(st.sampled_from(WORDS))}-{draw(st.sampled_from(['service', 'layer', 'api']))}-{i}"
        else:
            node_id = f"plain{i}"
        g.set_node(Node(id=node_id, gist=gist, archived=draw(st.booleans())))
    ids = list(g.nodes)
    for _ in range(draw(st.integers(0, 40))):
        a, b = draw(st.sampled_from(ids)), draw(st.sampled_from(ids))
        if a != b:
            g.set_edge(Edge(a, b, "relates-to"))
    return g


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs(), st.sampled_from([None, "billing-app", "store"]))
def test_top_terms_only_is_the_same_answer(graph, slug):
    assert smeared_terms(graph, slug) == every_term(graph, slug)


def test_ties_at_the_cut_are_settled_by_the_word_as_before():
    # Four terms all named by 8 nodes: the count ties, the displayed word decides the three kept.
    g = GraphData("project", "/tmp/proj")
    for word in ("render", "queue", "cache", "parser"):
        g.set_node(Node(id=f"{word}-service", gist="owns it"))
        for i in range(7):
            g.set_node(Node(id=f"{word}-mention{i}", gist=f"the {word} path {i}"))
    for i in range(10):
        g.set_node(Node(id=f"filler{i}", gist=f"unique{i}x words"))
    got = smeared_terms(g)
    assert got == every_term(g)
    assert [s.term for s in got] == ["cache", "parser", "queue"]
