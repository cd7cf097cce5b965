"""Snapshots: frozen versions of a graph, structurally shared, that never change under a reader."""

import random

import attrs
import pytest

from kg_actors.core import graph_ops
from kg_actors.core.model import Edge, GraphData, Node
from kg_actors.core.pmap import PMap
from kg_actors.core.snapshot import full_snapshot


def _graph(n: int) -> GraphData:
    graph = GraphData("project", "/p")
    for i in range(n):
        graph.set_node(Node(f"n{i}", f"gist {i}", created_ts=float(i)))
    for i in range(1, n):
        graph.set_edge(Edge(f"n{i}", f"n{i // 2}", "relates-to"))
    graph.commit()
    graph.take_changes()
    return graph


def _same(snap, graph: GraphData) -> None:
    """Everything a reader can ask of the snapshot equals what the live graph answers."""
    assert dict(snap.nodes) == graph.nodes and list(snap.nodes) == list(graph.nodes)
    assert dict(snap.edges) == graph.edges and list(snap.edges) == list(graph.edges)
    assert dict(snap.versions) == graph.versions and dict(snap.progress) == graph.progress
    assert snap.project_path == graph.project_path and snap.gen == graph.gen
    for state in ("active", "archived", "orphaned"):
        assert set(snap.ids_in_state(state)) == set(graph.ids_in_state(state))
    for end in {e for key in graph.edges for e in key[:2]} | set(graph.nodes):
        assert set(snap.incident(end)) == set(graph.incident(end)) and snap.degree(end) == graph.degree(end)
        assert set(snap.unorphaned_incident(end)) == set(graph.unorphaned_incident(end))


def test_pmap_keeps_insertion_order_and_is_a_mapping():
    keys = [f"k{i}" for i in range(500)]
    m = PMap((k, i) for i, k in enumerate(keys))
    assert list(m) == keys and len(m) == 500 and m["k7"] == 7 and "k7" in m and "x" not in m
    m2 = m.evolve({"k7": -7, "new": 1}, ["k3"])
    assert m["k7"] == 7 and "k3" in m and "new" not in m  # the old version is untouched
    assert m2["k7"] == -7 and "k3" not in m2 and list(m2)[-1] == "new" and len(m2) == 500
    assert list(m2.items())[6] == ("k7", -7)  # an update keeps its place, as a dict's does
    assert m.get("nope", 3) == 3 and [] not in m


def test_pmap_agrees_with_a_dict_under_random_changes():
    rng = random.Random(7)
    live: dict[int, int] = {}
    m: PMap[int, int] = PMap()
    for step in range(3000):
        sets = {rng.randrange(400): step for _ in range(rng.randrange(4))}
        deletes = [rng.randrange(400) for _ in range(rng.randrange(3))]
        for k in deletes:
            live.pop(k, None)
        for k, v in sets.items():
            live[k] = v
        m = m.evolve(sets, deletes)
        assert len(m) == len(live)
    assert list(m.items()) == list(live.items())


def test_pmap_grows_past_its_buckets_and_shrinks_back_keeping_every_version():
    versions, live = [], {}
    m: PMap[str, int] = PMap()
    for i in range(0, 6000, 3):  # past 64 buckets x 16 keys: the table doubles, twice
        batch = {f"k{j}": j for j in range(i, i + 3)}
        live.update(batch)
        m = m.evolve(batch)
        if i % 999 == 0:
            versions.append((dict(live), m))
    for i in range(0, 6000, 2):  # most go: chunks near empty are packed again
        live.pop(f"k{i}", None)
        live.pop(f"k{i + 1}", None) if i % 3 else None
        m = m.evolve((), [f"k{i}", f"k{i + 1}"] if i % 3 else [f"k{i}"])
    assert list(m.items()) == list(live.items()) and len(m) == len(live)
    for want, held in versions:
        assert list(held.items()) == list(want.items())
    assert m.evolve((), ["absent"]) is m


def test_pmap_refuses_every_change_in_place():
    m = PMap({"a": 1})
    with pytest.raises(TypeError):
        m["a"] = 2  # type: ignore[index]
    with pytest.raises(TypeError):
        del m["a"]  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        m._len = 5  # type: ignore[misc]
    assert dict(m) == {"a": 1}


def test_a_snapshot_cannot_be_changed():
    snap = _graph(5).snapshot()
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        snap.gen = 9  # type: ignore[misc]
    with pytest.raises(TypeError):
        snap.nodes["n0"] = Node("n0", "x")  # type: ignore[index]
    with pytest.raises(TypeError):
        snap.extra_meta["x"] = 1  # type: ignore[index]
    with pytest.raises(AttributeError):
        snap.ids_in_state("active").add("x")  # type: ignore[attr-defined]


def test_a_readers_snapshot_is_unchanged_by_later_writes():
    graph = _graph(50)
    before = graph.snapshot()
    nodes, edges = dict(before.nodes), dict(before.edges)
    graph_ops.put_node(graph, "project", "n1", "a new gist", None, None, 10.0, graph_ops.Writer("s1"))
    graph.del_node("n2")
    graph.set_edge(Edge("n3", "n4", "relates-to"))
    graph.set_node(attrs.evolve(graph.nodes["n5"], orphaned_ts=5.0))
    graph.set_progress("t", {"state": "doing"})
    after = graph.snapshot()
    assert dict(before.nodes) == nodes and dict(before.edges) == edges and before.nodes["n1"].gist == "gist 1"
    assert after.nodes["n1"].gist == "a new gist" and "n2" not in after.nodes and after.gen > before.gen
    _same(after, graph)


def test_snapshots_follow_random_changes_exactly():
    rng = random.Random(3)
    graph = _graph(60)
    graph.snapshot()
    for step in range(400):
        i, j = f"n{rng.randrange(80)}", f"n{rng.randrange(80)}"
        roll = rng.random()
        if roll < 0.3:
            node = graph.nodes.get(i) or Node(i, "g")
            graph.set_node(attrs.evolve(node, gist=f"g{step}", archived=rng.random() < 0.3,
                                        orphaned_ts=1.0 if rng.random() < 0.2 else None))
        elif roll < 0.4:
            graph.del_node(i)
        elif roll < 0.7:
            graph.set_edge(Edge(i, j, rng.choice(["relates-to", "instance-of"])))
        elif roll < 0.85 and graph.edges:
            graph.del_edge(rng.choice(list(graph.edges)))
        elif roll < 0.9:
            graph.set_version(f"node:{i}", {"v": step})
        else:
            graph.project_path = f"/p{step}"
        if rng.random() < 0.1:
            graph.rollback()
        else:
            graph.commit()
        if step % 7 == 0:
            _same(graph.snapshot(), graph)
    _same(graph.snapshot(), graph)
    assert dict(full_snapshot(graph).nodes) == dict(graph.snapshot().nodes)


def test_a_snapshot_shares_what_did_not_change():
    graph = _graph(2000)
    before = graph.snapshot()
    graph_ops.put_node(graph, "project", "n1", "changed", None, None, 10.0, graph_ops.Writer("s1"))
    after = graph.snapshot()
    chunks = list(before.nodes._chunks())
    shared = sum(a is b for a, b in zip(chunks, after.nodes._chunks()))
    assert shared == len(chunks) - 1  # one chunk copied: the one the change lands in
    assert after.nodes._where is before.nodes._where  # an update moves no key: the buckets are all shared
    assert graph.snapshot() is after  # no change, no new version
