"""render == charge: the size the budgets count is the length of the text a read shows."""

from hypothesis import given, settings
from hypothesis import strategies as st

from kg_actors.core import reads, render
from kg_actors.core.model import Edge, GraphData, Node

IDS = [f"node-{c}" for c in "abcdefghij"]


@st.composite
def graphs(draw):
    g = GraphData("project")
    for node_id in draw(st.lists(st.sampled_from(IDS), unique=True, min_size=0, max_size=10)):
        state = draw(st.sampled_from(["active", "archived", "orphaned"]))
        # Control characters and line breaks too: a hand-written file may hold them, and they render as spaces.
        gist = draw(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60))
        g.set_node(Node(node_id, gist or "g", archived=state != "active", orphaned_ts=1.0 if state == "orphaned" else None))
    ends = IDS + ["src/a.py", "~/notes.md", "user-principle"]
    for src, dst, rel in draw(st.lists(st.tuples(st.sampled_from(ends), st.sampled_from(ends),
                                                 st.sampled_from(["uses", "is-a", "r"])), max_size=25)):
        g.set_edge(Edge(src, dst, rel))
    return g


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_the_charge_is_the_length_of_the_rendered_level(g):
    assert render.charge(g) == len(render.level_body(g))
    part = reads.level_part(g, "project")
    assert render.charge(g) == sum(len(b.text) + 1 for b in part.body)
    assert render.level_body(g).count("\n") == len(part.body)  # one line per body line, whatever a gist holds


@settings(max_examples=200, deadline=None)
@given(graphs())
def test_every_live_edge_is_cited_once_and_no_hidden_edge_is(g):
    plan = render.plan_level(g)
    cited = [c.key for e in plan.entries() for c in e.citations]
    assert len(cited) == len(set(cited))
    live = {k for k, e in g.edges.items() if render.edge_is_live(e, g.nodes)}
    assert set(cited) == live


@settings(max_examples=200, deadline=None)
@given(graphs(), st.integers(min_value=200, max_value=3000))
def test_a_read_never_drops_an_active_gist(g, budget):
    part = reads.level_part(g, "project")
    lines = reads.full_read_lines([part], {}, 0, "abcd1234", False, [], budget=budget)
    text = "\n".join(line for line, _ in lines)
    for node in g.nodes.values():
        if node.active:
            assert render.node_line(node.id, node.gist) in text.split("\n")


def test_the_ladder_hides_anchors_before_edges_and_says_so():
    g = GraphData("project")
    g.set_node(Node("hub-node-one", "the hub"))
    for i in range(30):
        g.set_node(Node(f"archived-node-{i:02d}", "x", archived=True))
        g.set_edge(Edge("hub-node-one", f"archived-node-{i:02d}", "has"))
    part = reads.level_part(g, "project", scores={f"archived-node-{i:02d}": i / 30 for i in range(30)})
    full = sum(len(b.text) + 1 for b in part.body)
    lines = reads.full_read_lines([part], {}, 0, "abcd1234", False, [], budget=full - 100)
    text = "\n".join(line for line, _ in lines)
    assert "  archived-node-00" not in text.split("\n")  # the lowest-scored anchor goes first
    assert "  archived-node-29" in text.split("\n")
    assert "archived anchor(s) and 0 edge(s) hidden" in text


def test_an_archived_anchor_shows_its_edges_to_active_nodes_not_to_files():
    # Spec 000's tiers: an archived node is its id and its edges to active nodes (cited once, under
    # the active node); its edges to files wait for its promotion, as kg-memory renders them.
    g = GraphData("project")
    g.set_node(Node("active-node-one", "an active lesson"))
    for i in range(10):
        g.set_node(Node(f"archived-node-{i:02d}", "x", archived=True))
        g.set_edge(Edge(f"archived-node-{i:02d}", "active-node-one", "supports"))
        for k in range(5):
            g.set_edge(Edge(f"archived-node-{i:02d}", f"docs/anchor_{i:02d}/file_{k}.md", "mentions"))
    part = reads.level_part(g, "project", scores={f"archived-node-{i:02d}": i / 10 for i in range(10)})
    text = "\n".join(line for line, _ in reads.full_read_lines([part], {}, 0, "abcd1234", False, []))
    assert all(f"  archived-node-{i:02d}" in text for i in range(10))
    assert text.count("supports") == 10 and "docs/anchor_" not in text
    g.set_node(Node("archived-node-03", "x"))  # promoted: its files show under it
    part = reads.level_part(g, "project", scores={})
    text = "\n".join(line for line, _ in reads.full_read_lines([part], {}, 0, "abcd1234", False, []))
    assert text.count("docs/anchor_03/") == 5 and "docs/anchor_04/" not in text


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11)), max_size=24),
       st.dictionaries(st.integers(0, 11), st.integers(0, 4)))
def test_a_components_order_alone_is_its_order_among_all(links, degrees):
    """ChargeTracker orders only the components an uneven citation sits in: each must come out as in the whole order."""
    ids = [f"n{k:02d}" for k in range(12)]
    neighbours: dict[str, set[str]] = {i: set() for i in ids}
    for a, b in links:
        if a != b:
            neighbours[ids[a]].add(ids[b])
            neighbours[ids[b]].add(ids[a])
    degree = {ids[k]: d for k, d in degrees.items()}
    whole = render.order_clusters(neighbours, degree)
    for member in ids:
        component, stack = {member}, [member]
        while stack:
            for other in neighbours[stack.pop()] - component:
                component.add(other)
                stack.append(other)
        alone = render.component_order({i: neighbours[i] for i in component},
                                       {i: d for i, d in degree.items() if i in component}, component)
        assert alone == [i for i in whole if i in component]
