"""The charge index kept per change equals the one built from scratch, and compaction decides the same on it."""

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg_actors.core import graph_ops
from kg_actors.core.charge import ChargeIndex, ChargeTracker, fast_charge, price_edge
from kg_actors.core.compaction import commit, plan_steps
from kg_actors.core.model import Edge, GraphData, Node
from kg_actors.core.render import charge
from kg_actors.core.steps import run_steps

NOW = 1_800_000_000.0
WRITER = graph_ops.Writer("s1")
# Ids of unequal lengths (active–active citations depend on which end is shorter), files, a user node.
IDS = ["ab", "cde", "fghi", "jk-lmn", "op", "qrs-tuv-wx", "yz", "node-one", "node-two-three"]
ENDS = IDS + ["src/app.py", "docs/x.md", "user-node"]
RELS = ["r", "depends-on", "explains"]

ids_ = st.sampled_from(IDS)
gists = st.text(alphabet="abc xyz", min_size=1, max_size=90)
states_ = st.sampled_from(["active", "archived", "orphaned"])
ops = st.one_of(
    st.tuples(st.just("put"), ids_, gists, states_),
    st.tuples(st.just("state"), ids_, states_),
    st.tuples(st.just("edge"), st.sampled_from(ENDS), st.sampled_from(ENDS), st.sampled_from(RELS)),
    st.tuples(st.just("unedge"), st.integers(0, 50)),
    st.tuples(st.just("delete"), ids_),
    st.tuples(st.just("drop"), ids_),  # the node alone: its edges now name no node (as a merge may leave them)
    st.tuples(st.just("states"), st.lists(st.tuples(ids_, states_), max_size=4)),  # several in one record
    st.tuples(st.just("rename"), ids_, ids_),
    st.tuples(st.just("failed"), ids_, states_),  # changed, then rolled back (a handler that raised)
    st.tuples(st.just("compact"), st.sampled_from([300, 600, 1200, 22_000])),
)


def _node(node_id: str, gist: str, state: str) -> Node:
    return Node(node_id, gist, created_ts=NOW - len(gist), archived=state != "active",
                orphaned_ts=NOW if state == "orphaned" else None)


def _apply(g: GraphData, op: tuple, index: ChargeIndex, now: float) -> None:
    kind = op[0]
    if kind == "put":
        _, node_id, gist, state = op
        g.set_node(_node(node_id, gist, state))
    elif kind in ("state", "failed"):
        _, node_id, state = op
        node = g.nodes.get(node_id)
        if node is not None:
            g.set_node(attrs.evolve(node, archived=state != "active", orphaned_ts=now if state == "orphaned" else None))
    elif kind == "drop":
        g.del_node(op[1])
    elif kind == "states":
        for node_id, state in op[1]:
            _apply(g, ("state", node_id, state), index, now)
    elif kind == "edge":
        g.set_edge(Edge(op[1], op[2], op[3]))
    elif kind == "unedge" and g.edges:
        g.del_edge(sorted(g.edges)[op[1] % len(g.edges)])
    elif kind == "delete" and op[1] in g.nodes:
        graph_ops.delete_node(g, op[1])
    elif kind == "rename" and op[1] in g.nodes and op[2] not in g.nodes:
        graph_ops.rename_local(g, op[1], op[2], now, WRITER)
    elif kind == "compact":
        scratch = run_steps(plan_steps(g, now, op[1], rebalance=False))
        planned = run_steps(plan_steps(g, now, op[1], rebalance=False, charges=index))
        assert planned == scratch  # the same decisions, from the index as from scratch
        commit(g, planned)
    if kind == "failed":
        g.rollback()
    else:
        g.commit()


def assert_same(index: ChargeIndex, g: GraphData) -> None:
    fresh = ChargeIndex.build(g)
    assert index.gen == g.gen
    assert (index.active, index.archived) == (fresh.active, fresh.archived)
    assert index.cost == fresh.cost
    assert index.totals() == fresh.totals()
    assert index.uneven == fresh.uneven
    assert index.priced == fresh.priced
    assert index.at == fresh.at
    # And the build itself: every edge of the graph priced by brute force, and the charge the renderer counts.
    brute = {k: p for k in g.edges if (p := price_edge(k, fresh.active, fresh.archived, g.nodes)) != (0, 0)}
    assert fresh.priced == brute
    assert fast_charge(g, index) == charge(g)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ops, max_size=40))
def test_index_kept_per_change_equals_the_one_built_from_scratch(sequence):
    g = GraphData("project")
    index = ChargeIndex.build(g)
    for step, op in enumerate(sequence):
        _apply(g, op, index, NOW + step)
        record = g.take_changes()
        if record is not None:  # as the graph actor does with each committed record
            index.update(g, record["n"], (tuple(key) for key, _ in record["e"]))
        assert_same(index, g)


def test_a_stale_index_is_not_trusted():
    g = GraphData("project")
    g.set_node(Node("ab", "one two", created_ts=NOW))
    g.commit()
    g.take_changes()
    index = ChargeIndex.build(g)
    g.set_node(Node("cde", "three", created_ts=NOW))  # a change the index was not told about
    assert ChargeTracker(g, index).exact() == charge(g)


def _indexed(nodes: list[tuple[str, str, str]], edges: list[tuple[str, str, str]]) -> tuple[GraphData, ChargeIndex]:
    """A committed graph of these (id, gist, state) nodes and edges, and its index built from scratch."""
    g = GraphData("project")
    for node in nodes:
        g.set_node(_node(*node))
    for edge in edges:
        g.set_edge(Edge(*edge))
    g.commit()
    g.take_changes()
    return g, ChargeIndex.build(g)


def test_two_linked_nodes_orphaned_in_one_change_hide_their_edge():
    # Neither end lists the edge among its unorphaned ones afterwards: the index must remember it priced it.
    g, index = _indexed([("ab", "one", "active"), ("cde", "two", "archived")], [("ab", "cde", "r")])
    assert index.priced
    for node_id in ("ab", "cde"):
        g.set_node(attrs.evolve(g.nodes[node_id], archived=True, orphaned_ts=NOW))
    g.commit()
    record = g.take_changes()
    index.update(g, record["n"], ())
    assert_same(index, g)


def test_a_read_stamp_reprices_nothing_and_leaves_the_index_exact(monkeypatch):
    """A change that keeps a node's tier and line (a read's stamp, a credit) moves no price: none is redone."""
    g, index = _indexed([("ab", "one", "active"), ("cde", "two", "archived"), ("fghi", "three", "active")],
                        [("ab", "cde", "r"), ("ab", "fghi", "uses")])
    redone = []
    monkeypatch.setattr(ChargeIndex, "_reprice", lambda self, key, nodes: redone.append(key))
    for node_id in ("ab", "cde"):
        g.set_node(attrs.evolve(g.nodes[node_id], last_read_ts=NOW + 5))
    record = g.take_changes()
    index.update(g, record["n"], ())
    assert redone == []
    monkeypatch.undo()
    assert_same(index, g)
    g.set_node(attrs.evolve(g.nodes["ab"], gist="a longer gist now"))  # its line changed: its edges are redone
    record = g.take_changes()
    index.update(g, record["n"], ())
    assert_same(index, g)
